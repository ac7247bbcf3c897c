"""Hostile and random input: only gradsh errors come out; a statement gradsh undoes changes nothing.

Three sources of programs: random bytes and token soup, mutations of the shipped scripts, and
generated programs over the op table with random shapes and dtypes. Run with `-m fuzz`; the
`long` profile (`--hypothesis-profile long`) runs many more examples.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from gradsh import ast as gradsh_ast
from gradsh import builtins as table
from gradsh import export, pysafe
from gradsh.engine.tensor import Tensor
from gradsh.errors import GradshError
from gradsh.golden import fresh_state
from gradsh.interpreter import Interpreter
from gradsh.parser import parse
from gradsh.runner import RunOptions, run_source

pytestmark = pytest.mark.fuzz

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "scripts").glob("*.grad")) + sorted((ROOT / "tests" / "parity").glob(
    "*.grad"))



def run_text(source: str) -> tuple[int, str]:
    """Run `source` as `gradsh run --keep-going` does, in process; exit code and all output."""
    buffer = io.StringIO()
    fresh_state()
    code = run_source(source, "fuzz.grad", RunOptions(keep_going=True, seed=0, timeout=20),
                      buffer, buffer)
    fresh_state()
    return code, buffer.getvalue()


# A Python traceback's first line (PyTorch's anomaly-mode warning, which gradsh prints too, says
# "Traceback of forward call that caused the error": not one).
PYTHON_TRACEBACK = "Traceback (most recent call last)"


def assert_only_gradsh_errors(code: int, output: str) -> None:
    assert code in (0, 1, 2)
    assert PYTHON_TRACEBACK not in output, output[-2000:]
    assert "InternalError" not in output, output[-2000:]


# -- (a) bytes and token soup ---------------------------------------------------------------

TOKENS = [
    "x", "y", "a", "b", "=", "+", "-", "*", "/", "**", "@", "(", ")", "[", "]", "{", "}", ",",
    ";", "\n", ".", ":", "1", "2.", "-1", "0", "1e-3", "tensor", "rand", "zeros", "grad",
    "requires_grad=True", "backward", "retain", "no_grad", "repeat", "print", "show", "graph",
    "explain", "assert", "del", "seed", "device", "dtype", "float64", "cuda", "None", "true",
    "sum()", "mean()", ".grad", ".data", ".backward()", ".retain_grad()", ".detach()", "->",
    "lambda", "\"s\"", "#", "==", "<", "not", "and", "[1., 2.]", "x.add_(1)", "_version",
]


@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    assert_only_gradsh_errors(*run_text(text))


@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup(tokens: list[str]) -> None:
    assert_only_gradsh_errors(*run_text(" ".join(tokens)))


# -- (b) mutations of real programs -----------------------------------------------------------


@st.composite
def mutated_script(draw: Any) -> str:
    text = draw(st.sampled_from(SCRIPTS)).read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("# gradsh:")]
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete_line", "duplicate_line", "swap_lines", "cut",
                                     "insert_token", "replace_token"]))
        line = lines[i]
        if kind == "delete_line":
            del lines[i]
        elif kind == "duplicate_line":
            lines.insert(i, line)
        elif kind == "swap_lines":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "cut" and line:
            a = draw(st.integers(0, len(line)))
            b = draw(st.integers(a, len(line)))
            lines[i] = line[:a] + line[b:]
        elif kind == "insert_token":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(st.sampled_from(TOKENS)) + line[at:]
        else:
            words = line.split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(TOKENS))
            lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@given(mutated_script())
def test_mutated_scripts(source: str) -> None:
    assert_only_gradsh_errors(*run_text(source))


# -- (c) generated programs over the op table --------------------------------------------------

NAMES = ["a", "b", "c", "d", "e"]
SHAPES = ["()", "(3,)", "(2, 3)", "(3, 1)", "(1, 3)", "(2,)"]
DTYPES = ["float32", "float64", "int64", "bool"]
UNARY = ["exp()", "log()", "sin()", "tanh()", "sigmoid()", "relu()", "sqrt()", "abs()",
         "square()", "neg()", "sum()", "mean()", "max()", "t()", "clone()", "detach()",
         "float()", "double()", "long()", "reshape(-1)", "unsqueeze(0)", "squeeze()",
         "softmax(dim=0)", "norm()", "var()", "std()", "prod()", "sum(dim=0)", "T",
         "log1p()", "expm1()", "sinh()", "asin()", "atan()", "erf()", "cumsum(0)", "flip(0)",
         "repeat(2, 1)", "roll(1)", "tril()", "triu(1)", "trace()", "diag()", "sort()[0]",
         "topk(1)[0]", "argsort()", "nan_to_num()", "all()", "any()", "movedim(0, -1)",
         "gather(0, tensor([0]))", "index_select(0, tensor([0]))", "masked_select(a > 0)",
         "nonzero()", "new_zeros(2)", "lerp(a, 0.5)", "atan2(a)", "addmm(a, a)"]
BINARY = ["+", "-", "*", "/", "**", "@", "==", "<"]
INPLACE = ["add_(1)", "mul_(2)", "zero_()", "sub_(0.5)", "div_(2)", "fill_(3)", "clamp_(0, 1)"]


@st.composite
def statement(draw: Any) -> str:
    target = draw(st.sampled_from(NAMES))
    x, y = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES))
    kind = draw(st.sampled_from(["create", "create", "unary", "binary", "binary", "backward",
                                 "inplace", "index", "attr", "block", "hook", "grad_set"]))
    if kind == "create":
        shape = draw(st.sampled_from(SHAPES))
        dtype = draw(st.sampled_from(DTYPES))
        factory = draw(st.sampled_from(["rand", "randn", "ones", "zeros"]))
        grad = draw(st.booleans())
        if dtype in ("int64", "bool") or factory in ("rand", "randn") and dtype != "float64":
            dtype = draw(st.sampled_from(["float32", "float64"]))
        return f"{target} = {factory}{shape}.to({dtype})" + (".requires_grad_()" if grad else "")
    if kind == "unary":
        return f"{target} = {x}.{draw(st.sampled_from(UNARY))}"
    if kind == "binary":
        return f"{target} = {x} {draw(st.sampled_from(BINARY))} {y}"
    if kind == "backward":
        retain = draw(st.sampled_from(["", " retain"]))
        return f"backward {x}.sum(){retain}"
    if kind == "inplace":
        return f"{x}.{draw(st.sampled_from(INPLACE))}"
    if kind == "index":
        key = draw(st.sampled_from(["0", "-1", ":, 0", "1:", "None", "..., 0", "5"]))
        return f"{target} = {x}[{key}]"
    if kind == "attr":
        attr = draw(st.sampled_from(["grad", "data", "grad_fn", "is_leaf", "retain_grad()",
                                     "requires_grad_()", "detach_()", "item()"]))
        return f"{target} = {x}.{attr}"
    if kind == "block":
        inner = draw(st.lists(statement(), min_size=1, max_size=3))
        head = draw(st.sampled_from(["no_grad", "enable_grad", "repeat 2"]))
        return f"{head} {{ {'; '.join(inner)} }}"
    if kind == "hook":
        return f"{x}.register_hook(g -> g * 2)"
    return f"{x}.grad = None"


def state_of(interp: Interpreter) -> dict[str, Any]:
    """Everything a failing statement must leave as it was, read without side effects."""
    def tensor_state(t: Tensor) -> tuple[Any, ...]:
        grad = t._grad
        return (
            id(t), np.asarray(t._data).tobytes(), str(t._data.dtype), t._data.shape,
            t._requires_grad, id(t._grad_fn), t._version,
            None if grad is None else (id(grad), np.asarray(grad._data).tobytes()),
            len(t._hooks or ()),
        )

    state: dict[str, Any] = {}
    for name, value in interp.env.items():
        state[name] = tensor_state(value) if isinstance(value, Tensor) else repr(value)
    return state


@given(st.lists(statement(), min_size=1, max_size=12))
def test_generated_programs_fail_cleanly(lines: list[str]) -> None:
    """Every error is a located gradsh error; a statement gradsh undid (its own stop) changed
    nothing (PyTorch's errors keep what ran before them, as in PyTorch)."""
    source = "\n".join(lines) + "\n"
    try:
        program = parse(source, "gen.grad")
    except GradshError:
        assume(False)
        return
    fresh_state()
    interp = Interpreter("gen.grad", source)
    for stmt in program.body:
        before = state_of(interp)
        outcome = interp.run_statement(stmt)
        if outcome.error is not None:
            assert outcome.error.kind != "InternalError", (stmt.source, outcome.error.message)
            assert outcome.error.pos is not None
            if outcome.rolled_back:
                assert state_of(interp) == before, stmt.source
    fresh_state()


@pytest.mark.parametrize("source", [
    "x = " + "(" * 10_000 + "1" + ")" * 10_000,
    "x = " + "-" * 20_000 + "1",
    "x = tensor(" + "[" * 5_000 + "1." + "]" * 5_000 + ")",
    "x = 1" + " + 1" * 5_000,
    "x = tensor(1.)" + ".exp()" * 2_000,
])
def test_deep_input_is_a_clean_error_or_a_result(source: str) -> None:
    code, output = run_text(source)
    assert_only_gradsh_errors(code, output)
    assert "RecursionError" not in output


# -- (d) the exporter under hostile names, attributes and string literals ----------------------

HOSTILE_NAMES = [
    "__import__", "open", "eval", "exec", "getattr", "globals", "vars", "compile", "breakpoint",
    "input", "type", "__builtins__", "__class__", "os", "system", "torch", "F", "nn", "print",
    "range", "_", "_close", "_true", "lambda", "ｏｐｅｎ", "ℯval", "ﬁle", "x", "grad", "relu",
    "cpu", "float64", "pi", "α", "g",
]
HOSTILE_ATTRIBUTES = [
    "__class__", "__globals__", "__dict__", "__subclasses__", "__init__", "__builtins__",
    "_saved___class__", "_saved_self", "os", "system", "load", "save", "numpy", "format",
    "grad", "grad_fn", "next_functions", "name", "relu", "functional", "nn", "autograd",
    "register_hook", "mro", "f_globals", "gi_frame", "ｇrad", "sum", "float64", "item",
]
IDENTIFIER = st.from_regex(r"[^\W\d]\w{0,5}", fullmatch=True)
NAME = st.one_of(st.sampled_from(HOSTILE_NAMES), IDENTIFIER)
ATTRIBUTE = st.one_of(st.sampled_from(HOSTILE_ATTRIBUTES), IDENTIFIER)
_GRADSH_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\0": "\\0"}


@st.composite
def string_literal(draw: Any) -> str:
    """A gradsh string literal of any text: quotes, line breaks, backslashes, unicode."""
    value = draw(st.text(max_size=16))
    return '"' + "".join(_GRADSH_ESCAPES.get(c, c) for c in value) + '"'


@st.composite
def hostile_statement(draw: Any) -> str:
    name, other, attr = draw(NAME), draw(NAME), draw(ATTRIBUTE)
    text = draw(string_literal())
    return draw(st.sampled_from([
        f"{name} = tensor(1., grad)", f"y = {name}", f"y = {name}({text})",
        f"y = {name}.{attr}", f"y = {name}.{attr}({text}, {other})", f"y = x.{attr}.{attr}",
        f"y = torch.{attr}.{draw(ATTRIBUTE)}", f"y = F.{attr}", f"s = {text}",
        f"y = tensor(1., {name}={text})", f"h = x.register_hook({name} -> {name}.{attr})",
        f"h = x.register_hook(g -> {name}({text}))", f"print {name}, {text}",
        f"y = x.to({text})", f"device {text}", f"dtype {text}", f"graph x -o {text}",
        f"assert {name} == {text}, {text}", f"del {name}", f"{name}.{attr} = {text}",
        f"{name} += {other}",
    ]))


def inert_problems(program: str, variables: set[str]) -> list[str]:
    """What in an exported program reaches beyond torch, gradsh's builtins and its variables."""
    allowed = {"torch", "F", "nn", "print", "range", "_"} | set(export.HELPERS)
    torch_paths = ({b.torch_name for b in table.FUNCTIONS.values()} | set(table.MODULES)
                   | {f"torch.{n}" for n in (*table.DTYPE_NAMES, *table.NUMBER_CONSTANTS)}
                   | {"torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled",
                      "torch.manual_seed", "torch.set_default_device", "torch.set_default_dtype"})
    modules = {p.rsplit(".", 1)[0] for p in torch_paths if "." in p} | set(table.MODULES)
    # the attributes gradsh serves on values (tensors, nodes, dtypes, devices, torch.return_types
    # and torch.linalg's results such as qr's Q and R, optimizers, hook handles)
    value_attributes = pysafe.OBJECT_ATTRIBUTES
    problems = [f"variable {v}" for v in variables
                if v in dir(builtins) or v in allowed or v.startswith("__") and v.strip("_")]
    helpers = {name: ast.unparse(ast.parse(code)) for name, code in export.HELPERS.items()}
    for top in ast.parse(program).body:
        if isinstance(top, ast.FunctionDef):  # a helper: exactly gradsh's own text
            if helpers.get(top.name) != ast.unparse(top):
                problems.append(f"function {top.name}")
            continue
        if isinstance(top, ast.Import):
            if ast.unparse(top) not in ("import torch", "import torch.nn.functional as F",
                                        "import torch.nn as nn"):
                problems.append(ast.unparse(top))
            continue
        for node in ast.walk(top):
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef,
                                 ast.JoinedStr, ast.NamedExpr, ast.Starred)):
                problems.append(type(node).__name__)
            elif isinstance(node, ast.Name) and node.id not in allowed | variables:
                problems.append(f"name {node.id}")
            elif isinstance(node, ast.arg) and node.arg not in variables:
                problems.append(f"parameter {node.arg}")
            elif isinstance(node, ast.Call) and not isinstance(node.func,
                                                               (ast.Name, ast.Attribute)):
                continue  # calling a call's result (a lambda's): its parts are checked too
            elif isinstance(node, ast.Attribute):
                parent = {"F": "torch.nn.functional", "nn": "torch.nn"}.get(
                    ast.unparse(node.value), ast.unparse(node.value))
                if parent in modules:  # torch.X must be one of gradsh's builtins or modules
                    if f"{parent}.{node.attr}" not in torch_paths | modules:
                        problems.append(f"path {parent}.{node.attr}")
                elif node.attr not in value_attributes and not (
                        node.attr.startswith("_saved_") and "__" not in node.attr):
                    problems.append(f"attribute {node.attr}")
    return problems


