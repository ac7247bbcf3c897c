"""What the PyTorch exporter may write: vetted identifiers, attributes and literals, and a gate.

A `.grad` script is untrusted input, and its export is run (`gradsh check`, `gradsh export |
python`), so gradsh.export writes only tokens it can vouch for: names of the script's own
variables (never one of Python's builtins, never a dunder), attributes gradsh's interpreter lets
a script read, module paths to gradsh's builtins, and literals re-rendered from their values.
`Gate` then parses each exported chunk with Python's `ast` and refuses any node, name or
attribute outside that vocabulary, so a gap in the translator cannot become code execution.
"""

from __future__ import annotations

import ast
import builtins
import math
import re
import unicodedata
from collections.abc import Iterable

from gradsh import builtins as table

# Names the exported program itself binds or calls; a gradsh variable with one is renamed.
EXPORT_NAMES = frozenset({
    "torch", "F", "nn", "print", "_", "_true", "_close", "_assert_equal", "_torch_or_python",
    # Python's builtins a script may call (gradsh.pybuiltins), none of which reaches further
    "range", "len", "list", "tuple", "zip", "enumerate", "int", "float", "bool", "sum", "min",
    "max", "abs", "round",
})
# Python's own builtins (open, eval, __import__ ...): a variable that could be read while unbound
# must never resolve to one of them, so variables with these names are renamed too.
PYTHON_BUILTINS = frozenset(dir(builtins))

# Attributes a script may read on a value (not a module): what gradsh's interpreter serves on
# its tensors, grad_fn nodes, dtypes, devices, sizes, (values, indices) results, nn modules and
# optimizers (the builtin table's members) and hook handles. Nothing here starts with `__`, and
# none reaches Python's or the OS's machinery.
OBJECT_ATTRIBUTES = frozenset(
    table.ATTRIBUTES | table.METHODS | frozenset().union(*table.MEMBERS.values()) | {
        "next_functions", "name", "metadata", "variable",  # grad_fn nodes
        "is_floating_point", "itemsize",  # dtypes
        "type", "index",  # devices
        "values", "indices",  # torch.return_types (max, sort, topk ...)
        "inverse", "info", "L", "result", "sign", "logabsdet", "Q", "R", "U", "S", "Vh", "V",
        "eigenvalues", "eigenvectors",  # ... and torch.linalg's
        "step", "zero_grad", "param_groups", "state",  # optimizers
        "remove",  # hook handles
    }
)
# A node's saved tensors: `_saved_self`, `_saved_other` (never `_saved___class__`).
_SAVED = re.compile(r"_saved_[a-z][a-z0-9_]*")

# Canonical module paths the exporter writes (`torch.nn.functional.relu`), and their prefixes.
_STATEMENT_PATHS = ("torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled",
                    "torch.manual_seed", "torch.set_default_device", "torch.set_default_dtype",
                    "torch.autograd.detect_anomaly")
MODULE_PATHS = frozenset(
    set(table.MODULES) | {b.torch_name for b in table.FUNCTIONS.values()}
    | {f"torch.{name}" for name in (*table.DTYPE_NAMES, *table.NUMBER_CONSTANTS)}
    | set(_STATEMENT_PATHS)
)
MODULE_PREFIXES = frozenset(
    ".".join(path.split(".")[:i]) for path in MODULE_PATHS for i in range(1, path.count(".") + 1)
)

# A Python number literal in ASCII, as the gradsh grammar writes one (`2.`, `1e-3`, `1_000`),
# except an integer with leading zeros (`007`), which Python refuses.
_NUMBER = re.compile(r"(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?", re.ASCII)
_LEADING_ZEROS = re.compile(r"0[0_]*[1-9][0-9_]*", re.ASCII)
# What makes a comment on line 1 or 2 an encoding declaration (PEP 263).
_CODING = re.compile(r"coding[:=]")
_DECLARATION = re.compile(r"^[ \t\f]*#.*?coding[:=]", re.ASCII)


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def identifier_problem(name: str) -> str | None:
    """Why `name` cannot stand in Python for the gradsh name it is, or None.

    Python reads identifiers after NFKC normalisation, so `ｏｐｅｎ` would be `open`; a dunder
    (`__import__`) means something to Python itself.
    """
    if not name.isidentifier():
        return "Python has no such identifier"
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        return f"Python reads it as '{normal}'"
    if is_dunder(name):
        return "Python reserves dunder names"
    return None


def is_object_attribute(name: str) -> bool:
    """Whether the exporter may write `value.name` for a value that is not a module."""
    return name in OBJECT_ATTRIBUTES or _SAVED.fullmatch(name) is not None


def python_string(value: str) -> str:
    """A double-quoted Python literal for `value`: each character as repr escapes it (line
    breaks, backslashes, control and unprintable characters), and `"` escaped."""
    return '"' + "".join('\\"' if c == '"' else repr(c)[1:-1] for c in value) + '"'


def python_number(text: str, value: int | float) -> str:
    """The literal as written when Python reads it the same way, else one made from the value
    (the grammar also takes non-ASCII digits and `007`, which Python source does not)."""
    if _NUMBER.fullmatch(text) and not _LEADING_ZEROS.fullmatch(text):
        return text
    if isinstance(value, float) and math.isinf(value):  # `inf` would be a name
        return "1e999"
    return repr(value)


