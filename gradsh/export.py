"""gradsh AST -> the equivalent PyTorch program, statement by statement (`gradsh export FILE`).

Each top-level statement becomes one chunk of Python, so `gradsh check` can run the chunks one
at a time beside gradsh's own steps; `Exported.source()` joins them into the program a user
reads and runs with plain `python`. The translation is static: a bare name is a variable once
the script has assigned it, else a builtin spelled as PyTorch spells it (`relu` -> `torch.relu`,
`grad` -> `torch.autograd.grad`, the spellings come from gradsh.builtins), a dtype
(`torch.float64`) or a device (`"cuda"`). Module paths to a builtin are canonicalised the same
way (`F.relu` -> `torch.relu`). gradsh's own statements map to their PyTorch meaning:

    seed N                  torch.manual_seed(N)
    device D / dtype D      torch.set_default_device(D) / torch.set_default_dtype(D)
    backward e retain       e.backward(retain_graph=True)
    no_grad { ... }         with torch.no_grad(): ...   (enable_grad, set_grad_enabled alike)
    detect_anomaly { ... }  with torch.autograd.detect_anomaly(): ...
    repeat N { ... }        for _ in range(N): ...
    print a, b              print(a, b)
    assert a == b           a helper with gradsh's meaning: allclose when a tensor is involved
    show / graph / explain  comments (they only display)

Variables whose names Python or the export itself reserves (`lambda`, `torch`, `print`, `open`
...) get a trailing underscore; `Exported.names` maps every gradsh variable to its Python name.

A script is untrusted and its export gets run, so the exporter writes only what it can vouch for
(gradsh.pysafe): the script's own variables, gradsh's builtins by their canonical torch path,
attributes gradsh itself serves, literals re-rendered from their values, and the file name only
inside a comment, escaped. Anything else (a name the script never assigns, `torch.os`,
`x.__class__`, a name Python would read differently) is an ExportError at its position, and
every chunk written passes pysafe's `ast` gate before anyone can run it.
"""

from __future__ import annotations

import argparse
import keyword
import sys
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from gradsh import ast, pysafe
from gradsh import builtins as table
from gradsh.errors import GradshError, Pos, format_error
from gradsh.export_comments import Comments
from gradsh.interp_names import _ALIASES as MODULE_ATTRIBUTE_ALIASES  # torch.optim.SGD -> sgd
from gradsh.interpreter import _source_of as source_of

INDENT = "    "

# Names the exported program itself uses; a gradsh variable with one of them is renamed.
RESERVED = pysafe.EXPORT_NAMES

# Python's operator precedence, loosest first (the exporter adds parentheses from it).
LAMBDA, OR, AND, NOT, COMPARE, BITOR, BITXOR, BITAND, ADD, MUL, UNARY, POWER, POSTFIX, ATOM = (
    range(14))
_BINARY_PRECEDENCE = {"+": ADD, "-": ADD, "*": MUL, "/": MUL, "//": MUL, "%": MUL, "@": MUL,
                      "**": POWER, "|": BITOR, "^": BITXOR, "&": BITAND}
_COMPARE_OPERATORS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not")

HELPERS: dict[str, str] = {
    "_true": '''\
def _true(value):
    """gradsh's truth in `assert`: a tensor holds when every element does."""
    if isinstance(value, torch.Tensor):
        return bool(value.all())
    return bool(value)
''',
    "_close": '''\
def _close(left, right):
    """gradsh's `==` in `assert`: element-wise allclose (rtol=1e-5, atol=1e-8), broadcasting,
    whenever either side is a tensor; Python's `==` otherwise."""
    if not isinstance(left, torch.Tensor) and not isinstance(right, torch.Tensor):
        return bool(left == right)

    def host(value):
        if isinstance(value, torch.Tensor):
            return value.detach().cpu()
        if value is None:
            raise TypeError("cannot compare None with a tensor")
        return torch.tensor(value)

    a, b = host(left), host(right)
    try:
        torch.broadcast_shapes(a.shape, b.shape)
    except RuntimeError:
        raise RuntimeError(f"cannot compare tensors of shapes {list(a.shape)} and "
                           f"{list(b.shape)}") from None
    return bool(torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-8))
''',
    "_assert_equal": '''\
def _assert_equal(left, right, text, equal=True):
    """gradsh's `assert left == right` (`!=` when equal is False), with gradsh's message."""
    if isinstance(left, torch.Tensor) or isinstance(right, torch.Tensor):
        if _close(left, right) != equal:
            raise AssertionError(f"{text} is false: left is {left!r}, right is {right!r}")
    elif not (left == right if equal else left != right):
        raise AssertionError(f"{text} is false")
''',
    "_torch_or_python": '''\
def _torch_or_python(torch_function, python_function, *args, **kwargs):
    """gradsh's sum, min, max and round: torch's function on a tensor, Python's builtin on other
    values (a list of tensors, numbers)."""
    if (args and isinstance(args[0], torch.Tensor)) or (not args and kwargs):
        return torch_function(*args, **kwargs)
    return python_function(*args, **kwargs)
''',
}
# Helpers that call other helpers.
_HELPER_NEEDS = {"_assert_equal": ("_close",)}


