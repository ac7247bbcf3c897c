"""Random small programs over the torch API that learners use: the generator half of the
differential fuzzer (tests/fuzz_api/fuzz.py runs them under torch and under gradsh).

A case is a list of one-line Python statements over the name `torch`; it prints its results
(reprs, dtypes, shapes, strides, grads) and the runner wraps it in try/except, so an error
prints `TypeName: message` and the next case still runs. Every case starts from
`torch.manual_seed(seed)` and default print options. Values are kept small and mostly exact
(integers, halves) so that a mismatch is a semantic one, not a last-bit one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

FLOATS = ["torch.float32", "torch.float64", "torch.float16", "torch.bfloat16"]
INTS = ["torch.int8", "torch.uint8", "torch.int16", "torch.int32", "torch.int64"]
DTYPES = FLOATS + INTS + ["torch.bool"]


class Gen:
    """One case's random choices; `lines` is the case's code."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng
        self.lines: list[str] = []
        self.count = 0

    # -- small choices ---------------------------------------------------------------------
    def pick(self, items):
        return self.r.choice(items)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def name(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def dtype(self, pool=None) -> str:
        return self.pick(pool or DTYPES)

    def shape(self, max_dims: int = 3, max_size: int = 4) -> tuple[int, ...]:
        dims = self.r.choice([0, 1, 1, 2, 2, 2, 3][: max_dims * 2 + 1])
        return tuple(self.r.randint(1, max_size) for _ in range(min(dims, max_dims)))

    def scalar(self, kind: str | None = None) -> str:
        kind = kind or self.pick(["int", "int", "float", "float", "bool"])
        if kind == "int":
            return str(self.r.randint(-7, 7))
        if kind == "bool":
            return self.pick(["True", "False"])
        return self.pick(["0.5", "-1.5", "2.0", "-0.0", "3.25", "1e-3", "-2.5", "0.0",
                          "float('nan')", "float('inf')", "7.0", "-4.0"])

    def element(self, dtype: str) -> str:
        if dtype == "torch.bool":
            return self.pick(["True", "False"])
        if dtype == "torch.uint8":
            return str(self.r.randint(0, 9))
        if dtype in INTS:
            return str(self.r.randint(-6, 6))
        if self.chance(0.06):
            return self.pick(["float('nan')", "float('inf')", "-float('inf')", "-0.0"])
        return self.pick([str(self.r.randint(-6, 6)), f"{self.r.randint(-12, 12) / 4}",
                          f"{self.r.randint(-6, 6)}.0"])

    def nested(self, shape: tuple[int, ...], dtype: str) -> str:
        if not shape:
            return self.element(dtype)
        return "[" + ", ".join(self.nested(shape[1:], dtype) for _ in range(shape[0])) + "]"

    def shape_text(self, shape: tuple[int, ...]) -> str:
        return "(" + "".join(f"{s}, " for s in shape).rstrip(" ") + ")" if shape else "()"

    # -- tensors ---------------------------------------------------------------------------
    def tensor(self, shape: tuple[int, ...] | None = None, dtype: str | None = None,
               grad: bool = False) -> tuple[str, tuple[int, ...], str]:
        """Emit a tensor; returns its name, shape and dtype."""
        shape = self.shape() if shape is None else shape
        dtype = dtype or self.dtype()
        var = self.name()
        form = self.r.random()
        numel = 1
        for s in shape:
            numel *= s
        if form < 0.55 or dtype == "torch.bool" and form < 0.8:
            spec = "" if dtype in ("torch.float32",) and self.chance(0.5) else f", dtype={dtype}"
            if dtype == "torch.int64" and self.chance(0.5) and shape:
                spec = ""  # an all-int literal infers int64
                text = self.nested(shape, "torch.int64")
            else:
                text = self.nested(shape, dtype)
            rg = ", requires_grad=True" if grad else ""
            self.emit(f"{var} = torch.tensor({text}{spec}{rg})")
        elif form < 0.75:
            start = self.r.randint(-4, 2) if dtype not in ("torch.uint8", "torch.bool") else 0
            self.emit(f"{var} = torch.arange({start}, {start + numel}).reshape("
                      f"{self.shape_text(shape)}).to({dtype})")
            if grad:
                self.emit(f"{var}.requires_grad_()")
        else:
            if dtype in FLOATS:
                self.emit(f"{var} = (torch.randn({self.shape_text(shape)}) * 4).round()"
                          f".div(2).to({dtype})")
            else:
                low = 0 if dtype in ("torch.uint8", "torch.bool") else -5
                high = 2 if dtype == "torch.bool" else 6
                self.emit(f"{var} = torch.randint({low}, {high}, {self.shape_text(shape)})"
                          f".to({dtype})")
            if grad:
                self.emit(f"{var}.requires_grad_()")
        return var, shape, dtype

    def broadcast_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """A shape that broadcasts with `shape` (sometimes one that does not)."""
        if self.chance(0.05):
            return tuple(s + 1 for s in shape) or (2,)
        out = [s if not self.chance(0.3) else 1 for s in shape]
        while out and self.chance(0.3):
            out.pop(0)
        if self.chance(0.15):
            out.insert(0, self.r.randint(1, 3))
        return tuple(out)

    def operand(self, shape, dtype_pool=None) -> str:
        """The other operand of a binary op: a tensor, a 0-d tensor or a Python scalar."""
        roll = self.r.random()
        if roll < 0.3:
            return self.scalar()
        if roll < 0.5:
            var, _, _ = self.tensor((), self.dtype(dtype_pool))
            return var
        var, _, _ = self.tensor(self.broadcast_shape(shape), self.dtype(dtype_pool))
        return var

    def show(self, expr: str) -> None:
        form = self.r.random()
        if form < 0.6:
            self.emit(f"print(repr({expr}))")
        elif form < 0.75:
            self.emit(f"print({expr})")
        elif form < 0.9:
            self.emit(f"r = {expr}; print(r.dtype, r.shape, r.tolist())")
        else:
            self.emit(f"r = {expr}; print(r.dtype, r.stride(), r.is_contiguous(), r)")


# -- categories --------------------------------------------------------------------------------

def creation(g: Gen) -> None:
    roll = g.r.random()
    dt = g.dtype()
    spec = f", dtype={dt}" if g.chance(0.7) else ""
    if roll < 0.25:
        shape = g.shape()
        kind = g.pick(["int", "float", "bool", "mixed"])
        if kind == "mixed":
            text = "[" + ", ".join(g.scalar() for _ in range(g.r.randint(1, 4))) + "]"
        else:
            text = g.nested(shape, {"int": "torch.int64", "float": "torch.float32",
                                    "bool": "torch.bool"}[kind])
        g.show(f"torch.tensor({text}{spec})")
    elif roll < 0.4:
        a, b = g.r.randint(-5, 3), g.r.randint(-2, 9)
        step = g.pick(["", ", 2", ", 0.5", ", -1", ", 3"])
        if g.chance(0.3):
            a, b = f"{a}.5", f"{b}"
        g.show(f"torch.arange({a}, {b}{step}{spec})")
    elif roll < 0.5:
        g.show(f"torch.linspace({g.r.randint(-3, 2)}, {g.r.randint(-1, 5)}, "
               f"{g.r.randint(0, 7)}{spec})")
    elif roll < 0.65:
        fn = g.pick(["zeros", "ones", "empty_check", "full", "eye"])
        shape = g.shape_text(g.shape())
        if fn == "full":
            g.show(f"torch.full({shape}, {g.scalar()}{spec})")
        elif fn == "eye":
            n = g.r.randint(0, 4)
            m = g.pick(["", f", {g.r.randint(0, 4)}"])
            g.show(f"torch.eye({n}{m}{spec})")
        elif fn == "empty_check":
            g.emit(f"e = torch.empty({shape}{spec}); print(e.shape, e.dtype, e.numel())")
        else:
            g.show(f"torch.{fn}({shape}{spec})")
    elif roll < 0.85:
        shape = g.shape_text(g.shape())
        fn = g.pick(["rand", "randn", "randint", "randperm", "rand_like", "randn_like",
                     "randint_like", "normal", "bernoulli", "multinomial"])
        fdt = g.pick(["", ", dtype=torch.float64", ", dtype=torch.float16",
                      ", dtype=torch.bfloat16"])
        if fn in ("rand", "randn"):
            g.show(f"torch.{fn}({shape}{fdt})")
        elif fn == "randint":
            g.show(f"torch.randint({g.r.randint(-3, 2)}, {g.r.randint(3, 10)}, {shape}{spec})")
        elif fn == "randperm":
            g.show(f"torch.randperm({g.r.randint(0, 8)})")
        elif fn == "normal":
            g.show(f"torch.normal({g.scalar('float')}, 2.0, size={shape})")
        elif fn == "bernoulli":
            g.show(f"torch.bernoulli(torch.full({shape}, 0.5))")
        elif fn == "multinomial":
            g.show(f"torch.multinomial(torch.tensor([0.1, 0.5, 0.2, 0.2]), "
                   f"{g.r.randint(1, 4)}, replacement={g.pick(['True', 'False'])})")
        else:
            var, _, _ = g.tensor()
            extra = f"{g.r.randint(1, 9)}, " if fn == "randint_like" else ""
            g.show(f"torch.{fn}({var}, {extra}{fdt.lstrip(', ')})".replace(", )", ")"))
    else:
        var, _, _ = g.tensor()
        fn = g.pick(["zeros_like", "ones_like", "full_like", "empty_like"])
        if fn == "full_like":
            g.show(f"torch.full_like({var}, {g.scalar()}{spec})")
        elif fn == "empty_like":
            g.emit(f"e = torch.empty_like({var}{spec}); print(e.shape, e.dtype)")
        else:
            g.show(f"torch.{fn}({var}{spec})")


ARITH = ["+", "-", "*", "/", "//", "%", "**"]
BITS = ["&", "|", "^", "<<", ">>"]
COMPARE = ["==", "!=", "<", "<=", ">", ">="]
FUNCS = ["torch.add", "torch.sub", "torch.mul", "torch.div", "torch.true_divide",
         "torch.floor_divide", "torch.remainder", "torch.fmod", "torch.maximum",
         "torch.minimum", "torch.pow", "torch.atan2", "torch.fmax", "torch.hypot",
         "torch.logical_and", "torch.logical_or", "torch.logical_xor", "torch.bitwise_and",
         "torch.bitwise_or", "torch.bitwise_xor", "torch.eq", "torch.lt", "torch.ge",
         "torch.result_type"]


def promotion(g: Gen) -> None:
    a, shape, _ = g.tensor()
    b = g.operand(shape)
    roll = g.r.random()
    if roll < 0.45:
        op = g.pick(ARITH + BITS + COMPARE)
        expr = f"{a} {op} {b}" if g.chance(0.75) else f"{b} {op} {a}"
        g.show(f"({expr})")
    elif roll < 0.8:
        fn = g.pick(FUNCS)
        if fn == "torch.result_type":
            g.emit(f"print(torch.result_type({a}, {b}))")
            return
        extra = ""
        if fn in ("torch.add", "torch.sub") and g.chance(0.3):
            extra = f", alpha={g.scalar()}"
        if fn == "torch.div" and g.chance(0.6):
            extra = f", rounding_mode={g.pick(['None', repr('floor'), repr('trunc')])}"
        first = a if g.chance(0.85) else b
        second = b if first == a else a
        g.show(f"{fn}({first}, {second}{extra})")
    else:
        method = g.pick(["add_", "sub_", "mul_", "div_", "floor_divide_", "remainder_",
                         "pow_", "bitwise_and_", "clamp_", "__iadd__", "__imul__"])
        if method == "clamp_":
            g.emit(f"{a}.clamp_({b}); print(repr({a}))")
        elif g.chance(0.5):
            g.emit(f"{a}.{method}({b}); print(repr({a}))")
        else:
            op = g.pick(["+=", "-=", "*=", "/=", "//=", "%=", "&=", "|="])
            g.emit(f"{a} {op} {b}; print(repr({a}))")


def int_division(g: Gen) -> None:
    dtype = g.dtype(INTS + ["torch.float32", "torch.float64"])
    vals = [g.r.randint(-9, 9) for _ in range(g.r.randint(1, 6))]
    divs = [g.pick([-4, -3, -2, 2, 3, 4, 0]) if g.chance(0.9) else 0 for _ in vals]
    if dtype == "torch.uint8":
        vals, divs = [abs(v) for v in vals], [abs(d) for d in divs]
    g.emit(f"a = torch.tensor({vals}, dtype={dtype})")
    g.emit(f"b = torch.tensor({divs}, dtype={dtype})" if g.chance(0.7)
           else f"b = {g.pick([-3, 2, -2.5, 3, 0, 1.5])}")
    form = g.pick(["a // b", "a % b", "torch.fmod(a, b)", "torch.remainder(a, b)",
                   "torch.div(a, b, rounding_mode='floor')",
                   "torch.div(a, b, rounding_mode='trunc')", "torch.floor_divide(a, b)", "a / b",
                   "b // a", "b % a", "divmod(a, b)", "torch.remainder(-7, b)"])
    if form == "divmod(a, b)":
        g.emit("q, m = divmod(a, b); print(repr(q), repr(m))")
    else:
        g.show(f"({form})")


def pow_forms(g: Gen) -> None:
    a, shape, dt = g.tensor(dtype=g.dtype(INTS + FLOATS[:2] + ["torch.float16"]))
    exponent = g.pick(["2", "-1", "0", "0.5", "3", "-2", "2.0", "True", "torch.tensor(2)",
                       "torch.tensor(-1)", "torch.tensor(0.5)", "torch.tensor([2, 3])"])
    form = g.pick(["{a} ** {e}", "{e} ** {a}", "torch.pow({a}, {e})", "{a}.pow({e})",
                   "torch.float_power({a}, {e})", "torch.square({a})", "{a}.pow_({e})",
                   "torch.sqrt({a})", "torch.rsqrt({a})", "torch.exp2({a})"])
    g.show("(" + form.format(a=a, e=exponent) + ")")


def clamp_where(g: Gen) -> None:
    a, shape, dt = g.tensor()
    roll = g.r.random()
    if roll < 0.35:
        lo = g.pick(["None", g.scalar(), "torch.tensor(1)", "torch.tensor(0.5)"])
        hi = g.pick(["None", g.scalar(), "torch.tensor(3)"])
        form = g.pick(["torch.clamp({a}, {lo}, {hi})", "{a}.clamp(min={lo})",
                       "{a}.clamp(max={hi})", "torch.clip({a}, {lo}, {hi})",
                       "{a}.clamp_min({lo})", "{a}.clamp_max({hi})"])
        g.show(form.format(a=a, lo=lo, hi=hi))
    elif roll < 0.7:
        cond = g.pick([f"{a} > 0", f"{a} != 0" if dt != "torch.bool" else a, "True"])
        other = g.operand(shape)
        first = g.operand(shape) if g.chance(0.4) else a
        if g.chance(0.15):
            g.show(f"torch.where({cond})" if cond != "True" else f"torch.where({a} > 0)")
        else:
            g.show(f"torch.where({cond}, {first}, {other})")
    else:
        mask = g.pick([f"{a} > 1", f"{a} == 0", f"torch.tensor(True)"])
        value = g.pick([g.scalar(), "torch.tensor(2.5)", "torch.tensor(3)",
                        "torch.tensor([1.0, 2.0])"])
        if g.chance(0.5):
            g.show(f"{a}.masked_fill({mask}, {value})")
        else:
            g.emit(f"{a}.masked_fill_({mask}, {value}); print(repr({a}))")


def logical_ops(g: Gen) -> None:
    a, shape, dt = g.tensor(dtype=g.dtype(INTS + ["torch.bool", "torch.float32"]))
    roll = g.r.random()
    if roll < 0.4:
        fn = g.pick(["torch.logical_not", "torch.bitwise_not", "torch.logical_and",
                     "torch.logical_or", "torch.bitwise_left_shift", "torch.bitwise_xor",
                     "torch.bitwise_right_shift"])
        if fn in ("torch.logical_not", "torch.bitwise_not"):
            g.show(f"{fn}({a})")
        else:
            g.show(f"{fn}({a}, {g.operand(shape, INTS + ['torch.bool'])})")
    elif roll < 0.7:
        g.show(g.pick([f"~{a}", f"-{a}", f"+{a}", f"abs({a})", f"{a}.neg()", f"{a}.sign()",
                       f"{a}.logical_not_()", f"torch.isnan({a})", f"torch.isfinite({a})",
                       f"{a}.bool()", f"{a}.float()", f"{a}.long()", f"{a}.byte()",
                       f"{a}.half()", f"{a}.to(torch.int8)"]))
    else:
        b = g.operand(shape)
        g.show(g.pick([f"torch.eq({a}, {b})", f"torch.equal({a}, {a}.clone())",
                       f"torch.isclose({a}.float(), torch.ones_like({a}, dtype=torch.float32))",
                       f"torch.allclose({a}.double(), {a}.double())",
                       f"({a} == {b}).all()", f"({a} < {b}).any()",
                       f"torch.ne({a}, {b})", f"({a} > {b}) & ({a} < 5)"]))


def views(g: Gen) -> None:
    shape = g.shape(3, 4)
    if len(shape) < 2:
        shape = (2, 3)
    a, shape, dt = g.tensor(shape, g.dtype(["torch.float32", "torch.int64", "torch.int32"]))
    n = len(shape)
    d = g.r.randint(-n, n - 1)
    forms = [
        f"{a}.view({g.pick(['-1', f'{shape[-1]}, -1', '(-1,)', f'-1, {shape[0]}'])})",
        f"{a}.reshape({g.pick(['-1', f'{shape[-1]}, -1', '1, -1', '-1, 1, 2', '(2, -1)'])})",
        f"{a}.t()" if n <= 2 else f"{a}.mT",
        f"{a}.transpose({d}, {g.r.randint(-n, n - 1)})",
        f"{a}.permute({', '.join(map(str, g.r.sample(range(n), n)))})",
        f"{a}.unsqueeze({g.r.randint(-n - 1, n)}).expand({', '.join(['2'] + ['-1'] * n)})",
        f"{a}.expand({', '.join('3' if s == 1 else str(s) for s in shape)})",
        f"{a}.narrow({d}, {g.r.randint(0, 1)}, {g.r.randint(0, 2)})",
        f"{a}.select({d}, {g.r.randint(-1, 1)})",
        f"{a}.unbind({d})",
        f"{a}.chunk({g.r.randint(1, 3)}, {d})",
        f"{a}.split({g.r.randint(1, 3)}, {d})",
        f"{a}.split([1, {shape[d] - 1}], {d})",
        f"torch.tensor_split({a}, {g.r.randint(1, 3)}, {d})",
        f"{a}.squeeze({g.pick(['', str(d), '(0, 1)'])})",
        f"{a}.unsqueeze({d}).squeeze()",
        f"{a}.flatten({g.pick(['', '1', '0, 1', '-2, -1'])})",
        f"{a}.flatten().unflatten(0, {g.pick([shape, (-1, 1), (2, -1)])})",
        f"{a}.movedim({d}, {g.r.randint(-n, n - 1)})",
        f"{a}.T" if n == 2 else f"{a}.swapaxes(0, -1)",
        f"{a}[..., ::2]", f"{a}[:, 1:]", f"{a}.diagonal()", f"{a}.unfold(-1, 2, 1)",
        f"{a}.view_as({a}.reshape(-1))", f"{a}.flip({d})", f"{a}.roll(1, {d})",
    ]
    expr = g.pick(forms)
    roll = g.r.random()
    if roll < 0.35:
        g.show(expr)
    elif roll < 0.6:
        g.emit(f"v = {expr}")
        g.emit("print([(x.shape, x.stride(), x.is_contiguous()) for x in v] if isinstance(v, "
               "tuple) else (v.shape, v.stride(), v.is_contiguous(), v.storage_offset()))")
        g.emit(f"print(repr(v.contiguous() if not isinstance(v, tuple) else v[0].contiguous()))")
    else:
        g.emit(f"v = {expr}")
        g.emit("v = v[0] if isinstance(v, (tuple, list)) else v")
        op = g.pick(["v.add_(1)", "v.mul_(2)", "v.zero_()", "v.fill_(7)", "v[0] = -1",
                     "v += 10", "v.clamp_(max=2)", "v.copy_(torch.ones_like(v))",
                     "torch.add(v, 1, out=v)", "v.neg_()", "v.t_()", "v.squeeze_()",
                     "v.unsqueeze_(0)", "v.resize_(2)", "v.abs_()", "v.sub_(v)"])
        g.emit(op)
        g.emit(f"print(repr({a})); print(repr(v), v.stride(), v._base is {a})")


def out_param(g: Gen) -> None:
    a, shape, dt = g.tensor(dtype=g.dtype(["torch.float32", "torch.int64", "torch.float64"]))
    out_dt = g.dtype(["torch.float32", "torch.int64", "torch.float64", "torch.int32",
                      "torch.bool"])
    out_shape = g.pick([shape, (), (1,), (7,)])
    g.emit(f"o = torch.empty({g.shape_text(out_shape)}, dtype={out_dt})")
    fn = g.pick(["torch.add({a}, 1, out=o)", "torch.mul({a}, {a}, out=o)",
                 "torch.sum({a}, out=o)", "torch.neg({a}, out=o)",
                 "torch.cumsum({a}, 0, out=o)", "torch.abs({a}, out=o)",
                 "torch.gt({a}, 0, out=o)", "torch.div({a}, 2, out=o)",
                 "torch.clamp({a}, 0, 1, out=o)", "torch.where({a} > 0, {a}, 0, out=o)",
                 "torch.matmul({a}, {a}.T, out=o)", "torch.cat([{a}, {a}], out=o)",
                 "torch.max({a}, 0, out=(o, torch.empty(0, dtype=torch.long)))"])
    g.emit("r = " + fn.format(a=a))
    g.emit("print(r is o, repr(o))")


def indexing(g: Gen) -> None:
    shape = g.shape(3, 4)
    if not shape:
        shape = (3,)
    a, shape, dt = g.tensor(shape, g.dtype(["torch.float32", "torch.int64", "torch.bool",
                                            "torch.float64", "torch.int32"]))
    n, s0 = len(shape), shape[0]
    idx = [
        "0", "-1", f"{s0}", "1:", "::2", "::-1" if g.chance(0.2) else ":-1", "None",
        "...", "..., 0", "None, ..., None", "0, ..., 1", "[0, 0, -1]", "[True] * " + str(s0),
        "[]", "torch.tensor([0, -1])", "torch.tensor(0)", "torch.tensor([[0], [1]])",
        f"{a} > 0" if dt != "torch.bool" else a, "torch.tensor([True, False])",
        "(0, 1)" if n > 1 else "(0,)", "[[0, 1], [1, 0]]" if n > 1 else "[[0, 1]]",
        ":, [0, 1]" if n > 1 else "[0, 0]", "[0, 1], :, None" if n > 2 else "None, [1]",
        "torch.tensor([1, 0]), torch.tensor([0])" if n > 1 else "torch.tensor([1])",
        "1, [0]" if n > 1 else "[1]", "torch.tensor([True, False]).nonzero()",
        "slice(None, 2)", "torch.arange(2)[:, None], torch.arange(2)" if n > 1 else "..., None",
        "1.0", "torch.tensor([0.0])", "'a'", "[0, 1], [0, 1]" if n > 1 else "(-1,)",
    ]
    ix = g.pick(idx)
    if g.chance(0.6):
        g.show(f"{a}[{ix}]")
        if g.chance(0.3):
            g.emit(f"r = {a}[{ix}]; print(r._base is {a}, r.data_ptr() == {a}.data_ptr())")
    else:
        value = g.pick([g.scalar(), "torch.tensor(9)", "torch.tensor([5.0])",
                        f"torch.zeros({shape[-1]})", "torch.tensor([[1], [2]])",
                        f"{a}[0].clone() * 2" if n > 1 else "torch.tensor(2.5)", "[1, 2]",
                        "torch.tensor(1.5, requires_grad=True)"])
        g.emit(f"{a}[{ix}] = {value}")
        g.emit(f"print(repr({a}))")


def index_funcs(g: Gen) -> None:
    shape = g.shape(2, 4)
    if not shape:
        shape = (4,)
    a, shape, dt = g.tensor(shape, g.dtype(["torch.float32", "torch.int64", "torch.float64",
                                            "torch.int32"]))
    n = len(shape)
    d = g.r.randint(-n, n - 1)
    ids = g.pick(["torch.tensor([0, 1, 0])", "torch.tensor([-1])", "torch.tensor([2, 0])",
                  "torch.tensor([5])", "torch.tensor([[0, 1], [1, 0]])",
                  "torch.tensor([0, 1], dtype=torch.int32)", "torch.tensor([])",
                  "torch.tensor([1.0])"])
    src = g.pick([f"torch.ones_like({a})", f"{a} * 2", "torch.tensor([1.0, 2.0, 3.0])",
                  f"torch.full_like({a}, 5)", f"torch.ones({shape[0]}, dtype=torch.int64)"])
    in_range = f"torch.randint(0, {min(shape)}, {g.shape_text(shape)})"
    full_index = in_range if g.chance(0.7) else ids  # (take_along_dim reads out of bounds)
    scatter_mode = g.pick(["add", "multiply"])
    reduce_mode = g.pick(["sum", "prod", "mean", "amax", "amin"])
    forms = [
        f"torch.index_select({a}, {d}, {ids})", f"{a}.index_select({d}, {ids})",
        f"torch.gather({a}, {d}, {full_index})",
        f"{a}.scatter({d}, {full_index}, {src})",
        f"{a}.scatter({d}, {full_index}, {g.scalar()})",
        f"{a}.scatter_add({d}, {full_index}, {src})",
        f"{a}.scatter({d}, {full_index}, {src}, reduce={scatter_mode!r})",
        f"{a}.scatter_reduce({d}, {full_index}, {src}, reduce={reduce_mode!r}, "
        f"include_self={g.pick(['True', 'False'])})",
        f"{a}.index_add({d}, {ids}, {src})",
        f"{a}.index_add({d}, torch.tensor([0, 1]), torch.ones(2, dtype={dt}) if {n} == 1 else "
        f"{a}.narrow({d}, 0, 2), alpha=2)",
        f"{a}.index_put((torch.tensor([0, 0]),) * {n}, torch.tensor({g.scalar()}), "
        f"accumulate={g.pick(['True', 'False'])})",
        f"{a}.index_fill({d}, {ids}, {g.scalar()})", f"{a}.index_copy(0, torch.tensor([0]), "
        f"{a}[:1])",
        f"torch.take({a}, {ids})", f"{a}.take(torch.tensor([[0, -1]]))",
        f"torch.masked_select({a}, {a} > 0)", f"{a}.masked_select(torch.tensor(True))",
        f"torch.take_along_dim({a}, {in_range}, {d})", f"{a}.nonzero()",
        f"torch.nonzero({a}, as_tuple=True)", f"{a}.argwhere()", f"{a}.put(torch.tensor([0]), "
        f"torch.tensor([9], dtype={dt}))",
    ]
    g.show(g.pick(forms))


REDUCE = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std",
          "var", "median", "nanmedian", "mode", "logsumexp", "norm", "all", "any", "cumsum",
          "cumprod", "count_nonzero", "nansum", "aminmax", "std_mean", "var_mean", "cummax",
          "cummin", "logcumsumexp"]


