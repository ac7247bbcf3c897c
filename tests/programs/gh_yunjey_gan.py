# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "03-advanced/generative_adversarial_network" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/03-advanced/generative_adversarial_network/main.py
# Like the original: D = Sequential(Linear, LeakyReLU(0.2), Linear, LeakyReLU(0.2), Linear,
# Sigmoid) and G = Sequential(Linear, ReLU, Linear, ReLU, Linear, Tanh), nn.BCELoss, two Adam
# optimizers at lr=0.0002, reset_grad() zeroing both, real/fake label tensors, the
# discriminator step on d_loss_real + d_loss_fake and the generator step on
# criterion(D(G(z)), real_labels), the denorm() helper with clamp, and the status line with
# d_loss, g_loss, D(x) and D(G(z)).
# Differences: our own code; "images" are 16-pixel vectors from a fixed pattern plus noise,
# scaled to [-1, 1], instead of MNIST; hidden 32, latent 8, 2 epochs of 8 batches, a seed; no
# image files (denorm's range is printed instead).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
latent_size, hidden_size, image_size = 8, 32, 16
num_epochs, batch_size = 2, 16

pattern = torch.linspace(-0.8, 0.8, image_size)
data = (pattern + 0.1 * torch.randn(128, image_size)).clamp(-1, 1)
data_loader = DataLoader(TensorDataset(data, torch.zeros(128)), batch_size=batch_size,
                         shuffle=True)

D = nn.Sequential(
    nn.Linear(image_size, hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, 1), nn.Sigmoid())
G = nn.Sequential(
    nn.Linear(latent_size, hidden_size), nn.ReLU(),
    nn.Linear(hidden_size, hidden_size), nn.ReLU(),
    nn.Linear(hidden_size, image_size), nn.Tanh())
print(D)
print(G)

criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
g_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)


def denorm(x):
    out = (x + 1) / 2
    return out.clamp(0, 1)


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()


total_step = len(data_loader)
for epoch in range(num_epochs):
    for i, (images, _) in enumerate(data_loader):
        images = images.reshape(batch_size, -1)
        real_labels = torch.ones(batch_size, 1)
        fake_labels = torch.zeros(batch_size, 1)

        outputs = D(images)
        d_loss_real = criterion(outputs, real_labels)
        real_score = outputs
        z = torch.randn(batch_size, latent_size)
        fake_images = G(z)
        outputs = D(fake_images)
        d_loss_fake = criterion(outputs, fake_labels)
        fake_score = outputs
        d_loss = d_loss_real + d_loss_fake
        reset_grad()
        d_loss.backward()
        d_optimizer.step()

        z = torch.randn(batch_size, latent_size)
        fake_images = G(z)
        outputs = D(fake_images)
        g_loss = criterion(outputs, real_labels)
        reset_grad()
        g_loss.backward()
        g_optimizer.step()

        if (i + 1) % 4 == 0:
            print('Epoch [{}/{}], Step [{}/{}], d_loss: {:.4f}, g_loss: {:.4f}, D(x): {:.2f}, D(G(z)): {:.2f}'
                  .format(epoch, num_epochs, i + 1, total_step, d_loss.item(), g_loss.item(),
                          real_score.mean().item(), fake_score.mean().item()))
    shown = denorm(fake_images)
    print('fake images', tuple(shown.shape), 'range [{:.4f}, {:.4f}]'.format(shown.min().item(), shown.max().item()))

print(sorted(G.state_dict().keys()))
print(D[4].bias)
