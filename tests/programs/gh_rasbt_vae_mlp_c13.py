# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "Variational Autoencoder" (MIT):
# https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/autoencoder/ae-var.ipynb
# Like the original: a fully connected VAE (hidden Linear with F.leaky_relu(negative_slope=
# 0.0001), z_mean and z_log_var heads, reparameterize with torch.randn(z_mu.size(0),
# z_mu.size(1)) * torch.exp(z_log_var / 2.), a decoder ending in torch.sigmoid), the cost
# kl_divergence = (0.5 * (z_mean**2 + exp(z_log_var) - z_log_var - 1)).sum() plus
# F.binary_cross_entropy(decoded, features, reduction='sum'), Adam, the "Epoch: %03d/%03d |
# Batch %03d/%03d | Cost: %.4f" log; new images decoded from torch.randn latent vectors.
# Differences: 8x8 synthetic "images" (blurred random blobs in [0, 1]) instead of MNIST,
# 32 hidden units, 2 latent dims, 4 epochs; the closed-form KL checked against
# torch.distributions.kl_divergence(Normal(mu, std), Normal(0, 1)); no plotting; seeded.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print('Device:', device)
random_seed = 0
learning_rate = 0.001
num_epochs = 4
batch_size = 32
num_features = 64
num_hidden_1 = 32
num_latent = 2

torch.manual_seed(random_seed)
blobs = torch.rand(256, 1, 8, 8) ** 3
images = F.avg_pool2d(F.pad(blobs, (1, 1, 1, 1), mode='replicate'), 3, stride=1)
images = (images - images.amin()) / (images.amax() - images.amin())
labels = (images.mean(dim=(1, 2, 3)) > images.mean()).long()
train_loader = DataLoader(TensorDataset(images, labels), batch_size=batch_size, shuffle=True)
for imgs, lbls in train_loader:
    print('Image batch dimensions:', imgs.shape)
    print('Image label dimensions:', lbls.shape)
    break


class VariationalAutoencoder(torch.nn.Module):
    def __init__(self, num_features, num_hidden_1, num_latent):
        super(VariationalAutoencoder, self).__init__()
        self.hidden_1 = torch.nn.Linear(num_features, num_hidden_1)
        self.z_mean = torch.nn.Linear(num_hidden_1, num_latent)
        self.z_log_var = torch.nn.Linear(num_hidden_1, num_latent)
        self.linear_3 = torch.nn.Linear(num_latent, num_hidden_1)
        self.linear_4 = torch.nn.Linear(num_hidden_1, num_features)

    def reparameterize(self, z_mu, z_log_var):
        eps = torch.randn(z_mu.size(0), z_mu.size(1)).to(device)
        z = z_mu + eps * torch.exp(z_log_var / 2.)
        return z

    def encoder(self, features):
        x = self.hidden_1(features)
        x = F.leaky_relu(x, negative_slope=0.0001)
        z_mean = self.z_mean(x)
        z_log_var = self.z_log_var(x)
        encoded = self.reparameterize(z_mean, z_log_var)
        return z_mean, z_log_var, encoded

    def decoder(self, encoded):
        x = self.linear_3(encoded)
        x = F.leaky_relu(x, negative_slope=0.0001)
        x = self.linear_4(x)
        decoded = torch.sigmoid(x)
        return decoded

    def forward(self, features):
        z_mean, z_log_var, encoded = self.encoder(features)
        decoded = self.decoder(encoded)
        return z_mean, z_log_var, encoded, decoded


model = VariationalAutoencoder(num_features, num_hidden_1, num_latent)
model = model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
print(model)

for epoch in range(num_epochs):
    for batch_idx, (features, targets) in enumerate(train_loader):
        features = features.view(-1, num_features).to(device)
        z_mean, z_log_var, encoded, decoded = model(features)
        kl_divergence = (0.5 * (z_mean**2 + torch.exp(z_log_var) - z_log_var - 1)).sum()
        pixelwise_bce = F.binary_cross_entropy(decoded, features, reduction='sum')
        cost = kl_divergence + pixelwise_bce
        optimizer.zero_grad()
        cost.backward()
        optimizer.step()
        if not batch_idx % 3:
            print('Epoch: %03d/%03d | Batch %03d/%03d | Cost: %.4f'
                  % (epoch + 1, num_epochs, batch_idx, len(train_loader), cost))

with torch.no_grad():
    features = images[:5].view(-1, num_features)
    z_mean, z_log_var, encoded, decoded = model(features)
    print(z_mean)
    print(torch.exp(z_log_var / 2.))
    kl_closed = (0.5 * (z_mean**2 + torch.exp(z_log_var) - z_log_var - 1)).sum()
    q = torch.distributions.Normal(z_mean, torch.exp(z_log_var / 2.))
    p = torch.distributions.Normal(torch.zeros_like(z_mean), torch.ones_like(z_mean))
    kl_dist = torch.distributions.kl_divergence(q, p).sum()
    print(kl_closed, kl_dist, torch.allclose(kl_closed, kl_dist))
    print(q)
    print(decoded[0].view(8, 8)[:3])
    rand_features = torch.randn(3, num_latent).to(device)
    new_images = model.decoder(rand_features)
    print(new_images.shape, new_images.mean(dim=1))
