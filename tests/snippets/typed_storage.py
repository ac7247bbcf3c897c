"""Tensor.storage() as the Chinese pytorch-book (chapter 3, Tensor and Storage) uses it: shared
storage ids, its print, offsets, torch.Tensor(storage) sharing memory; the deprecation warning."""
import torch
a = torch.arange(0, 6).float()
b = a.view(2, 3)
print(id(b.storage()) == id(a.storage()))
s = a.storage()
print(s)
print(type(s), len(s), s[1], s.size(), s.dtype, s.device, s.element_size(), s.nbytes())
print(s.tolist())
c = a[2:]
print(c.storage_offset(), c.storage().data_ptr() == a.storage().data_ptr(), c.data_ptr() - a.data_ptr())
d = torch.Tensor(c.storage())
d[0] = 6666
print(b, d.storage_offset())
print(torch.ones(2, dtype=torch.int64).storage())
s[0] = 5
print(a)
print(torch.ones(2, 2, requires_grad=True).storage())
e = torch.tensor([1, 2, 3], dtype=torch.float64)
print(e.storage().type(), a.storage().type())
print(a.untyped_storage().nbytes())
