# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Parametrizations Tutorial", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/parametrizations.py
# Like the original's matrix_exp parts: a Skew parametrization chained with a
# MatrixExponential one makes a Linear layer's weight orthogonal (checked with torch.dist of
# X^T X and the identity); Symmetric chained with MatrixExponential makes it symmetric positive
# definite (torch.dist of X and X^T, eigvalsh all positive); assigning an orthogonal matrix goes
# through right_inverse.
# Differences: our own code; matrix_exp's gradient is shown (a few SGD steps keep the weight
# orthogonal), and the values of matrix_exp itself are printed for small, medium and large
# norms and for a batch; seeded.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(0)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


for scale in (1e-4, 0.02, 0.4, 1.0, 8.0):
    A = torch.randn(3, 3) * scale
    print(scale, torch.matrix_exp(A))
print(torch.matrix_exp(torch.randn(2, 3, 3)))
print(torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))

layer_orthogonal = nn.Linear(3, 3)
P.register_parametrization(layer_orthogonal, "weight", Skew())
P.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print(X)
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-6)

layer_spd = nn.Linear(3, 3)
P.register_parametrization(layer_spd, "weight", Symmetric())
P.register_parametrization(layer_spd, "weight", MatrixExponential())
X = layer_spd.weight
print(X)
print(torch.dist(X, X.T))
print((torch.linalg.eigvalsh(X) > 0.0).all())

optimizer = torch.optim.SGD(layer_orthogonal.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 3), torch.randn(8, 3)
for step in range(3):
    optimizer.zero_grad()
    loss = ((layer_orthogonal(inputs) - targets) ** 2).mean()
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.6f}")
print(layer_orthogonal.parametrizations.weight.original.grad)
W = layer_orthogonal.weight
print(W)
print(torch.dist(W.T @ W, torch.eye(3)) < 1e-6)

x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
y = torch.matrix_exp(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(y.grad_fn, g.grad_fn.name())
g.sum().backward()
print(x.grad)
