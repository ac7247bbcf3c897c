# Corpus program, written for gradsh (no code copied). Modelled on Hugging Face's blog post
# "The Annotated Diffusion Model" (Niels Rogge, Kashif Rasul):
# https://huggingface.co/blog/annotated-diffusion
# Like the post: the cosine, linear, quadratic and sigmoid beta schedules; alphas,
# torch.cumprod, F.pad of alphas_cumprod_prev, sqrt_recip_alphas, sqrt_alphas_cumprod,
# sqrt_one_minus_alphas_cumprod and the posterior variance; extract() gathering per-timestep
# constants with gather(-1, t) and reshaping for broadcasting; q_sample (forward diffusion)
# at several timesteps; SinusoidalPositionEmbeddings; p_losses with l1, l2 and Huber loss
# (F.smooth_l1_loss); the sampling step p_sample with the posterior variance and
# p_sample_loop over all timesteps; a denoiser trained for a few steps with Adam.
# Differences: a small MLP denoiser on 8x8 single-channel "images" instead of the U-Net on
# Fashion-MNIST; 50 timesteps instead of 300 (the cosine schedule also printed at 1000);
# synthetic data; no einops; seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * torch.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


def linear_beta_schedule(timesteps):
    beta_start = 0.0001
    beta_end = 0.02
    return torch.linspace(beta_start, beta_end, timesteps)


def quadratic_beta_schedule(timesteps):
    beta_start = 0.0001
    beta_end = 0.02
    return torch.linspace(beta_start**0.5, beta_end**0.5, timesteps) ** 2


def sigmoid_beta_schedule(timesteps):
    beta_start = 0.0001
    beta_end = 0.02
    betas = torch.linspace(-6, 6, timesteps)
    return torch.sigmoid(betas) * (beta_end - beta_start) + beta_start


print(cosine_beta_schedule(1000)[[0, 1, 500, 998, 999]])
for schedule in [cosine_beta_schedule, linear_beta_schedule, quadratic_beta_schedule, sigmoid_beta_schedule]:
    b = schedule(50)
    print(schedule.__name__, b.shape, b[:3], b[-2:], b.sum())

timesteps = 50
betas = linear_beta_schedule(timesteps=timesteps)
alphas = 1. - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1. - alphas_cumprod)
posterior_variance = betas * (1. - alphas_cumprod_prev) / (1. - alphas_cumprod)
print(alphas_cumprod[[0, 1, 25, 49]], alphas_cumprod_prev[:3])
print(sqrt_recip_alphas[-1], sqrt_alphas_cumprod[-1], sqrt_one_minus_alphas_cumprod[-1])
print(posterior_variance[:4])


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


print(extract(sqrt_alphas_cumprod, torch.tensor([0, 10, 49]), (3, 1, 8, 8)).shape)
print(extract(sqrt_alphas_cumprod, torch.tensor([0, 10, 49]), (3, 1, 8, 8)).view(-1))


def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    sqrt_alphas_cumprod_t = extract(sqrt_alphas_cumprod, t, x_start.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape)
    return sqrt_alphas_cumprod_t * x_start + sqrt_one_minus_alphas_cumprod_t * noise


torch.manual_seed(0)
image_size = 8
x_start = torch.zeros(1, 1, image_size, image_size)
x_start[..., 2:6, 2:6] = 1.0
x_start = x_start * 2 - 1
for t in [0, 10, 25, 49]:
    x_noisy = q_sample(x_start, t=torch.tensor([t]))
    print(t, x_noisy.mean().item(), x_noisy.std().item(), x_noisy[0, 0, 3, :4])


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        device = time.device
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        embeddings = torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)
        return embeddings


emb = SinusoidalPositionEmbeddings(16)(torch.tensor([0, 1, 25, 49]))
print(emb.shape, emb[1], emb[3, :4])


class Denoiser(nn.Module):
    def __init__(self, size=image_size * image_size, time_dim=16, hidden=64):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(time_dim),
                                      nn.Linear(time_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.inp = nn.Linear(size, hidden)
        self.net = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, size))

    def forward(self, x, time):
        h = self.inp(x.flatten(1)) + self.time_mlp(time)
        return self.net(h).view_as(x)


def p_losses(denoise_model, x_start, t, noise=None, loss_type="l1"):
    if noise is None:
        noise = torch.randn_like(x_start)
    x_noisy = q_sample(x_start=x_start, t=t, noise=noise)
    predicted_noise = denoise_model(x_noisy, t)
    if loss_type == 'l1':
        loss = F.l1_loss(noise, predicted_noise)
    elif loss_type == 'l2':
        loss = F.mse_loss(noise, predicted_noise)
    elif loss_type == "huber":
        loss = F.smooth_l1_loss(noise, predicted_noise)
    else:
        raise NotImplementedError()
    return loss


torch.manual_seed(42)
model = Denoiser()
print(model)
t = torch.randint(0, timesteps, (4,)).long()
batch = x_start.repeat(4, 1, 1, 1) + 0.1 * torch.randn(4, 1, image_size, image_size)
for lt in ["l1", "l2", "huber"]:
    torch.manual_seed(3)
    print(lt, p_losses(model, batch, t, loss_type=lt))
try:
    p_losses(model, batch, t, loss_type="kl")
except NotImplementedError as e:
    print("NotImplementedError", repr(e))

optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(60):
    images = torch.sign(torch.randn(16, 1, 1, 1)) * x_start + 0.05 * torch.randn(16, 1, image_size, image_size)
    optimizer.zero_grad()
    t = torch.randint(0, timesteps, (images.shape[0],)).long()
    loss = p_losses(model, images, t, loss_type="huber")
    if step % 10 == 0:
        print("Loss:", loss.item())
    loss.backward()
    optimizer.step()


@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = extract(betas, t, x.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x.shape)
    sqrt_recip_alphas_t = extract(sqrt_recip_alphas, t, x.shape)
    model_mean = sqrt_recip_alphas_t * (x - betas_t * model(x, t) / sqrt_one_minus_alphas_cumprod_t)
    if t_index == 0:
        return model_mean
    else:
        posterior_variance_t = extract(posterior_variance, t, x.shape)
        noise = torch.randn_like(x)
        return model_mean + torch.sqrt(posterior_variance_t) * noise


@torch.no_grad()
def p_sample_loop(model, shape):
    b = shape[0]
    img = torch.randn(shape)
    imgs = []
    for i in reversed(range(0, timesteps)):
        img = p_sample(model, img, torch.full((b,), i, dtype=torch.long), i)
        imgs.append(img.cpu().numpy())
    return imgs


torch.manual_seed(5)
samples = p_sample_loop(model, shape=(2, 1, image_size, image_size))
print(len(samples), samples[-1].shape, samples[-1].dtype)
final = torch.from_numpy(samples[-1])
print(final[0, 0].round(decimals=2))
print(final.mean(dim=(1, 2, 3)), final[:, :, 2:6, 2:6].mean())
