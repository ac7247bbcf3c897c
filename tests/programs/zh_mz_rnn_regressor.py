# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 403_RNN_regressor.py and 501_why_torch_dynamic_graph.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/403_RNN_regressor.py
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/501_why_torch_dynamic_graph.py
# Like the originals: nn.RNN(input_size=1, hidden_size=32, batch_first=True), a Linear applied
# to r_out[:, time_step, :] for each step in a Python loop and torch.stack(outs, dim=1),
# h_state = None at first and repacked with h_state.data after each step, sin -> cos windows
# from np.linspace(start, end, TIME_STEP, dtype=np.float32, endpoint=False), Adam(lr=0.02),
# MSELoss; the dynamic-graph version feeds windows of a random length (np.random.randint(1, 4)
# periods), printing len(steps) each time.
# Differences: our own code; seeds (torch and numpy); 40 + 20 steps; the loss printed where
# the originals plot the curves.
import numpy as np
import torch
from torch import nn

torch.manual_seed(1)
np.random.seed(1)
TIME_STEP, INPUT_SIZE, LR = 10, 1, 0.02


class RNN(nn.Module):
    def __init__(self):
        super(RNN, self).__init__()
        self.rnn = nn.RNN(input_size=INPUT_SIZE, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        outs = []
        for time_step in range(r_out.size(1)):
            outs.append(self.out(r_out[:, time_step, :]))
        return torch.stack(outs, dim=1), h_state


def window(start, end, n, endpoint):
    steps = np.linspace(start, end, n, dtype=np.float32, endpoint=endpoint)
    x = torch.from_numpy(np.sin(steps)[np.newaxis, :, np.newaxis])
    y = torch.from_numpy(np.cos(steps)[np.newaxis, :, np.newaxis])
    return x, y


rnn = RNN()
print(rnn)
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
loss_func = nn.MSELoss()
h_state = None
for step in range(40):
    x, y = window(step * np.pi, (step + 1) * np.pi, TIME_STEP, False)
    prediction, h_state = rnn(x, h_state)
    h_state = h_state.data
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 8 == 0:
        print(step, 'loss %.4f' % loss.item(), tuple(h_state.shape), h_state.requires_grad)

rnn = RNN()
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
h_state = None
step = 0
for i in range(20):
    dynamic_steps = np.random.randint(1, 4)
    start, end = step * np.pi, (step + dynamic_steps) * np.pi
    step += dynamic_steps
    x, y = window(start, end, 10 * dynamic_steps, True)
    print(x.size(1), end=' ')
    prediction, h_state = rnn(x, h_state)
    h_state = h_state.data
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print()
print('last loss %.6f' % loss.item())
print(prediction.grad_fn, prediction.shape)
