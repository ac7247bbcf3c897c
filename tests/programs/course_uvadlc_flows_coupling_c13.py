# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 11 "Normalizing Flows for image modeling" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial11/NF_image_modeling.ipynb
# Like the original: Dequantization (uniform noise, the sigmoid / inverse-sigmoid with its
# log-determinant from softplus, np.log of the quant count times np.prod of the shape),
# affine CouplingLayer with a learned tanh scaling factor and a registered mask buffer,
# checkerboard masks from torch.meshgrid(indexing='ij') + torch.fmod and channel masks,
# GatedConvNet (ConcatELU, GatedConv with sigmoid gates, a channel LayerNorm with
# var(unbiased=False), last conv zero-initialised), SqueezeFlow (reshape/permute), SplitFlow
# with a torch.distributions Normal prior, bits per dimension with np.log2(np.exp(1)); training
# with Adam and a StepLR, an invertibility check (encode then decode returns the integers).
# Differences: no Lightning, random 8x8 one-channel images with 16 quantisation levels,
# hidden width 8, 8 training steps; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)
QUANTS = 16


class Dequantization(nn.Module):
    def __init__(self, alpha=1e-5, quants=QUANTS):
        super().__init__()
        self.alpha = alpha
        self.quants = quants

    def forward(self, z, ldj, reverse=False):
        if not reverse:
            z, ldj = self.dequant(z, ldj)
            z, ldj = self.sigmoid(z, ldj, reverse=True)
        else:
            z, ldj = self.sigmoid(z, ldj, reverse=False)
            z = z * self.quants
            ldj += np.log(self.quants) * np.prod(z.shape[1:])
            z = torch.floor(z).clamp(min=0, max=self.quants - 1).to(torch.int32)
        return z, ldj

    def sigmoid(self, z, ldj, reverse=False):
        if not reverse:
            ldj += (-z - 2 * F.softplus(-z)).sum(dim=[1, 2, 3])
            z = torch.sigmoid(z)
        else:
            z = z * (1 - self.alpha) + 0.5 * self.alpha
            ldj += np.log(1 - self.alpha) * np.prod(z.shape[1:])
            ldj += (-torch.log(z) - torch.log(1 - z)).sum(dim=[1, 2, 3])
            z = torch.log(z) - torch.log(1 - z)
        return z, ldj

    def dequant(self, z, ldj):
        z = z.to(torch.float32)
        z = z + torch.rand_like(z).detach()
        z = z / self.quants
        ldj -= np.log(self.quants) * np.prod(z.shape[1:])
        return z, ldj


class CouplingLayer(nn.Module):
    def __init__(self, network, mask, c_in):
        super().__init__()
        self.network = network
        self.scaling_factor = nn.Parameter(torch.zeros(c_in))
        self.register_buffer('mask', mask)

    def forward(self, z, ldj, reverse=False):
        z_in = z * self.mask
        nn_out = self.network(z_in)
        s, t = nn_out.chunk(2, dim=1)
        s_fac = self.scaling_factor.exp().view(1, -1, 1, 1)
        s = torch.tanh(s / s_fac) * s_fac
        s = s * (1 - self.mask)
        t = t * (1 - self.mask)
        if not reverse:
            z = (z + t) * torch.exp(s)
            ldj += s.sum(dim=[1, 2, 3])
        else:
            z = (z * torch.exp(-s)) - t
            ldj -= s.sum(dim=[1, 2, 3])
        return z, ldj


def create_checkerboard_mask(h, w, invert=False):
    x, y = torch.arange(h, dtype=torch.int32), torch.arange(w, dtype=torch.int32)
    xx, yy = torch.meshgrid(x, y, indexing='ij')
    mask = torch.fmod(xx + yy, 2)
    mask = mask.to(torch.float32).view(1, 1, h, w)
    if invert:
        mask = 1 - mask
    return mask


