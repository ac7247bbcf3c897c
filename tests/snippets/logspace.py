# Probe (issue 17): torch.logspace, as PyTorch's CPU kernel computes it (exponents and pow in
# double, rounded once), and its argument errors.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
show(lambda: torch.logspace(0, 2, 3))
show(lambda: torch.logspace(-1, 1, 7).tolist())
show(lambda: torch.logspace(0, 1, 11, base=2).tolist())
show(lambda: torch.logspace(0.1, 3.3, 9, dtype=torch.float64).tolist())
show(lambda: torch.logspace(0, 3, 4, dtype=torch.int64))
show(lambda: torch.logspace(0, 3, 5, base=3, dtype=torch.int32))
show(lambda: torch.logspace(0, 1, 1))
show(lambda: torch.logspace(0, 1, 0))
show(lambda: torch.logspace(0, 1, -1))
show(lambda: torch.logspace(0, 1, 2.5))
show(lambda: torch.logspace(0, 1, 5, requires_grad=True))
show(lambda: torch.logspace(0, 40, 5))
show(lambda: torch.logspace(-2, 2, 1001).sum().item())
