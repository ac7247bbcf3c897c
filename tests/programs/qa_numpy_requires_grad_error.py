# Corpus program, written for gradsh (no code copied). Modelled on "Fix: Can't call numpy() on
# Tensor that requires grad" (https://androidkt.com/fix-cant-call-numpy-on-tensor-that-requires-grad-use-tensor-detach-numpy-instead/)
# and the Stack Overflow answer collected at https://syntaxfix.com/question/485/pytorch-tensor-to-numpy-array:
# a.numpy() on a requires_grad tensor raising the RuntimeError, the fixes with .detach().numpy()
# and torch.no_grad(), the shared storage between a CPU tensor and its NumPy array (na[0][0] = 10
# changes a, even through detach()), .copy() / .clone() to break the sharing, and
# np.array(t) / t.tolist() on tensors with and without grad.
# Differences: our own code; each error caught and printed; no GPU part.
import numpy as np
import torch

a = torch.tensor([1, 2, 3.0], requires_grad=True)
try:
    print(a.numpy())
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.detach().numpy())
with torch.no_grad():
    b = a * 2
print(b.requires_grad, b.numpy())
try:
    np.array(a * 2)
except RuntimeError as e:
    print("RuntimeError:", e)
print((a * 2).tolist(), a.sum().item())

a = torch.ones((1, 2))
na = a.numpy()
na[0][0] = 10
print(na)
print(a)
a = torch.ones((1, 2))
na = a.numpy()
nac = na.copy()
nac[0][0] = 10
print(nac, na, a, sep="\n")
a = torch.ones((1, 2), requires_grad=True)
na = a.detach().numpy()
na[0][0] = 10
print(na)
print(a)
c = a.clone().detach().numpy()
c[0][1] = -1
print(c, a.detach().numpy())
t = torch.from_numpy(np.arange(4.0))
t += 1
print(t, t.dtype)
print(torch.tensor(np.arange(3, dtype=np.float32)).dtype, torch.as_tensor(np.arange(3)).dtype)
print(a.numpy(force=True))
x = torch.tensor([1.5], requires_grad=True)
print(float(x), int(x * 2))
try:
    x.data.numpy()[0] = 7.0
    print(x)
except RuntimeError as e:
    print("RuntimeError:", e)
