# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated GANs
# (MIT licence): labml_nn/gan/dcgan/__init__.py (a ConvTranspose2d generator from a latent
# vector unsqueezed twice, BatchNorm2d, ReLU(True), Tanh; a Conv2d discriminator with
# LeakyReLU(0.2, inplace=True) and BatchNorm2d; _weights_init choosing by class name with
# classname.find('Conv') and normal_ on weight.data), labml_nn/gan/wasserstein/__init__.py
# (DiscriminatorLoss: F.relu(1 - f_real).mean(), F.relu(1 + f_fake).mean(); GeneratorLoss:
# -f_fake.mean()) and labml_nn/gan/wasserstein/gradient_penalty (GradientPenalty:
# torch.autograd.grad(outputs=f, inputs=x, grad_outputs=f.new_ones(f.shape),
# create_graph=True), the per-sample 2-norm, mean((norm - 1) ** 2); the experiment's
# calc_discriminator_loss with data.requires_grad_(), the generator output detached, a
# penalty coefficient of 10, discriminator_k=5 discriminator steps per generator step):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/gan
# Differences: 16x16 synthetic "digits" (seeded blobs scaled to [-1, 1]) instead of MNIST, and
# the networks shrunk to match (latent 16, 32/64 channels, kernel sizes for 16x16); 3
# generator steps; Adam(lr=2.5e-4, betas=(0.5, 0.999)) as labml's MNIST GAN configs; printed
# losses instead of the tracker.
import torch
import torch.nn as nn
import torch.nn.functional as F


def _weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.layers = nn.Sequential(
            nn.ConvTranspose2d(latent, 64, 4, 1, 0, bias=False),
            nn.BatchNorm2d(64), nn.ReLU(True),
            nn.ConvTranspose2d(64, 32, 4, 2, 1, bias=False),
            nn.BatchNorm2d(32), nn.ReLU(True),
            nn.ConvTranspose2d(32, 1, 4, 2, 1, bias=False),
            nn.Tanh())
        self.apply(_weights_init)

    def forward(self, x):
        x = x.unsqueeze(-1).unsqueeze(-1)
        return self.layers(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(32, 64, 4, 2, 1, bias=False),
            nn.BatchNorm2d(64),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(64, 1, 4, 1, 0, bias=False))
        self.apply(_weights_init)

    def forward(self, x):
        x = self.layers(x)
        return x.view(x.shape[0], -1)


class DiscriminatorLoss(nn.Module):
    def forward(self, f_real, f_fake):
        return F.relu(1 - f_real).mean(), F.relu(1 + f_fake).mean()


class GeneratorLoss(nn.Module):
    def forward(self, f_fake):
        return -f_fake.mean()


class GradientPenalty(nn.Module):
    def forward(self, x, f):
        batch_size = x.shape[0]
        gradients, *_ = torch.autograd.grad(outputs=f, inputs=x, grad_outputs=f.new_ones(f.shape),
                                            create_graph=True)
        gradients = gradients.reshape(batch_size, -1)
        norm = gradients.norm(2, dim=-1)
        return torch.mean((norm - 1) ** 2)


torch.manual_seed(0)
n, latent = 64, 16
grid = torch.arange(16.0)
cy, cx = torch.rand(n, 1, 1) * 8 + 4, torch.rand(n, 1, 1) * 8 + 4
blobs = torch.exp(-((grid.view(1, 16, 1) - cy) ** 2 + (grid.view(1, 1, 16) - cx) ** 2) / 8)
images = (blobs * 2 - 1).unsqueeze(1)
print(images.shape, images.min(), images.max())

generator, discriminator = Generator(latent), Discriminator()
print(generator)
print(discriminator)
print(generator.layers[1].weight[:4], discriminator.layers[0].weight.std())
generator_optimizer = torch.optim.Adam(generator.parameters(), lr=2.5e-4, betas=(0.5, 0.999))
discriminator_optimizer = torch.optim.Adam(discriminator.parameters(), lr=2.5e-4, betas=(0.5, 0.999))
discriminator_loss, generator_loss = DiscriminatorLoss(), GeneratorLoss()
gradient_penalty = GradientPenalty()
gradient_penalty_coefficient = 10.0
discriminator_k = 5
batch = 16

step = 0
for g_step in range(3):
    for k in range(discriminator_k):
        data = images[(step * batch) % n:(step * batch) % n + batch].clone()
        step += 1
        data.requires_grad_()
        z = torch.randn(data.shape[0], latent)
        f_real = discriminator(data)
        f_fake = discriminator(generator(z).detach())
        loss_true, loss_false = discriminator_loss(f_real, f_fake)
        gp = gradient_penalty(data, f_real)
        loss = loss_true + loss_false + gradient_penalty_coefficient * gp
        discriminator_optimizer.zero_grad()
        loss.backward()
        discriminator_optimizer.step()
        print(f"D {g_step}.{k}: true {loss_true.item():.5f} false {loss_false.item():.5f} "
              f"gp {gp.item():.6f} loss {loss.item():.5f}")
    z = torch.randn(batch, latent)
    generated = generator(z)
    f_fake = discriminator(generated)
    g_loss = generator_loss(f_fake)
    generator_optimizer.zero_grad()
    g_loss.backward()
    generator_optimizer.step()
    print(f"G {g_step}: loss {g_loss.item():.5f} |grad| {generator.layers[0].weight.grad.norm():.6f}")

print(data.grad is None, discriminator.layers[3].running_mean[:4])
with torch.no_grad():
    generator.eval()
    samples = generator(torch.randn(2, latent))
print(samples.shape, samples[0, 0, 6, 4:10])