def reductions(g: Gen) -> None:
    a, shape, dt = g.tensor(dtype=g.dtype(["torch.float32", "torch.int64", "torch.float64",
                                           "torch.int32", "torch.bool", "torch.float16",
                                           "torch.uint8", "torch.bfloat16"]))
    n = len(shape)
    fn = g.pick(REDUCE)
    args = []
    roll = g.r.random()
    if roll < 0.3 or n == 0 and roll < 0.6:
        pass
    elif roll < 0.7:
        args.append(str(g.r.randint(-max(n, 1), max(n, 1) - 1)))
    else:
        dims = g.r.sample(range(-n, n), min(n, g.r.randint(1, 2))) if n else [0]
        args.append(f"dim={dims}" if g.chance(0.5) else f"dim={tuple(dims)}")
    if args and g.chance(0.4):
        args.append(f"keepdim={g.pick(['True', 'False'])}")
    if fn in ("sum", "mean", "prod", "cumsum", "cumprod", "nansum") and g.chance(0.3):
        args.append(f"dtype={g.dtype(['torch.float64', 'torch.int32', 'torch.float32'])}")
    if fn in ("std", "var", "std_mean", "var_mean") and g.chance(0.4):
        args.append(g.pick(["unbiased=False", "correction=0", "correction=2"]))
    if fn == "norm" and g.chance(0.5):
        args.insert(0, g.pick(["1", "float('inf')", "'fro'", "3"]))
    if fn in ("cumsum", "cumprod", "logcumsumexp", "cummax", "cummin") and not args:
        args.append("0")
    if fn == "aminmax" and args and args[0].lstrip("-").isdigit():
        args[0] = f"dim={args[0]}"  # aminmax's dim is keyword-only
    call = (f"torch.{fn}({a}{''.join(', ' + x for x in args)})" if g.chance(0.5)
            else f"{a}.{fn}({', '.join(args)})")
    g.emit(f"r = {call}")
    g.emit("print(r if not isinstance(r, torch.Tensor) else repr(r))")
    if g.chance(0.2):
        extra = g.pick([f"{a}.sort(dim=-1, descending=True)", f"torch.sort({a}, stable=True)",
                        f"{a}.topk({g.r.randint(1, 2)})", f"{a}.kthvalue(1)",
                        f"torch.unique({a}, return_counts=True)",
                        f"torch.unique({a}, sorted=True, return_inverse=True)",
                        f"{a}.unique_consecutive()", f"torch.bincount({a}.flatten().long().abs())",
                        f"torch.histc({a}.float(), bins=4)", f"{a}.argsort()",
                        f"torch.msort({a})", f"{a}.max(dim=0)", f"torch.min({a}, -1, True)"])
        g.emit(f"print({extra})")


