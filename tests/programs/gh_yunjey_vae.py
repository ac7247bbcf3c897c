# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "03-advanced/variational_autoencoder" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/03-advanced/variational_autoencoder/main.py
# Like the original: VAE with fc1..fc5, encode() returning fc2(h), fc3(h), reparameterize with
# torch.exp(log_var/2) and torch.randn_like, decode() ending in F.sigmoid,
# F.binary_cross_entropy(x_reconst, x, size_average=False) (the deprecated argument, whose
# warning goes to stderr), the KL term -0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp()),
# Adam, the "Epoch[{}/{}], Step [{}/{}], Reconst Loss, KL Div" line, and under no_grad a batch
# decoded from randn latents and a reconstruction concatenated with torch.cat(dim=3).
# Differences: our own code; 6x6 synthetic "images" in [0, 1] (blurred random blobs) instead of
# MNIST; h_dim=24, z_dim=4, 2 epochs of 6 batches, a seed; image files replaced by printed
# shapes and sums.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
image_size, h_dim, z_dim = 36, 24, 4
num_epochs, batch_size, learning_rate = 2, 16, 1e-3

blobs = torch.rand(96, 1, 6, 6)
blobs = F.avg_pool2d(F.pad(blobs, (1, 1, 1, 1), mode='replicate'), 3, stride=1)
data_loader = DataLoader(TensorDataset(blobs, torch.zeros(96)), batch_size=batch_size,
                         shuffle=True)


class VAE(nn.Module):
    def __init__(self, image_size=784, h_dim=400, z_dim=20):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(image_size, h_dim)
        self.fc2 = nn.Linear(h_dim, z_dim)
        self.fc3 = nn.Linear(h_dim, z_dim)
        self.fc4 = nn.Linear(z_dim, h_dim)
        self.fc5 = nn.Linear(h_dim, image_size)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc2(h), self.fc3(h)

    def reparameterize(self, mu, log_var):
        std = torch.exp(log_var / 2)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h = F.relu(self.fc4(z))
        return F.sigmoid(self.fc5(h))

    def forward(self, x):
        mu, log_var = self.encode(x)
        z = self.reparameterize(mu, log_var)
        x_reconst = self.decode(z)
        return x_reconst, mu, log_var


model = VAE(image_size, h_dim, z_dim)
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    for i, (x, _) in enumerate(data_loader):
        x = x.view(-1, image_size)
        x_reconst, mu, log_var = model(x)
        reconst_loss = F.binary_cross_entropy(x_reconst, x, size_average=False)
        kl_div = - 0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp())
        loss = reconst_loss + kl_div
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 2 == 0:
            print("Epoch[{}/{}], Step [{}/{}], Reconst Loss: {:.4f}, KL Div: {:.4f}"
                  .format(epoch + 1, num_epochs, i + 1, len(data_loader), reconst_loss.item(),
                          kl_div.item()))
    with torch.no_grad():
        z = torch.randn(batch_size, z_dim)
        out = model.decode(z).view(-1, 1, 6, 6)
        print('sampled', tuple(out.shape), '{:.4f}'.format(out.sum().item()))
        out, _, _ = model(x)
        x_concat = torch.cat([x.view(-1, 1, 6, 6), out.view(-1, 1, 6, 6)], dim=3)
        print('reconst', tuple(x_concat.shape), '{:.4f}'.format(x_concat.mean().item()))
print(reconst_loss.grad_fn, kl_div.grad_fn)
