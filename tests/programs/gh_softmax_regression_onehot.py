# Corpus program, written for gradsh (no code copied). Modelled on the softmax-regression
# notebook of https://github.com/lexiconium/beginners_reinforcement_learning: an 8x4 float
# torch.Tensor X, class labels as a torch.LongTensor, the one-hot Y built with
# torch.zeros(8, 3).scatter_(dim=1, index=_Y.unsqueeze(dim=1), value=1) and printed row by row
# with tolist(), W = zeros(4, 3) and b = zeros(1) with requires_grad, the cost
# (Y * -log(F.softmax(X.matmul(W) + b, dim=1))).sum(dim=1).mean() minimised with SGD(lr=0.1),
# and 'epoch: 01000/10000\tloss: ...' lines; then the same with F.cross_entropy and an
# nn.Linear model as in the Korean tutorial sources it follows.
# Differences: our own code; 3000 epochs instead of 10000; seeded.
import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(1)
X = torch.Tensor([[1, 2, 1, 1], [2, 1, 3, 2], [3, 1, 3, 4], [4, 1, 5, 5],
                  [1, 7, 5, 5], [1, 2, 5, 6], [1, 6, 6, 6], [1, 7, 7, 7]])
_Y = torch.LongTensor([2, 2, 2, 1, 1, 1, 0, 0])
Y = torch.zeros(8, 3, dtype=_Y.dtype).scatter_(dim=1, index=_Y.unsqueeze(dim=1), value=1)
print("one hot vector of Y:", *Y.tolist(), sep="\n")
print(X.dtype, _Y.dtype, Y.dtype, X.type(), _Y.type())

W = torch.zeros((4, 3), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = optim.SGD([W, b], lr=1e-1)
n_epochs = 3000
for epoch in range(1, n_epochs + 1):
    hypothesis = F.softmax(X.matmul(W) + b, dim=1)
    loss = (Y * -torch.log(hypothesis)).sum(dim=1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 500 == 0:
        print(f"epoch: {epoch:05d}/{n_epochs}\tloss: {loss.item():.4f}")

z = X.matmul(W) + b
print(torch.allclose(F.cross_entropy(z, _Y), (Y * -F.log_softmax(z, dim=1)).sum(dim=1).mean()))
print(F.softmax(z, dim=1).argmax(dim=1))

model = nn.Linear(4, 3)
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(1, 1001):
    cost = F.cross_entropy(model(X), _Y)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    if epoch % 250 == 0:
        print("Epoch {:4d}/{} Cost: {:.4f}".format(epoch, 1000, cost.item()))
print(model(X).argmax(dim=1).eq(_Y).float().mean())
print(F.one_hot(_Y, num_classes=3).equal(Y), F.one_hot(torch.tensor([0, 2])))
