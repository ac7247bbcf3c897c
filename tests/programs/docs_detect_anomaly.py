# Corpus program, written for gradsh (no code copied). Modelled on the docstring example of
# torch.autograd.detect_anomaly / set_detect_anomaly, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/autograd/anomaly_mode.py
# Like the docs: a custom Function whose backward raises, run once normally and once inside
# `with autograd.detect_anomaly():` (which also prints, on stderr, the traceback of the
# forward call); plus anomaly mode catching a NaN produced in backward (sqrt at 0 times 0).
# Differences: our own code; the errors are caught and printed (stdout only is compared).
import torch
from torch import autograd

torch.manual_seed(0)


class Broken(autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("backward of Broken failed on purpose")


def loss_of(x):
    return Broken.apply(x).sum()


x = torch.rand(4, 4, requires_grad=True)
try:
    loss_of(x).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

try:
    with autograd.detect_anomaly():
        x = torch.rand(4, 4, requires_grad=True)
        loss_of(x).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

z = torch.zeros(3, requires_grad=True)
(torch.sqrt(z) * 0).sum().backward()
print(z.grad)
z.grad = None
try:
    with autograd.detect_anomaly():
        (torch.sqrt(z) * 0).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.is_anomaly_enabled())
