# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Custom nn Modules" (TwoLayerNet), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/two_layer_net_module.py
# Like the original: an nn.Module with two nn.Linear layers (super(Class, self).__init__()),
# hidden = linear1(x).clamp(min=0), MSELoss(reduction='sum'), SGD(lr=1e-4), 500 steps.
# Differences: our own code; seeded; print(model) added at the start.
import torch

torch.manual_seed(0)


class TwoLayer(torch.nn.Module):
    def __init__(self, d_in, hidden, d_out):
        super(TwoLayer, self).__init__()
        self.linear1 = torch.nn.Linear(d_in, hidden)
        self.linear2 = torch.nn.Linear(hidden, d_out)

    def forward(self, x):
        return self.linear2(self.linear1(x).clamp(min=0))


x = torch.randn(64, 1000)
y = torch.randn(64, 10)
model = TwoLayer(1000, 100, 10)
print(model)
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(500):
    loss = criterion(model(x), y)
    if t % 100 == 99:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
