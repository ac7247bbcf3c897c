# Corpus program modelled on a family of Stack Overflow questions about tensors meeting plain
# Python, each asked under its error text: "Boolean value of Tensor with more than one value is
# ambiguous", "only one element tensors can be converted to Python scalars", "len() of a 0-d
# tensor", "unsupported format string passed to Tensor.__format__" and the like; the answers'
# fixes (.any(), .item(), .tolist(), torch.stack) are run next to them. Each failing
# expression is run and its error printed.
# Changed: the askers' model outputs are replaced by small literal tensors. Written for gradsh.
import math

import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor(2.5)


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


attempt("if a > 1", lambda: "yes" if a > 1 else "no")
attempt("(a > 1).any()", lambda: bool((a > 1).any()))
attempt("a and b", lambda: a and b)
attempt("float(a)", lambda: float(a))
attempt("float(a[1])", lambda: float(a[1]))
attempt("a.item()", lambda: a.item())
attempt("len(b)", lambda: len(b))
attempt("len(a)", lambda: len(a))
attempt("int(b)", lambda: int(b))
attempt("round(b)", lambda: round(b))
attempt("math.sqrt(b)", lambda: math.sqrt(b))
attempt("f'{b:.3f}'", lambda: f"{b:.3f}")
attempt("f'{a:.3f}'", lambda: f"{a:.3f}")
attempt("'%.2f' % b", lambda: "%.2f" % b)
attempt("list(a)", lambda: list(a))
attempt("a.tolist()", lambda: a.tolist())
attempt("b.tolist()", lambda: b.tolist())
attempt("iter(b)", lambda: list(iter(b)))
attempt("range(torch.tensor(3))", lambda: list(range(torch.tensor(3))))
attempt("[0, 1, 2][torch.tensor(1)]", lambda: [0, 1, 2][torch.tensor(1)])
attempt("[0, 1][torch.tensor(1.0)]", lambda: [0, 1][torch.tensor(1.0)])
attempt("hash eq", lambda: hash(a) == hash(a))
attempt("a in set", lambda: a in {a})
attempt("2 in a", lambda: 2 in a)
attempt("a == [1, 2, 3]", lambda: a == torch.tensor([1, 2, 3]))
attempt("torch.tensor([a, a])", lambda: torch.tensor([a, a]))
attempt("torch.stack([a, a])", lambda: torch.stack([a, a]))
attempt("torch.tensor([b, b])", lambda: torch.tensor([b, b]))
attempt("a.view(2, 2)", lambda: a.view(2, 2))
attempt("a + torch.ones(2)", lambda: a + torch.ones(2))
attempt("a @ a", lambda: a @ a)
attempt("a.dot(a.long())", lambda: a.dot(a.long()))
attempt("a[3]", lambda: a[3])
attempt("a[torch.tensor([0, 3])]", lambda: a[torch.tensor([0, 3])])
attempt("a[[True, False]]", lambda: a[torch.tensor([True, False])])
attempt("max(a)", lambda: max(a))
attempt("sum(a)", lambda: sum(a))
attempt("sorted(a)", lambda: sorted(a, reverse=True))
attempt("divmod(b, 1)", lambda: divmod(b, 1))
attempt("b ** 0.5", lambda: b ** 0.5)
attempt("2 ** a", lambda: 2 ** a)
attempt("abs(-a)", lambda: abs(-a))
attempt("-a.long() // 2", lambda: -a.long() // 2)
attempt("a.long() / 2", lambda: a.long() / 2)
attempt("a.int() % -2", lambda: a.int() % -2)
attempt("~a.bool()", lambda: ~a.bool())
attempt("~a", lambda: ~a)
attempt("a.bool() + a.bool()", lambda: a.bool() + a.bool())
attempt("a.bool() - a.bool()", lambda: a.bool() - a.bool())
