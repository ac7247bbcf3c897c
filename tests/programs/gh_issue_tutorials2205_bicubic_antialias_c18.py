# Corpus program modelled on the pytorch/tutorials issue "During downsampling, bicubic
# interpolation produces WORSE results than ffmpeg. How can I fix this issue?"
# (https://github.com/pytorch/tutorials/issues/2205): an image tensor in [0, 1] (what
# transforms.ToTensor gives) downsampled 4x with interpolate(..., scale_factor=.25,
# mode="bicubic", antialias=True) overshoots below 0 and above 1 at sharp edges, which
# ToPILImage wraps around into artifacts; the poster's fix is .clamp(min=0, max=1). The
# program compares that with antialias=False, with bilinear (no overshoot), and converts to
# 8-bit as ToPILImage does (mul(255).byte()), and backpropagates through the resize.
# Changed: a synthetic 3 x 32 x 32 image with hard edges instead of a photo; no PIL or
# torchvision. Written for gradsh.
import torch
from torch.nn.functional import interpolate

torch.manual_seed(0)
h = w = 32
yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
checker = ((yy // 4 + xx // 4) % 2).float()
stripes = (xx % 6 < 3).float()
disc = (((yy - 15.5) ** 2 + (xx - 15.5) ** 2) < 100).float()
img = torch.stack([checker, stripes, disc * 0.9 + 0.05]).unsqueeze(0)
print(img.shape, img.min().item(), img.max().item())

ds_img = interpolate(img, scale_factor=.25, mode="bicubic", antialias=True)
print(ds_img.shape, ds_img.min().item(), ds_img.max().item())
print(ds_img[0, 0])
print((ds_img < 0).sum().item(), (ds_img > 1).sum().item())
wrapped = ds_img.squeeze().mul(255).byte()
print(wrapped[0])
fixed = interpolate(img, scale_factor=.25, mode="bicubic", antialias=True).clamp(min=0, max=1)
print(fixed.squeeze().mul(255).byte()[0])

no_aa = interpolate(img, scale_factor=.25, mode="bicubic", antialias=False)
print(no_aa[0, 1])
bil = interpolate(img, scale_factor=.25, mode="bilinear", antialias=True)
print(bil[0, 2], bil.min().item(), bil.max().item())
print(interpolate(img, size=(5, 7), mode="bilinear", antialias=True)[0, 2])
print(interpolate(img, size=(6, 6), mode="bicubic", antialias=True, align_corners=True)[0, 0])

x = img.clone().requires_grad_()
out = interpolate(x, scale_factor=.25, mode="bicubic", antialias=True)
print(out.grad_fn)
loss = (out - 0.5).pow(2).mean()
loss.backward()
print(loss.item())
print(x.grad[0, 0, :6, :6])
print(x.grad.abs().sum().item())
up = interpolate(out.detach(), size=(h, w), mode="bicubic", antialias=True)
print(up.shape, torch.nn.functional.mse_loss(up, img).item())
