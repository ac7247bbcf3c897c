# Corpus program modelled on the Stack Overflow question "PyTorch: difference between reshape()
# and view() method" (https://stackoverflow.com/questions/79025552, answer quoted in the
# notebook https://github.com/alecoder1/PyTorch-Tutorial "Tensor_ops (Reshape & View)") and the
# post https://liu-nlp.ai/tdde09/blog/posts/2024-01-19/index.html that its answer links
# ("why does torch.randn(2, 3, 2).permute(0, 2, 1).view(-1) raise?"): shapes, strides,
# is_contiguous, data_ptr sharing, the view error and reshape's copy.
# Changed: data_ptr comparisons print booleans instead of addresses; errors are caught and
# printed; a seed. Written for gradsh.
import torch

x = torch.tensor([1, 2, 3, 4, 5], dtype=torch.float32)
x = x.reshape(-1, 1)
print(x)
x = x.view(x.shape[0], 1)
print(x)

torch.manual_seed(0)
x = torch.randn(2, 3, 2)
print(x.shape, x.stride(), x.is_contiguous())
print(x[1, 2, 0].item())
y = x.permute(0, 2, 1)
print(y.shape, y.stride(), y.is_contiguous())
try:
    y.view(-1)
except RuntimeError as e:
    print(e)
z = y.reshape(-1)
print(z)
print(z.data_ptr() == x.data_ptr(), x.view(-1).data_ptr() == x.data_ptr())
c = y.contiguous()
print(c.stride(), c.is_contiguous(), c.view(-1).equal(z))

a = torch.arange(12).reshape(3, 4)
b = a.t()
print(b, b.stride(), b.is_contiguous())
try:
    b.view(12)
except RuntimeError as e:
    print(e)
print(b.reshape(12))
print(b.contiguous().view(2, 6))
try:
    a.view(5, -1)
except RuntimeError as e:
    print(e)
try:
    a.reshape(-1, -1)
except RuntimeError as e:
    print(e)
print(a.view(2, -1, 2).shape, a.flatten().shape, a.unsqueeze(0).stride())
s = a[:, 1:3]
print(s, s.stride(), s.storage_offset(), s.is_contiguous())
s2 = s.reshape(6)
s2[0] = 100
print(a[0])
v = a.view(4, 3)
v[0, 0] = -1
print(a[0])
