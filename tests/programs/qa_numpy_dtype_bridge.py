# Corpus program, written for gradsh (no code copied). Modelled on the blog post "How to Unify
# Data Types When Converting NumPy Arrays to PyTorch Tensors"
# (https://yuhi-sa.github.io/en/posts/20210215_pytorch_dtype/1: a float64 array stays float64
# through torch.tensor; astype(np.float32) first) and on the torch.tensor / torch.as_tensor /
# torch.from_numpy documentation (https://pytorch.org/docs/stable/generated/torch.tensor.html:
# tensor() always copies, as_tensor() and from_numpy() share the array's memory).
# Written for gradsh; a seeded NumPy generator instead of np.random.rand.
import numpy as np
import torch

rng = np.random.default_rng(7)
x = rng.random(5)
print(x.dtype)
t = torch.tensor(x)
print(t, t.dtype)
t32 = torch.tensor(x.astype(np.float32))
print(t32, t32.dtype)

# a float32 model weight against float64 data: the result is float64
w = torch.ones(5, requires_grad=True)
y = (w * t).sum()
print(y, y.dtype)
y.backward()
print(w.grad, w.grad.dtype)

# copies and shared memory
a = np.arange(4.0)
copied = torch.tensor(a)
shared = torch.from_numpy(a)
viewed = torch.as_tensor(a)
a[0] = 100.0
print(copied, shared, viewed)
shared[1] = -1.0
print(a)
back = shared.numpy()
back[2] = 42.0
print(shared, back.dtype, type(back).__name__)

# dtype rules of NumPy scalars and lists of them
print(torch.tensor(np.float64(2.5)), torch.tensor([np.float32(1), np.float32(2)]))
print(torch.tensor([np.int32(1), np.int32(2)]).dtype, torch.tensor([np.int64(1), 2.5]).dtype)
print(torch.as_tensor([1, 2, 3], dtype=torch.float64))
ints = np.array([[1, 2], [3, 4]], dtype=np.int32)
print(torch.from_numpy(ints), torch.from_numpy(ints).dtype)
try:
    torch.from_numpy(np.array(["a", "b"]))
except TypeError as err:
    print("TypeError:", err)
