# Corpus program, written for gradsh (no code copied). Modelled on the CSDN blog posts
# explaining torch.nn.functional.unfold / fold and nn.Unfold / nn.Fold ("PyTorch中的unfold和
# fold函数详解", e.g. https://blog.csdn.net/qq_34914551/article/details/102940368) and their
# usual demonstrations: unfold of a (1, 1, 4, 4) arange image with a 2x2 kernel (the columns
# printed and their shape (N, C*kh*kw, L)), stride and padding changing L, fold as the inverse
# of unfold where patches do not overlap, overlapping patches summed by fold (and divided by
# fold(unfold(ones)) to average), convolution written as unfold + matmul + view and checked
# against F.conv2d, Tensor.unfold on one dimension, nn.Unfold/nn.Fold modules and their reprs,
# and gradients through unfold.
# Differences: seeded random inputs where the posts use images; values printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(16.).view(1, 1, 4, 4)
print(x)
cols = F.unfold(x, kernel_size=2)
print(cols, cols.shape)
print(F.unfold(x, kernel_size=2, stride=2))
print(F.unfold(x, kernel_size=3, padding=1).shape, F.unfold(x, kernel_size=(2, 3), dilation=1, stride=(1, 1)).shape)
print(F.unfold(x, kernel_size=2, dilation=2))
patches = F.unfold(x, kernel_size=2, stride=2)
print(F.fold(patches, output_size=(4, 4), kernel_size=2, stride=2))
print(torch.equal(F.fold(patches, output_size=(4, 4), kernel_size=2, stride=2), x))
overlap = F.fold(cols, output_size=(4, 4), kernel_size=2)
print(overlap)
counts = F.fold(F.unfold(torch.ones_like(x), kernel_size=2), output_size=(4, 4), kernel_size=2)
print(counts)
print(overlap / counts)

torch.manual_seed(0)
inp = torch.randn(2, 3, 5, 6)
w = torch.randn(4, 3, 3, 3)
b = torch.randn(4)
inp_unf = F.unfold(inp, kernel_size=3, padding=1)
print(inp_unf.shape)
out_unf = inp_unf.transpose(1, 2).matmul(w.view(w.size(0), -1).t()).transpose(1, 2)
out = out_unf.view(2, 4, 5, 6) + b.view(1, -1, 1, 1)
ref = F.conv2d(inp, w, b, padding=1)
print(out.shape, (out - ref).abs().max() < 1e-5, torch.allclose(out, ref, atol=1e-5))
out2 = F.fold(out_unf, output_size=(5, 6), kernel_size=1) + b.view(1, -1, 1, 1)
print(torch.equal(out2, out))

t = torch.arange(1., 8)
print(t.unfold(0, 2, 1))
print(t.unfold(0, 3, 2))
m = torch.arange(12.).view(3, 4)
print(m.unfold(1, 2, 2), m.unfold(0, 2, 1).shape)
img = torch.arange(36.).view(1, 6, 6)
tiles = img.unfold(1, 3, 3).unfold(2, 3, 3)
print(tiles.shape)
print(tiles[0, 1, 0])
print(tiles.contiguous().view(1, -1, 9))

unfold = nn.Unfold(kernel_size=(2, 3), padding=(0, 1), stride=(2, 1))
fold = nn.Fold(output_size=(4, 5), kernel_size=(2, 3), padding=(0, 1), stride=(2, 1))
print(unfold, fold)
y = torch.randn(1, 2, 4, 5)
u = unfold(y)
print(u.shape, fold(u).shape)
print(fold(unfold(torch.ones(1, 2, 4, 5)))[0, 0])

z = torch.randn(1, 2, 4, 4, requires_grad=True)
F.unfold(z, kernel_size=2).pow(2).sum().backward()
print(z.grad[0, 0], torch.equal(z.grad, 2 * z.detach() * counts.expand(1, 2, 4, 4)))
try:
    F.fold(torch.randn(1, 5, 9), output_size=(4, 4), kernel_size=2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.unfold(torch.randn(3, 4), kernel_size=2)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__ + ":", e)
