# Corpus program, written for gradsh (no code copied). Modelled on "Solving Differential
# Equations with Physics-Informed Neural Networks in PyTorch"
# (https://www.besthub.dev/articles/solving-differential-equations-with-physics-informed-neural-networks-in-pytorch-6183ea22bad9):
# the logistic equation df/dt = R f (1 - f) with f(0) = 1/2, a small fully connected tanh
# network f_NN(t), the ODE residual computed with torch.autograd.grad(create_graph=True) at
# collocation points, a boundary-condition term, Adam, and the fit compared with the exact
# solution 1 / (1 + exp(-R t)).
# Differences: our own code; 200 Adam steps on 20 points; seeded; losses printed rounded.
import math

import torch
from torch import nn

torch.manual_seed(0)
R = 1.0


class NNApproximator(nn.Module):
    def __init__(self, num_hidden=2, dim_hidden=10):
        super().__init__()
        self.layer_in = nn.Linear(1, dim_hidden)
        self.middle = nn.ModuleList([nn.Linear(dim_hidden, dim_hidden) for _ in range(num_hidden - 1)])
        self.layer_out = nn.Linear(dim_hidden, 1)
        self.act = nn.Tanh()

    def forward(self, t):
        out = self.act(self.layer_in(t))
        for layer in self.middle:
            out = self.act(layer(out))
        return self.layer_out(out)


def df(model, t, order=1):
    out = model(t)
    for _ in range(order):
        out = torch.autograd.grad(out, t, grad_outputs=torch.ones_like(out), create_graph=True,
                                  retain_graph=True)[0]
    return out


def compute_loss(model, t):
    residual = df(model, t) - R * model(t) * (1 - model(t))
    boundary = torch.tensor([[0.0]])
    bc = model(boundary) - 0.5
    return residual.pow(2).mean() + bc.pow(2).mean()


model = NNApproximator()
print(model)
print(sum(p.numel() for p in model.parameters()))
t = torch.linspace(0, 1, steps=20, requires_grad=True).reshape(-1, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(200):
    loss = compute_loss(model, t)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 40 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")

with torch.no_grad():
    t_eval = torch.tensor([[0.0], [0.5], [1.0]])
    pred = model(t_eval).squeeze()
exact = [1 / (1 + math.exp(-R * v)) for v in (0.0, 0.5, 1.0)]
print([round(p, 2) for p in pred.tolist()], [round(e, 2) for e in exact])
print(t.grad is None, t.is_leaf)
