# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 8 "Deep Energy-Based Generative Models" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial8/Deep_Energy_Models.ipynb
# Like the original: a CNN energy model (strided Conv2d layers with a Swish module, Flatten,
# Linear, squeeze(dim=-1)); a Sampler with a replay buffer (torch.rand * 2 - 1 examples,
# np.random.binomial for the share of fresh noise, random.choices from the buffer, chunk back
# into the buffer) and Langevin dynamics in generate_samples (parameters' requires_grad
# switched off, inp_imgs.requires_grad = True, torch.set_grad_enabled, noise.normal_,
# .data.add_ / clamp_, gradient clamp_, grad.detach_() and zero_()); the contrastive divergence
# loss with the alpha-weighted regulariser, Adam(betas=(0.0, 0.999)) with StepLR(gamma=0.97).
# Differences: no Lightning; random images stand in for MNIST (batch 8, 28x28), hidden size 8,
# 12 Langevin steps and 6 training steps; seeded (torch, numpy and random).
import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(42)
np.random.seed(42)
random.seed(42)
device = torch.device("cpu")


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class CNNModel(nn.Module):
    def __init__(self, hidden_features=8, out_dim=1):
        super().__init__()
        c_hid1 = hidden_features // 2
        c_hid2 = hidden_features
        c_hid3 = hidden_features * 2
        self.cnn_layers = nn.Sequential(
            nn.Conv2d(1, c_hid1, kernel_size=5, stride=2, padding=4), Swish(),
            nn.Conv2d(c_hid1, c_hid2, kernel_size=3, stride=2, padding=1), Swish(),
            nn.Conv2d(c_hid2, c_hid3, kernel_size=3, stride=2, padding=1), Swish(),
            nn.Conv2d(c_hid3, c_hid3, kernel_size=3, stride=2, padding=1), Swish(),
            nn.Flatten(),
            nn.Linear(c_hid3 * 4, c_hid3), Swish(),
            nn.Linear(c_hid3, out_dim))

    def forward(self, x):
        return self.cnn_layers(x).squeeze(dim=-1)


class Sampler:
    def __init__(self, model, img_shape, sample_size, max_len=64):
        self.model = model
        self.img_shape = img_shape
        self.sample_size = sample_size
        self.max_len = max_len
        self.examples = [(torch.rand((1,) + img_shape) * 2 - 1) for _ in range(self.sample_size)]

    def sample_new_exmps(self, steps=60, step_size=10):
        n_new = np.random.binomial(self.sample_size, 0.05)
        rand_imgs = torch.rand((n_new,) + self.img_shape) * 2 - 1
        old_imgs = torch.cat(random.choices(self.examples, k=self.sample_size - n_new), dim=0)
        inp_imgs = torch.cat([rand_imgs, old_imgs], dim=0).detach().to(device)
        inp_imgs = Sampler.generate_samples(self.model, inp_imgs, steps=steps, step_size=step_size)
        self.examples = list(inp_imgs.to(torch.device("cpu")).chunk(self.sample_size, dim=0)) + self.examples
        self.examples = self.examples[:self.max_len]
        return inp_imgs, n_new

    @staticmethod
    def generate_samples(model, inp_imgs, steps=60, step_size=10, return_img_per_step=False):
        is_training = model.training
        model.eval()
        for p in model.parameters():
            p.requires_grad = False
        inp_imgs.requires_grad = True
        had_gradients_enabled = torch.is_grad_enabled()
        torch.set_grad_enabled(True)
        noise = torch.randn(inp_imgs.shape, device=inp_imgs.device)
        imgs_per_step = []
        for _ in range(steps):
            noise.normal_(0, 0.005)
            inp_imgs.data.add_(noise.data)
            inp_imgs.data.clamp_(min=-1.0, max=1.0)
            out_imgs = -model(inp_imgs)
            out_imgs.sum().backward()
            inp_imgs.grad.data.clamp_(-0.03, 0.03)
            inp_imgs.data.add_(-step_size * inp_imgs.grad.data)
            inp_imgs.grad.detach_()
            inp_imgs.grad.zero_()
            inp_imgs.data.clamp_(min=-1.0, max=1.0)
            if return_img_per_step:
                imgs_per_step.append(inp_imgs.clone().detach())
        for p in model.parameters():
            p.requires_grad = True
        model.train(is_training)
        torch.set_grad_enabled(had_gradients_enabled)
        if return_img_per_step:
            return torch.stack(imgs_per_step, dim=0)
        return inp_imgs


img_shape = (1, 28, 28)
batch_size = 8
alpha = 0.1
cnn = CNNModel()
print(cnn)
sampler = Sampler(cnn, img_shape=img_shape, sample_size=batch_size)
optimizer = optim.Adam(cnn.parameters(), lr=1e-4, betas=(0.0, 0.999))
scheduler = optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.97)

real_data = torch.tanh(torch.randn(48, *img_shape))
for step in range(6):
    real_imgs = real_data[step * batch_size:(step + 1) * batch_size].clone()
    small_noise = torch.randn_like(real_imgs) * 0.005
    real_imgs.add_(small_noise).clamp_(min=-1.0, max=1.0)
    fake_imgs, n_new = sampler.sample_new_exmps(steps=12, step_size=10)
    inp_imgs = torch.cat([real_imgs, fake_imgs], dim=0)
    real_out, fake_out = cnn(inp_imgs).chunk(2, dim=0)
    reg_loss = alpha * (real_out ** 2 + fake_out ** 2).mean()
    cdiv_loss = fake_out.mean() - real_out.mean()
    loss = reg_loss + cdiv_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step}: new={n_new} loss={loss.item():.6f} reg={reg_loss.item():.6f} "
          f"cdiv={cdiv_loss.item():.6f} real={real_out.mean().item():.5f} "
          f"fake={fake_out.mean().item():.5f} lr={scheduler.get_last_lr()[0]:.6e} "
          f"buffer={len(sampler.examples)}")

with torch.no_grad():
    print(torch.is_grad_enabled())
    start = torch.rand((2,) + img_shape) * 2 - 1
    imgs = Sampler.generate_samples(cnn, start, steps=5, step_size=10, return_img_per_step=True)
    print(torch.is_grad_enabled(), imgs.shape, imgs.requires_grad)
    print(imgs.mean(dim=(1, 2, 3, 4)), imgs.std(dim=(2, 3, 4)).view(-1))
    print(cnn(imgs[-1]))
print(all(p.requires_grad for p in cnn.parameters()), cnn.training)