def printing(g: Gen) -> None:
    roll = g.r.random()
    if g.chance(0.5):
        opts = g.pick(["precision=2", "precision=6", "sci_mode=True", "sci_mode=False",
                       "threshold=5", "edgeitems=1", "linewidth=40", "profile='short'",
                       "profile='full'", "precision=1, sci_mode=False", "threshold=3, edgeitems=2",
                       "precision=0", "precision=10", "linewidth=20, precision=3",
                       "sci_mode=True, precision=2", "threshold=10, edgeitems=0"])
        g.emit(f"torch.set_printoptions({opts})")
    dt = g.dtype(FLOATS + ["torch.int64", "torch.bool", "torch.int32", "torch.uint8"])
    if roll < 0.3:
        big = g.pick([(1001,), (30, 40), (2, 3, 200), (7,), (4, 4)])
        g.emit(f"x = torch.arange({math.prod(big)})"
               f".reshape({g.shape_text(big)}).to({dt})")
        if g.chance(0.5) and dt in FLOATS:
            g.emit(f"x = x * {g.pick(['1e-5', '1e8', '0.001', '123.456', '-1', '1e20'])}")
        g.emit(g.pick(["print(x)", "print(repr(x))", "print(str(x))", "print(x[0])"]))
    elif roll < 0.7:
        vals = [g.pick(["1.0", "-0.0", "0.0", "float('nan')", "float('inf')", "-float('inf')",
                        "1e-8", "123456.0", "1e10", "0.1", "2.5", "-3.0", "1e-4", "65504.0",
                        "100.0", "1e38", "3.14159", "7", "-1.0e-3", "1e-45", "3e-39", "1e16",
                        "99999.5", "0.333333", "-1e-20", "1e8", "12345678.0", "0.5"])
                for _ in range(g.r.randint(1, 8))]
        shape_hint = g.pick(["", ".reshape(-1, 1)", ".unsqueeze(0)", "[0]"])
        g.emit(f"x = torch.tensor([{', '.join(vals)}], dtype={dt}){shape_hint}")
        g.emit(g.pick(["print(x)", "print(repr(x))", "print(x.tolist())", "print(x.sum().item())",
                       "print(x.shape, x.dtype, x.dim(), x.numel())", "print(f'{x}')",
                       "print(x.requires_grad_() if x.is_floating_point() else x)",
                       "print(x[0].item(), type(x[0].item()).__name__)", "print([x])",
                       "print(str(x.dtype), x.element_size(), x.is_floating_point())",
                       "print(x.max(), x.min(), x.abs().max())", "print(x * 3, x / 7)",
                       "print(x.float().tolist(), x.double().tolist())", "print(x.view(-1, 1))",
                       "print(repr(x.unsqueeze(0).expand(3, -1)))", "print(x.item() if "
                       "x.numel() == 1 else x.tolist()[0])", "print(torch.stack([x, x]))"]))
    else:
        a, shape, dt = g.tensor()
        g.emit(g.pick([f"print({a})", f"print({a}.tolist())", f"print({a}.shape, {a}.size())",
                       f"print({a}.size(-1) if {a}.dim() else {a}.item())",
                       f"print({a}.dtype, {a}.device, {a}.layout)",
                       f"print({a}.float().mean() if {a}.numel() else {a})",
                       f"print(repr({a}.double() / 3))", f"print(repr({a}.half() / 3))",
                       f"print({a}.bfloat16() * 1.1)", f"print({a}.float() * 1e6)",
                       f"print(format({a}.sum().item(), '.3f') if {a}.is_floating_point() else "
                       f"{a}.sum())", f"print(int({a}.sum()) if {a}.numel() else 0)",
                       f"print(repr({a}.numpy()))", f"print(len({a}) if {a}.dim() else -1)"]))


