# Corpus program modelled on PyTorch issues about gradients through linear algebra:
# "`det` will return wrong gradient for `1x1` matrix with 0 value"
# (https://github.com/pytorch/pytorch/issues/80761), "torch.det does not compute gradients
# correctly" (https://github.com/pytorch/pytorch/issues/104675, det of the singular
# [[0, 1], [0, 1]] built by torch.cat) and "Handling singular matrices when backprop"
# (https://github.com/pytorch/pytorch/issues/45805), plus the forum-style follow-ups those
# threads point to: inverse, solve, det, slogdet, cholesky, qr, eigh, svdvals, norms and pinv
# with their grads, and the errors for singular / non-positive-definite inputs.
# Changed: the issues' repros are kept as written; the rest uses small seeded SPD and random
# matrices in float64 and float32; Q, R and eigenvectors are printed as absolute values (their
# signs are LAPACK's choice). Written for gradsh.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
spd = (A @ A.T + 3 * torch.eye(3, dtype=torch.float64))
b = torch.randn(3, 1, dtype=torch.float64)

inv = torch.linalg.inv(spd)
print(inv)
x = torch.linalg.solve(spd, b)
print(x, x.grad_fn)
d = torch.det(spd)
print(d, d.grad_fn)
sign, logdet = torch.linalg.slogdet(spd)
print(sign, logdet)
L = torch.linalg.cholesky(spd)
print(L, L.grad_fn)
(x.sum() + d + logdet + L.diagonal().sum()).backward()
print(A.grad)

A.grad = None
spd = (A @ A.T + 3 * torch.eye(3, dtype=torch.float64))
Q, R = torch.linalg.qr(A)
print(Q.abs(), R.abs())
w, V = torch.linalg.eigh(spd)
print(w)
print(V.abs())
(w.sum() + R.diagonal().abs().sum()).backward()
print(A.grad)

s = torch.linalg.svdvals(A)
print(s)
print(torch.linalg.norm(A), torch.linalg.norm(A, ord=2), torch.linalg.norm(A, "nuc"))
print(torch.linalg.matrix_norm(A, "fro"), torch.linalg.vector_norm(A, ord=3))
print(torch.linalg.matrix_rank(A), torch.linalg.cond(spd))
print(torch.linalg.pinv(A[:2]))

sing = torch.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
ds = torch.det(sing)
ds.backward()
print(ds, sing.grad)
try:
    torch.linalg.inv(sing.detach())
except RuntimeError as e:
    print(e)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except RuntimeError as e:
    print(e)

input = torch.tensor([[0.]], dtype=torch.float64, requires_grad=True)
torch.det(input).backward()
print(input.grad)
input = torch.tensor([[0.1]], dtype=torch.float64, requires_grad=True)
torch.det(input).backward()
print(input.grad)
a = torch.tensor([0.0, 1.0], requires_grad=True)
b2 = torch.tensor([0.0, 1.0], requires_grad=True)
m = torch.cat([a.unsqueeze(0), b2.unsqueeze(0)])
print("input matrix:")
print(m)
torch.det(m).backward()
print("gradients:", a.grad, b2.grad)

f = torch.randn(4, 4, requires_grad=True)
y = torch.linalg.solve(f, torch.ones(4))
y.sum().backward()
print(y, f.grad)
print(torch.linalg.matrix_power(f.detach(), 3))
print(torch.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))
