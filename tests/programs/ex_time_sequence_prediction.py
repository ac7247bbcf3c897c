# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "time_sequence_prediction" (two LSTMCells learning sine waves, trained with L-BFGS),
# BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/time_sequence_prediction/generate_sine_wave.py
# https://github.com/pytorch/examples/blob/main/time_sequence_prediction/train.py
# Like the original: sine waves with a random phase per row (np.random.randint(-4 * T,
# 4 * T, N)), a Sequence module with nn.LSTMCell(1, 51), nn.LSTMCell(51, 51) and
# nn.Linear(51, 1), forward over input.split(1, dim=1) with h / c states from torch.zeros
# (dtype=torch.double) and an optional number of future steps fed back, model.double(),
# nn.MSELoss, optim.LBFGS(lr=0.8) with a closure printing 'loss:' and loss.item(), the
# 'STEP: ' lines, and the prediction under torch.no_grad() printing 'test loss:'.
# Differences: our own code; the data is generated in memory (no traindata.pt), with
# N = 8 rows of L = 60 points; 2 steps with max_iter 4, 10 future steps; the losses are
# printed with 6 significant digits; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

np.random.seed(2)
T, L, N = 20, 60, 8
x = np.empty((N, L), "int64")
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


np.random.seed(0)
torch.manual_seed(0)
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])
seq = Sequence()
seq.double()
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
print(optimizer)
for i in range(2):
    print("STEP: ", i)

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print("loss:", f"{loss.item():.6g}")
        loss.backward()
        return loss

    optimizer.step(closure)
    with torch.no_grad():
        future = 10
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print("test loss:", f"{loss.item():.6g}")
        y = pred.detach().numpy()
    print(y.shape)
print(sorted(optimizer.state[optimizer._params[0]].keys()))
