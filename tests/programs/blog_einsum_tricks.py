# Corpus program, written for gradsh (no code copied). Modelled on the einsum notes at
# https://azrilhafizi.github.io/notes/einsum (permutation, full sum, column and row sums,
# matrix-vector and matrix-matrix products on a 2x3 rand tensor),
# https://zhoutimemachine.github.io/note/readings/NNbasics/einsum (the integer outer product
# of [1, 0, -1] and [1..5], batch matrix multiplication with a seeded generator) and
# https://jiaqicai.com/pytorch (trace, diagonal, batch diagonal, batch permute, the bilinear
# form 'bn,anm,bm->ba', the sublist format with ellipsis); each einsum checked against the
# equivalent explicit operation, and a gradient through an einsum.
# Differences: our own code; seeded; values printed with 4 decimals.
import torch

torch.set_printoptions(precision=4)
torch.manual_seed(0)
x = torch.rand((2, 3))
print(torch.einsum("ij -> ji", x))
print(torch.einsum("ij ->", x))
print(torch.einsum("ij -> j", x))
print(torch.einsum("ij -> i", x))
v = torch.rand((1, 3))
print(torch.einsum("ij, kj -> ik", x, v))
print(torch.einsum("ij, kj -> ik", x, x))

a = torch.tensor([1, 0, -1])
b = torch.tensor([1, 2, 3, 4, 5])
print(torch.einsum("i,j->ij", a, b))

generator = torch.manual_seed(12)
A = torch.rand((3, 2, 5), generator=generator)
B = torch.rand((3, 5, 3), generator=generator)
C = torch.einsum("ijk,ikl->ijl", A, B)
print(C.shape, torch.allclose(C, torch.bmm(A, B)))

M = torch.arange(16.0).reshape(4, 4)
print(torch.einsum("ii", M), torch.einsum("ii->i", M))
Mb = torch.arange(18.0).reshape(2, 3, 3)
print(torch.einsum("...ii->...i", Mb))
P = torch.randn(2, 3, 4, 5)
print(torch.einsum("...ij->...ji", P).shape)

W = torch.randn(3, 5, 4)
left = torch.randn(2, 5)
right = torch.randn(2, 4)
bil = torch.einsum("bn,anm,bm->ba", left, W, right)
print(bil.shape, torch.allclose(bil, torch.nn.functional.bilinear(left, right, W), atol=1e-5))
As = torch.randn(3, 2, 5)
Bs = torch.randn(3, 5, 4)
s1 = torch.einsum(As, [..., 0, 1], Bs, [..., 1, 2], [..., 0, 2])
print(torch.allclose(s1, torch.einsum("bij,bjk->bik", As, Bs)))

w = torch.randn(3, 4, requires_grad=True)
inp = torch.randn(5, 4)
out = torch.einsum("oi,bi->bo", w, inp)
out.pow(2).sum().backward()
print(out.grad_fn)
print(torch.allclose(w.grad, 2 * out.t() @ inp, atol=1e-5))
try:
    torch.einsum("ij,jk->ik", torch.randn(2, 3), torch.randn(4, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
