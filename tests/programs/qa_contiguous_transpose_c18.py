# Corpus program modelled on the Stack Overflow question "What does .contiguous() do in
# PyTorch?" (https://stackoverflow.com/questions/48915810) and its top answers: transpose()
# shares memory with its input (x[0, 0] = 42 shows through y), narrow/expand/transpose change
# only strides and offsets, view() on the non-contiguous result raises, contiguous() copies.
# Changed: a seed and an integer arange instead of random data in the later steps; the view
# error is caught and printed; data_ptr comparisons print booleans. Written for gradsh.
import torch

torch.manual_seed(0)
x = torch.randn(3, 2)
y = torch.transpose(x, 0, 1)
x[0, 0] = 42
print(y[0, 0])
print(x.is_contiguous(), y.is_contiguous())
print(x.stride(), y.stride())

t = torch.arange(12).view(3, 4)
print(t)
tt = t.t()
print(tt, tt.stride(), tt.is_contiguous())
try:
    tt.view(12)
except RuntimeError as e:
    print(e)
c = tt.contiguous()
print(c.view(12))
print(c.stride(), c.data_ptr() == tt.data_ptr(), t.contiguous().data_ptr() == t.data_ptr())

n = t.narrow(1, 1, 2)
print(n, n.stride(), n.storage_offset(), n.is_contiguous())
e = torch.tensor([[1], [2], [3]]).expand(3, 4)
print(e, e.stride(), e.is_contiguous())
print(e.contiguous().stride())
r = tt.reshape(2, 6)
print(r, r.is_contiguous())
p = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)
print(p.shape, p.stride(), p.is_contiguous())
print(p.contiguous().stride())
print(p.flatten()[:8])
s = t[:, ::2]
print(s, s.stride(), s.is_contiguous())
print(t.T.is_contiguous(memory_format=torch.contiguous_format))
