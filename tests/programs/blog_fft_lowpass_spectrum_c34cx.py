# Corpus program, written for gradsh (no code copied). Modelled on the codegenes.net post
# "Understanding and Utilizing PyTorch's rfft Function" (https://www.codegenes.net/blog/pytorch-rfft)
# and the examples of the torch.fft.rfft / rfftfreq / fft docs
# (https://pytorch.org/docs/stable/generated/torch.fft.rfft.html): the spectrum of a real
# signal with rfft and rfftfreq, its magnitude, the dominant frequencies, and a low-pass filter
# that zeroes the bins above a cut-off before irfft.
# Differences: a synthetic signal (two sines plus seeded noise) instead of the post's data,
# 256 samples, printed values instead of plots, and the filter's effect measured against the
# clean signal.
import math

import torch

torch.manual_seed(0)

# the docs' small examples
t = torch.arange(4)
print(torch.fft.rfft(t))
print(torch.fft.fft(t))
print(torch.fft.rfftfreq(5), torch.fft.rfftfreq(4), torch.fft.fftfreq(4))
x = torch.fft.fft(torch.tensor([0.0, 1.0, 0.0, -1.0]))
print(x, torch.fft.ifft(x))

fs = 64.0  # samples per second
n = 256
time = torch.arange(n) / fs
clean = torch.sin(2 * math.pi * 3.0 * time) + 0.5 * torch.sin(2 * math.pi * 7.0 * time)
noisy = clean + 0.4 * torch.randn(n)

spectrum = torch.fft.rfft(noisy)
freqs = torch.fft.rfftfreq(n, d=1.0 / fs)
magnitude = spectrum.abs() / n
print("bins:", spectrum.shape, spectrum.dtype, "resolution:", freqs[1].item())
top = torch.topk(magnitude, 3)
print("strongest bins:", freqs[top.indices], top.values)
print("phase at 3 Hz:", spectrum[freqs == 3.0].angle())
power = (magnitude ** 2)
print("power in 0-10 Hz: %.4f of %.4f" % (power[freqs <= 10].sum().item(), power.sum().item()))

cutoff = 10.0
filtered_spectrum = spectrum.clone()
filtered_spectrum[freqs > cutoff] = 0
filtered = torch.fft.irfft(filtered_spectrum, n=n)
print("filtered:", filtered.shape, filtered.dtype)
print(filtered[:6])
print("error before: %.4f after: %.4f" % ((noisy - clean).pow(2).mean().sqrt().item(),
                                          (filtered - clean).pow(2).mean().sqrt().item()))
print("round trip:", torch.allclose(torch.fft.irfft(spectrum, n=n), noisy, atol=1e-5))

# the orthonormal transform keeps the energy (Parseval)
ortho = torch.fft.fft(noisy, norm="ortho")
print("energy:", noisy.pow(2).sum(), ortho.abs().pow(2).sum())

# a batch of signals along the last dimension, spectra of the 2-D transform
batch = torch.stack([clean, noisy, filtered])
print(torch.fft.rfft(batch).abs().argmax(dim=-1))
image = torch.outer(torch.cos(2 * math.pi * torch.arange(8) / 8), torch.ones(8))
print(torch.fft.fft2(image).abs().round())
print(torch.fft.fftshift(torch.fft.fftfreq(8)))
