# Corpus program modelled on the PyTorch issue "[BUG?] Strided transposed convolution returning
# wrong shape" (https://github.com/pytorch/pytorch/issues/5057): the reporter's adjointness test
# dot(conv(x), y) == dot(x, conv_transpose(y)) on float64 signals from numpy, for 1-D and 2-D
# kernels and strides; with a stride the transposed convolution's output can be one short of
# x's shape, which the answers fix with output_padding; and the error PyTorch gives for an
# output_padding that is too large (see also pull request #195043).
# Changed: numpy's RandomState instead of sklearn's check_random_state, fewer configurations;
# the dot products are printed with the shapes. Written for gradsh.
import numpy as np
import torch
from torch.nn import functional as F


def test_convolution_adjointness(signal_spatial_shape, kernel_spatial_shape, stride,
                                 conv=F.conv2d, conv_transpose=F.conv_transpose2d,
                                 random_state=42, n_samples=2, n_in_channels=2,
                                 n_out_channels=3):
    rng = np.random.RandomState(random_state)
    signal = torch.from_numpy(rng.randn(n_samples, n_in_channels, *signal_spatial_shape))
    kernel = torch.from_numpy(rng.randn(n_out_channels, n_in_channels, *kernel_spatial_shape))
    convolved = conv(signal, kernel, stride=stride)
    other = torch.from_numpy(rng.randn(*convolved.shape))
    transposed = conv_transpose(other, kernel, stride=stride)
    print(tuple(signal.shape), tuple(convolved.shape), tuple(transposed.shape))
    if transposed.shape != signal.shape:
        missing = [s - t for s, t in zip(signal.shape[2:], transposed.shape[2:])]
        transposed = conv_transpose(other, kernel, stride=stride, output_padding=missing)
        print("output_padding", missing, tuple(transposed.shape))
    dot1 = (convolved * other).sum()
    dot2 = (signal * transposed).sum()
    print(dot1.item(), dot2.item(), abs(dot1 - dot2).item() < 1e-10)
    return transposed


test_convolution_adjointness((10, 10), (3, 3), 1)
test_convolution_adjointness((10, 10), (3, 3), 2)
out = test_convolution_adjointness((11, 9), (4, 2), (3, 2))
print(out.dtype, out[0, 0, :2, :4])
test_convolution_adjointness((17,), (5,), 2, conv=F.conv1d, conv_transpose=F.conv_transpose1d)

rng = np.random.RandomState(0)
x = torch.from_numpy(rng.randn(1, 2, 4, 4)).requires_grad_()
w = torch.from_numpy(rng.randn(2, 3, 3, 3)).requires_grad_()
b = torch.from_numpy(rng.randn(3)).requires_grad_()
y = F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)
print(y.shape, y.grad_fn)
y.pow(2).sum().backward()
print(x.grad[0, 0])
print(w.grad[0, 0])
print(b.grad)
try:
    F.conv_transpose2d(x, w, stride=1, output_padding=1)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.gradcheck(lambda t: F.conv_transpose2d(t, w.detach(), stride=2),
                               (x.detach().clone().requires_grad_(),)))