def autograd(g: Gen) -> None:
    shape = g.shape(2, 3)
    a, shape, dt = g.tensor(shape, g.pick(["torch.float32", "torch.float64"]), grad=True)
    b, _, _ = g.tensor(g.broadcast_shape(shape), g.pick(["torch.float32", "torch.float64",
                                                          "torch.int64"]))
    steps = [f"{a} * {b}", f"{a} + {b}", f"{a} / 2", f"{a}.pow(2)", f"{a}.exp()",
             f"{a}.sum(0)" if shape else f"{a}.exp()", f"{a}.relu()", f"{a}.clamp(0, 1)",
             f"{a}.abs()", f"{a}.max()", f"{a}.sigmoid()", f"{a}.tanh()", f"{a}.mean()",
             f"torch.where({a} > 0, {a}, {b})", f"{a}.expand(2, *{a}.shape)",
             f"{a}.masked_fill({a} > 1, 0.0)", f"{a}.reshape(-1)[0]", f"{a}.t()" if len(shape) <= 2
             else f"{a}.T", f"{a}.cumsum(0)" if shape else f"{a} * 3", f"{a}.norm()",
             f"{a}.std()" if shape and shape[0] > 1 else f"{a} - 1", f"{a}.max(0)[0]" if shape
             else f"{a}.min()", f"{a}[{a} > 0]", f"{a}.sort(0)[0]" if shape else f"{a}.sqrt()",
             f"{a}.prod()", f"{a}.flatten()[-1:]", f"{a}.clone()", f"{a}.detach()",
             f"{a}.float()", f"{a}.double()", f"{a}.to(torch.int64)"]
    g.emit(f"y = {g.pick(steps)}")
    if g.chance(0.3):
        g.emit(f"y = y * 2 if y.dim() else y + 1")
    if g.chance(0.3):
        g.emit(g.pick(["y = y.sum(-1) if y.dim() else y", "y = y[..., :1]", "y = y.t() if "
                       "y.dim() == 2 else y", "y = torch.cat([y, y])" if shape else "y = y * y",
                       "y = y.softmax(-1) if y.dim() else y.exp()",
                       "y = y.log_softmax(0) if y.dim() else y.log()", "y = y.view(-1)",
                       "y = y.unsqueeze(0).expand(2, *y.shape).sum(0)", "y = y.mean()",
                       "y = torch.stack([y, y]).max(0).values"]))
        g.emit("print(type(y.grad_fn).__name__ if y.grad_fn else None)")
    g.emit("print(y.requires_grad, y.is_leaf, type(y.grad_fn).__name__ if y.grad_fn else None)")
    if g.chance(0.3):
        g.emit(f"y.retain_grad()")
    if g.chance(0.2):
        g.emit(f"{a}.data.add_(1)" if g.chance(0.5) else f"{a}.add_(1)")
    g.emit(g.pick(["y.sum().backward()", "y.backward()", "y.mean().backward()",
                   "y.backward(torch.ones_like(y))", "(y * y).sum().backward(retain_graph=True)",
                   f"print(torch.autograd.grad(y.sum(), {a}))"]))
    g.emit(f"print(repr({a}.grad), {a}.is_leaf, {a}.grad_fn, y.grad)")
    if g.chance(0.3):
        g.emit(g.pick([f"print({a}.grad.dtype, {a}.grad.stride(), {a}.grad.is_contiguous())",
                       "print(y.grad_fn.next_functions)", f"print({a}.detach().requires_grad)",
                       "print(y.requires_grad, y.is_leaf, y.grad_fn.name())",
                       f"print(torch.autograd.grad(({a} * 2).sum(), {a}))"]))
    if g.chance(0.2):
        g.emit("y.sum().backward()")
        g.emit(f"print({a}.grad)")


