"""The gradsh syntax tree: frozen dataclasses that carry their source position.

The parser builds these from the lark tree; the interpreter and the exporter read only these.
Every node has `pos` (its span). Statements also carry `source`, the exact text of the
statement, which the trace and the table headings show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gradsh.errors import Pos

# ---------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Number(Expr):
    """An integer or float literal. `text` is the literal as written (`2.`, `1e-3`)."""

    value: int | float
    text: str


@dataclass(frozen=True)
class String(Expr):
    value: str


@dataclass(frozen=True)
class Bool(Expr):
    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True)
class Ellipsis_(Expr):
    """`...` inside an index."""


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class DeviceLit(Expr):
    """An unquoted device with an index, `cuda:0`; plain `cpu`/`cuda` are Names."""

    value: str


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class TupleLit(Expr):
    """`(2, 3)`, `(6,)` and `()`; a bare `a, b` where a tuple is allowed."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Attribute(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Keyword:
    name: str
    value: Expr
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]
    kwargs: tuple[Keyword, ...]


@dataclass(frozen=True)
class Slice(Expr):
    """`start:stop:step` inside an index; missing parts are None."""

    start: Expr | None
    stop: Expr | None
    step: Expr | None


@dataclass(frozen=True)
class Index(Expr):
    """`obj[i, j:k, ...]`: one item per comma-separated part (Slice, Ellipsis_, NoneLit, Expr)."""

    obj: Expr
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class BinOp(Expr):
    """`op` is one of `+ - * / // % ** @ & | ^`."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp(Expr):
    """`op` is `-`, `+`, `~` or `not`."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Compare(Expr):
    """`op` is one of `== != < <= > >= in not in is is not`. A chain `a < b < c` is parsed as Python means it:
    `BoolOp(and, Compare(a < b), Compare(b < c))`."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    """`and` / `or`, short-circuiting as in Python."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Lambda(Expr):
    """`g -> g * 2`, `(a, b) -> a + b`, or Python's `lambda g: g * 2`."""

    params: tuple[str, ...]
    body: Expr


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stmt:
    pos: Pos = field(compare=False)
    source: str = field(compare=False)


@dataclass(frozen=True)
class Assign(Stmt):
    """`target = value`; target is a Name, Attribute (`x.grad = None`), Index (`x[0] = 1`)
    or a TupleLit of those (`values, indices = x.max(dim=0)`)."""

    target: Expr
    value: Expr


@dataclass(frozen=True)
class AugAssign(Stmt):
    """`target op= value`, `op` one of `+ - * /` (in place, as in PyTorch)."""

    target: Expr
    op: str
    value: Expr


@dataclass(frozen=True)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(frozen=True)
class Print(Stmt):
    """`print a, b` or `print(a, b)`: each argument printed as Python prints it, space separated."""

    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Show(Stmt):
    """`show` (every variable) or `show a, c`."""

    names: tuple[Name, ...]


@dataclass(frozen=True)
class Graph(Stmt):
    """`graph d` or `graph d -o "d.svg"`."""

    target: Expr
    output: Expr | None


@dataclass(frozen=True)
class Explain(Stmt):
    target: Expr


@dataclass(frozen=True)
class Assert(Stmt):
    test: Expr
    message: Expr | None


@dataclass(frozen=True)
class Backward(Stmt):
    """`backward e [retain] [create_graph]`."""

    target: Expr
    retain_graph: bool
    create_graph: bool


@dataclass(frozen=True)
class Seed(Stmt):
    value: Expr


@dataclass(frozen=True)
class Device(Stmt):
    value: Expr


@dataclass(frozen=True)
class Dtype(Stmt):
    value: Expr


@dataclass(frozen=True)
class Del(Stmt):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class GradMode(Stmt):
    """`no_grad { }`, `enable_grad { }`, `set_grad_enabled(e) { }`.

    `kind` is `no_grad`, `enable_grad` or `set_grad_enabled`; `arg` is the latter's argument.
    """

    kind: str
    arg: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class DetectAnomaly(Stmt):
    """`detect_anomaly { }`, `torch.autograd.detect_anomaly(check_nan=e) { }`: anomaly mode
    while the body runs. `check_nan` is the argument, if given."""

    check_nan: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Program:
    body: tuple[Stmt, ...]
    source: str
    path: str
