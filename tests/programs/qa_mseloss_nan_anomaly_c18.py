# Corpus program modelled on the discuss.pytorch.org thread "Function 'MseLossBackward' returned
# nan values in its 0th output" (https://discuss.pytorch.org/t/function-mselossbackward-returned-nan-values-in-its-0th-output/94875)
# and the CSDN write-up of it (https://e-com-net.com/article/1610540118618177536.htm): the
# thread's torch.sqrt(criterion(x * 0, y)) gives a nan gradient, which anomaly detection turns
# into "Function '...Backward0' returned nan values in its 0th output"; abs at 0 is fine, sqrt
# at 0 is not; then the usual causes the answers list (log of 0, x * log(x), the torch.where
# trap) and fixes (isnan/isfinite checks, the double-where, nan_to_num, clamping before BCE).
# Changed: tiny synthetic tensors instead of the posters' models; the anomaly errors are caught
# and printed (their forward tracebacks go to stderr, which is not compared). Written for gradsh.
import warnings

import torch

warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.randn(1, 1, requires_grad=True)
y = torch.zeros(1, 1)
criterion = torch.nn.MSELoss()
loss = torch.sqrt(criterion(x * 0, y))
loss.backward()
print(x.grad)
x.grad = None
with torch.autograd.set_detect_anomaly(True):
    loss = torch.sqrt(criterion(x * 0, y))
    try:
        loss.backward()
    except RuntimeError as e:
        print(e)
    a = torch.randn(1, requires_grad=True)
    loss = torch.abs((a * 0))
    loss.backward()
    print(a.grad)
    a.grad = None
    loss = torch.sqrt(torch.abs(a * 0))
    try:
        loss.backward()
    except RuntimeError as e:
        print(e)
print(x.grad, a.grad)

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = torch.sqrt(x)
y.sum().backward()
print(y, x.grad)

x.grad = None
loss = -(torch.log(x) * torch.tensor([0.0, 1.0, 1.0])).sum()
print(loss)
loss.backward()
print(x.grad, torch.isnan(x.grad).any().item(), torch.isfinite(x.grad))

x.grad = None
with torch.autograd.detect_anomaly():
    out = (x * torch.log(x)).sum()
    print(out)
    try:
        out.backward()
    except RuntimeError as e:
        print(e)

x.grad = None
with torch.autograd.set_detect_anomaly(True):
    z = torch.where(x > 0, x.log(), torch.zeros_like(x))
    print(z)
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(e)
print(x.grad)
print(torch.is_anomaly_enabled())

x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
z = torch.where(x > 0, safe.log(), torch.zeros_like(x))
z.sum().backward()
print(z, x.grad)

t = torch.tensor([float("nan"), float("inf"), -float("inf"), 3.14, -0.0])
print(torch.nan_to_num(t))
print(torch.nan_to_num(t, nan=0.0, posinf=1e4, neginf=-1e4))
print(t.nan_to_num(nan=-1.0).dtype, torch.isnan(t), torch.isinf(t), torch.isposinf(t))
print(torch.tensor([float("nan"), 1.0]).max(), torch.tensor([float("nan"), 1.0]).nanmean())
print(torch.nansum(t[:1]), torch.tensor([1.0, float("nan")]).sum())
p = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
bce = torch.nn.functional.binary_cross_entropy(p, torch.tensor([0.0, 1.0, 1.0]))
print(bce)
bce.backward()
print(p.grad)
eps = 1e-7
pc = p.detach().clamp(eps, 1 - eps).requires_grad_()
manual = -(torch.tensor([0.0, 1.0, 1.0]) * pc.log() + (1 - torch.tensor([0.0, 1.0, 1.0])) * (1 - pc).log()).mean()
manual.backward()
print(manual, pc.grad)
