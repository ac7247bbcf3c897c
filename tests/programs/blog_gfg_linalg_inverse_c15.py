# Corpus program, written for gradsh (no code copied). Modelled on GeeksforGeeks' "How to
# compute the inverse of a square matrix in PyTorch" (2022) and its neighbouring linear
# algebra articles (torch.linalg.solve, det, matrix_rank, norm):
# https://www.geeksforgeeks.org/how-to-compute-the-inverse-of-a-square-matrix-in-pytorch/
# Like the article: the 4x4 matrix written with -0.000 / -0.00 entries (negative zeros in
# the printed input) and its torch.linalg.inv; a batch of two 3x3 matrices and their
# inverses; printed with "Input Matrix M: \n" / "\nInverse Matrix: \n" labels.
# Differences: the products M @ inv(M) printed as checks (tiny float32 residues); the
# neighbouring articles' solve / det / slogdet / matrix_rank / norm / pinv calls added on
# the same matrices, a singular matrix's inverse error caught, and float64 versions.
import torch

mat = torch.tensor([[1.00, -0.000, -0.00, 0.00],
                    [4.00, 1.000, 2.00, 0.00],
                    [-9.00, -3.00, 1.00, 8.00],
                    [-2.00, -0.00, -0.00, 1.00]])
print("Input Matrix M: \n", mat)
Mat_inv = torch.linalg.inv(mat)
print("\nInverse Matrix: \n", Mat_inv)
print("\nCheck: \n", mat @ Mat_inv)

mat = torch.tensor([[[1.0, 2.0, 3.0], [4.0, 1.0, 6.0], [1.0, 1.0, 1.0]],
                    [[2.0, 2.0, 3.0], [4.0, 5.0, 6.0], [2.0, 2.0, 2.0]]])
print("Input Matrix M: \n", mat)
Mat_inv = torch.linalg.inv(mat)
print("\nInverse Matrix: \n", Mat_inv)
print(torch.matmul(mat, Mat_inv))
print(torch.inverse(mat[0]), torch.linalg.inv_ex(mat).info)

M = torch.tensor([[1., 2., 3.], [1.5, 2., 2.3], [.1, .2, .5]])
print("Matrix M:\n", M)
print("Inverse Matrix:\n", torch.linalg.inv(M))
b = torch.tensor([1., 2., 3.])
print("solve:", torch.linalg.solve(M, b))
print("solve (2 rhs):", torch.linalg.solve(M, torch.stack([b, 2 * b], dim=1)))
print("det:", torch.linalg.det(M), torch.det(mat))
print("slogdet:", torch.linalg.slogdet(M))
print("rank:", torch.linalg.matrix_rank(M), torch.linalg.matrix_rank(torch.ones(3, 3)))
print("norms:", torch.linalg.norm(M), torch.linalg.norm(M, ord=1), torch.linalg.norm(M, ord=float('inf')),
      torch.linalg.matrix_norm(M, ord='fro'), torch.linalg.vector_norm(b, ord=3))
print("pinv:", torch.linalg.pinv(torch.tensor([[1., 2.], [3., 4.], [5., 6.]])))

singular = torch.tensor([[1., 2.], [2., 4.]])
try:
    torch.linalg.inv(singular)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.linalg.inv_ex(singular))

M64 = M.double()
print(torch.linalg.inv(M64))
print(torch.linalg.solve(M64, b.double()))
print(torch.linalg.det(M64), M64 @ torch.linalg.inv(M64))
torch.manual_seed(0)
A = torch.randn(5, 5)
print(torch.linalg.inv(A))
print((A @ torch.linalg.inv(A) - torch.eye(5)).abs().max())
print(torch.linalg.inv(torch.randn(3, 4, 4))[1])
