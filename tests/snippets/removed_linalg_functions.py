# torch.eig, torch.symeig, torch.lstsq, torch.solve, torch.matrix_rank and the Tensor methods
# eig / symeig / lstsq / solve were removed in 1.9 but still exist to raise a RuntimeError naming
# their torch.linalg replacements, which old tutorials (Kind-PyTorch-Tutorial's tensor basics)
# print today.
import torch

A = torch.eye(3)
B = torch.ones(3, 1)
for label, call in (("torch.eig", lambda: torch.eig(A, True)), ("Tensor.eig", lambda: A.eig(True)),
                    ("torch.symeig", lambda: torch.symeig(A, eigenvectors=True)),
                    ("Tensor.symeig", lambda: A.symeig()),
                    ("torch.lstsq", lambda: torch.lstsq(B, A)), ("Tensor.lstsq", lambda: B.lstsq(A)),
                    ("torch.solve", lambda: torch.solve(B, A)), ("Tensor.solve", lambda: B.solve(A)),
                    ("torch.matrix_rank", lambda: torch.matrix_rank(A)),
                    ("torch.solve()", lambda: torch.solve(B)), ("Tensor.eig(x, y)", lambda: A.eig(True, 1)),
                    ("Tensor.solve(kw)", lambda: B.solve(A, out=None))):
    try:
        call()
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)
print(torch.eig.__name__, torch.Tensor.solve.__qualname__)
