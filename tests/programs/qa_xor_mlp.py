# Corpus program, written for gradsh (no code copied). Modelled on the many "solving XOR with
# a neural network in PyTorch" blog posts and forum questions (e.g. the PyTorch forum thread
# "Solving the XOR problem", https://discuss.pytorch.org/t/solving-xor-problem/10758, and
# Stack Overflow "PyTorch XOR network not converging"): the four XOR inputs and targets as
# float tensors, a 2-2-1 (here 2-4-1) network with sigmoid activations, nn.BCELoss or
# nn.MSELoss, SGD with a large learning rate and momentum, the loss printed every few hundred
# epochs, then the rounded predictions and the learned weights.
# Differences: our own code; seeded; fewer epochs; both an nn.Module version and a version
# with hand-made weight tensors and manual SGD are run.
import torch
import torch.nn as nn

torch.manual_seed(2)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])


class XOR(nn.Module):
    def __init__(self, input_dim=2, hidden=4, output_dim=1):
        super().__init__()
        self.lin1 = nn.Linear(input_dim, hidden)
        self.lin2 = nn.Linear(hidden, output_dim)

    def forward(self, x):
        x = torch.sigmoid(self.lin1(x))
        return torch.sigmoid(self.lin2(x))


model = XOR()
print(model)
loss_func = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for epoch in range(1001):
    optimizer.zero_grad()
    y_hat = model(X)
    loss = loss_func(y_hat, Y)
    loss.backward()
    optimizer.step()
    if epoch % 200 == 0:
        print("Epoch: {0}, Loss: {1:.5f}".format(epoch, loss.item()))

with torch.no_grad():
    out = model(X)
print(out.round().view(-1), (out.round() == Y).all().item())
print(torch.round(out * 1000) / 1000)
for name, p in model.named_parameters():
    print(name, p.data.round(decimals=2))

W1 = torch.randn(2, 2, requires_grad=True)
b1 = torch.zeros(2, requires_grad=True)
W2 = torch.randn(2, 1, requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
lr = 1.0
for step in range(2001):
    h = torch.sigmoid(X @ W1 + b1)
    out = torch.sigmoid(h @ W2 + b2)
    loss = ((out - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (W1, b1, W2, b2):
            p -= lr * p.grad
            p.grad.zero_()
    if step % 500 == 0:
        print(step, round(loss.item(), 4))
print(out.detach().view(-1).round(decimals=2))
