# Corpus program, written for gradsh (no code copied). Modelled on Aladdin Persson's
# Machine-Learning-Collection, ML/Pytorch/GANs/1. SimpleGAN/fc_gan.py (MIT):
# https://github.com/aladdinpersson/Machine-Learning-Collection/blob/master/ML/Pytorch/GANs/1.%20SimpleGAN/fc_gan.py
# Like the original: a Discriminator (Linear, LeakyReLU(0.01), Linear(., 1), Sigmoid) and a
# Generator (Linear, LeakyReLU(0.01), Linear, Tanh), fixed_noise, Adam(lr=3e-4) for both,
# BCELoss; the discriminator loss (real vs ones_like, fake vs zeros_like, averaged) backward
# with retain_graph=True on the NOT detached fake (so the generator's grads are polluted and
# then cleared by gen.zero_grad()), the generator loss on disc(fake) again, and the log line
# "Epoch [{epoch}/{num_epochs}] Batch {batch_idx}/{len(loader)} Loss D: {lossD:.4f}, loss G:
# {lossG:.4f}" (f-string format specs on 0-d tensors).
# Differences: synthetic 16x16 "digits" in [-1, 1] (a bright stroke whose column depends on the
# class) instead of MNIST, 320 images, z_dim 16, hidden sizes 64/128, 4 epochs; no
# tensorboard: the fixed-noise samples are summarised with mean/std; seeded.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class Discriminator(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.disc = nn.Sequential(
            nn.Linear(in_features, 64),
            nn.LeakyReLU(0.01),
            nn.Linear(64, 1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.disc(x)


class Generator(nn.Module):
    def __init__(self, z_dim, img_dim):
        super().__init__()
        self.gen = nn.Sequential(
            nn.Linear(z_dim, 128),
            nn.LeakyReLU(0.01),
            nn.Linear(128, img_dim),
            nn.Tanh(),
        )

    def forward(self, x):
        return self.gen(x)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
lr = 3e-4
z_dim = 16
image_dim = 16 * 16 * 1
batch_size = 32
num_epochs = 4
disc = Discriminator(image_dim).to(device)
gen = Generator(z_dim, image_dim).to(device)
print(disc, gen, sep="\n")
fixed_noise = torch.randn((batch_size, z_dim)).to(device)
labels = torch.randint(0, 10, (320,))
images = torch.full((320, 1, 16, 16), -1.0) + 0.1 * torch.rand(320, 1, 16, 16)
for i, label in enumerate(labels.tolist()):
    images[i, 0, 3:13, 3 + label] = 1.0
dataset = TensorDataset(images, labels)
loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
opt_disc = optim.Adam(disc.parameters(), lr=lr)
opt_gen = optim.Adam(gen.parameters(), lr=lr)
criterion = nn.BCELoss()
step = 0
for epoch in range(num_epochs):
    for batch_idx, (real, _) in enumerate(loader):
        real = real.view(-1, 256).to(device)
        batch_size = real.shape[0]
        noise = torch.randn(batch_size, z_dim).to(device)
        fake = gen(noise)
        disc_real = disc(real).view(-1)
        lossD_real = criterion(disc_real, torch.ones_like(disc_real))
        disc_fake = disc(fake).view(-1)
        lossD_fake = criterion(disc_fake, torch.zeros_like(disc_fake))
        lossD = (lossD_real + lossD_fake) / 2
        disc.zero_grad()
        lossD.backward(retain_graph=True)
        if batch_idx == 0:
            print("gen grad after lossD:", gen.gen[2].bias.grad.norm())
        opt_disc.step()
        output = disc(fake).view(-1)
        lossG = criterion(output, torch.ones_like(output))
        gen.zero_grad()
        lossG.backward()
        opt_gen.step()
        if batch_idx % 4 == 0:
            print(f"Epoch [{epoch}/{num_epochs}] Batch {batch_idx}/{len(loader)} "
                  f"Loss D: {lossD:.4f}, loss G: {lossG:.4f}")
        if batch_idx == 0:
            with torch.no_grad():
                fake = gen(fixed_noise).reshape(-1, 1, 16, 16)
                data = real.reshape(-1, 1, 16, 16)
                print(f"  fake mean {fake.mean():.5f} std {fake.std():.5f} | "
                      f"real mean {data.mean():.5f} std {data.std():.5f}")
                step += 1
try:
    lossD.backward()
    lossD.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
print(step, disc_real[:4], output[:4])
