# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples "dcgan"
# (deep convolutional GAN), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/dcgan/main.py
# Like the original: options nz / ngf / ndf / nc, manualSeed, weights_init applying
# normal_(0.0, 0.02) to every Conv layer and normal_(1.0, 0.02) with zero bias to every
# BatchNorm layer through netG.apply / netD.apply; a Generator of ConvTranspose2d (bias=False),
# BatchNorm2d and ReLU ending in Tanh, a Discriminator of Conv2d, LeakyReLU(0.2) and BatchNorm2d
# ending in Sigmoid, both printed; nn.BCELoss, fixed_noise, real_label = 1 and fake_label = 0,
# two optim.Adam(lr=0.0002, betas=(0.5, 0.999)); the training step that updates D on a real
# batch (torch.full of real_label) and on netG(noise).detach(), then G through the
# discriminator's view of the fake batch, and the log line
# '[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'.
# Differences: our own code; 16x16 single-channel "images" from torch.rand (no dataset, no
# image files), nz=8, ngf=ndf=8 and one layer fewer each side; 2 epochs of 4 batches of 8;
# the fixed-noise samples are summarised instead of saved.
import argparse
import random

import torch
import torch.nn as nn
import torch.optim as optim

parser = argparse.ArgumentParser()
parser.add_argument("--batchSize", type=int, default=8)
parser.add_argument("--nz", type=int, default=8)
parser.add_argument("--ngf", type=int, default=8)
parser.add_argument("--ndf", type=int, default=8)
parser.add_argument("--niter", type=int, default=2)
parser.add_argument("--lr", type=float, default=0.0002)
parser.add_argument("--beta1", type=float, default=0.5)
parser.add_argument("--manualSeed", type=int, default=999)
opt = parser.parse_args([])
print(opt)
random.seed(opt.manualSeed)
torch.manual_seed(opt.manualSeed)
nz, ngf, ndf, nc = opt.nz, opt.ngf, opt.ndf, 1
dataset = [torch.rand(nc, 16, 16) * 2 - 1 for _ in range(32)]
dataloader = torch.utils.data.DataLoader(dataset, batch_size=opt.batchSize, shuffle=True)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        torch.nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        torch.nn.init.normal_(m.weight, 1.0, 0.02)
        torch.nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


netG = Generator()
netG.apply(weights_init)
print(netG)
netD = Discriminator()
netD.apply(weights_init)
print(netD)

criterion = nn.BCELoss()
fixed_noise = torch.randn(opt.batchSize, nz, 1, 1)
real_label = 1
fake_label = 0
optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

for epoch in range(opt.niter):
    for i, data in enumerate(dataloader, 0):
        netD.zero_grad()
        real_cpu = data
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype)
        output = netD(real_cpu)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(batch_size, nz, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        print("[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f"
              % (epoch, opt.niter, i, len(dataloader), errD.item(), errG.item(), D_x, D_G_z1,
                 D_G_z2))
    with torch.no_grad():
        fake = netG(fixed_noise)
    print("fake samples", tuple(fake.shape), f"{fake.mean().item():.4f}", f"{fake.std().item():.4f}")
print(fake.grad_fn, netG.main[0].weight.grad.shape)