class ExportError(GradshError):
    """A construct the exporter cannot write as Python (reported like a syntax error)."""


@dataclass(frozen=True)
class ExportedStep:
    """One top-level gradsh statement and its Python code (one or more lines, no newline)."""

    stmt: ast.Stmt
    code: str


@dataclass(frozen=True)
class Exported:
    """A whole exported program: imports and helpers, option statements, then the steps."""

    path: str
    header: str
    prelude: str
    steps: tuple[ExportedStep, ...]
    names: dict[str, str] = field(default_factory=dict)  # gradsh variable -> Python name
    trailer: str = ""  # the script's comments after its last statement

    def source(self) -> str:
        """The runnable PyTorch program."""
        parts = [self.header]
        if self.prelude:
            parts.append(self.prelude)
        body = "\n".join([step.code for step in self.steps if step.code]
                         + ([self.trailer] if self.trailer else []))
        if body:
            parts.append(body)
        return "\n\n".join(parts) + "\n"


@dataclass
class ExportOptions:
    """Run options a script can carry (`# gradsh: --seed 0`), as statements before the script."""

    seed: int | None = None
    device: str | None = None
    sim_cuda: bool = False


def export_program(program: ast.Program, options: ExportOptions | None = None) -> Exported:
    """Translate a parsed program; raises ExportError for what Python cannot express."""
    return _Exporter(program).export(options or ExportOptions())


def export_source(source: str, path: str = "<input>",
                  options: ExportOptions | None = None) -> Exported:
    """Parse and translate gradsh source (a SyntaxError is a GradshError)."""
    from gradsh.parser import parse

    return export_program(parse(source, path), options)


# ---------------------------------------------------------------------------------------------
# The translator
# ---------------------------------------------------------------------------------------------


