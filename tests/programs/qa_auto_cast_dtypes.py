# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow question
# "When does PyTorch automatically cast Tensor dtype?"
# (https://stackoverflow.com/questions/54155275/when-does-pytorch-automatically-cast-tensor-dtype:
# int64 * float32 promotes, matmul of float and long raises, NumPy casts everything) and on
# the answers' type-promotion examples (torch.result_type, Python and NumPy scalars).
# Written for gradsh; the errors are printed instead of raised.
import numpy as np
import torch

a = torch.tensor(5)
b = torch.tensor(5.)
c = a * b
print(a.dtype, b.dtype, c.dtype)

f = torch.ones(2, dtype=torch.float)
n = torch.ones(2, dtype=torch.long)
try:
    torch.matmul(f, n)
except RuntimeError as err:
    print("RuntimeError:", err)
print(torch.matmul(f, n.float()))

# NumPy does cast: and a NumPy array on the right of a tensor is NumPy's business
na = np.ones(2, dtype=np.int64)
nb = np.ones(2, dtype=np.float64)
print(np.matmul(na, nb), na * nb)

# scalars: Python and NumPy numbers do not change a tensor's dtype
print((f * 2.5).dtype, (f * np.float64(2.5)).dtype, (n * np.int64(3)).dtype)
print((n * 2.5).dtype, (n / np.int64(2)).dtype, (n + np.bool_(True)).dtype)
print(torch.result_type(n, 2.5), torch.result_type(f, torch.tensor(1, dtype=torch.float64)))
print(torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.double, torch.float))

# zero-dimensional tensors participate like scalars, unless they are of a higher kind
d0 = torch.tensor(2.0, dtype=torch.float64)
print((f * d0).dtype, (n * d0).dtype, (torch.tensor([1, 2], dtype=torch.int8) * 100).dtype)
print(torch.tensor([1, 2], dtype=torch.uint8) - 3)
