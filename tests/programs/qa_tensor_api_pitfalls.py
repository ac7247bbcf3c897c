# Corpus program, written for gradsh (no code copied). Modelled on Q&A pages about tensor API
# pitfalls and on PyTorch docstring examples: torch.gather's tutorial with an out-of-range
# index (https://leyaa.ai/codefly/learn/pytorch/qna/how-to-use-gather-in-pytorch), the
# Float/Long cast errors of https://openillumi.com/en/en-pytorch-float-long-cast-error-fix ,
# torch.asarray's docstring (sharing memory, requires_grad), torch.repeat_interleave's
# docstring (the repeats-only form), Tensor.resize_, NumPy conversions of tensors
# (np.array(t) under NumPy 2 warns on stderr, not compared) and device strings on a CPU-only
# build (torch.device("gpu"), .to("cuda:1"), pin_memory).
# Differences: our own values; errors caught and printed; seeded.
import numpy as np
import torch

torch.manual_seed(0)


def attempt(label, f):
    try:
        print(label, f())
    except (RuntimeError, IndexError, ValueError, TypeError, AssertionError) as e:
        print(label, type(e).__name__, e)


t = torch.tensor([[1, 2, 3], [4, 5, 6]])
attempt("gather", lambda: torch.gather(t, 1, torch.tensor([[2, 1, 0], [0, 2, 1]])))
attempt("gather oob", lambda: torch.gather(t, 1, torch.tensor([[0, 3, 1], [1, 0, 2]])))
attempt("gather neg", lambda: torch.gather(t, 1, torch.tensor([[-1, 0]])))
attempt("scatter dtype", lambda: torch.zeros(3, 5).scatter_(0, torch.tensor([[0, 1, 2]]),
                                                             torch.arange(10).view(2, 5)))
attempt("scatter size", lambda: torch.zeros(3, 5, dtype=torch.long).scatter(
    1, torch.zeros(3, 5, dtype=torch.long), torch.arange(10).view(2, 5)))
attempt("scatter_add_ src", lambda: torch.zeros(3).scatter_add_(0, torch.tensor([0]), 1.0))

y = torch.tensor([0, 1])
attempt("long += float", lambda: y.__iadd__(torch.tensor([0.2, 0.7])))
x = torch.tensor([1.0, float("nan"), 1e10])
x[~(x < 10)] = torch.tensor(1)  # a 0-d long value through a boolean mask is filled
print(x)
attempt("index put", lambda: x.__setitem__(torch.tensor([0, 2]), torch.tensor(7)))

a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a + 2
print(torch.asarray(b), torch.asarray(b, requires_grad=False), torch.asarray(b) is b)
print(torch.asarray(a, copy=True).grad_fn, torch.asarray([1, 2], dtype=torch.float64))
print(torch.repeat_interleave(torch.tensor([1, 2, 3])), torch.arange(3).repeat_interleave(2))
attempt("repeats 0-d", lambda: torch.repeat_interleave(torch.tensor(3)))
r = torch.arange(6.)
print(r.resize_(2, 2), r.resize_as_(torch.ones(3)))
attempt("resize grad", lambda: a.resize_(2))

print(np.array(torch.ones(2)), np.asarray(torch.arange(3)), np.array(torch.ones(2), dtype=int))
attempt("np copy=False", lambda: np.array(torch.ones(2), copy=False))
attempt("np requires_grad", lambda: np.array(a))
print(torch.nan, torch.inf, torch.pi, torch.e, torch.tensor([1.0, torch.nan]).nansum())

print(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
attempt("gpu", lambda: torch.device("gpu"))
attempt("cuda:1", lambda: torch.ones(2).to("cuda:1"))
attempt("mps", lambda: torch.ones(2).to("mps"))
attempt("pin", lambda: torch.ones(2).pin_memory())
attempt("int device", lambda: torch.ones(2).to(0))
