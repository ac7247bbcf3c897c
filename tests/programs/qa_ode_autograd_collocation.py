# Corpus program, written for gradsh (no code copied). Modelled on the question "Solving an
# ODE using neural networks" (https://www.devhide.com/solving-an-ode-using-neural-networks-78053086):
# du/dt + 2u + t = 0 with u(0) = 1 on t in [0, 2]; u_hat is a network, du_hat/dt comes from
# automatic differentiation, the residual R = du_hat/dt + 2 u_hat + t is evaluated at
# t = 0, 0.5, 1, 1.5, 2, and the loss is sum(R_i^2) plus the initial condition; the answer's
# comparison with the exact solution u = 5/4 e^{-2t} - t/2 + 1/4.
# Differences: our own code; a small network trained 150 steps with LBFGS-free Adam; seeded;
# printed rounded.
import math

import torch
import torch.nn as nn

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(1, 16), nn.Sigmoid(), nn.Linear(16, 1))
t = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0]).reshape(-1, 1).requires_grad_(True)
opt = torch.optim.Adam(net.parameters(), lr=0.05)


def residual():
    u_hat = net(t)
    du_dt, = torch.autograd.grad(u_hat.sum(), t, create_graph=True)
    return du_dt + 2 * u_hat + t


for epoch in range(150):
    opt.zero_grad()
    R = residual()
    u0 = net(torch.zeros(1, 1))
    loss = (R ** 2).sum() + ((u0 - 1) ** 2).sum()
    loss.backward()
    opt.step()
    if epoch % 30 == 0 or epoch == 149:
        print(epoch, round(loss.item(), 3))

with torch.no_grad():
    pred = net(t.detach()).flatten()
exact = [1.25 * math.exp(-2 * v) - v / 2 + 0.25 for v in t.detach().flatten().tolist()]
for tv, p, e in zip(t.detach().flatten().tolist(), pred.tolist(), exact):
    print(f"t={tv:.1f} u_hat={p:.2f} exact={e:.2f}")
print(R.grad_fn.name(), R.shape)
try:
    torch.autograd.grad(net(t).sum(), t)
    torch.autograd.grad(net(t).sum(), torch.zeros(5, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
