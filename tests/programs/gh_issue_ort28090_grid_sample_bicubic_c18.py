# Corpus program modelled on the onnxruntime issues "bicubic+border produces out-of-range
# values" (https://github.com/microsoft/onnxruntime/issues/28090) and "GridSample with bicubic
# interpolation and border padding" (https://github.com/microsoft/onnxruntime/issues/10607),
# which compare ONNX Runtime's GridSample with PyTorch's F.grid_sample: a 4 x 4 arange feature
# map sampled in bicubic mode at the four points (+-0.95, +-0.95) with border and with zeros
# padding, align_corners=False; PyTorch pads every one of the 16 taps (so points just outside
# the border still see interior pixels) where the reported kernels clamp the point first.
# The program prints PyTorch's side (the reference in both threads), the point clamped first for
# comparison, reflection padding, align_corners=True, and the gradients of both the feature map
# and the grid.
# Changed: no ONNX export or onnxruntime session; the expected values are printed instead of
# compared. Written for gradsh.
import torch
import torch.nn.functional as F

feat = torch.arange(16, dtype=torch.float32).reshape(1, 1, 4, 4)
grid = torch.tensor([[[[-0.95, -0.95], [0.95, -0.95],
                       [-0.95, 0.95], [0.95, 0.95]]]], dtype=torch.float32)
out_bicubic_border = F.grid_sample(feat, grid, mode="bicubic", padding_mode="border",
                                   align_corners=False)
out_bicubic_zeros = F.grid_sample(feat, grid, mode="bicubic", padding_mode="zeros",
                                  align_corners=False)
print(out_bicubic_border)
print(out_bicubic_zeros)
print(out_bicubic_border.min().item() < feat.min().item(),
      out_bicubic_border.max().item() > feat.max().item())

# 10607: moving an out-of-bounds point to the border first loses the interior taps
outside = torch.tensor([[[[-1.1, 0.3], [1.05, -0.2], [0.0, 1.2], [0.7, 0.1]]]])
per_tap = F.grid_sample(feat, outside, mode="bicubic", padding_mode="border",
                        align_corners=False)
pixel_lo = -1 + 1 / 4
clamped = F.grid_sample(feat, outside.clamp(pixel_lo, 1 - 1 / 4), mode="bicubic",
                        padding_mode="border", align_corners=False)
print(per_tap)
print(clamped)
print(torch.isclose(per_tap, clamped))

for padding in ("zeros", "border", "reflection"):
    for align in (False, True):
        o = F.grid_sample(feat, grid * 1.2, mode="bicubic", padding_mode=padding,
                          align_corners=align)
        print(padding, align, o.flatten().tolist())

torch.manual_seed(0)
img = torch.randn(1, 2, 5, 6, requires_grad=True)
theta = torch.tensor([[[0.8, 0.3, 0.1], [-0.2, 1.1, 0.05]]], requires_grad=True)
g = F.affine_grid(theta, (1, 2, 4, 4), align_corners=False)
o = F.grid_sample(img, g, mode="bicubic", padding_mode="reflection", align_corners=False)
print(o.grad_fn)
print(o)
(o ** 2).sum().backward()
print(img.grad)
print(theta.grad)
print(F.grid_sample(feat.double(), grid.double(), mode="bicubic").dtype)