class _Exporter:
    """Walks the program in order, knowing which names the script has assigned so far."""

    def __init__(self, program: ast.Program) -> None:
        self.program = program
        self.defined: set[str] = set()  # gradsh variables assigned so far (in program order)
        self.params: list[set[str]] = []  # lambda parameters in scope, innermost last
        self.names: dict[str, str] = {}  # gradsh variable -> Python name
        self.helpers: set[str] = set()
        self.imports: set[str] = set()
        self._all_names, self._bound_names = _collect_names(program.body)
        self.comments = Comments(program.source)

    # -- program ------------------------------------------------------------------------------

    def export(self, options: ExportOptions) -> Exported:
        chunks = self._statements(self.program.body, None, blank_lines=True)
        if chunks:
            while chunks[0] and not chunks[0][0]:  # the program's first lines: no blank above
                chunks[0].pop(0)
        steps = tuple(ExportedStep(stmt, "\n".join(lines))
                      for stmt, lines in zip(self.program.body, chunks, strict=True))
        trailer = "\n".join(self.comments.rest())
        prelude: list[str] = []
        if options.sim_cuda:
            prelude.append("# gradsh ran this script with --sim-cuda (cuda:0 simulated on the CPU);"
                           "\n# PyTorch needs a real GPU for it.")
        if options.seed is not None:
            prelude.append(f"torch.manual_seed({int(options.seed)})")
        if options.device is not None:
            prelude.append(f"torch.set_default_device({pysafe.python_string(options.device)})")
        exported = Exported(self.program.path, self._header(), "\n".join(prelude), steps,
                            dict(self.names), trailer)
        self._gate(exported)
        return exported

    def _gate(self, exported: Exported) -> None:
        """Refuse the export if any chunk holds what the translator must never write."""
        try:
            gate = pysafe.Gate(exported.names.values(), HELPERS)
            gate.check_header(exported.header)
            gate.check_step(exported.prelude)
        except pysafe.Refused as err:
            raise ExportError("ExportError", f"cannot export this script: {err}") from None
        for step in exported.steps:
            try:
                gate.check_step(step.code)
            except pysafe.Refused as err:
                raise ExportError("ExportError", f"cannot export this statement: {err}",
                                  step.stmt.pos) from None

    def _header(self) -> str:
        path = pysafe.comment_text(self.program.path)
        lines = [f"# PyTorch program exported by gradsh from {path}.", "import torch"]
        if "F" in self.imports:
            lines.append("import torch.nn.functional as F")
        if "nn" in self.imports:
            lines.append("import torch.nn as nn")
        needed: list[str] = []
        for name in HELPERS:  # in dependency order: a helper's needs come first
            if name in self.helpers:
                for dependency in _HELPER_NEEDS.get(name, ()):
                    if dependency not in needed:
                        needed.append(dependency)
                if name not in needed:
                    needed.append(name)
        helpers = [HELPERS[name] for name in HELPERS if name in needed]
        header = "\n".join(lines)
        if helpers:  # PEP 8: two blank lines around top-level functions
            header += "\n\n\n" + "\n\n".join(helpers)
        return header

    # -- statements ---------------------------------------------------------------------------

    def statement(self, stmt: ast.Stmt) -> list[str]:
        method = getattr(self, f"_stmt_{type(stmt).__name__}", None)
        if method is None:
            raise ExportError("SyntaxError", f"cannot export {type(stmt).__name__} statements",
                              stmt.pos)
        return method(stmt)  # type: ignore[no-any-return]

    def _statements(self, body: Sequence[ast.Stmt], parent: ast.Stmt | None,
                    blank_lines: bool = False) -> list[list[str]]:
        """Each statement's lines with the script's comments around it: those on lines of
        their own before it, those inside it (written on several lines), the one ending its
        last line unless a statement after it (or the block around it) ends there too."""
        chunks: list[list[str]] = []
        for i, stmt in enumerate(body):
            block = isinstance(stmt, (ast.GradMode, ast.Repeat))
            lines = self.comments.before(stmt.pos.line, blank_lines)
            if not block:
                lines += self.comments.within(stmt.pos.line, stmt.pos.end_line - 1)
            code = self.statement(stmt)
            end = stmt.pos.end_line
            later = body[i + 1].pos.line if i + 1 < len(body) else None
            comment = None
            if end != later and (parent is None or end != parent.pos.end_line):
                comment = self.comments.after(end)
            if comment is not None and block and stmt.pos.line != end:
                code.append(comment.lstrip())  # after the closing brace: a line of its own
            elif comment is not None:
                at = 0 if block else len(code) - 1
                code[at] += comment
            chunks.append(lines + code)
        return chunks

    def _block(self, body: Sequence[ast.Stmt], parent: ast.Stmt) -> list[str]:
        lines: list[str] = []
        for chunk in self._statements(body, parent):
            lines.extend(chunk)
        lines += self.comments.before(parent.pos.end_line, blank_lines=False)
        if all(not line.strip() or line.lstrip().startswith("#") for line in lines):
            lines.append("pass")
        return [INDENT + line if line else line for line in lines]

    def _head(self, head: str, stmt: ast.GradMode | ast.Repeat) -> str:
        """A block's first line, with the comment that ends `repeat 3 {  # ...`."""
        if stmt.body and stmt.body[0].pos.line > stmt.pos.line:
            head += self.comments.after(stmt.pos.line) or ""
        return head

    def _stmt_Assign(self, stmt: ast.Assign) -> list[str]:
        value = self.expr(stmt.value)
        target = self.target(stmt.target)
        return [f"{target} = {value}"]

    def _stmt_AugAssign(self, stmt: ast.AugAssign) -> list[str]:
        _operator(stmt.op, _BINARY_PRECEDENCE, stmt)
        self._check_settable(stmt.target)
        return [f"{self.expr(stmt.target)} {stmt.op}= {self.expr(stmt.value)}"]

    def _stmt_ExprStmt(self, stmt: ast.ExprStmt) -> list[str]:
        return [self.expr(stmt.expr)]

    def _stmt_Print(self, stmt: ast.Print) -> list[str]:
        return [f"print({', '.join(self.expr(arg) for arg in stmt.args)})"]

    def _stmt_Show(self, stmt: ast.Show) -> list[str]:
        return _comment(stmt.source)

    def _stmt_Graph(self, stmt: ast.Graph) -> list[str]:
        return _comment(stmt.source)

    def _stmt_Explain(self, stmt: ast.Explain) -> list[str]:
        return _comment(stmt.source)

    def _stmt_Assert(self, stmt: ast.Assert) -> list[str]:
        test = stmt.test
        text = source_of(self.program.source, test.pos)
        if isinstance(test, ast.Compare) and test.op in ("==", "!="):
            left, right = self.expr(test.left), self.expr(test.right)
            if stmt.message is None:
                self.helpers.add("_assert_equal")
                equal = "" if test.op == "==" else ", equal=False"
                return [f"_assert_equal({left}, {right}, {pysafe.python_string(text)}{equal})"]
            self.helpers.add("_close")
            negate = "" if test.op == "==" else "not "
            return [f"assert {negate}_close({left}, {right}), {self.expr(stmt.message)}"]
        self.helpers.add("_true")
        message = (self.expr(stmt.message) if stmt.message is not None
                   else pysafe.python_string(f"{text} is false"))
        return [f"assert _true({self.expr(test)}), {message}"]

    def _stmt_Backward(self, stmt: ast.Backward) -> list[str]:
        options = []
        if stmt.retain_graph:
            options.append("retain_graph=True")
        if stmt.create_graph:
            options.append("create_graph=True")
        return [f"{self.expr(stmt.target, POSTFIX)}.backward({', '.join(options)})"]

    def _stmt_Seed(self, stmt: ast.Seed) -> list[str]:
        return [f"torch.manual_seed({self.expr(stmt.value)})"]

    def _stmt_Device(self, stmt: ast.Device) -> list[str]:
        return [f"torch.set_default_device({self.expr(stmt.value)})"]

    def _stmt_Dtype(self, stmt: ast.Dtype) -> list[str]:
        return [f"torch.set_default_dtype({self.expr(stmt.value)})"]

    def _stmt_Del(self, stmt: ast.Del) -> list[str]:
        names = [self.expr(name) for name in stmt.names]
        for name in stmt.names:
            self.defined.discard(name.id)
        return [f"del {', '.join(names)}"]

    def _stmt_GradMode(self, stmt: ast.GradMode) -> list[str]:
        if stmt.kind == "no_grad":
            head = "with torch.no_grad():"
        elif stmt.kind == "enable_grad":
            head = "with torch.enable_grad():"
        else:
            arg = self.expr(stmt.arg) if stmt.arg is not None else "True"
            head = f"with torch.set_grad_enabled({arg}):"
        return [self._head(head, stmt), *self._block(stmt.body, stmt)]

    def _stmt_DetectAnomaly(self, stmt: ast.DetectAnomaly) -> list[str]:
        arg = f"check_nan={self.expr(stmt.check_nan)}" if stmt.check_nan is not None else ""
        head = self._head(f"with torch.autograd.detect_anomaly({arg}):", stmt)
        return [head, *self._block(stmt.body, stmt)]

    def _stmt_Repeat(self, stmt: ast.Repeat) -> list[str]:
        head = self._head(f"for _ in range({self.expr(stmt.count)}):", stmt)
        return [head, *self._block(stmt.body, stmt)]

    def target(self, expr: ast.Expr) -> str:
        """An assignment target; names it binds become variables from here on."""
        if isinstance(expr, ast.Name):
            self.defined.add(expr.id)
            return self.variable(expr.id, expr.pos)
        if isinstance(expr, ast.TupleLit):
            items = [self.target(item) if not isinstance(item, ast.TupleLit)
                     else f"({self.target(item)})" for item in expr.items]
            return ", ".join(items) + ("," if len(items) == 1 else "")
        self._check_settable(expr)
        return self.expr(expr)

    def _check_settable(self, expr: ast.Expr) -> None:
        """A script may assign to a tensor attribute of its values (`x.grad = None`; gradsh says
        which are writable), never to torch's (`torch.relu = f`, `Tensor.add = print`)."""
        if not isinstance(expr, ast.Attribute):
            return
        obj = expr.obj
        static = (isinstance(obj, ast.Name) and not self._is_variable(obj.id)
                  or isinstance(obj, ast.Attribute) and self._module_of(obj.obj) is not None)
        if static or self._module_of(obj) is not None:
            raise ExportError("ExportError", "cannot export an assignment to a torch attribute",
                              expr.pos)
        if expr.name not in table.ATTRIBUTES:
            raise ExportError("ExportError", f"cannot export an assignment to '.{expr.name}': "
                              "not a tensor attribute", expr.pos)

    # -- names --------------------------------------------------------------------------------

    def variable(self, name: str, pos: Pos) -> str:
        """The Python name of a gradsh variable (renamed only if Python or the export needs:
        a keyword, a name the export uses, or one of Python's builtins, which an unbound
        variable would otherwise reach)."""
        if name not in self.names:
            problem = pysafe.identifier_problem(name)
            if problem is not None:
                raise ExportError("ExportError", f"cannot export the name '{name}': {problem}",
                                  pos)
            python = name
            taken = set(self.names.values()) | self._all_names
            if _reserved(python):
                python += "_"
                while python in taken or _reserved(python):
                    python += "_"
            self.names[name] = python
        return self.names[name]

    def _is_variable(self, name: str) -> bool:
        return name in self.defined or any(name in scope for scope in self.params)

    def _module_of(self, expr: ast.Expr) -> str | None:
        """The module path an expression names statically (`torch`, `F` -> torch.nn.functional)."""
        if isinstance(expr, ast.Name):
            if self._is_variable(expr.id):
                return None
            if expr.id in table.MODULES:
                return expr.id
            return table.MODULE_ALIASES.get(expr.id)
        if isinstance(expr, ast.Attribute):
            parent = self._module_of(expr.obj)
            if parent is not None and f"{parent}.{expr.name}" in table.MODULES:
                return f"{parent}.{expr.name}"
        return None

    def _builtin_of(self, expr: ast.Expr) -> table.Builtin | None:
        """The builtin function a callee names statically: `relu`, `F.relu`, `torch.optim.SGD`."""
        name: str | None = None
        if isinstance(expr, ast.Name) and not self._is_variable(expr.id):
            name = expr.id
        elif isinstance(expr, ast.Attribute) and self._module_of(expr.obj) is not None:
            name = MODULE_ATTRIBUTE_ALIASES.get(expr.name, expr.name)
            if (self._module_of(expr.obj) == "torch.linalg"
                    and f"linalg_{name}" in table.FUNCTIONS):
                name = f"linalg_{name}"
            builtin = table.FUNCTIONS.get(name)
            return None if builtin is None or builtin.python == "only" else builtin
        return table.FUNCTIONS.get(name) if name is not None else None

    def _constant(self, name: str) -> str | None:
        """A global that is not a function: `print`, a dtype or a device, spelled for Python."""
        if name == "print":
            return "print"
        if name in table.DTYPE_NAMES or name in table.NUMBER_CONSTANTS:
            return f"torch.{name}"
        if name in table.DEVICE_NAMES:
            return pysafe.python_string(name)
        return None

    # -- expressions --------------------------------------------------------------------------

    def expr(self, expr: ast.Expr, context: int = LAMBDA) -> str:
        """Python source for `expr`, parenthesised when its precedence is below `context`."""
        method = getattr(self, f"_expr_{type(expr).__name__}", None)
        if method is None:
            raise ExportError("SyntaxError", f"cannot export {type(expr).__name__} expressions",
                              expr.pos)
        code, precedence = method(expr)
        return f"({code})" if precedence < context else code

    def _expr_Number(self, expr: ast.Number) -> tuple[str, int]:
        return pysafe.python_number(expr.text, expr.value), ATOM

    def _expr_String(self, expr: ast.String) -> tuple[str, int]:
        return pysafe.python_string(expr.value), ATOM

    def _expr_Bool(self, expr: ast.Bool) -> tuple[str, int]:
        return ("True" if expr.value else "False"), ATOM

    def _expr_NoneLit(self, expr: ast.NoneLit) -> tuple[str, int]:
        return "None", ATOM

    def _expr_Ellipsis_(self, expr: ast.Ellipsis_) -> tuple[str, int]:
        return "...", ATOM

    def _expr_DeviceLit(self, expr: ast.DeviceLit) -> tuple[str, int]:
        return pysafe.python_string(expr.value), ATOM

    def _expr_Name(self, expr: ast.Name) -> tuple[str, int]:
        name = expr.id
        if self._is_variable(name):
            return self.variable(name, expr.pos), ATOM
        if name in table.DTYPE_NAMES:  # `float` on its own is torch.float (`float(x)`: a call)
            return f"torch.{name}", POSTFIX
        builtin = table.FUNCTIONS.get(name)
        if builtin is not None:
            return builtin.torch_name, POSTFIX
        constant = self._constant(name)
        if constant is not None:
            return constant, POSTFIX
        if name in table.MODULES:
            return name, ATOM
        if name in table.MODULE_ALIASES:
            self.imports.add(name)
            return name, ATOM
        if _reserved(name) and name not in self._bound_names:
            # Python would reach its own builtin (`open`, `eval`) where gradsh has none.
            raise ExportError("ExportError", f"cannot export the name '{name}': it is neither a "
                              "gradsh builtin nor a variable of this script", expr.pos)
        return self.variable(name, expr.pos), ATOM  # unbound here: Python raises NameError

    def _expr_ListLit(self, expr: ast.ListLit) -> tuple[str, int]:
        return f"[{', '.join(self.expr(item) for item in expr.items)}]", ATOM

    def _expr_TupleLit(self, expr: ast.TupleLit) -> tuple[str, int]:
        items = [self.expr(item) for item in expr.items]
        if len(items) == 1:
            return f"({items[0]},)", ATOM
        return f"({', '.join(items)})", ATOM

    def _expr_Attribute(self, expr: ast.Attribute) -> tuple[str, int]:
        module = self._module_of(expr.obj)
        if module is not None:
            full = f"{module}.{expr.name}"
            if full in table.MODULES:
                return full, POSTFIX
            builtin = self._builtin_of(expr)
            if builtin is not None:
                return builtin.torch_name, POSTFIX
            constant = self._constant(expr.name)
            if constant is not None and constant != "print":
                return constant, POSTFIX
            raise ExportError("ExportError", f"cannot export '{module}.{expr.name}': not a "
                              "gradsh builtin", expr.pos)
        obj = self.expr(expr.obj, POSTFIX)  # first, so the innermost refusal is reported
        if _module_position(expr.name):
            return f"{obj}[{expr.name}]", POSTFIX  # `model.0`: a Sequential's module by position
        if not pysafe.is_object_attribute(expr.name):
            raise ExportError("ExportError", f"cannot export the attribute '.{expr.name}': "
                              "gradsh serves no such attribute", expr.pos)
        if isinstance(expr.obj, ast.Number):
            obj = f"({obj})"  # `2.real` would read as the float `2.` then a name
        return f"{obj}.{expr.name}", POSTFIX

    def _expr_Call(self, expr: ast.Call) -> tuple[str, int]:
        builtin = self._builtin_of(expr.func)
        args = list(expr.args)
        kwargs = [f"{self._keyword(k)}={self.expr(k.value)}" for k in expr.kwargs]
        if builtin is not None and builtin.python == "fallback" and isinstance(expr.func, ast.Name):
            return self._torch_or_python(builtin, args, kwargs), POSTFIX
        flagged = False
        if builtin is not None and builtin.grad_flag:
            kept = [a for a in args if not self._is_grad_flag(a)]
            flagged = len(kept) != len(args)
            args = kept
        func = builtin.torch_name if builtin is not None else self.expr(expr.func, POSTFIX)
        parts = [self.expr(a) for a in args] + kwargs
        suffix = ""
        if flagged and not any(k.name == "requires_grad" for k in expr.kwargs):
            if builtin is not None and builtin.name == "Tensor":
                suffix = ".requires_grad_()"  # torch.Tensor(...) takes no requires_grad
            else:
                parts.append("requires_grad=True")
        return f"{func}({', '.join(parts)}){suffix}", POSTFIX

    def _torch_or_python(self, builtin: table.Builtin, args: list[ast.Expr],
                         kwargs: list[str]) -> str:
        """A bare `sum(...)`, `max(...)`, `abs(...)` ...: torch's on a tensor, Python's otherwise.
        `abs` is Python's either way (abs of a tensor is torch.abs); the others need a helper
        unless the first argument is a list, tuple or number written out in the script."""
        parts = [self.expr(a) for a in args] + kwargs
        first = args[0] if args else None
        literal = isinstance(first, (ast.ListLit, ast.TupleLit, ast.Number))
        if (builtin.name == "abs" and not kwargs) or (literal and first is not None):
            return f"{builtin.name}({', '.join(parts)})"
        self.helpers.add("_torch_or_python")
        return (f"_torch_or_python({builtin.torch_name}, {builtin.name}"
                f"{''.join(', ' + p for p in parts)})")

    def _keyword(self, keyword_: ast.Keyword) -> str:
        name = keyword_.name
        problem = pysafe.identifier_problem(name)
        if problem is None and keyword.iskeyword(name):
            problem = "a Python keyword"
        if problem is not None:
            raise ExportError("ExportError", f"cannot export the keyword argument '{name}': "
                              f"{problem}", keyword_.pos)
        return name

    def _is_grad_flag(self, expr: ast.Expr) -> bool:
        """The bare `grad` in `tensor(2., grad)`: short for requires_grad=True."""
        return isinstance(expr, ast.Name) and expr.id == "grad" and not self._is_variable("grad")

    def _expr_Index(self, expr: ast.Index) -> tuple[str, int]:
        items = [self._subscript(item) for item in expr.items]
        inside = ", ".join(items)
        return f"{self.expr(expr.obj, POSTFIX)}[{inside}]", POSTFIX

    def _subscript(self, item: ast.Expr) -> str:
        if isinstance(item, ast.Slice):
            start = self.expr(item.start) if item.start is not None else ""
            stop = self.expr(item.stop) if item.stop is not None else ""
            text = f"{start}:{stop}"
            if item.step is not None:
                text += f":{self.expr(item.step)}"
            return text
        return self.expr(item)

    def _expr_Slice(self, expr: ast.Slice) -> tuple[str, int]:
        raise ExportError("SyntaxError", "a slice is only allowed inside [ ]", expr.pos)

    def _expr_BinOp(self, expr: ast.BinOp) -> tuple[str, int]:
        precedence = _BINARY_PRECEDENCE[_operator(expr.op, _BINARY_PRECEDENCE, expr)]
        if expr.op == "**":  # right associative, and binds tighter than a unary on its left
            left = self.expr(expr.left, POWER + 1)
            right = self.expr(expr.right, UNARY)
        else:
            left = self.expr(expr.left, precedence)
            right = self.expr(expr.right, precedence + 1)
        return f"{left} {expr.op} {right}", precedence

    def _expr_UnaryOp(self, expr: ast.UnaryOp) -> tuple[str, int]:
        _operator(expr.op, ("-", "+", "~", "not"), expr)
        if expr.op == "not":
            return f"not {self.expr(expr.operand, NOT)}", NOT
        return f"{expr.op}{self.expr(expr.operand, UNARY)}", UNARY

    def _expr_Compare(self, expr: ast.Compare) -> tuple[str, int]:
        _operator(expr.op, _COMPARE_OPERATORS, expr)
        # Both sides one level tighter: `(a < b) < c` must not become a Python chain.
        left = self.expr(expr.left, COMPARE + 1)
        right = self.expr(expr.right, COMPARE + 1)
        return f"{left} {expr.op} {right}", COMPARE

    def _expr_BoolOp(self, expr: ast.BoolOp) -> tuple[str, int]:
        precedence = AND if _operator(expr.op, ("and", "or"), expr) == "and" else OR
        left = self.expr(expr.left, precedence)
        right = self.expr(expr.right, precedence + 1)
        return f"{left} {expr.op} {right}", precedence

    def _expr_Lambda(self, expr: ast.Lambda) -> tuple[str, int]:
        self.params.append(set(expr.params))
        try:
            params = ", ".join(self.variable(p, expr.pos) for p in expr.params)
            body = self.expr(expr.body)
        finally:
            self.params.pop()
        return (f"lambda {params}: {body}" if params else f"lambda: {body}"), LAMBDA


