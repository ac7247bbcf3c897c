# Corpus program, written for gradsh (no code copied). Modelled on a forum answer and blog posts
# about uint8 image tensors:
# https://discuss.pytorch.org/t/loading-an-unsigned-8bit-integer/176627/2 (a uint8 image mapped
#   to float32 in [0, 1] and back: out * 255 equals the permuted original; float32 holds every
#   integer up to 2**24, torch.tensor(2.**24 + 1) prints 16777216.)
# https://sparrow.dev/pytorch-normalize/ (per-channel Normalize with the ImageNet mean/std, the
#   normalised values roughly in [-2, 2], and computing a data set's own mean and std)
# https://dejanbatanjac.github.io/2019/05/27/normalization.html (normalize(x, mean, std) with
#   mean[..., None, None] and the cifar/imagenet/mnist stats)
# https://www.codegenes.net/blog/convert-tensor-to-uint8-pytorch and
# https://www.codegenes.net/blog/normalizedbyte-pytorch (scaling to 0-255, .byte() / .to(uint8),
#   clamping first, min-max normalisation then * 255 .byte())
# Differences: our own code; a synthetic HxWxC uint8 "image" from a seeded generator instead of
# PIL files; the arithmetic a learner does by hand on it (uint8 overflow, mixing with int
# tensors, brightness and flips, a histogram) printed.
import numpy as np
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)
img = rng.integers(0, 256, size=(6, 5, 3), dtype=np.uint8)
print(img.min(), img.max(), img.dtype, img.shape)
t = torch.from_numpy(img).permute(2, 0, 1)
print(t.dtype, t.shape, t.is_contiguous(), t.stride())
out = t.float() / 255
print(out.min(), out.max(), out.dtype)
y = out * 255
print((y == torch.from_numpy(img).permute(2, 0, 1)).all())
print(torch.tensor(2.**24), torch.tensor(2.**24 + 1), torch.tensor(2.**24 + 2))

imagenet_stats = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
cifar_stats = ([0.491, 0.482, 0.447], [0.247, 0.243, 0.261])


def normalize(x, mean, std):
    return (x - mean[..., None, None]) / std[..., None, None]


mean, std = (torch.tensor(v) for v in imagenet_stats)
normalized = normalize(out, mean, std)
print(normalized.shape, normalized.min(), normalized.max())
print(normalized[:, 0, 0])
channel_mean = out.mean(dim=(1, 2))
channel_std = out.std(dim=(1, 2))
print(channel_mean, channel_std)
standardized = normalize(out, channel_mean, channel_std)
print(standardized.mean(dim=(1, 2)), standardized.std(dim=(1, 2)))
back = standardized * channel_std[:, None, None] + channel_mean[:, None, None]
print(torch.allclose(back, out, atol=1e-6))

print(t[0, 0] + 100)
print(t[0, 0] + torch.tensor(100))
print((t[0, 0].int() + 100).clamp(0, 255).to(torch.uint8))
print(t[0, 0] - torch.tensor(300))
print(t[0, 0] * 2, (t[0, 0] * 2).dtype)
print(t[0, 0] // torch.tensor(7, dtype=torch.int32), t[0, 0] % torch.tensor(7))
print(255 - t[0, 0], (255 - t[0, :2]).dtype)
print(t[0, 0] / 2, torch.div(t[0, 0], 2, rounding_mode='floor'))
bright = (t.float() * 1.5).clamp(0, 255).byte()
print(bright[1, 1], bright.dtype)
wrapped = (t.float() * 1.5).byte()
print(wrapped[1, 1])
print(t.flip(2)[0, 0], t.flip(1)[0, :, 0])
print(torch.bincount(t[0].flatten() // 32, minlength=8))
print(torch.histc(t.float(), bins=4, min=0, max=255))
vals, counts = torch.unique(t[2] // 64, return_counts=True)
print(vals, counts)
gray = (0.299 * t[0] + 0.587 * t[1] + 0.114 * t[2]).round().to(torch.uint8)
print(gray)
mask = gray > 128
print(mask.sum(), t[0].masked_fill(mask, torch.tensor(0)).sum(), t.sum(dtype=torch.int64))
x = torch.tensor([1.0, 2.0, 3.0, 4.0])
norm01 = (x - x.min()) / (x.max() - x.min())
print(norm01, (norm01 * 255).byte(), (norm01 * 255).to(torch.uint8), torch.tensor([-1.5, 300.0]).clamp(0, 255).byte())
print(t.float().mean(), t.double().mean(), t.sum(), t.max(), t.argmax())
