# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs page
# "Tensor Views", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/tensor_view.rst
# Like the docs: t.view(2, 8) shares storage with t (same data_ptr of the untyped storage),
# a write through the view is seen by the base, transpose gives a non-contiguous view and
# .contiguous() copies; the list of view ops (basic slicing, view_as, unsqueeze, expand,
# narrow, unflatten, split, chunk, unbind, diagonal, T, movedim, detach) and of
# ops that may or may not return a view (reshape, flatten); ._base of a view.
# Differences: our own code and values; every claim checked and printed; as_strided and the
# complex-only view_as_real are left out.
import torch

t = torch.rand(4, 4)
b = t.view(2, 8)
print(t.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
b[0][0] = 3.14
print(t[0][0])
print(b._base is t, t._base)

base = torch.tensor([[0, 1], [2, 3]])
print(base.is_contiguous())
tt = base.transpose(0, 1)
print(tt.is_contiguous(), tt.stride(), base.stride())
c = tt.contiguous()
print(c.is_contiguous(), c.stride(), c.data_ptr() == base.data_ptr())

x = torch.arange(12.0)
views = {
    "slice": x[2:8:2],
    "view_as": x.view_as(torch.empty(3, 4)),
    "unsqueeze": x.unsqueeze(0),
    "expand": x[:3].unsqueeze(1).expand(3, 4),
    "narrow": x.view(3, 4).narrow(1, 1, 2),
    "unflatten": x.unflatten(0, (2, 6)),
    "split": x.split(5)[1],
    "chunk": x.chunk(3)[2],
    "unbind": x.view(3, 4).unbind(1)[0],
    "diagonal": x.view(3, 4).diagonal(),
    "T": x.view(3, 4).T,
    "movedim": x.view(2, 3, 2).movedim(0, 2),
    "detach": x.detach(),
    "select": x.view(3, 4)[1],
    "permute": x.view(2, 2, 3).permute(2, 0, 1),
    "squeeze": x.view(1, 12).squeeze(0),
}
for name, v in views.items():
    print(f"{name:12s} shares={v.untyped_storage().data_ptr() == v._base.untyped_storage().data_ptr() if v._base is not None else None} "
          f"base={v._base is not None} contiguous={v.is_contiguous()} shape={tuple(v.shape)} "
          f"stride={v.stride()} offset={v.storage_offset()}")

r = x.view(3, 4).t().reshape(12)
print(r._base is None, r.is_contiguous())
r2 = x.view(3, 4).reshape(12)
print(r2._base is x)
f = x.view(3, 4).t().flatten()
print(f._base is None)
y = x.view(3, 4)
y.add_(1)
print(x)
e = torch.tensor([1.0, 2.0]).expand(3, 2)
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    tt.view(4)
except RuntimeError as err:
    print("RuntimeError:", err)
print(tt.reshape(4))
