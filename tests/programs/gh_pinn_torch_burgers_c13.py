# Corpus program, written for gradsh (no code copied). Modelled on Shota Deguchi's PINN_Torch,
# "00_burgers" (a physics-informed neural network for Burgers' equation in plain PyTorch):
# https://github.com/ShotaDeguchi/PINN_Torch/blob/main/00_burgers/pinn.py
# Like the original: a PINN nn.Module whose setup() seeds numpy / random / torch and calls
# torch.set_default_dtype; a ModuleList of Linear layers with xavier_normal_ weights and zero
# biases; min-max feature scaling from torch.min / torch.max(...).values of the collocation
# points (and the unused torch.mean(...).values the original also builds); tanh activations;
# MSELoss terms for the initial condition, the Dirichlet boundary and the PDE residual
# u_t + u u_x - nu u_xx from two torch.autograd.grad calls (create_graph=True, ones as
# grad_outputs, u_x / u_t taken with [:, [0]] / [:, [1]]); the configuration printout with the
# optimizer's and layers' reprs; Adam training printing "epoch: %d, loss_trn: %.3e, loss_val:
# %.3e" every f_mntr epochs, with the tolerance check.
# Differences: float64 default dtype (the repo lets d_type be chosen), 64 PDE points and 20
# initial / boundary points drawn with numpy, width 16, depth 4, 40 epochs; no timing or
# datetime prints (they change from run to run); infer on a small grid at the end.
import os
import random

import numpy as np
import torch


class PINN(torch.nn.Module):
    def __init__(self, x_ini, t_ini, u_ini, x_bnd, t_bnd, u_bnd, x_pde, t_pde,
                 x_pde_val, t_pde_val, f_in, f_out, width, depth, lr, nu, w_ini, w_bnd, w_pde,
                 f_mntr, r_seed, d_type):
        super().__init__()
        self.f_in, self.f_out, self.width, self.depth = f_in, f_out, width, depth
        self.lr, self.f_mntr, self.r_seed, self.d_type = lr, f_mntr, r_seed, d_type
        self.setup(r_seed, d_type)
        self.x_ini_trn = x_ini.reshape(-1, 1)
        self.t_ini_trn = t_ini.reshape(-1, 1)
        self.u_ini_trn = u_ini.reshape(-1, 1)
        self.x_bnd_trn = x_bnd.reshape(-1, 1)
        self.t_bnd_trn = t_bnd.reshape(-1, 1)
        self.u_bnd_trn = u_bnd.reshape(-1, 1)
        self.x_pde_trn = x_pde.reshape(-1, 1)
        self.t_pde_trn = t_pde.reshape(-1, 1)
        self.x_pde_val = x_pde_val.reshape(-1, 1)
        self.t_pde_val = t_pde_val.reshape(-1, 1)
        self.w_ini, self.w_bnd, self.w_pde = w_ini, w_bnd, w_pde
        self.nu = nu
        self.bounds = torch.cat((self.x_pde_trn, self.t_pde_trn), dim=1)
        self.lb = torch.min(self.bounds, dim=0).values
        self.ub = torch.max(self.bounds, dim=0).values
        self.mn = torch.mean(self.bounds, dim=0).values
        self.arch = [self.f_in] + [self.width] * (self.depth - 1) + [self.f_out]
        self.layers = torch.nn.ModuleList(
            [torch.nn.Linear(self.arch[d], self.arch[d + 1]) for d in range(self.depth)])
        for d in range(0, self.depth):
            torch.nn.init.xavier_normal_(self.layers[d].weight.data, gain=1.)
            torch.nn.init.zeros_(self.layers[d].bias.data)
        self.activation = torch.tanh
        self.optimizer = torch.optim.Adam(self.layers.parameters(), lr=self.lr, amsgrad=False)
        self.loss_func = torch.nn.MSELoss(reduction="mean")
        self.loss_trn_log = []
        print(">>>>> configuration;")
        print("         r_seed       :", self.r_seed)
        print("         d_type       :", self.d_type)
        print("         learning rate:", self.lr)
        print("         optimizer    :", self.optimizer)
        print("         layers       :", self.layers)
        print("         bounds       :", self.lb, self.ub)

    def setup(self, r_seed, d_type):
        os.environ["PYTHONHASHSEED"] = str(r_seed)
        np.random.seed(r_seed)
        random.seed(r_seed)
        torch.manual_seed(r_seed)
        torch.set_default_dtype(d_type)

    def forward(self, x):
        if not torch.is_tensor(x):
            x = torch.from_numpy(x)
        z = 2. * (x - self.lb) / (self.ub - self.lb) - 1.
        for d in range(0, self.depth - 1):
            u = self.layers[d](z)
            z = self.activation(u)
        return self.layers[-1](z)

    def loss_ini(self, x, y):
        x_ = x.clone()
        x_.requires_grad = False
        return self.loss_func(y, self.forward(x_))

    def loss_bnd(self, x, y):
        x_ = x.clone()
        x_.requires_grad = True
        return self.loss_func(y, self.forward(x_))

    def loss_pde(self, x):
        x_ = x.clone()
        x_.requires_grad = True
        u = self.forward(x_)
        u_x_t = torch.autograd.grad(u, x_, torch.ones([x.shape[0], 1]), retain_graph=True,
                                    create_graph=True)[0]
        u_xx_tt = torch.autograd.grad(u_x_t, x_, torch.ones(x.shape), create_graph=True)[0]
        u_x = u_x_t[:, [0]]
        u_t = u_x_t[:, [1]]
        u_xx = u_xx_tt[:, [0]]
        gveq = u_t + u * u_x - self.nu * u_xx
        _ = torch.zeros_like(gveq)
        return self.loss_func(_, gveq)

    def loss_glb(self, x_ini, t_ini, u_ini, x_bnd, t_bnd, u_bnd, x_pde, t_pde):
        XT_ini = torch.cat((x_ini, t_ini), dim=1)
        XT_bnd = torch.cat((x_bnd, t_bnd), dim=1)
        XT_pde = torch.cat((x_pde, t_pde), dim=1)
        return self.w_ini * self.loss_ini(XT_ini, u_ini) \
            + self.w_bnd * self.loss_bnd(XT_bnd, u_bnd) \
            + self.w_pde * self.loss_pde(XT_pde)

    def train(self, epoch=40, tol=1e-5):
        for ep in range(epoch):
            loss_trn = self.loss_glb(self.x_ini_trn, self.t_ini_trn, self.u_ini_trn,
                                     self.x_bnd_trn, self.t_bnd_trn, self.u_bnd_trn,
                                     self.x_pde_trn, self.t_pde_trn)
            loss_val = self.loss_glb(self.x_ini_trn, self.t_ini_trn, self.u_ini_trn,
                                     self.x_bnd_trn, self.t_bnd_trn, self.u_bnd_trn,
                                     self.x_pde_val, self.t_pde_val)
            self.optimizer.zero_grad()
            loss_trn.backward()
            self.optimizer.step()
            ep_loss_trn = loss_trn.item()
            ep_loss_val = loss_val.item()
            self.loss_trn_log.append(ep_loss_trn)
            if ep % self.f_mntr == 0:
                print("epoch: %d, loss_trn: %.3e, loss_val: %.3e" % (ep, ep_loss_trn, ep_loss_val))
            if ep_loss_val < tol:
                print(">>>>> program terminating with the loss converging to the tolerance.")
                break

    def infer(self, x):
        return self.forward(x).cpu().detach().numpy()