def _operator(op: str, known: Collection[str], node: ast.Expr | ast.Stmt) -> str:
    """`op` if it is one of the `known` operators (the parser makes no other; the AST is data)."""
    if op not in known:
        raise ExportError("ExportError", f"cannot export the operator {op!r}", node.pos)
    return op


def _module_position(name: str) -> bool:
    """`0` in `model.0.weight`: digits Python reads as the same int."""
    return name.isascii() and name.isdigit() and str(int(name)) == name


def _reserved(name: str) -> bool:
    return keyword.iskeyword(name) or name in RESERVED or name in pysafe.PYTHON_BUILTINS


def _comment(source: str) -> list[str]:
    """A display statement as comment lines; characters that could make a reader see other
    text than Python does (bidirectional overrides, control characters) are escaped."""
    return [f"# {line if line.isprintable() else repr(line)[1:-1]}".rstrip()
            for line in source.splitlines() or [""]]


def walk(nodes: Iterable[object]) -> Iterator[object]:
    """Every gradsh AST node in and below `nodes` (statements, expressions, keywords)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            yield node
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "pos")


def _collect_names(body: Sequence[ast.Stmt]) -> tuple[set[str], set[str]]:
    """Every identifier the program mentions (so a renamed variable cannot collide with one),
    and the names it assigns somewhere (its variables, even where read before assignment)."""
    names: set[str] = set()
    bound: set[str] = set()
    for node in walk(body):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Lambda):
            names.update(node.params)
        elif isinstance(node, ast.Assign):
            bound.update(_assigned(node.target))
    return names, bound


def _assigned(target: ast.Expr) -> list[str]:
    """The names an assignment target binds: `a`, or each name of `a, (b, c)` (not `x.grad`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.TupleLit):  # nesting is bounded by the parser's depth limit
        return [name for item in target.items for name in _assigned(item)]
    return []


