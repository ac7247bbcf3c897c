# Corpus program, written for gradsh (no code copied). Modelled on "GAN Basics" of
# https://airoads.org/ch06-deep-learning/ch06-generative/01-gan/ (tiny_gan_1d.py: real samples
# torch.randn(n, 1) * 0.2 + 2.0, G = Sequential(Linear(2, 16), ReLU, Linear(16, 1)),
# D = Sequential(Linear(1, 16), ReLU, Linear(16, 1)), BCEWithLogitsLoss, two Adam optimizers
# with lr=0.01, the discriminator step on G(z).detach() against ones / zeros labels, the
# generator step asking D to say "real", and loss_d, loss_g, fake_mean, fake_std printed as
# training signals).
# Differences: our own code; 150 steps, printed every 50 with 3 decimals; seeded.
import torch
from torch import nn

torch.manual_seed(7)


def real_batch(n):
    return torch.randn(n, 1) * 0.2 + 2.0


G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1))
loss_fn = nn.BCEWithLogitsLoss()
opt_g = torch.optim.Adam(G.parameters(), lr=0.01)
opt_d = torch.optim.Adam(D.parameters(), lr=0.01)
for step in range(1, 151):
    real = real_batch(64)
    z = torch.randn(64, 2)
    fake = G(z).detach()
    d_real = D(real)
    d_fake = D(fake)
    loss_d = loss_fn(d_real, torch.ones_like(d_real)) + loss_fn(d_fake, torch.zeros_like(d_fake))
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()

    z = torch.randn(64, 2)
    fake = G(z)
    d_fake = D(fake)
    loss_g = loss_fn(d_fake, torch.ones_like(d_fake))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if step % 50 == 0:
        with torch.no_grad():
            sample = G(torch.randn(512, 2))
        print(f"step={step:3d} loss_d={loss_d.item():.3f} loss_g={loss_g.item():.3f} "
              f"fake_mean={sample.mean().item():.3f} fake_std={sample.std().item():.3f}")
print(fake.requires_grad, G(z).detach().requires_grad, d_fake.grad_fn.name())
print(all(p.grad is not None for p in D.parameters()), opt_d.state_dict()["state"][0]["step"])
