# Corpus program modelled on the Chinese Q&A "PyTorch中的is_contiguous是什么含义?"
# (https://553668.com/manong/1385496.html, after https://zhuanlan.zhihu.com/p/64551412) and the
# CSDN answer on contiguous/view (https://blog.csdn.net/Mopes__/article/details/137185064):
# stride() and storage_offset() of slices, transposes and expand (stride 0), is_contiguous,
# view failing on a transposed tensor and reshape copying, data_ptr sharing, untyped_storage
# sizes, as_strided windows, and writes through a view reaching the base.
# Changed: small arange tensors; errors caught and printed.
import torch

a = torch.arange(12).view(3, 4)
print(a.stride(), a.storage_offset(), a.is_contiguous())
b = a.t()
print(b.stride(), b.is_contiguous(), b.data_ptr() == a.data_ptr())
try:
    b.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
r = b.reshape(12)
print(r, r.data_ptr() == a.data_ptr())
c = b.contiguous()
print(c.stride(), c.data_ptr() == a.data_ptr(), c.view(2, 6))
s = a[1:, 1::2]
print(s, s.stride(), s.storage_offset(), s.is_contiguous())
e = torch.tensor([1, 2, 3]).unsqueeze(1).expand(3, 4)
print(e.stride(), e.is_contiguous(), e.contiguous().stride())
print(len(a.untyped_storage()), a.untyped_storage().nbytes(), a.element_size(), a.nbytes)
print(s.untyped_storage().nbytes(), s.numel() * s.element_size())
w = torch.arange(10.).as_strided((4, 3), (2, 1))
print(w)
print(w.stride(), w.storage_offset())
x = torch.arange(10.).as_strided((3, 3), (3, 1), 1)
print(x)
v = a.view(4, 3)
v[0, 0] = 100
print(a[0], a._base is None, v._base is a)
sl = a[:, 1]
sl.fill_(-1)
print(a)
print(a.view(-1, 6).shape, a.view(2, -1, 3).stride())
try:
    a.view(5, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
n = torch.zeros(2, 3, 4).permute(2, 0, 1)
print(n.shape, n.stride(), n.is_contiguous(), n.is_contiguous(memory_format=torch.channels_last))
cl = torch.zeros(1, 3, 2, 2).to(memory_format=torch.channels_last)
print(cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last))
f = torch.arange(6.).view(2, 3).flip(1)
print(f, f.stride())
print(torch.arange(6).view(2, 3).T.flatten(), torch.arange(6).view(2, 3).T.ravel().is_contiguous())
u = torch.arange(8).unfold(0, 3, 2)
print(u, u.stride())
print(a.narrow(1, 1, 2).stride(), a.select(0, 2).stride(), a.diagonal().stride())