# ---------------------------------------------------------------------------------------------
# Command line: gradsh export FILE
# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from gradsh.cli import _Parser

    parser = _Parser(prog="gradsh export",
                     description="Print the PyTorch program equivalent to a .grad script.")
    parser.add_argument("file", help="a .grad script")
    parser.add_argument("--seed", type=int, metavar="N", help="torch.manual_seed(N) first")
    parser.add_argument("--device", choices=("cpu", "cuda"), help="default device")
    parser.add_argument("--sim-cuda", action="store_true",
                        help="accepted for symmetry with run (a real GPU is needed in PyTorch)")
    parser.add_argument("--keep-going", action="store_true",
                        help="accepted for symmetry with run (Python stops at an error)")
    parser.add_argument("-o", "--output", metavar="OUT", help="write the program to OUT")
    return parser


def cli_main(argv: Sequence[str]) -> int:
    """`gradsh export FILE [--seed N] [--device D] [-o OUT]`; exit 0, or 2 for a bad script."""
    from gradsh.runner import EXIT_OK, EXIT_USAGE, read_with_header

    parser = build_parser()
    args, source = read_with_header(parser, argv, parser.parse_args(list(argv)))
    if source is None:
        return EXIT_USAGE
    options = ExportOptions(seed=args.seed, device=args.device, sim_cuda=args.sim_cuda)
    try:
        exported = export_source(source, args.file, options)
    except GradshError as err:
        sys.stderr.write(format_error(err, source, args.file) + "\n")
        return EXIT_USAGE
    text = exported.source()
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            sys.stderr.write(f"gradsh: error: cannot write {args.output}: {err.strerror}\n")
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    return EXIT_OK
