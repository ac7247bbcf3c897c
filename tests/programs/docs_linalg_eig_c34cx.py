# Corpus program, written for gradsh (no code copied). Modelled on the examples of the
# torch.linalg.eig and torch.linalg.eigvals documentation
# (https://pytorch.org/docs/stable/generated/torch.linalg.eig.html,
# https://pytorch.org/docs/stable/generated/torch.linalg.eigvals.html): eigen-decompositions of
# a random complex matrix and of a batch of real matrices, checked by reconstruction with
# torch.dist, diag / diag_embed and linalg.inv, and eigvals against eig's eigenvalues.
# Differences: a seed, and the distances printed as "small" booleans (their last digits are
# LAPACK's rounding) besides the eigenvalues themselves.
import torch

torch.manual_seed(0)
A = torch.randn(2, 2, dtype=torch.complex128)
print(A)
L, V = torch.linalg.eig(A)
print(L)
print(V)
print("reconstruction small:", torch.dist(V @ torch.diag(L) @ torch.linalg.inv(V), A).item() < 1e-12)

A = torch.randn(3, 2, 2, dtype=torch.float64)
L, V = torch.linalg.eig(A)
print(L.dtype, V.dtype, L.shape, V.shape)
print(L)
print("batched reconstruction small:",
      torch.dist(V @ torch.diag_embed(L) @ torch.linalg.inv(V), A.to(V.dtype)).item() < 1e-12)
print("eigvals:", torch.equal(torch.linalg.eigvals(A), L))
print("unit vectors:", V.abs().pow(2).sum(-2))

B = torch.tensor([[0., -1.], [1., 0.]])
w = torch.linalg.eigvals(B)
print("rotation:", w, w.abs(), w.angle())
S = torch.tensor([[2., 1.], [1., 2.]])
print("symmetric:", torch.linalg.eigvals(S), torch.linalg.eigvalsh(S))