def gradsh_strings(program: gradsh_ast.Program) -> list[str]:
    """Every string literal of the statements that export as code (not display comments)."""
    code = [s for s in program.body
            if not isinstance(s, (gradsh_ast.Graph, gradsh_ast.Show, gradsh_ast.Explain))]
    return [node.value for node in export.walk(code) if isinstance(node, gradsh_ast.String)]


@given(st.lists(hostile_statement(), min_size=1, max_size=6),
       st.one_of(st.text(min_size=1, max_size=12),
                 st.sampled_from(["coding:shift_jis x", "a coding=latin-1 b", "n\nimport os"])))
def test_the_exporter_writes_only_torch_and_the_scripts_own_names(lines: list[str],
                                                                  stem: str) -> None:
    source = "x = tensor([1., 2.], grad)\n" + "\n".join(lines) + "\n"
    path = stem + ".grad"
    try:
        program = parse(source, path)
        exported = export.export_program(program)
    except GradshError as err:
        assert err.kind in ("SyntaxError", "ExportError"), err.message
        event(f"refused: {err.kind}")
        return
    event("exported")
    text = exported.source()
    assert inert_problems(text, set(exported.names.values())) == [], text
    constants = [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant)]
    for value in gradsh_strings(program):
        assert value in constants, value
    first = text.split("\n", 1)[0]
    assert first.startswith("# PyTorch program exported by gradsh from ")
    assert "\r" not in first and re.search(r"coding[:=]", first) is None  # no encoding cookie