def comment_text(text: str) -> str:
    """`text` for the inside of a one-line `#` comment: as is when printable, else its repr, so
    a line break (or any control character) in a file name cannot end the comment; and never
    an encoding declaration (`coding: shift_jis` on line 1 would make Python read the bytes that
    follow in another encoding, where a multi-byte character can swallow a backslash)."""
    if text.isprintable() and not _CODING.search(text):
        return text
    return _CODING.sub(lambda m: f"coding\\x{ord(m.group()[-1]):02x}", repr(text))


# ---------------------------------------------------------------------------------------------
# The gate: an `ast` check of what was written
# ---------------------------------------------------------------------------------------------

_STEP_NODES: tuple[type, ...] = (
    ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.Delete, ast.For, ast.With, ast.withitem,
    ast.Assert, ast.Pass, ast.Name, ast.Load, ast.Store, ast.Del, ast.Constant, ast.Attribute,
    ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Call, ast.keyword, ast.BinOp, ast.UnaryOp,
    ast.Compare, ast.BoolOp, ast.Lambda, ast.arguments, ast.arg, ast.operator, ast.unaryop,
    ast.cmpop, ast.boolop, ast.expr_context,
)
_CONSTANTS = (str, int, float, bool, type(None), type(...))
_IMPORTS = {"torch": None, "torch.nn.functional": "F", "torch.nn": "nn"}


class Refused(Exception):
    """An exported chunk holds something outside the exporter's vocabulary."""


class Gate:
    """Checks exported Python against the names it may use: EXPORT_NAMES and `variables`."""

    def __init__(self, variables: Iterable[str], helpers: dict[str, str]) -> None:
        self.names = EXPORT_NAMES | frozenset(variables)
        unsafe = sorted(n for n in self.names - EXPORT_NAMES
                        if n in PYTHON_BUILTINS or identifier_problem(n) is not None)
        if unsafe:
            raise Refused(f"the variable name '{unsafe[0]}' is unsafe in Python")
        self.helpers = {name: ast.dump(ast.parse(text)) for name, text in helpers.items()}

    def check_header(self, code: str) -> None:
        """Imports of torch and the fixed helper functions, nothing else, and no encoding
        declaration (the program is UTF-8, as gradsh wrote it)."""
        if any(_DECLARATION.match(line) for line in re.split(r"\r\n|\r|\n", code)[:2]):
            raise Refused("the header declares an encoding")
        for node in _parse(code).body:
            if isinstance(node, ast.Import) and len(node.names) == 1:
                alias = node.names[0]
                if alias.name in _IMPORTS and alias.asname == _IMPORTS[alias.name]:
                    continue
            if isinstance(node, ast.FunctionDef) and node.name in self.helpers:
                if ast.dump(ast.Module([node], [])) == self.helpers[node.name]:
                    continue
            raise Refused(f"the header holds {_describe(node)}")

    def check_step(self, code: str) -> None:
        """Statements of the step vocabulary; names and attributes the exporter vouches for."""
        for node in ast.walk(_parse(code)):
            if not isinstance(node, _STEP_NODES):
                raise Refused(f"the export holds {_describe(node)}")
            if isinstance(node, ast.Name) and node.id not in self.names:
                raise Refused(f"the export names '{node.id}'")
            if isinstance(node, ast.arg) and node.arg not in self.names:
                raise Refused(f"the export binds '{node.arg}'")
            if isinstance(node, ast.Attribute):
                self._check_attribute(node)
            if isinstance(node, ast.Constant) and not isinstance(node.value, _CONSTANTS):
                raise Refused(f"the export holds a {type(node.value).__name__} constant")
            if isinstance(node, ast.Call) and any(k.arg is None for k in node.keywords):
                raise Refused("the export unpacks keyword arguments")
            if isinstance(node, ast.arguments) and (
                    node.posonlyargs or node.vararg or node.kwonlyargs or node.kwarg
                    or node.defaults):
                raise Refused("the export holds a lambda with a special parameter")

    def _check_attribute(self, node: ast.Attribute) -> None:
        parent = _module_path(node.value)
        if parent is not None and parent in MODULE_PREFIXES:
            full = f"{parent}.{node.attr}"
            if full not in MODULE_PATHS and full not in MODULE_PREFIXES:
                raise Refused(f"the export reaches '{full}'")
        elif not is_object_attribute(node.attr):
            raise Refused(f"the export reads the attribute '{node.attr}'")


def _module_path(node: ast.expr) -> str | None:
    """`torch.nn.functional` for that chain of attributes on the name torch (F, nn expanded)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in ("torch", *table.MODULE_ALIASES):
        return None
    parts.append(table.MODULE_ALIASES.get(node.id, node.id))
    return ".".join(reversed(parts))


def _parse(code: str) -> ast.Module:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError) as err:  # ValueError: a NUL byte in Python 3.11
        raise Refused(f"the export is not valid Python ({err})") from None


def _describe(node: ast.AST) -> str:
    line = getattr(node, "lineno", None)
    return f"a {type(node).__name__}" + (f" (line {line})" if line is not None else "")
