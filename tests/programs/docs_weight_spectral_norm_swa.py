# Corpus program, written for gradsh (no code copied). Modelled on PyTorch's documentation of
# torch.nn.utils.weight_norm / spectral_norm (the forward pre-hook API GAN code uses), of
# torch.nn.utils.parametrizations.weight_norm / spectral_norm (the parametrization API and its
# loading of old state dicts) and of torch.optim.swa_utils (AveragedModel, SWALR, update_bn, the
# EMA variant), following the docs' examples: a small spectrally normalised discriminator, a
# weight-normalised regressor trained with SWA.
# Written for gradsh; synthetic data, a few epochs, seeded.
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, remove_spectral_norm, remove_weight_norm
from torch.nn.utils import spectral_norm, weight_norm
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

warnings.simplefilter("ignore", FutureWarning)  # weight_norm's deprecation notice
torch.manual_seed(0)

# the hook API: weight_g / weight_v, weight_orig / weight_u / weight_v
m = weight_norm(nn.Linear(20, 40), name="weight")
print(m.weight_g.size(), m.weight_v.size(), sorted(n for n, _ in m.named_parameters()))
m(torch.randn(3, 20)).sum().backward()
print(m.weight.grad_fn.name(), m.weight_g.grad[:3].flatten(), m.weight_v.grad.sum())
remove_weight_norm(m)
print(sorted(n for n, _ in m.named_parameters()))

D = nn.Sequential(spectral_norm(nn.Conv2d(3, 8, 3, padding=1)), nn.LeakyReLU(0.1),
                  spectral_norm(nn.Conv2d(8, 1, 4)))
print(sorted(n for n, _ in D[0].named_buffers()), D[0].weight_u.shape, D[0].weight_v.shape)
images = torch.randn(4, 3, 4, 4)
for step in range(3):
    score = D(images).mean()
print(score, D[0].weight_u[:3])
score.backward()
print(D[0].weight_orig.grad.abs().sum())
D.eval()
print(D(images).flatten())
remove_spectral_norm(D[2])
print(sorted(n for n, _ in D[2].named_parameters()))

# the parametrization API
p = parametrizations.weight_norm(nn.Linear(5, 4))
print(p)
print(sorted(p.state_dict()), p.parametrizations.weight.original0.flatten())
old = weight_norm(nn.Linear(5, 4))
new = parametrizations.weight_norm(nn.Linear(5, 4))
print(new.load_state_dict(old.state_dict()), torch.equal(new.weight, old.weight))
s = parametrizations.spectral_norm(nn.Linear(6, 4))
print(sorted(s.state_dict()), s(torch.ones(2, 6)))

# SWA and EMA of a weight-normalised regressor (the parametrization: the hook API's modules
# cannot be deep-copied, as PyTorch says when AveragedModel tries)
x = torch.randn(64, 5)
y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(64, 1)
model = nn.Sequential(parametrizations.weight_norm(nn.Linear(5, 16)), nn.BatchNorm1d(16), nn.Tanh(),
                      nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
scheduler = SWALR(opt, swa_lr=0.01, anneal_epochs=3)
for epoch in range(6):
    for start in range(0, 64, 16):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x[start:start + 16]), y[start:start + 16])
        loss.backward()
        opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    scheduler.step()
    print(f"epoch {epoch} loss {loss.item():.5f} lr {scheduler.get_last_lr()[0]:.5f}")
update_bn([x[i:i + 16] for i in range(0, 64, 16)], swa)
swa.eval()
model.eval()
print("swa", nn.functional.mse_loss(swa(x), y).item(), swa.n_averaged)
print("model", nn.functional.mse_loss(model(x), y).item())
print(swa.module[1].running_mean[:4], ema.module[3].bias)
