# np.array(tensor) under NumPy 2: PyTorch's Tensor.__array__ takes no copy keyword, so
# np.array (which passes one) warns once per line, np.asarray does not, and copy=False fails.
import numpy as np
import torch

t = torch.ones(2)
a = np.array(t)
b = np.asarray(t)
for kw in [{}, {"copy": True}, {"copy": False}, {"dtype": np.int64}]:
    try:
        print(kw, np.array(t, **kw))
    except ValueError as e:
        print("ValueError:", e)
print(a, b, np.stack([t, t]).shape)


def to_numpy(x):
    return np.array(x)


print(to_numpy(t), to_numpy(t * 2))
w = torch.randn(3, requires_grad=True)
try:
    np.array(w)
except RuntimeError as e:
    print("RuntimeError:", e)
