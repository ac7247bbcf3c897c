# Corpus program, written for gradsh (no code copied). Modelled on the WGAN-GP gradient
# penalty as PyTorch users write it (Gulrajani et al.'s "Improved Training of Wasserstein
# GANs"; e.g. the PyTorch forum thread "Gradient penalty with torch.autograd.grad",
# https://discuss.pytorch.org/t/gradient-penalty-with-respect-to-the-network-parameters/11944,
# and the widely copied compute_gradient_penalty of eriklindernoren/PyTorch-GAN, MIT):
# alpha = torch.rand((batch, 1)), interpolates = (alpha * real + (1 - alpha) * fake)
# .requires_grad_(True), d_interpolates = D(interpolates), gradients =
# autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake_out,
# create_graph=True, retain_graph=True, only_inputs=True)[0], gradients.view(n, -1),
# ((gradients.norm(2, dim=1) - 1) ** 2).mean() added to the critic loss and backpropagated
# into the critic's parameters; plus the Stack Overflow question "How to compute the second
# derivative in PyTorch" (autograd.grad twice with create_graph=True).
# Differences: our own code and sizes; a few critic steps with Adam(lr=1e-4, betas=(0.5,
# 0.9)) on random "real" and "fake" data; seeded.
import torch
import torch.autograd as autograd
import torch.nn as nn

torch.manual_seed(0)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
dy, = autograd.grad(y, x, create_graph=True)
print(dy, dy.grad_fn)
d2y, = autograd.grad(dy.sum(), x)
print(d2y)
z = torch.sin(x).sum()
g, = autograd.grad(z, x, create_graph=True)
h = torch.stack([autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
print(h)

D = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
lambda_gp = 10


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand((real_samples.size(0), 1))
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1)
    gradients = autograd.grad(
        outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
        create_graph=True, retain_graph=True, only_inputs=True,
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


for step in range(5):
    real = torch.randn(8, 4) + 1.0
    fake = torch.randn(8, 4)
    opt.zero_grad()
    gp = compute_gradient_penalty(D, real, fake)
    d_loss = -torch.mean(D(real)) + torch.mean(D(fake)) + lambda_gp * gp
    d_loss.backward()
    opt.step()
    print(step, f"{d_loss.item():.5f}", f"{gp.item():.5f}", gp.grad_fn.name())
print(D[0].weight.grad.abs().sum() > 0)

w = torch.randn(3, requires_grad=True)
inp = torch.randn(5, 3, requires_grad=True)
out = torch.tanh(inp @ w)
grad_inp, = autograd.grad(out.sum(), inp, create_graph=True)
penalty = grad_inp.pow(2).sum()
penalty.backward()
print(w.grad, inp.grad.shape)
try:
    autograd.grad(out.sum(), inp)
    autograd.grad(out.sum(), inp)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    autograd.grad((w * 2).sum(), [w, torch.ones(1, requires_grad=True)])
except RuntimeError as e:
    print("RuntimeError:", e)
print(autograd.grad((w * 2).sum(), [w, torch.ones(1, requires_grad=True)], allow_unused=True))
print(autograd.grad((w * 2).sum(), [w, torch.ones(1, requires_grad=True)], allow_unused=True,
                    materialize_grads=True))
