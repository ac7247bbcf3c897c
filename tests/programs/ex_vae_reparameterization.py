# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples "vae"
# (a variational autoencoder on MNIST), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/vae/main.py
# Like the original: a VAE module with fc1, fc21 (mu), fc22 (logvar), fc3, fc4, encode/decode,
# reparameterize as mu + randn_like(std) * std with std = exp(0.5 * logvar), the loss
# F.binary_cross_entropy(recon, x, reduction='sum') plus the closed-form KLD
# -0.5 * sum(1 + logvar - mu^2 - exp(logvar)), Adam, a training loop printing the average loss,
# and sampling from the prior. Differences: our own code; random binary "images" of 20 pixels
# instead of MNIST, a latent of 2, a few epochs, a seed; the same reparameterisation and KL
# also written with torch.distributions (Normal.rsample, kl_divergence, Independent) and
# checked against the hand-written formulas.
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.distributions import Independent, Normal, kl_divergence

torch.manual_seed(1)
data = (torch.rand(64, 20) > 0.5).float()


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 12)
        self.fc21 = nn.Linear(12, 2)
        self.fc22 = nn.Linear(12, 2)
        self.fc3 = nn.Linear(2, 12)
        self.fc4 = nn.Linear(12, 20)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 20))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 20), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 4):
    train_loss = 0.0
    for batch in data.split(16):
        optimizer.zero_grad()
        recon, mu, logvar = model(batch)
        loss = loss_function(recon, batch, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(data):.4f}")

# The same reparameterisation and KL with torch.distributions
mu, logvar = model.encode(data[:4])
std = torch.exp(0.5 * logvar)
q = Normal(mu, std)
p = Normal(torch.zeros_like(mu), torch.ones_like(std))
torch.manual_seed(7)
z_manual = mu + torch.randn_like(std) * std
torch.manual_seed(7)
z = q.rsample()
print(q)
print(z.grad_fn, torch.equal(z, z_manual))
kl = kl_divergence(q, p).sum(-1)
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1)
print(kl.grad_fn, torch.allclose(kl, kld), kl.detach().round(decimals=3))
qz = Independent(q, 1)
print(qz, qz.batch_shape, qz.event_shape)
print(qz.log_prob(z).round(decimals=3), qz.entropy().round(decimals=3))
elbo = (Independent(p, 1).log_prob(z) - qz.log_prob(z)).mean()
elbo.backward()
print(elbo.grad_fn, model.fc21.bias.grad.round(decimals=4))
with torch.no_grad():
    sample = model.decode(torch.randn(3, 2))
print(sample.shape, sample.round(decimals=2)[0])
