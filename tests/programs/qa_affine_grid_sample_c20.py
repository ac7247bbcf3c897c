# Corpus program modelled on the "Rotating non-square images using affine_grid" forum
# discussion (as collected in https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1) and
# F.affine_grid's documentation (https://pytorch.org/docs/main/generated/torch.nn.functional.affine_grid.html):
# theta is a (N, 2, 3) matrix in normalised coordinates, identity theta reproduces the input
# with align_corners=False, translation by 0.5 shifts a quarter width, a 90-degree rotation
# transposes, padding modes, a 3-D grid, and the gradient flows back to theta (the
# spatial-transformer use). Changed: a small arange "image", a seed; printed grids.
import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)
img = torch.arange(16.).view(1, 1, 4, 4)
identity = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
grid = F.affine_grid(identity, img.size(), align_corners=False)
print(grid.shape)
print(grid[0, 0])
out = F.grid_sample(img, grid, align_corners=False)
print(torch.allclose(out, img), out)

shift = torch.tensor([[[1., 0., 0.5], [0., 1., 0.]]])
print(F.grid_sample(img, F.affine_grid(shift, img.size(), align_corners=False), align_corners=False))
angle = math.pi / 2
rot = torch.tensor([[[math.cos(angle), -math.sin(angle), 0.], [math.sin(angle), math.cos(angle), 0.]]])
rotated = F.grid_sample(img, F.affine_grid(rot, img.size(), align_corners=False), align_corners=False)
print(rotated.round(decimals=4))
zoom = torch.tensor([[[0.5, 0., 0.], [0., 0.5, 0.]]])
for mode in ("bilinear", "nearest"):
    for pad in ("zeros", "border", "reflection"):
        o = F.grid_sample(img, F.affine_grid(zoom * 3, img.size(), align_corners=True),
                          mode=mode, padding_mode=pad, align_corners=True)
        print(mode, pad, o[0, 0, 0])

theta = (identity + 0.1 * torch.randn(1, 2, 3)).requires_grad_()
x = torch.randn(2, 3, 5, 5)
g = F.affine_grid(theta.expand(2, 2, 3), x.size(), align_corners=False)
y = F.grid_sample(x, g, align_corners=False)
loss = (y - x).pow(2).mean()
loss.backward()
print(loss, theta.grad)
g3 = F.affine_grid(torch.eye(3, 4).unsqueeze(0), (1, 1, 2, 2, 2), align_corners=False)
print(g3.shape, g3[0, 0, 0])
try:
    F.affine_grid(identity, (1, 1, 4), align_corners=False)
except Exception as e:
    print(type(e).__name__ + ":", e)
try:
    F.affine_grid(torch.eye(3).unsqueeze(0), img.size(), align_corners=False)
except Exception as e:
    print(type(e).__name__ + ":", e)
