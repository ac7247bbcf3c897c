# Corpus program modelled on the Stack Overflow question "How does Pytorch's "Fold" and
# "Unfold" work?" (read at its mirror https://newbe.dev/index.php/how-does-pytorch-s-fold-and-unfold-work)
# and its answers: Tensor.unfold(dimension, size, step) on a 1-D arange; 2-D patching with
# x2d.unfold(2, h, 1).unfold(3, w, 1).transpose(1, 3).reshape(-1, c, h, w); F.unfold to
# columns of kernel_size windows, a function applied to them and F.fold back, with fold
# summing the overlaps (divided out by folding ones); the reconstruction of two overlapping
# 2x3 patches taken with stride 2 from the follow-up answer.
# Changed: small sizes; the "foo" applied to the windows is a doubling. Written for gradsh.
import torch
from torch.nn import functional as f

x = torch.arange(1, 9).float()
print(x)
print(x.unfold(0, 2, 1))
print(x.unfold(0, 3, 2))

patch = (3, 3)
x = torch.arange(16).float()
print(x, x.shape)
x2d = x.reshape(1, 1, 4, 4)
print(x2d, x2d.shape)
h, w = patch
c = x2d.size(1)
print(c)
r = x2d.unfold(2, h, 1).unfold(3, w, 1).transpose(1, 3).reshape(-1, c, h, w)
print(r.shape)
print(r)

img = torch.arange(2 * 5 * 5, dtype=torch.float32).reshape(1, 2, 5, 5)
windows = f.unfold(img, kernel_size=3)
print(windows.shape)
print(windows[0, :, 0])
processed = windows * 2
out = f.fold(processed, img.shape[-2:], kernel_size=3)
counts = f.fold(torch.ones_like(windows), img.shape[-2:], kernel_size=3)
print(counts[0, 0])
print(torch.equal(out / counts, img * 2))
print(f.unfold(img, kernel_size=2, stride=2, padding=1).shape)
print(f.unfold(img, kernel_size=(2, 3), dilation=(2, 1)).shape)

result = torch.tensor([[1., 2., 4., 6., 7.], [1., 2., 4., 6., 7.]]).reshape(1, 1, 2, 5)
recovered = f.unfold(result, kernel_size=(2, 3), stride=2)
print(recovered)
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
b = torch.tensor([[7., 8., 9.], [10., 11., 12.]])
uf = torch.cat((a.view(1, 6, 1), b.view(1, 6, 1)), dim=2)
raw = f.fold(uf, (2, 5), kernel_size=(2, 3), stride=2)
print(raw)
cnt = f.fold(torch.ones_like(uf), (2, 5), kernel_size=(2, 3), stride=2)
print(raw / cnt)
unf = torch.nn.Unfold(kernel_size=2, stride=1)
fold = torch.nn.Fold(output_size=(3, 3), kernel_size=2)
print(unf, fold)
t = torch.randn(1, 1, 3, 3, generator=torch.Generator().manual_seed(0), requires_grad=True)
y = fold(unf(t))
y.sum().backward()
print(y)
print(t.grad)
