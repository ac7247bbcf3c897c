# Corpus program, written for gradsh (no code copied). Modelled on PyTorch's note "Numerical
# accuracy": https://github.com/pytorch/pytorch/blob/main/docs/source/notes/numerical_accuracy.rst
# (https://pytorch.org/docs/stable/notes/numerical_accuracy.html)
# Like the note: floating point is not associative (sums in another order); batched products
# against the product of one batch element ((A@B)[0] vs A[0]@B[0]) and a slice's reduction
# against the reduction's slice (A.sum(-1)[0] vs A[0].sum()), printed as the bit-equality the
# note says is not guaranteed and as the size of the difference; extremal values (the norm of
# [1e20, 1e20] overflows in float32, not in float64); torch.isfinite before linalg; an
# ill-conditioned matrix's svdvals and cond; the TF32 and reduced-precision flags it names
# (torch.backends.cuda.matmul.allow_tf32, fp32_precision, cudnn.allow_tf32,
# allow_fp16/bf16_reduced_precision_reduction) and torch.get_float32_matmul_precision;
# float16 overflow in a product whose result is representable; finfo of the dtypes.
# Differences: small seeded inputs; values printed where the note describes them.
import torch

a = torch.tensor([1e20, 1e20])
print(a.norm())
print(a.double().norm())
print(torch.tensor([1e20, 1e20]).pow(2).sum().sqrt(), torch.linalg.vector_norm(a / 1e20) * 1e20)

x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float32)
print((x[0] + x[1]) + x[2] == x[0] + (x[1] + x[2]), ((x[0] + x[1]) + x[2]).item(), (x[0] + (x[1] + x[2])).item())
y = torch.tensor([1e8, 1.0, -1e8])
print(y.sum(), (y[0] + y[2]) + y[1], y.double().sum())

torch.manual_seed(0)
A = torch.randn(4, 33, 47)
B = torch.randn(4, 47, 29)
batched = (A @ B)[0]
single = A[0] @ B[0]
print(torch.equal(batched, single), (batched - single).abs().max())
print(torch.allclose(batched, single), torch.allclose(torch.bmm(A, B), torch.stack([a @ b for a, b in zip(A, B)])))
M = torch.randn(257, 300)
print(torch.equal(M.sum(-1)[0], M[0].sum()), (M.sum(-1)[0] - M[0].sum()).abs().item())
print(torch.equal(M.sum(0)[5], M[:, 5].sum()), (M.sum(0)[5] - M[:, 5].sum()).abs().item())
print(M.sum(), M.double().sum().float(), M.sum(0).sum(), M.sum(1).sum())

bad = torch.tensor([[1.0, float("inf")], [float("nan"), 2.0]])
print(torch.isfinite(bad), torch.isfinite(bad).all())
print(torch.isinf(bad), torch.isnan(bad), torch.nan_to_num(bad, nan=0.0, posinf=1e4))
eps = 1e-7
ill = torch.tensor([[1.0, 1.0], [1.0, 1.0 + eps]])
print(torch.linalg.svdvals(ill), torch.linalg.cond(ill))
ill64 = ill.double()
ill64[1, 1] = 1.0 + eps
print(torch.linalg.svdvals(ill64), torch.linalg.cond(ill64))
print(torch.linalg.cond(torch.eye(3)), torch.linalg.cond(torch.diag(torch.tensor([1.0, 10.0, 100.0]))))

print(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
print(torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
      torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
print(torch.get_float32_matmul_precision())

h = torch.full((4, 300), 20.0, dtype=torch.float16)
w = torch.full((300, 2), 20.0, dtype=torch.float16)
print((h @ w), (h.float() @ w.float()))
print(torch.tensor(60000.0, dtype=torch.float16) * 2, torch.tensor(60000.0, dtype=torch.float16).float() * 2)
print(torch.tensor([65504.0, 65520.0, 1e-8], dtype=torch.float16))
print(torch.tensor([3.0e38, 3.5e38, 1e-46]), torch.tensor([3.0e38]).bfloat16())
for dt in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    print(torch.finfo(dt))
print(torch.finfo(torch.float32).eps, torch.finfo().tiny, torch.finfo(torch.float16).max)
print(torch.tensor(1.0) + torch.finfo(torch.float32).eps / 2 == 1.0, torch.tensor(1.0) + torch.finfo(torch.float32).eps == 1.0)
print(torch.exp(torch.tensor([88.0, 88.8, 89.0, -104.0])), torch.exp(torch.tensor([709.0, 710.0], dtype=torch.float64)))
print(torch.tensor([1e-45, 1e-40, 1e-38]), torch.tensor([1e-45]).double())
print(torch.log(torch.tensor([0.0, -1.0])), torch.tensor([0.0]) / 0.0, torch.tensor([1.0, -1.0]) / 0.0)
