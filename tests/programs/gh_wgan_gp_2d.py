# Corpus program, written for gradsh (no code copied). Modelled on the gradient penalty of
# labml.ai's annotated WGAN-GP (https://nn.labml.ai/gan/wasserstein/gradient_penalty/index.html:
# torch.autograd.grad(outputs=f, inputs=x, grad_outputs=f.new_ones(f.shape),
# create_graph=True), gradients reshaped to (batch, -1), norm(2, dim=-1) and
# mean((norm - 1) ** 2)) and on calculate_gradient_penalty in Lornatang/WassersteinGAN_GP-PyTorch
# (quoted at https://mdbook-37h.pages.dev/computer-science/machine-learing/gan: random alpha,
# interpolates = alpha * real + (1 - alpha) * fake with requires_grad_(True), retain_graph and
# only_inputs), with the usual critic loss D(fake) - D(real) + lambda * GP, five critic steps
# per generator step, and Adam(lr=1e-4, betas=(0.5, 0.9)) as in the WGAN-GP paper.
# Differences: our own code; 2-D data from a ring of 4 Gaussians instead of images; 40
# generator iterations; seeded.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


def real_data(n):
    centers = torch.tensor([[math.cos(a), math.sin(a)] for a in (0, math.pi / 2, math.pi, 3 * math.pi / 2)])
    idx = torch.randint(0, 4, (n,))
    return centers[idx] * 2 + 0.05 * torch.randn(n, 2)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interpolates)
    gradients = torch.autograd.grad(outputs=out, inputs=interpolates,
                                    grad_outputs=torch.ones_like(out), create_graph=True,
                                    retain_graph=True, only_inputs=True)[0]
    gradients = gradients.reshape(gradients.size(0), -1)
    return torch.mean((gradients.norm(2, dim=1) - 1) ** 2)


G = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
critic = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))
LAMBDA = 10.0
for it in range(40):
    for _ in range(5):
        real = real_data(64)
        fake = G(torch.randn(64, 2)).detach()
        gp = gradient_penalty(critic, real, fake)
        loss_c = critic(fake).mean() - critic(real).mean() + LAMBDA * gp
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
    fake = G(torch.randn(64, 2))
    loss_g = -critic(fake).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if it % 10 == 9:
        print(f"iter {it + 1}: critic {loss_c.item():.3f} gp {gp.item():.3f} gen {loss_g.item():.3f}")

x = real_data(8).requires_grad_(True)
f = critic(x)
grads, *_ = torch.autograd.grad(outputs=f, inputs=x, grad_outputs=f.new_ones(f.shape),
                                create_graph=True)
print(grads.shape, grads.requires_grad, grads.grad_fn is not None)
penalty = torch.mean((grads.reshape(8, -1).norm(2, dim=-1) - 1) ** 2)
penalty.backward()
print(critic[0].weight.grad.shape, x.grad.shape)