CATEGORIES: dict[str, Callable[[Gen], None]] = {
    "creation": creation, "promotion": promotion, "int_division": int_division,
    "pow": pow_forms, "clamp_where": clamp_where, "logical": logical_ops, "views": views,
    "out": out_param, "indexing": indexing, "index_funcs": index_funcs,
    "reductions": reductions, "printing": printing, "autograd": autograd,
}
WEIGHTS = {"promotion": 3, "views": 2, "indexing": 2, "reductions": 2, "printing": 2}


def generate(seed: int, count: int, only: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """`count` cases from `seed`: (category, lines) each; the same seed gives the same cases.
    Without `only`, the thirteen areas here; gen2.py's to gen5.py's areas run when named
    (`new`: all of gen2's, `gen3`, `gen4`, `gen5`: all of that file's)."""
    import gen2
    import gen3
    import gen4
    import gen5

    areas = {**CATEGORIES, **gen2.AREAS, **gen3.AREAS, **gen4.AREAS, **gen5.AREAS}
    groups = {"new": list(gen2.AREAS), "gen3": list(gen3.AREAS), "gen4": list(gen4.AREAS),
              "gen5": list(gen5.AREAS)}
    names = [n for name in (only or list(CATEGORIES)) for n in groups.get(name, [name])]
    rng = random.Random(seed)
    weighted = [n for n in names for _ in range(WEIGHTS.get(n, 1))]
    cases = []
    for _ in range(count):
        category = rng.choice(weighted)
        g = Gen(random.Random(rng.getrandbits(64)))
        areas[category](g)
        cases.append((category, g.lines))
    return cases
