# Corpus program, written for gradsh (no code copied). Modelled on fkodom/fft-conv-pytorch,
# fft_conv_pytorch/fft_conv.py (https://github.com/fkodom/fft-conv-pytorch): convolution as
# rfftn of the padded signal and kernel, the kernel's spectrum conjugated in place through
# `.imag *= -1`, a complex "matmul" over channels built from the real and imaginary parts
# (assigned to a zero complex tensor's .real / .imag), irfftn, a crop with the stride, and the
# bias; checked against torch.nn.functional.conv1d as the repository's tests do.
# Differences: 1-D only, no dilation / groups / padding modes, small sizes, a seed; the outputs,
# their difference from conv1d and the gradients of both paths are printed.
import torch
import torch.nn.functional as F
from torch.fft import irfftn, rfftn

torch.manual_seed(0)


def complex_matmul(a, b):
    """(batch, in, freq) x (out, in, freq) -> (batch, out, freq), per frequency."""
    a = a.unsqueeze(1)  # (batch, 1, in, freq)
    real = (a.real * b.real - a.imag * b.imag).sum(2)
    imag = (a.imag * b.real + a.real * b.imag).sum(2)
    c = torch.zeros(real.shape, dtype=torch.complex64)
    c.real, c.imag = real, imag
    return c


def fft_conv1d(signal, kernel, bias=None, padding=0, stride=1):
    signal = F.pad(signal, [padding, padding])
    signal_ = F.pad(signal, [0, 1]) if signal.size(-1) % 2 != 0 else signal
    padded_kernel = F.pad(kernel, [0, signal_.size(-1) - kernel.size(-1)])
    signal_fr = rfftn(signal_, dim=(2,))
    kernel_fr = rfftn(padded_kernel, dim=(2,))
    kernel_fr.imag *= -1
    output = irfftn(complex_matmul(signal_fr, kernel_fr), dim=(2,))
    output = output[:, :, 0:signal.size(-1) - kernel.size(-1) + 1:stride].contiguous()
    if bias is not None:
        output = output + bias.view(1, -1, 1)
    return output


signal = torch.randn(2, 3, 21)
kernel = torch.randn(4, 3, 5)
bias = torch.randn(4)
for padding, stride in ((0, 1), (2, 1), (1, 2)):
    out = fft_conv1d(signal, kernel, bias, padding=padding, stride=stride)
    ref = F.conv1d(signal, kernel, bias, padding=padding, stride=stride)
    print(padding, stride, out.shape, ref.shape, torch.allclose(out, ref, atol=1e-5),
          "max diff below 1e-5:", (out - ref).abs().max().item() < 1e-5)
print(out[0, :2])

# gradients through both paths
w1 = kernel.clone().requires_grad_(True)
w2 = kernel.clone().requires_grad_(True)
x1 = signal.clone().requires_grad_(True)
x2 = signal.clone().requires_grad_(True)
fft_conv1d(x1, w1, padding=2).pow(2).sum().backward()
F.conv1d(x2, w2, padding=2).pow(2).sum().backward()
print("kernel grads close:", torch.allclose(w1.grad, w2.grad, rtol=1e-4, atol=1e-3))
print("signal grads close:", torch.allclose(x1.grad, x2.grad, rtol=1e-4, atol=1e-3))
print(w1.grad[0, 0])
print(x1.grad[0, 0, :6])

# the spectra themselves
spec = rfftn(F.pad(signal, [0, 1]), dim=(2,))
print(spec.shape, spec.dtype, spec[0, 0, :3])
