# Corpus program, written for gradsh (no code copied). Modelled on GeeksforGeeks' series of
# one-function articles "Python - PyTorch <name>() method" (each builds a small tensor, calls
# the function with a few argument choices and prints input and output):
# https://www.geeksforgeeks.org/python-pytorch-addcmul-method/ (and the articles on addcdiv,
# lerp, logspace, trunc and frac, fmod and remainder, clamp, index_fill_, masked_select,
# narrow, chunk, tensor_split, roll, topk, kthvalue, argsort, histc, bincount, cumprod,
# logaddexp, trapezoid, diag_embed, tril/triu with a diagonal, unique with counts)
# Like the articles: literal inputs, the integer and floating results printed as PyTorch prints
# them (including float64, int32 and bool tensors), keyword variants (value=, weight=, dim=,
# largest=, descending=, return_counts=).
# Differences: all in one program; a seed for the random inputs.
import torch

torch.manual_seed(3)
t = torch.tensor([0.52, -1.3, 2.25, -0.75])
t1 = torch.tensor([[1.5], [-2.0], [0.25]])
t2 = torch.tensor([[0.1, 0.2, -0.3]])
print("addcmul:", torch.addcmul(t, t, torch.ones(4) * 2, value=0.5))
print("addcmul broadcast:\n", torch.addcmul(torch.zeros(3, 3), t1, t2, value=10))
print("addcdiv:", torch.addcdiv(t, t, torch.tensor([2.0, 4.0, -8.0, 0.5]), value=3))
start, end = torch.tensor([1., 2., 3., 4.]), torch.tensor([10., 10., 10., 10.])
print("lerp scalar:", torch.lerp(start, end, 0.5))
print("lerp tensor:", torch.lerp(start, end, torch.tensor([0.0, 0.25, 0.75, 1.0])))
print("logspace:", torch.logspace(start=-2, end=2, steps=5))
print("logspace base 2:", torch.logspace(0, 4, 5, base=2, dtype=torch.float64))
x = torch.tensor([3.7, -3.7, 0.5, -0.2, 9.99])
print("trunc/frac:", torch.trunc(x), torch.frac(x))
a = torch.tensor([-7, -3, 3, 7], dtype=torch.int32)
print("fmod/remainder:", torch.fmod(a, 3), torch.remainder(a, 3), torch.remainder(a.float(), -2.5))
print("clamp:", torch.clamp(x, min=-1, max=1), x.clamp(max=0.3), x.clamp(min=torch.tensor(0.0)))
m = torch.arange(12.).view(3, 4)
print("index_fill_:\n", m.clone().index_fill_(1, torch.tensor([0, 2]), -1))
print("masked_select:", torch.masked_select(m, m > 6.5))
print("narrow:\n", torch.narrow(m, 1, 1, 2))
print("chunk:", torch.chunk(torch.arange(10), 4))
print("tensor_split:", torch.tensor_split(torch.arange(7), 3), torch.tensor_split(torch.arange(7), [1, 5]))
print("roll:\n", torch.roll(m, shifts=(1, -1), dims=(0, 1)), torch.roll(torch.arange(5), 2))
r = torch.randn(2, 6)
print("random:", r)
print("topk:", torch.topk(r, 3), torch.topk(r, 2, dim=0, largest=False))
print("kthvalue:", torch.kthvalue(r, 2, dim=1, keepdim=True))
print("argsort:", torch.argsort(r, dim=1, descending=True))
print("histc:", torch.histc(torch.tensor([1., 2, 1, 4, 4, 4, 3]), bins=4, min=0, max=4))
print("bincount:", torch.bincount(torch.tensor([0, 1, 1, 3])),
      torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 0.25, 2.0]), minlength=6))
print("cumprod:", torch.cumprod(torch.tensor([1, 2, 3, 4, 5]), dim=0), torch.cumprod(m, dim=1))
print("logaddexp:", torch.logaddexp(torch.tensor([-100.0, 0.0, 100.0]), torch.tensor([-100.0, 1.0, 100.0])))
print("trapezoid:", torch.trapezoid(torch.tensor([1., 4., 9.]), torch.tensor([0., 1., 3.])))
print("diag_embed:\n", torch.diag_embed(torch.tensor([[1, 2], [3, 4]]), offset=1))
print("tril/triu:\n", torch.tril(m, diagonal=-1), torch.triu(m, 1))
u = torch.tensor([4, 1, 4, 2, 1, 4])
print("unique:", torch.unique(u), torch.unique(u, sorted=True, return_inverse=True, return_counts=True))
print("bool ops:", torch.logical_xor(m > 3, m < 8), (m > 3).sum(dim=1), (m > 3).any(), (m > 3).all(dim=0))
print("float64:", torch.tensor([1 / 3, 2e-10, 12345.678], dtype=torch.float64))
print("int division:", torch.div(a, 2, rounding_mode='floor'), torch.div(a, 2, rounding_mode='trunc'), a // 2)
print("sign/sgn/signbit:", torch.sign(x), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])))
