# The legacy constructor's errors: x.new(2, 3, dtype=...) and torch.Tensor(..., dtype=...) are
# TypeErrors listing its overloads, each marked where the argument count fits; new_* called
# through the class on something that is not a tensor is the method descriptor's TypeError.
# From iifx.dev's Japanese article on Tensor.new (ja_blog_tensor_types_new_c19).
import torch

t = torch.randn(2)


class M(torch.Tensor):
    pass


cases = [lambda: t.new(2, 3, dtype=torch.int64), lambda: torch.Tensor(dtype=torch.int64),
         lambda: torch.Tensor(2, dtype=torch.int64), lambda: torch.Tensor([1, 2], requires_grad=True),
         lambda: t.new(1, 2, 3, foo=1, dtype=torch.int64), lambda: torch.Tensor(2, 3, 4, bar=2),
         lambda: t.new(requires_grad=True, dtype=torch.float), lambda: M([1.0], dtype=torch.float64),
         lambda: torch.Tensor(2, 3, dtype=None), lambda: torch.Tensor.new(5, (3, 4)),
         lambda: torch.Tensor.new(), lambda: torch.Tensor.new_empty((3, 4), dtype=torch.float),
         lambda: torch.Tensor.new_zeros(), lambda: torch.Tensor.new_full([2], 1.0),
         lambda: torch.Tensor.new_tensor("a", [1]), lambda: torch.Tensor.new_ones(t, 2)]
for c in cases:
    try:
        print(c())
    except TypeError as e:
        print("TypeError:", e)
# required arguments missing, sizes by keyword
for c in (lambda: t.new_full(), lambda: t.new_full((2,)), lambda: t.new_tensor(), lambda: t.new_zeros(),
          lambda: t.new_empty(), lambda: t.new(), lambda: t.new_full(size=(2,), fill_value=3),
          lambda: t.new_tensor(data=[1]), lambda: t.new_ones(size=(1,)), lambda: t.new_zeros(size=(2,)),
          lambda: t.new_empty(size=(2,)).shape, lambda: t.new_zeros((2,), size=(2,))):
    try:
        print(c())
    except TypeError as e:
        print("TypeError:", e)
for c in (lambda: torch.zeros((2,), size=(2,)), lambda: torch.ones(2, size=(2,)),
          lambda: torch.empty(2, size=(2,)), lambda: torch.rand(2, size=(2,)), lambda: torch.randn(2, size=(2,))):
    try:
        print(c())
    except TypeError as e:
        print("TypeError:", e)
