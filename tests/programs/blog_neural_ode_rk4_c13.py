# Corpus program, written for gradsh (no code copied). Modelled on the UvA DL2 tutorial
# "Dynamical systems and Neural ODEs" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/DL2/Dynamical_systems/dynamical_systems_neural_odes.ipynb
# Like the original: a ground-truth linear dynamical system dy/dt = A y (a spiral, A with
# negative real parts), integrated with a hand-written fixed-step solver (Euler and RK4 steps
# over a torch.linspace time grid, the trajectory stacked); an ODEFunc MLP (Tanh, small normal
# initialisation, zero bias) integrated the same way and trained on random batches of
# subsequences of the observed trajectory with an L1 loss and RMSprop; the learned vector
# field compared with the true one; the adjoint idea shown by differentiating the final state
# with respect to the initial state (torch.autograd.grad) and comparing with the matrix
# exponential (torch.linalg.matrix_exp) for the linear system.
# Differences: torchdiffeq is not used (the solvers are written out, as the notebook's own
# Euler section does), 40 time points, batch 8 of length 6, 30 iterations; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)
true_y0 = torch.tensor([[2., 0.]])
t = torch.linspace(0., 2., 40)
true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])


class Lambda(nn.Module):
    def forward(self, t, y):
        return torch.mm(y, true_A)


def euler_step(func, t0, dt, y):
    return y + dt * func(t0, y)


def rk4_step(func, t0, dt, y):
    k1 = func(t0, y)
    k2 = func(t0 + dt / 2, y + dt * k1 / 2)
    k3 = func(t0 + dt / 2, y + dt * k2 / 2)
    k4 = func(t0 + dt, y + dt * k3)
    return y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def odeint(func, y0, t, step=rk4_step):
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        y = step(func, t0, t1 - t0, y)
        ys.append(y)
    return torch.stack(ys)


with torch.no_grad():
    true_y = odeint(Lambda(), true_y0, t)
    euler_y = odeint(Lambda(), true_y0, t, step=euler_step)
print(true_y.shape)
print(true_y[::8, 0])
print((euler_y - true_y).abs().max(), torch.linalg.vector_norm(true_y[-1]))


def get_batch(batch_time=6, batch_size=8):
    s = torch.from_numpy(__import__("numpy").random.choice(
        __import__("numpy").arange(len(t) - batch_time, dtype=__import__("numpy").int64),
        batch_size, replace=False))
    batch_y0 = true_y[s]
    batch_t = t[:batch_time]
    batch_y = torch.stack([true_y[s + i] for i in range(batch_time)], dim=0)
    return batch_y0, batch_t, batch_y


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y)


__import__("numpy").random.seed(0)
func = ODEFunc()
optimizer = torch.optim.RMSprop(func.parameters(), lr=1e-2)
for itr in range(1, 31):
    optimizer.zero_grad()
    batch_y0, batch_t, batch_y = get_batch()
    pred_y = odeint(func, batch_y0, batch_t)
    loss = torch.mean(torch.abs(pred_y - batch_y))
    loss.backward()
    optimizer.step()
    if itr % 5 == 0:
        with torch.no_grad():
            pred_y = odeint(func, true_y0, t)
            full = torch.mean(torch.abs(pred_y - true_y))
        print('Iter {:04d} | Total Loss {:.6f} | batch {:.6f} | nfe {}'.format(
            itr, full.item(), loss.item(), func.nfe))

grid = torch.stack(torch.meshgrid(torch.linspace(-2, 2, 3), torch.linspace(-2, 2, 3),
                                  indexing='xy'), dim=-1).reshape(-1, 2)
with torch.no_grad():
    print(func(0, grid))
    print(Lambda()(0, grid))

# sensitivity of the final state to the initial state: for the linear system it is expm(A^T T)
y0 = true_y0.clone().requires_grad_(True)
yT = odeint(Lambda(), y0, t)[-1]
rows = [torch.autograd.grad(yT[0, i], y0, retain_graph=True)[0][0] for i in range(2)]
jac = torch.stack(rows)
print(jac)
print(torch.linalg.matrix_exp(true_A.t() * 2.0))
print(torch.allclose(jac, torch.linalg.matrix_exp(true_A.t() * 2.0), atol=1e-4))
