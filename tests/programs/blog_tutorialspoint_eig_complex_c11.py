# Corpus program, written for gradsh (no code copied). Modelled on tutorialspoint's
# "PyTorch – How to compute the eigenvalues and eigenvectors of a square matrix?" and "PyTorch
# – How to get the real and imaginary parts of a complex tensor?":
# https://www.tutorialspoint.com/pytorch-how-to-compute-the-eigenvalues-and-eigenvectors-of-a-square-matrix
# https://www.tutorialspoint.com/pytorch-how-to-get-the-real-and-imaginary-parts-of-a-complex-tensor
# Like the articles: torch.linalg.eig of a real matrix, whose eigenvalues and eigenvectors come
# back complex and are printed; torch.linalg.eigvals; .real / .imag of the results; a complex
# tensor built with torch.complex from real and imaginary parts.
# Differences: a fixed float64 matrix instead of torch.randn; printed with 4 decimals; the
# eigenvectors are checked by reconstruction (their phase is LAPACK's choice).
import torch

torch.set_printoptions(precision=4)
A = torch.tensor([[1., 2., 0.], [-3., 1., 1.], [0., 1., 2.]], dtype=torch.float64)
print("A:\n", A)
L, V = torch.linalg.eig(A)
print("Eigenvalues:\n", L)
print("dtypes:", L.dtype, V.dtype)
print("Reconstruction close:", torch.allclose(V @ torch.diag(L) @ torch.linalg.inv(V), A.to(V.dtype)))
print("eigvals:", torch.linalg.eigvals(A))
print("real:", L.real)
print("imag:", L.imag)
print("abs/angle:", L.abs(), L.angle())
real = torch.tensor([1., 2.])
imag = torch.tensor([0.5, -1.])
z = torch.complex(real, imag)
print(z, z.dtype, z.is_complex())
print(z * z.conj(), z.real, z.imag)
