# Corpus program, written for gradsh (no code copied). Modelled on the week-1 VAE code of
# DTU course 02460 "Advanced Machine Learning" (Jes Frellsen, 2024; it credits
# https://github.com/jmtomczak/intro_dgm/blob/main/vaes/vae_example.ipynb), in the form the
# course's exercise extends it with a mixture-of-Gaussians prior.
# Like the code: a GaussianPrior (buffers mean / std, Independent(Normal, 1)); a MoGPrior
# whose forward returns td.MixtureSameFamily(td.Categorical(probs=softmax(weights)),
# td.Independent(td.Normal(mean, stds), 1)) with means drawn by uniform_(-r, r); a
# GaussianEncoder splitting the network output with torch.chunk into mean and log-std; a
# BernoulliDecoder returning Independent(Bernoulli(logits=...), 2); the VAE's ELBO with the
# analytic td.kl_divergence for the Gaussian prior and the Monte Carlo estimate
# q.log_prob(z) - prior.log_prob(z) for the MoG prior, z drawn with rsample; training with
# Adam on -ELBO; the mean test ELBO under torch.no_grad(); samples from the prior
# (MixtureSameFamily.sample) decoded and sampled; the aggregate posterior collected.
# Differences: synthetic binary 8x8 images (four noisy binary prototypes) instead of
# binarized MNIST, so the MLPs are 64 -> 32 -> 32 -> 2M; latent size M = 2; 4 epochs of
# 6 batches; no tqdm progress bar; seeds.
import torch
import torch.nn as nn
import torch.distributions as td
from torch.nn import functional as F

torch.manual_seed(2460)


class GaussianPrior(nn.Module):
    def __init__(self, M):
        super().__init__()
        self.M = M
        self.register_buffer("mean", torch.zeros(M))
        self.register_buffer("std", torch.ones(M))

    def forward(self):
        return td.Independent(td.Normal(loc=self.mean, scale=self.std), 1)

    def log_prob(self, z):
        return self.forward().log_prob(z)


class MoGPrior(nn.Module):
    def __init__(self, M, num_components, init_radius=4.0):
        super().__init__()
        self.M = M
        self.num_components = num_components
        self.mean = nn.Parameter(torch.randn(num_components, M).uniform_(-init_radius, init_radius),
                                 requires_grad=False)
        self.stds = nn.Parameter(torch.ones(num_components, M), requires_grad=False)
        self.weights = nn.Parameter(torch.ones(num_components), requires_grad=False)

    def forward(self):
        mixture_dist = td.Categorical(probs=F.softmax(self.weights, dim=0))
        comp_dist = td.Independent(td.Normal(loc=self.mean, scale=self.stds), 1)
        return td.MixtureSameFamily(mixture_dist, comp_dist)

    def log_prob(self, z):
        return self.forward().log_prob(z)


class GaussianEncoder(nn.Module):
    def __init__(self, encoder_net):
        super().__init__()
        self.encoder_net = encoder_net

    def forward(self, x):
        mean, log_std = torch.chunk(self.encoder_net(x), 2, dim=-1)
        return td.Independent(td.Normal(loc=mean, scale=torch.exp(log_std)), 1)


class BernoulliDecoder(nn.Module):
    def __init__(self, decoder_net):
        super().__init__()
        self.decoder_net = decoder_net

    def forward(self, z):
        logits = self.decoder_net(z)
        return td.Independent(td.Bernoulli(logits=logits), 2)


class VAE(nn.Module):
    def __init__(self, prior, decoder, encoder):
        super().__init__()
        self.prior = prior
        self.decoder = decoder
        self.encoder = encoder

    def elbo(self, x):
        q = self.encoder(x)
        z = q.rsample()
        if isinstance(self.prior, GaussianPrior):
            pz = self.prior()
            return (self.decoder(z).log_prob(x) - td.kl_divergence(q, pz)).mean()
        reg = q.log_prob(z) - self.prior.log_prob(z)
        return (self.decoder(z).log_prob(x) - reg).mean()

    def forward(self, x):
        return -self.elbo(x)

    @torch.no_grad()
    def sample(self, n):
        z = self.prior().sample((n,))
        return self.decoder(z).sample()


def build_encoder(M):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, M * 2))


def build_decoder(M):
    return nn.Sequential(nn.Linear(M, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, 64), nn.Unflatten(-1, (8, 8)))


prototypes = (torch.rand(4, 8, 8) > 0.5).float()
labels = torch.randint(0, 4, (120,))
flip = (torch.rand(120, 8, 8) < 0.1).float()
data = (prototypes[labels] + flip) % 2
train, test = data[:96], data[96:]
loader = [(train[i:i + 16], labels[i:i + 16]) for i in range(0, 96, 16)]

M = 2
prior = MoGPrior(M, num_components=4)
print(prior.mean)
print(prior())
z = prior().sample((5,))
print(z, prior.log_prob(z))
print(prior().mean, prior().variance)

for prior in [GaussianPrior(M), MoGPrior(M, num_components=4)]:
    model = VAE(prior, BernoulliDecoder(build_decoder(M)), GaussianEncoder(build_encoder(M)))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for epoch in range(4):
        for x, _ in loader:
            optimizer.zero_grad()
            loss = model(x)
            loss.backward()
            optimizer.step()
        print(f"{type(prior).__name__} epoch {epoch + 1}: loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        print("test ELBO", model.elbo(test).item())
        samples = model.sample(3)
        print(samples.shape, samples.sum(dim=(1, 2)))
        zs = torch.cat([model.encoder(x).sample() for x, _ in loader])
        print(zs.shape, zs.mean(0), zs.std(0))
print(sum(p.numel() for p in model.parameters() if p.requires_grad),
      [n for n, p in model.named_parameters() if not p.requires_grad])