rng = np.random.RandomState(1234)
n_ini, n_bnd, n_pde = 20, 20, 64
x_ini = torch.from_numpy(rng.uniform(-1, 1, n_ini))
t_ini = torch.zeros(n_ini, dtype=torch.float64)
u_ini = -torch.sin(np.pi * x_ini)
x_bnd = torch.from_numpy(np.where(rng.rand(n_bnd) < 0.5, -1.0, 1.0))
t_bnd = torch.from_numpy(rng.uniform(0, 1, n_bnd))
u_bnd = torch.zeros(n_bnd, dtype=torch.float64)
x_pde = torch.from_numpy(rng.uniform(-1, 1, n_pde))
t_pde = torch.from_numpy(rng.uniform(0, 1, n_pde))
x_val = torch.from_numpy(rng.uniform(-1, 1, n_pde))
t_val = torch.from_numpy(rng.uniform(0, 1, n_pde))

pinn = PINN(x_ini, t_ini, u_ini, x_bnd, t_bnd, u_bnd, x_pde, t_pde, x_val, t_val,
            f_in=2, f_out=1, width=16, depth=4, lr=5e-3, nu=0.01 / np.pi,
            w_ini=1., w_bnd=1., w_pde=1., f_mntr=5, r_seed=1234, d_type=torch.float64)
print(torch.get_default_dtype(), pinn.layers[0].weight.dtype, torch.tensor([1.5]).dtype)
print(callable(pinn.mn))
pinn.train(epoch=40)
print(len(pinn.loss_trn_log), min(pinn.loss_trn_log))
grid = np.stack(np.meshgrid(np.linspace(-1, 1, 5), np.linspace(0, 1, 3)), axis=-1).reshape(-1, 2)
print(np.round(pinn.infer(grid).ravel(), 6))
print(pinn.layers[-1].bias)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype, torch.zeros(2))
