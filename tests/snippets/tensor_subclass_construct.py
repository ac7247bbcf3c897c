# A torch.Tensor subclass built from data (torch/serialization.py's docstring): MyTensor(t),
# MyTensor(list) and MyTensor(2, 3) are instances of the subclass and print with its name.
# (Ops on one give plain tensors in gradsh; PyTorch keeps the subclass.)
import torch
import io
torch.manual_seed(0)
class MyTensor(torch.Tensor):
    pass
t = MyTensor(torch.randn(2, 3))
print(type(t).__name__, t.shape, t.requires_grad, isinstance(t, torch.Tensor))
u = MyTensor([1., 2.])
print(type(u).__name__, u.tolist(), MyTensor(2, 3).shape)
buf = io.BytesIO()
torch.save(torch.ones(2), buf)
print(len(buf.getvalue()) > 0)
print(t)
print(u, repr(MyTensor([[1, 2], [3, 4]])))
class P(torch.nn.Parameter):
    pass
print(torch.nn.Parameter(torch.ones(1)), torch.nn.Buffer(torch.ones(1)))
