# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "Efficient Calculation of Derivatives for PINN Solvers in PyTorch"
# (https://discuss.pytorch.org/t/efficient-calculation-of-derivatives-for-pinn-solvers-in-pytorch/177249):
# a diff(y, xs) helper that differentiates y once per entry of xs with
# torch.autograd.grad(create_graph=True, allow_unused=True), so diff(u, [x, x]) is u_xx and
# diff(u, [x, y, t]) a mixed third derivative, and the 1-D heat equation residual
# u_t - alpha u_xx written with it; model([t, x]) concatenates its inputs.
# Differences: our own code; a tiny tanh network, a 6-point grid, derivatives checked against
# a function with known derivatives; seeded; printed rounded.
import torch
import torch.nn as nn

torch.manual_seed(0)


def diff(y, xs):
    grad = y
    ones = torch.ones_like(y)
    for x in xs:
        grad = torch.autograd.grad(grad, x, grad_outputs=ones, create_graph=True,
                                   allow_unused=True)[0]
        if grad is None:
            return torch.zeros_like(y)
    return grad


class Model(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, inputs):
        return self.net(torch.cat(inputs, dim=1))


N = 6
x = torch.linspace(0.0, 1.0, N, requires_grad=True).reshape((N, 1))
t = torch.linspace(0.0, 1.0, N, requires_grad=True).reshape((N, 1))
print(x.is_leaf, x.requires_grad, x.grad_fn)

# a function with known derivatives: u = x^3 t^2
u = x ** 3 * t ** 2
print(torch.allclose(diff(u, [x]), 3 * x ** 2 * t ** 2))
print(torch.allclose(diff(u, [x, x]), 6 * x * t ** 2))
print(torch.allclose(diff(u, [x, t]), 6 * x ** 2 * t))
print(diff(u, [x, x, x, x]).abs().sum().item())

model = Model(2)


def heat(u, x, t):
    alpha = 1.0
    return diff(u, [t]) - alpha * diff(u, [x, x])


u = model([t, x])
res = heat(u, x, t)
print(res.shape, res.requires_grad, res.grad_fn is not None)
loss = res.pow(2).mean()
loss.backward()
print(all(p.grad is not None for p in model.parameters()))
print(round(loss.item(), 6) >= 0)
y = torch.zeros(N, 1, requires_grad=True)
print(diff(x * 2, [y]).sum().item())
