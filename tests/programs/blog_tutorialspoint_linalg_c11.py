# Corpus program, written for gradsh (no code copied). Modelled on tutorialspoint's
# "PyTorch – How to ..." article series on torch.linalg, each of which builds a small (often
# random) matrix, calls one function and prints the input and the result:
# https://www.tutorialspoint.com/pytorch-how-to-compute-the-eigenvalues-and-eigenvectors-of-a-square-matrix
# (its symmetric case; the general eig with complex results is in blog_tutorialspoint_eig_complex_c11)
# https://www.tutorialspoint.com/pytorch-how-to-compute-qr-decomposition-of-a-matrix
# https://www.tutorialspoint.com/pytorch-how-to-compute-the-pseudoinverse-of-a-matrix
# https://www.tutorialspoint.com/pytorch-how-to-compute-the-condition-number-of-a-matrix
# https://www.tutorialspoint.com/pytorch-how-to-compute-the-determinant-of-a-square-matrix
# https://www.tutorialspoint.com/how-to-compute-the-cross-product-of-two-given-vectors-using-pytorch
# Like the articles: eigh/eigvalsh of a symmetric matrix, qr (reduced and complete), svd and
# svdvals, pinv, matrix_rank, det/slogdet, inv, cond (default and 'fro'), norm and
# vector_norm/matrix_norm with ord variants, torch.linalg.cross and torch.cross, solve.
# Differences: seeded, float64 where the article's values would depend on LAPACK rounding in
# float32, and results rounded to 4 decimals where LAPACK's sign or last-bit choices could
# legitimately differ (eigenvector signs are normalised as the articles note).
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)

A = torch.tensor([[1., 2., 0.], [-3., 1., 1.], [0., 1., 2.]], dtype=torch.float64)
print("A:\n", A)
S = torch.tensor([[4., 1., 2.], [1., 3., 0.], [2., 0., 5.]], dtype=torch.float64)
w, Q = torch.linalg.eigh(S)
print("eigh values:", w)
print("eigvalsh:", torch.linalg.eigvalsh(S))
print("Q^T Q == I:", torch.allclose(Q.T @ Q, torch.eye(3, dtype=torch.float64)))

M = torch.randn(4, 3, dtype=torch.float64)
q, r = torch.linalg.qr(M)
print("Q shape", q.shape, "R shape", r.shape)
print("R diagonal abs:", r.diagonal().abs())
q2, r2 = torch.linalg.qr(M, mode='complete')
print("complete:", q2.shape, r2.shape)
U, Sv, Vh = torch.linalg.svd(M, full_matrices=False)
print("singular values:", Sv)
print("svdvals:", torch.linalg.svdvals(M))
print("U S Vh close:", torch.allclose(U @ torch.diag(Sv) @ Vh, M))
print("pinv:\n", torch.linalg.pinv(M))
print("rank:", torch.linalg.matrix_rank(M), torch.linalg.matrix_rank(torch.ones(3, 3)))
print("det:", torch.linalg.det(A), torch.det(S))
sign, logabsdet = torch.linalg.slogdet(A)
print("slogdet:", sign, logabsdet)
print("inv:\n", torch.linalg.inv(S))
print("cond:", torch.linalg.cond(S), torch.linalg.cond(S, 'fro'))
print("norms:", torch.linalg.norm(M), torch.linalg.norm(M, 'nuc'), torch.linalg.norm(M, 2))
print("matrix_norm inf:", torch.linalg.matrix_norm(A, ord=float('inf')), torch.linalg.matrix_norm(A, ord=-1))
v = torch.tensor([3., -4., 12.])
print("vector_norm:", torch.linalg.vector_norm(v), torch.linalg.vector_norm(v, ord=1),
      torch.linalg.vector_norm(v, ord=float('inf')), torch.linalg.vector_norm(v, ord=0))
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
b = torch.tensor([[7., 8., 9.], [1., 0., 2.]])
print("cross:\n", torch.linalg.cross(a, b))
print("torch.cross dim=1:\n", torch.cross(a, b, dim=1))
B = torch.tensor([[1.], [2.], [3.]], dtype=torch.float64)
print("solve:\n", torch.linalg.solve(S, B))
print("matrix_power:\n", torch.linalg.matrix_power(A, 3), torch.linalg.matrix_power(S, -1))
print("multi_dot:", torch.linalg.multi_dot([A, S, B]).flatten())
try:
    torch.linalg.inv(torch.ones(3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.eigh(torch.randn(2, 3))
except Exception as e:
    print(type(e).__name__, e)
