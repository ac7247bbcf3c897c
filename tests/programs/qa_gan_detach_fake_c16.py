# Corpus program modelled on the Stack Overflow question "Why do we do fake.detach() when training
# the discriminator of a GAN?" and the PyTorch-forum thread "Trying to backward through the
# graph a second time in GAN training" (the DCGAN example's D/G alternation): the discriminator
# step with fake.detach(), the generator step reusing the same fake, the error when D's loss is
# backpropagated without detach and G's step then needs the freed graph, and what
# retain_graph=True changes (G's gradients accumulating D's step).
# Changed: 1-D toy data (a shifted Gaussian) and small MLPs instead of images; three training
# iterations; errors caught and printed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(1)
nz = 4
G = nn.Sequential(nn.Linear(nz, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

for it in range(3):
    real = torch.randn(8, 2) * 0.5 + torch.tensor([2.0, -1.0])
    D.zero_grad()
    label = torch.full((8,), real_label)
    errD_real = criterion(D(real).view(-1), label)
    errD_real.backward()
    noise = torch.randn(8, nz)
    fake = G(noise)
    label.fill_(fake_label)
    output = D(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    print("G grads after D step:", all(p.grad is None for p in G.parameters()))
    optD.step()

    G.zero_grad()
    label.fill_(real_label)
    output = D(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optG.step()
    print(f"[{it}] Loss_D: {(errD_real + errD_fake).item():.4f} Loss_G: {errG.item():.4f} "
          f"D(G(z)): {D_G_z2:.4f}")

# Without detach: D's backward frees G's graph, so G's step cannot reuse fake.
D.zero_grad()
G.zero_grad()
fake = G(torch.randn(8, nz))
errD_fake = criterion(D(fake).view(-1), torch.zeros(8))
errD_fake.backward()
print(G[0].weight.grad.abs().sum() > 0)
try:
    criterion(D(fake).view(-1), torch.ones(8)).backward()
except RuntimeError as e:
    print(e)

# retain_graph=True keeps it, but G's gradient now holds both losses' contributions.
G.zero_grad()
fake = G(torch.randn(8, nz))
errD_fake = criterion(D(fake).view(-1), torch.zeros(8))
errD_fake.backward(retain_graph=True)
g_from_d = G[2].bias.grad.clone()
errG = criterion(D(fake).view(-1), torch.ones(8))
errG.backward()
print(g_from_d)
print(G[2].bias.grad)
print(fake.requires_grad, fake.detach().requires_grad, fake.grad_fn, fake.detach().grad_fn)
