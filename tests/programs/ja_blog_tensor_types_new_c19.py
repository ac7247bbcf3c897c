# Corpus program, written for gradsh (no code copied). Modelled on two Japanese blog posts:
# ReSpade's Qiita article "PyTorchにおけるTensorの基本操作と型変換"
# (https://qiita.com/ReSpade/items/167f608c0f3c2b9f43ce): dtype of torch.tensor([1, 2, 3]),
# torch.FloatTensor / torch.LongTensor from lists (floats truncated), rand / randn / zeros /
# ones, the *_like initialisers on an integer tensor, shape / dtype / device attributes and
# NumPy conversion; and iifx.dev's "Tensor.newメソッドを使いこなして新しいTensorを生成しよう"
# (https://iifx.dev/ja/articles/273731744): tensor.new(2, 3), tensor.new with a dtype=
# keyword, torch.Tensor.new(value, (3, 4)) called on a Python int, and
# torch.Tensor.new_empty(...).uniform_(0, 10) called on the class.
# Like the posts: the same calls; where a call fails under current PyTorch (rand_like of an
# int64 tensor, the new() variants the second post shows) the error is caught and its type
# and message printed instead of the post's claimed output.
# Differences: seeded; uninitialised memory from new() / new_empty() is reported by shape and
# dtype only, never printed.
import numpy as np
import torch

torch.manual_seed(0)
t = torch.tensor([1, 2, 3])
print(t.dtype)
t = torch.FloatTensor([1, 2, 3])
print(t.dtype, t)
t = torch.LongTensor([1.0, 2.0, 3.3])
print(t.dtype, t)
print(torch.rand(2, 3))
print(torch.randn(2, 3))
print(torch.zeros(2, 3))
print(torch.ones(2, 3))
print(torch.zeros_like(t))
print(torch.ones_like(t))
for call in (lambda: torch.rand_like(t), lambda: torch.randn_like(t),
             lambda: torch.rand_like(t, dtype=torch.float), lambda: torch.randint_like(t, 10),
             lambda: torch.full_like(t, 7.9), lambda: torch.empty_like(t).shape):
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.rand(3, 4)
print(f"Shape of tensor: {x.shape}")
print(f"Datatype of tensor: {x.dtype}")
print(f"Device tensor is stored on: {x.device}")
device = 'cuda' if torch.cuda.is_available() else 'cpu'
print(x.to(device).device, x.is_cuda)
n = x.numpy()
print(type(n), n.dtype, n.shape)
x.add_(1)
print(n[0])
b = torch.from_numpy(np.arange(6).reshape(2, 3))
print(b, b.dtype, b.float().dtype, b.double(), b.to(torch.int8), b.bool(), b.half())
print(b.type(), b.type(torch.FloatTensor), b.type('torch.IntTensor'))
print(torch.tensor(np.array([1.5, 2.5])), torch.tensor(np.array([1.5, 2.5]), dtype=torch.float32))
print(torch.as_tensor([True, False]), torch.tensor([1, 2], dtype=torch.uint8) * 200)

tensor = torch.randn(3, 4)
new_tensor = tensor.new(2, 3)
print(new_tensor.shape, new_tensor.dtype, new_tensor.requires_grad)
for label, call in (
        ("new(2, 3, dtype=int64)", lambda: tensor.new(2, 3, dtype=torch.int64)),
        ("Tensor.new(5, (3, 4))", lambda: torch.Tensor.new(5, (3, 4))),
        ("Tensor.new_empty((3, 4), dtype=float)",
         lambda: torch.Tensor.new_empty((3, 4), dtype=torch.float).uniform_(0, 10)),
        ("new([1, 2])", lambda: tensor.new([1, 2])),
        ("new((2, 2))", lambda: tensor.new((2, 2))),
        ("new(torch.Size([2, 2])).shape", lambda: tensor.new(torch.Size([2, 2])).shape),
        ("new_empty((3, 4)).uniform_(0, 10) >= 0",
         lambda: tensor.new_empty((3, 4)).uniform_(0, 10).ge(0).all()),
        ("new_full", lambda: tensor.new_full((2, 2), 5)),
        ("new_tensor", lambda: tensor.new_tensor([[1, 2], [3, 4]])),
        ("new_ones int", lambda: tensor.new_ones((2,), dtype=torch.int64)),
        ("new().shape", lambda: tensor.new().shape)):
    try:
        print(label, "->", call())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)