def create_channel_mask(c_in, invert=False):
    mask = torch.cat([torch.ones(c_in // 2, dtype=torch.float32),
                      torch.zeros(c_in - c_in // 2, dtype=torch.float32)])
    mask = mask.view(1, c_in, 1, 1)
    if invert:
        mask = 1 - mask
    return mask


class ConcatELU(nn.Module):
    def forward(self, x):
        return torch.cat([F.elu(x), F.elu(-x)], dim=1)


class LayerNormChannels(nn.Module):
    def __init__(self, c_in, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(1, c_in, 1, 1))
        self.beta = nn.Parameter(torch.zeros(1, c_in, 1, 1))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(dim=1, keepdim=True)
        var = x.var(dim=1, unbiased=False, keepdim=True)
        y = (x - mean) / torch.sqrt(var + self.eps)
        return y * self.gamma + self.beta


class GatedConv(nn.Module):
    def __init__(self, c_in, c_hidden):
        super().__init__()
        self.net = nn.Sequential(
            ConcatELU(), nn.Conv2d(2 * c_in, c_hidden, kernel_size=3, padding=1),
            ConcatELU(), nn.Conv2d(2 * c_hidden, 2 * c_in, kernel_size=1))

    def forward(self, x):
        out = self.net(x)
        val, gate = out.chunk(2, dim=1)
        return x + val * torch.sigmoid(gate)


class GatedConvNet(nn.Module):
    def __init__(self, c_in, c_hidden=8, c_out=-1, num_layers=2):
        super().__init__()
        c_out = c_out if c_out > 0 else 2 * c_in
        layers = [nn.Conv2d(c_in, c_hidden, kernel_size=3, padding=1)]
        for _ in range(num_layers):
            layers += [GatedConv(c_hidden, c_hidden), LayerNormChannels(c_hidden)]
        layers += [ConcatELU(), nn.Conv2d(2 * c_hidden, c_out, kernel_size=3, padding=1)]
        self.nn = nn.Sequential(*layers)
        self.nn[-1].weight.data.zero_()
        self.nn[-1].bias.data.zero_()

    def forward(self, x):
        return self.nn(x)


class SqueezeFlow(nn.Module):
    def forward(self, z, ldj, reverse=False):
        B, C, H, W = z.shape
        if not reverse:
            z = z.reshape(B, C, H // 2, 2, W // 2, 2)
            z = z.permute(0, 1, 3, 5, 2, 4)
            z = z.reshape(B, 4 * C, H // 2, W // 2)
        else:
            z = z.reshape(B, C // 4, 2, 2, H, W)
            z = z.permute(0, 1, 4, 2, 5, 3)
            z = z.reshape(B, C // 4, H * 2, W * 2)
        return z, ldj


class SplitFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.prior = torch.distributions.normal.Normal(loc=0.0, scale=1.0)

    def forward(self, z, ldj, reverse=False):
        if not reverse:
            z, z_split = z.chunk(2, dim=1)
            ldj += self.prior.log_prob(z_split).sum(dim=[1, 2, 3])
        else:
            z_split = self.prior.sample(sample_shape=z.shape)
            z = torch.cat([z, z_split], dim=1)
            ldj -= self.prior.log_prob(z_split).sum(dim=[1, 2, 3])
        return z, ldj


class ImageFlow(nn.Module):
    def __init__(self, flows):
        super().__init__()
        self.flows = nn.ModuleList(flows)
        self.prior = torch.distributions.normal.Normal(loc=0.0, scale=1.0)

    def encode(self, imgs):
        z, ldj = imgs, torch.zeros(imgs.shape[0])
        for flow in self.flows:
            z, ldj = flow(z, ldj, reverse=False)
        return z, ldj

    def _get_likelihood(self, imgs, return_ll=False):
        z, ldj = self.encode(imgs)
        log_pz = self.prior.log_prob(z).sum(dim=[1, 2, 3])
        log_px = ldj + log_pz
        nll = -log_px
        bpd = nll * np.log2(np.exp(1)) / np.prod(imgs.shape[1:])
        return bpd.mean() if not return_ll else log_px

    @torch.no_grad()
    def sample(self, img_shape, z_init=None):
        if z_init is None:
            z = self.prior.sample(sample_shape=img_shape)
        else:
            z = z_init
        ldj = torch.zeros(img_shape[0])
        for flow in reversed(self.flows):
            z, ldj = flow(z, ldj, reverse=True)
        return z


print(create_checkerboard_mask(4, 4))
print(create_channel_mask(4, invert=True).view(-1))

flow_layers = [Dequantization()]
for i in range(2):
    flow_layers += [CouplingLayer(network=GatedConvNet(c_in=1),
                                  mask=create_checkerboard_mask(h=8, w=8, invert=(i % 2 == 1)),
                                  c_in=1)]
flow_layers += [SqueezeFlow()]
for i in range(2):
    flow_layers += [CouplingLayer(network=GatedConvNet(c_in=4, c_hidden=8),
                                  mask=create_channel_mask(c_in=4, invert=(i % 2 == 1)),
                                  c_in=4)]
flow_layers += [SplitFlow()]
flow = ImageFlow(flow_layers)
print(sum(p.numel() for p in flow.parameters()), len(list(flow.buffers())))
print([name for name, _ in flow.named_buffers()])

imgs = torch.randint(0, QUANTS, (6, 1, 8, 8))
optimizer = optim.Adam(flow.parameters(), lr=1e-3)
scheduler = optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.99)
for step in range(8):
    loss = flow._get_likelihood(imgs)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step}: bpd {loss.item():.5f}")
print([f"{p.item():.5f}" for layer in flow.flows if isinstance(layer, CouplingLayer)
       for p in layer.scaling_factor[:1]])

with torch.no_grad():
    z, ldj = flow.encode(imgs[:2])
    print(z.shape, ldj)
    print(flow._get_likelihood(imgs[:3], return_ll=True))
    # invertibility of the part before the split
    x, l = imgs[:2], torch.zeros(2)
    for layer in flow.flows[:-1]:
        x, l = layer(x, l)
    for layer in reversed(flow.flows[:-1]):
        x, l = layer(x, l, reverse=True)
    print(x.dtype, torch.equal(x, imgs[:2].to(torch.int32)), l.abs().max() < 1e-2)
    samples = flow.sample(img_shape=[2, 2, 4, 4])
    print(samples.shape, samples.dtype, samples.min().item(), samples.max().item())
