# Corpus program, written for gradsh (no code copied). Modelled on Jovian's "Deep Learning
# with PyTorch: Zero to GANs" lesson 6, "Generative Adversarial Networks in PyTorch"
# (aakashns/06b-anime-dcgan, freeCodeCamp course): https://jovian.com/aakashns/06b-anime-dcgan
# Like the original: denorm of images normalised with stats (0.5, 0.5, 0.5); a discriminator
# of strided Conv2d(bias=False) + BatchNorm2d + LeakyReLU(0.2, inplace=True) ending in
# Flatten and Sigmoid; a generator of ConvTranspose2d(bias=False) + BatchNorm2d + ReLU ending
# in Tanh from a latent (batch, latent_size, 1, 1) tensor; train_discriminator (real targets
# torch.ones(..., 1), fake targets torch.zeros, F.binary_cross_entropy, real_score /
# fake_score as the mean predictions) and train_generator (the generator's images judged
# with targets of ones); Adam with betas=(0.5, 0.999); the per-epoch log
# "Epoch [{}/{}], loss_g: {:.4f}, loss_d: {:.4f}, real_score: {:.4f}, fake_score: {:.4f}";
# fixed_latent samples.
# Differences: 16x16 images (two transposed-conv stages instead of four at 64x64), random
# "anime faces" (smooth random images) instead of the Kaggle download, 16 feature maps,
# 3 epochs of 4 batches; no image saving; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(43)
stats = (0.5, 0.5, 0.5), (0.5, 0.5, 0.5)
batch_size = 8
latent_size = 16


def denorm(img_tensors):
    return img_tensors * stats[1][0] + stats[0][0]


raw = F.interpolate(torch.rand(32, 3, 4, 4), size=(16, 16), mode='bilinear', align_corners=False)
mean = torch.tensor(stats[0]).view(1, 3, 1, 1)
std = torch.tensor(stats[1]).view(1, 3, 1, 1)
images = (raw - mean) / std
print(images.shape, images.min().item(), images.max().item(), denorm(images).mean().item())
train_dl = [(images[i:i + batch_size], None) for i in range(0, 32, batch_size)]

discriminator = nn.Sequential(
    nn.Conv2d(3, 16, kernel_size=4, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(16),
    nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(16, 32, kernel_size=4, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(32),
    nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(32, 1, kernel_size=4, stride=1, padding=0, bias=False),
    nn.Flatten(),
    nn.Sigmoid())

generator = nn.Sequential(
    nn.ConvTranspose2d(latent_size, 32, kernel_size=4, stride=1, padding=0, bias=False),
    nn.BatchNorm2d(32),
    nn.ReLU(True),
    nn.ConvTranspose2d(32, 16, kernel_size=4, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(16),
    nn.ReLU(True),
    nn.ConvTranspose2d(16, 3, kernel_size=4, stride=2, padding=1, bias=False),
    nn.Tanh())
print(generator)

xb = torch.randn(batch_size, latent_size, 1, 1)
fake_images = generator(xb)
print(fake_images.shape)


def train_discriminator(real_images, opt_d):
    opt_d.zero_grad()
    real_preds = discriminator(real_images)
    real_targets = torch.ones(real_images.size(0), 1)
    real_loss = F.binary_cross_entropy(real_preds, real_targets)
    real_score = torch.mean(real_preds).item()
    latent = torch.randn(batch_size, latent_size, 1, 1)
    fake_images = generator(latent)
    fake_targets = torch.zeros(fake_images.size(0), 1)
    fake_preds = discriminator(fake_images)
    fake_loss = F.binary_cross_entropy(fake_preds, fake_targets)
    fake_score = torch.mean(fake_preds).item()
    loss = real_loss + fake_loss
    loss.backward()
    opt_d.step()
    return loss.item(), real_score, fake_score


def train_generator(opt_g):
    opt_g.zero_grad()
    latent = torch.randn(batch_size, latent_size, 1, 1)
    fake_images = generator(latent)
    preds = discriminator(fake_images)
    targets = torch.ones(batch_size, 1)
    loss = F.binary_cross_entropy(preds, targets)
    loss.backward()
    opt_g.step()
    return loss.item()


fixed_latent = torch.randn(4, latent_size, 1, 1)


def fit(epochs, lr, start_idx=1):
    losses_g, losses_d, real_scores, fake_scores = [], [], [], []
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=lr, betas=(0.5, 0.999))
    opt_g = torch.optim.Adam(generator.parameters(), lr=lr, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for real_images, _ in train_dl:
            loss_d, real_score, fake_score = train_discriminator(real_images, opt_d)
            loss_g = train_generator(opt_g)
        losses_g.append(loss_g)
        losses_d.append(loss_d)
        real_scores.append(real_score)
        fake_scores.append(fake_score)
        print("Epoch [{}/{}], loss_g: {:.4f}, loss_d: {:.4f}, real_score: {:.4f}, fake_score: {:.4f}".format(
            epoch + 1, epochs, loss_g, loss_d, real_score, fake_score))
        with torch.no_grad():
            generator.eval()
            sample = denorm(generator(fixed_latent))
            generator.train()
        print(sample.shape, sample.mean().item())
    return losses_g, losses_d, real_scores, fake_scores


history = fit(3, 0.0002)
print([round(v, 4) for v in history[0]])
print(discriminator[1].running_mean[:4], generator[1].num_batches_tracked)
