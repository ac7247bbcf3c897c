"""AST -> engine calls. Runs statements one at a time and returns what each did; never prints.

Each top-level statement yields a StepOutcome: the lines it printed, the warnings it raised
(once each, without PyTorch's "Triggered internally" tail), explicit displays it asked for
(`show`, `graph`, `explain`), the repr of its value when it is a bare expression (as Python's
REPL echoes it) and the error that stopped it, located at the innermost expression
that failed. The variable environment keeps definition order, which the table follows.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from gradsh import ast, suggest
from gradsh import builtins as table
from gradsh.engine import buffers, dtypes, ops
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import LimitExceeded, TorchError, set_warning_handler
from gradsh.engine.tensor import (
    Anomaly,
    Node,
    Tensor,
    _Origin,
    reset_warn_once,
    set_grad_enabled,
    undo_log,
)
from gradsh import interp_names as names
from gradsh.errors import GradshError, Pos
from gradsh.interp_names import (
    _make_globals,
    _module_attribute,
    _namespace_of,
    _node_attribute,
    _takes_requires_grad,
    _tensor_attribute,
    _unknown_name_hint,
    public_members,
)
from gradsh.statement_undo import SessionState, is_instance, is_nn_module, undoes, uninterrupted
from gradsh.snapshot import tensor_env
from gradsh.pybuiltins import CONVERSIONS, PYTHON_ONLY, checked_mul, checked_pow
from gradsh.values import (
    BoundMethod,
    BuiltinFunction,
    Device,
    Module,
    Size,
    UserFunction,
    py_repr,
    py_str,
    safe_repr,
)

@dataclass
class Display:
    """An explicit display a statement asked for: `show`, `graph` or `explain`."""

    kind: str  # "show", "graph", "explain"
    names: tuple[str, ...] = ()
    target: Any = None
    target_name: str = ""
    output: str | None = None


@dataclass
class StepOutcome:
    stmt: ast.Stmt
    printed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    displays: list[Display] = field(default_factory=list)
    # `events` keeps prints, warnings, displays and the echo of a bare expression's value
    # ("echo", not in `printed`, which is what the script printed) in the order they happened.
    events: list[tuple[str, Any]] = field(default_factory=list)
    error: GradshError | None = None
    rolled_back: bool = False  # gradsh undid the statement (its own stop, not PyTorch's error)

    @property
    def ok(self) -> bool:
        return self.error is None


class _Unset:
    pass


UNSET = _Unset()

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": checked_mul,  # (a list, a string or an integer over the limits is refused)
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": checked_pow,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda item, container: item in container,
    "not in": lambda item, container: item not in container,
    "is": operator.is_,
    "is not": operator.is_not,
}
# Python's augmented assignment: the in-place operator (Tensor.__iadd__ ...), falling back to
# the binary one, with Python's "unsupported operand type(s) for +=" when neither applies
_AUGMENTED: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "&": operator.iand, "|": operator.ior, "^": operator.ixor}
# What _at turns into a located gradsh error (see Interpreter._located); anything else (a
# MemoryError, a RecursionError, an interrupt) goes on up to run_statement as it is.
_LOCATED = (GradshError, TorchError, ZeroDivisionError, TypeError, ValueError, IndexError,
            KeyError, AttributeError, OverflowError)
_MAX_CALL_DEPTH = 200
_CONVERSION_FUNCTIONS = {name: BuiltinFunction(name, function, python=True)
                         for name, function in CONVERSIONS.items()}


class Interpreter:
    """One gradsh session: variables, the default device/dtype, and the statement runner."""

    def __init__(self, path: str = "<input>", source: str = "") -> None:
        self.path = path
        self.source = source
        self.env: dict[str, Any] = {}
        self.globals = _make_globals(self._print_builtin)
        self._outcome: StepOutcome | None = None
        self._seen_warnings: set[str] = set()
        self._call_depth = 0
        reset_warn_once()
        dtypes.set_default_dtype(dtypes.float32)
        ops.DefaultDevice.value = "cpu"

    # -- running ------------------------------------------------------------------------------

    def run(self, program: ast.Program) -> Iterator[StepOutcome]:
        """Run every top-level statement in order, yielding each outcome as it completes.

        The caller decides whether to stop after an error (scripts) or go on (--keep-going).
        """
        self.source = program.source
        self.path = program.path
        for stmt in program.body:
            yield self.run_statement(stmt)

    def run_statement(self, stmt: ast.Stmt) -> StepOutcome:
        """Run one top-level statement.

        A statement that raises one of PyTorch's errors (or a Python error of the script's own
        making) leaves what PyTorch leaves: what ran before the raise keeps its effects
        (gradients a failing backward already accumulated, buffers it freed, the first
        statements of a failing block). Only gradsh's own stops undo the statement: Ctrl-C and
        --timeout (re-raised to the caller), --max-memory and work too large to start
        (LimitExceeded, MemoryError) and gradsh's internal errors; variables, gradients,
        in-place writes, freed buffers and the random stream are then put back, and the error
        says so (`rolled_back`)."""
        outcome = StepOutcome(stmt)
        self._outcome = outcome
        self._seen_warnings = set()
        previous = set_warning_handler(self._on_warning)
        before = SessionState.take(self.env)
        try:
            with undo_log() as log, _python_warnings(self._on_warning), _statement_origins():
                log.protected = before.protected_arrays  # made at the first in-place write
                try:
                    self._exec(stmt)
                except BaseException as err:
                    if undoes(err):
                        with uninterrupted():
                            log.rollback()
                            before.restore(self.env)
                        outcome.rolled_back = True
                    raise
        except LimitExceeded as err:
            outcome.error = self._torch_error(err, stmt.pos)
        except GradshError as err:
            outcome.error = err.with_pos(stmt.pos)
        except TorchError as err:
            outcome.error = self._torch_error(err, stmt.pos)
        except RecursionError:
            outcome.error = GradshError(
                "RecursionError", "maximum recursion depth exceeded", stmt.pos
            )
        except MemoryError as err:
            detail = f": {err}" if str(err) else ""
            outcome.error = GradshError("MemoryError", f"out of memory{detail}", stmt.pos)
        except Exception as err:  # noqa: BLE001  (a bug in gradsh: report it, never a traceback)
            outcome.error = GradshError(
                "InternalError", f"{type(err).__name__}: {err} (this is a gradsh bug)", stmt.pos
            )
        finally:
            set_warning_handler(previous)
            self._outcome = None
            log = None  # (its copies of changed storage are free now: settled with the rest)
            buffers.settle()  # large arrays unused for a whole statement go back to the system
        if outcome.error is not None and outcome.rolled_back:
            outcome.error.rolled_back = True
        return outcome

    def _on_warning(self, category: str, message: str) -> None:
        text = f"{category}: {message}"
        if text in self._seen_warnings or self._outcome is None:
            return
        self._seen_warnings.add(text)
        self._outcome.warnings.append(text)
        self._outcome.events.append(("warning", text))

    def _emit(self, line: str) -> None:
        assert self._outcome is not None
        self._outcome.printed.append(line)
        self._outcome.events.append(("print", line))

    def _print_builtin(self, *args: Any, sep: str = " ", end: str = "") -> None:
        text = sep.join(py_str(a) for a in args) + (end if end != "\n" else "")
        self._emit(text)

    def tensors(self) -> list[tuple[str, Tensor]]:
        """The tensor variables in definition order (what the table shows)."""
        return [(name, v) for name, v in self.env.items() if isinstance(v, Tensor)]

    # -- statements ---------------------------------------------------------------------------

    def _exec(self, stmt: ast.Stmt) -> None:
        method = _EXEC.get(stmt.__class__)
        if method is None:  # not a statement node: the AttributeError of a missing method
            getattr(self, f"_exec_{type(stmt).__name__}")
        _Origin.value = stmt  # (set_origin: what the engine records with saved tensors,
        method(self, stmt)  # type: ignore[misc]  in-place changes and frees)

    def _exec_Assign(self, stmt: ast.Assign) -> None:
        value = self.eval(stmt.value)
        target = stmt.target
        if target.__class__ is ast.Name:  # the common case, without _assign's dispatch
            self.env[target.id] = value  # type: ignore[attr-defined]
        else:
            self._assign(target, value)

    def _assign(self, target: ast.Expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self._check_assignable(target)
            self.env[target.id] = value
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.obj)
            self._at(target, lambda: self._set_attribute(obj, target.name, value))
        elif isinstance(target, ast.Index):
            obj = self.eval(target.obj)
            key = self._index_key(target)
            self._at(target, lambda: self._set_item(obj, key, value))
        elif isinstance(target, ast.TupleLit):
            values = self._at(target, lambda: _unpack(value, len(target.items)))
            for item, v in zip(target.items, values, strict=True):
                self._assign(item, v)
        else:
            raise GradshError("SyntaxError", "cannot assign to this expression", target.pos)

    def _check_assignable(self, target: ast.Name) -> None:
        if target.id in ("torch", "F", "nn") and target.id not in self.env:
            return  # shadowing a namespace is allowed, as in Python

    def _set_attribute(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Tensor):
            if name not in table.WRITABLE_ATTRIBUTES:
                if name in table.ATTRIBUTES:
                    raise GradshError(
                        "AttributeError",
                        f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable",
                    )
                raise GradshError(
                    "AttributeError", f"gradsh tensors have no settable attribute '{name}'"
                )
            if name == "requires_grad" and not isinstance(value, bool):
                raise GradshError("TypeError", "requires_grad must be a bool")
            setattr(obj, name, value)
            return
        raise GradshError(
            "AttributeError", f"cannot set attribute '{name}' of {_type_name(obj)}"
        )

    def _set_item(self, obj: Any, key: Any, value: Any) -> None:
        if isinstance(obj, Tensor):
            ops.setitem(obj, key, value)
        elif isinstance(obj, (list, dict)):  # `opt.param_groups[0]["lr"] = 0.01`
            obj[key] = value
        else:
            raise GradshError(
                "TypeError", f"'{_type_name(obj)}' object does not support item assignment"
            )

    def _exec_AugAssign(self, stmt: ast.AugAssign) -> None:
        # Python's semantics: get, apply the in-place operator, set back (`w.data -= ...`
        # writes through .data; `x[0] += 1` is an in-place op on a view, then a setitem).
        current = self.eval(stmt.target)
        value = self.eval(stmt.value)

        def apply() -> Any:
            if isinstance(current, Tensor):
                return _AUGMENTED[stmt.op](current, value)
            return _BINARY[stmt.op](current, value)

        result = self._at(stmt, apply)
        if isinstance(stmt.target, ast.Name):
            self.env[stmt.target.id] = result
        else:
            self._assign(stmt.target, result)

    def _exec_ExprStmt(self, stmt: ast.ExprStmt) -> None:
        # `backward(d)` on its own is torch.autograd.backward; handled by the builtin call.
        value = self.last_value = self.eval(stmt.expr)
        outcome = self._outcome
        if value is not None and outcome is not None and stmt is outcome.stmt:
            # A bare expression at the top shows its value, as in Python's REPL (whose
            # transcripts the walkthroughs follow); None, what most calls return, shows nothing.
            # A value Python cannot repr (an int past 4,300 digits) fails as the REPL's does.
            try:
                outcome.events.append(("echo", py_repr(value)))
            except (ValueError, RecursionError) as err:
                raise GradshError(type(err).__name__, str(err), stmt.pos) from None

    def _exec_Print(self, stmt: ast.Print) -> None:
        values = [self.eval(arg) for arg in stmt.args]
        try:
            text = " ".join(py_str(v) for v in values)
        except (ValueError, RecursionError) as err:  # what Python's print raises for them too
            kind = "RecursionError" if isinstance(err, RecursionError) else "ValueError"
            raise GradshError(kind, str(err), stmt.pos) from None
        self._emit(text)

    def _exec_Show(self, stmt: ast.Show) -> None:
        for name in stmt.names:
            self._lookup(name)
        assert self._outcome is not None
        display = Display("show", tuple(n.id for n in stmt.names))
        self._outcome.displays.append(display)
        self._outcome.events.append(("display", display))

    def _exec_Graph(self, stmt: ast.Graph) -> None:
        target = self.eval(stmt.target)
        output = None
        if stmt.output is not None:
            output = self._path(stmt.output)
            if output is None:
                output = self.eval(stmt.output)
        if output is not None and not isinstance(output, str):
            raise GradshError("TypeError", "graph -o expects a file name, such as c.svg or "
                              '"my graphs/c.svg"', stmt.output.pos if stmt.output else stmt.pos)
        name = stmt.target.id if isinstance(stmt.target, ast.Name) else _source_of(
            self.source, stmt.target.pos)
        if output is not None:  # written now, so a failure is this statement's error
            from gradsh.dot import write_graph

            self._at(stmt.output,  # type: ignore[arg-type]
                     lambda: write_graph(target, name, tensor_env(self.env), output, self.path))
        self._display(Display("graph", target=target, target_name=name, output=output))

    def _path(self, expr: ast.Expr) -> str | None:
        """The file name an unquoted `graph c -o out/c.svg` means: its text, when it reads as a
        path (names, numbers, `.`, `/`, `-`) and is not a variable; None otherwise."""
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Attribute):
                stack.append(node.obj)
            elif isinstance(node, ast.BinOp) and node.op in ("/", "-"):
                stack += [node.left, node.right]
            elif not isinstance(node, (ast.Name, ast.Number)):
                return None
        if isinstance(expr, ast.Name) and expr.id in self.env:
            return None
        text = _source_of(self.source, expr.pos)
        return text if expr.pos.line == expr.pos.end_line and " " not in text else None

    def _exec_Explain(self, stmt: ast.Explain) -> None:
        target = self.eval(stmt.target)
        name = stmt.target.id if isinstance(stmt.target, ast.Name) else _source_of(
            self.source, stmt.target.pos)
        self._display(Display("explain", target=target, target_name=name))

    def _display(self, display: Display) -> None:
        assert self._outcome is not None
        self._outcome.displays.append(display)
        self._outcome.events.append(("display", display))

    def _exec_Assert(self, stmt: ast.Assert) -> None:
        test = stmt.test
        if isinstance(test, ast.Compare) and test.op in ("==", "!="):
            left = self.eval(test.left)
            right = self.eval(test.right)
            if isinstance(left, Tensor) or isinstance(right, Tensor):
                equal = self._at(test, lambda: _allclose(left, right))
                if equal == (test.op == "=="):
                    return
                self._assert_failed(stmt, f"{_source_of(self.source, test.pos)} is false: "
                                    f"left is {safe_repr(left)}, right is {safe_repr(right)}")
                return
        value = self.eval(test)
        if isinstance(value, Tensor):
            ok = self._at(test, lambda: bool(value._data.all()))
        else:
            ok = bool(value)
        if not ok:
            self._assert_failed(stmt, f"{_source_of(self.source, test.pos)} is false")

    def _assert_failed(self, stmt: ast.Assert, default: str) -> None:
        message = default
        if stmt.message is not None:
            message = py_str(self.eval(stmt.message))
        raise GradshError("AssertionError", message, stmt.test.pos)

    def _exec_Backward(self, stmt: ast.Backward) -> None:
        target = self.eval(stmt.target)
        if not isinstance(target, Tensor):
            raise GradshError(
                "TypeError", f"backward needs a tensor, got {_type_name(target)}", stmt.target.pos
            )
        self._at(stmt, lambda: ops.backward(
            target, retain_graph=True if stmt.retain_graph else None,
            create_graph=stmt.create_graph,
        ))

    def _exec_Seed(self, stmt: ast.Seed) -> None:
        value = self.eval(stmt.value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise GradshError("TypeError", "seed expects an integer", stmt.value.pos)
        self._at(stmt.value, lambda: ops.manual_seed(value))

    def _exec_Device(self, stmt: ast.Device) -> None:
        value = self.eval(stmt.value)
        name = value.name if isinstance(value, Device) else value
        if not isinstance(name, str):
            raise GradshError("TypeError", "device expects cpu or cuda", stmt.value.pos)

        def set_device() -> None:
            resolved = ops._device_name(name)
            ops.DeviceHooks.check(resolved)
            ops.DefaultDevice.value = resolved

        self._at(stmt.value, set_device)

    def _exec_Dtype(self, stmt: ast.Dtype) -> None:
        value = self.eval(stmt.value)
        if not isinstance(value, DType):
            raise GradshError("TypeError", "dtype expects a dtype such as float64",
                              stmt.value.pos)
        try:
            dtypes.set_default_dtype(value)
        except TypeError as err:
            raise GradshError("TypeError", str(err), stmt.value.pos) from None

    def _exec_Del(self, stmt: ast.Del) -> None:
        for name in stmt.names:
            if name.id not in self.env:
                raise GradshError("NameError", f"name '{name.id}' is not defined", name.pos)
        for name in stmt.names:
            del self.env[name.id]

    def _exec_GradMode(self, stmt: ast.GradMode) -> None:
        if stmt.kind == "no_grad":
            mode = False
        elif stmt.kind == "enable_grad":
            mode = True
        else:
            value = self.eval(stmt.arg) if stmt.arg is not None else True
            mode = bool(value)
        with set_grad_enabled(mode):
            for inner in stmt.body:
                self._exec(inner)

    def _exec_DetectAnomaly(self, stmt: ast.DetectAnomaly) -> None:
        from gradsh.torch.autograd import detect_anomaly  # warns as PyTorch's does

        check_nan = self.eval(stmt.check_nan) if stmt.check_nan is not None else True
        with detect_anomaly(check_nan=bool(check_nan)):
            for inner in stmt.body:
                self._exec(inner)

    def _exec_Repeat(self, stmt: ast.Repeat) -> None:
        count = self.eval(stmt.count)
        if isinstance(count, Tensor) and count.numel() == 1 and not count.dtype.is_floating_point:
            count = count.item()
        if not isinstance(count, int) or isinstance(count, bool):
            raise GradshError("TypeError", "repeat expects an integer count", stmt.count.pos)
        for _ in range(count):
            for inner in stmt.body:
                self._exec(inner)

    # -- expressions --------------------------------------------------------------------------

    def eval(self, expr: ast.Expr) -> Any:
        # One dictionary lookup per node (built once from the _eval_ methods), not a method
        # name formatted and looked up each time: this runs for every node of every statement.
        method = _EVAL.get(expr.__class__)
        if method is None:  # not an expression node: the AttributeError of a missing method
            getattr(self, f"_eval_{type(expr).__name__}")
        try:
            return method(self, expr)  # type: ignore[misc]
        except GradshError as err:
            raise err.with_pos(expr.pos) from None
        except TorchError as err:
            raise self._torch_error(err, expr.pos) from None

    def _at(self, node: ast.Expr | ast.Stmt, thunk: Callable[[], Any]) -> Any:
        """Run `thunk`, turning engine and Python errors into gradsh errors located at `node`.

        The hot paths (operators, calls, attributes) inline this as `try: ... except _LOCATED
        as err: raise self._located(err, node)`, which saves a closure per evaluation."""
        try:
            return thunk()
        except _LOCATED as err:
            raise self._located(err, node) from None

    def _located(self, err: Exception, node: ast.Expr | ast.Stmt) -> GradshError:
        """The gradsh error for `err` (one of _LOCATED) raised by the code at `node`."""
        if isinstance(err, GradshError):
            return err.with_pos(node.pos)
        if isinstance(err, TorchError):
            return self._torch_error(err, node.pos)
        if isinstance(err, ZeroDivisionError):
            return GradshError("ZeroDivisionError", str(err), node.pos)
        if isinstance(err, (TypeError, ValueError, IndexError, KeyError, AttributeError)):
            # Python-level errors on Python values (`None + 1`, `(1, 2)[5]`, an optimizer's
            # empty state["momentum_buffer"]) read as Python's.
            return GradshError(type(err).__name__, str(err), node.pos)
        return GradshError("OverflowError", str(err), node.pos)

    def _torch_error(self, err: TorchError, pos: Pos) -> GradshError:
        """PyTorch's error in gradsh's terms, with a hint at its cause where the engine knows it
        (a saved tensor modified in place or freed: where that happened)."""
        from gradsh.explainer import error_hint

        located = GradshError(err.kind, err.message, pos,
                              error_hint(err, tensor_env(self.env), self.path))
        located.own_stop = isinstance(err, LimitExceeded)  # gradsh's limit: undone
        return located

    def _eval_Number(self, expr: ast.Number) -> Any:
        return expr.value

    def _eval_String(self, expr: ast.String) -> Any:
        return expr.value

    def _eval_Bool(self, expr: ast.Bool) -> Any:
        return expr.value

    def _eval_NoneLit(self, expr: ast.NoneLit) -> Any:
        return None

    def _eval_Ellipsis_(self, expr: ast.Ellipsis_) -> Any:
        return Ellipsis

    def _eval_DeviceLit(self, expr: ast.DeviceLit) -> Any:
        return Device(expr.value)

    def _eval_Name(self, expr: ast.Name) -> Any:
        env = self.env
        if env.__class__ is dict:  # _lookup's common case inline: every name of every statement
            value = env.get(expr.id, _UNBOUND)
            if value is not _UNBOUND and value.__class__ is not ModuleType:
                return value
        return self._lookup(expr)

    def _lookup(self, name: ast.Name) -> Any:
        if name.id in self.env:
            value = self.env[name.id]
            if value.__class__ is ModuleType:  # `import torch` typed in the shell, as Python
                return _namespace_of(value) or value
            return value
        if name.id in self.globals:
            return self.globals[name.id]
        env, functions = self.env, self.globals
        raise suggest.TypoError("NameError", f"name '{name.id}' is not defined", name.pos,
                        lambda called: suggest.name_hint(
                            name.id, env, [n for n, v in {**functions, **env}.items()
                                           if callable(v)], called))

    def _eval_ListLit(self, expr: ast.ListLit) -> Any:
        return [self.eval(item) for item in expr.items]

    def _eval_TupleLit(self, expr: ast.TupleLit) -> Any:
        return tuple(self.eval(item) for item in expr.items)

    def _eval_Attribute(self, expr: ast.Attribute) -> Any:
        obj = self.eval(expr.obj)
        try:
            return self._get_attribute(obj, expr.name)
        except _LOCATED as err:
            raise self._located(err, expr) from None

    def _get_attribute(self, obj: Any, name: str) -> Any:
        if isinstance(obj, Module):
            return _module_attribute(obj, name, self.globals)
        if isinstance(obj, Tensor):
            return _tensor_attribute(obj, name)
        if isinstance(obj, Node):
            return _node_attribute(obj, name)
        if isinstance(obj, DType):
            if name == "is_floating_point":
                return obj.is_floating_point
            if name == "itemsize":
                return obj.itemsize
        if isinstance(obj, Device) and name in ("type", "index"):
            return getattr(obj, name)
        if isinstance(obj, Size) and name == "numel":
            return BoundMethod(obj, name, obj.numel)
        if isinstance(obj, tuple) and name in getattr(type(obj), "__match_args__", ()):
            return getattr(obj, name)
        public = public_members(obj)
        if public is not None and name in public:
            value = getattr(obj, name)
            return BoundMethod(obj, name, value) if callable(value) else value
        if name.isdigit() and is_nn_module(obj) and name in obj._modules:
            return obj._modules[name]  # `model.0`: a Sequential's first module, as getattr does
        raise GradshError(
            "AttributeError", f"'{_type_name(obj)}' object has no attribute '{name}'",
            hint=_unknown_name_hint(name, public) if public else None,
        )

    def _eval_Call(self, expr: ast.Call) -> Any:
        callee = expr.func
        func: Any
        if callee.__class__ is ast.Attribute:  # `opt.step()`: _eval_Attribute's steps, inline
            try:
                obj = self.eval(callee.obj)  # type: ignore[attr-defined]
                try:
                    func = self._get_attribute(obj, callee.name)  # type: ignore[attr-defined]
                except _LOCATED as err:
                    raise self._located(err, callee) from None
            except suggest.TypoError as err:  # `a.backwrd()`: what can be called
                if err.pos == callee.pos:
                    err.hint = err.hint_when(True)
                raise
        elif isinstance(callee, ast.Name) and callee.id in CONVERSIONS and \
                callee.id not in self.env:
            # `int(x)` is Python's int; the bare name `int` stays the dtype torch.int
            func = _CONVERSION_FUNCTIONS[callee.id]
        else:
            try:
                func = self.eval(callee)
            except suggest.TypoError as err:  # `tensr(...)`, `a.backwrd()`: what can be called
                if err.pos == callee.pos:
                    err.hint = err.hint_when(True)
                raise
        args = [*map(self.eval, expr.args)]  # (no comprehension's frame: every call)
        kwargs = {k.name: self.eval(k.value) for k in expr.kwargs} if expr.kwargs else {}
        try:
            return self._call(func, args, kwargs)
        except _LOCATED as err:
            located = self._located(err, expr)
            if isinstance(err, TypeError) and located.hint is None:
                located.hint = suggest.keyword_hint_for(func, str(err))
            raise located from None

    def _call(self, func: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if isinstance(func, BuiltinFunction):
            if func.accepts_grad_flag and any(a is names.GRAD_FLAG for a in args):
                args = [a for a in args if a is not names.GRAD_FLAG]
                if not _takes_requires_grad(func.call):
                    # torch.Tensor(...) has no requires_grad: the flag means .requires_grad_()
                    return func.call(*args, **kwargs).requires_grad_()
                kwargs.setdefault("requires_grad", True)
            return func.call(*args, **kwargs)
        if isinstance(func, BoundMethod):
            return func.call(*args, **kwargs)
        if isinstance(func, UserFunction):
            if kwargs:
                raise GradshError("TypeError", "lambdas take positional arguments only")
            return func(*args)
        if is_nn_module(func):  # `model(x)`: forward with the module's hooks
            return func(*args, **kwargs)
        if isinstance(func, Module):
            raise GradshError("TypeError", "'module' object is not callable")
        raise GradshError("TypeError", f"'{_type_name(func)}' object is not callable")

    def _eval_Index(self, expr: ast.Index) -> Any:
        obj = self.eval(expr.obj)
        key = self._index_key(expr)
        try:
            return self._get_item(obj, key)
        except _LOCATED as err:
            raise self._located(err, expr) from None

    def _index_key(self, expr: ast.Index) -> Any:
        parts: list[Any] = []
        for item in expr.items:
            if isinstance(item, ast.Slice):
                parts.append(slice(
                    self.eval(item.start) if item.start is not None else None,
                    self.eval(item.stop) if item.stop is not None else None,
                    self.eval(item.step) if item.step is not None else None,
                ))
            else:
                parts.append(self.eval(item))
        return parts[0] if len(parts) == 1 else tuple(parts)

    def _get_item(self, obj: Any, key: Any) -> Any:
        if isinstance(obj, Tensor):
            return ops.index(obj, key)
        if isinstance(obj, np.ndarray):
            return obj[key]  # x.numpy()[0]: NumPy's own indexing
        if isinstance(obj, (tuple, list, str)):
            if isinstance(key, Tensor):
                key = key.item()
            result = obj[key]
            return Size(result) if isinstance(obj, Size) and isinstance(key, slice) else result
        if isinstance(obj, dict):
            return obj[key]
        if is_nn_module(obj) and hasattr(type(obj), "__getitem__"):
            return obj[key]  # Sequential, ModuleList: a module, or a slice of them
        raise GradshError("TypeError", f"'{_type_name(obj)}' object is not subscriptable")

    def _eval_BinOp(self, expr: ast.BinOp) -> Any:
        left, right = expr.left, expr.right
        # a number or a name read here, without eval's dispatch (`y * 1.0001`: every step's;
        # a name's error has its position already)
        kind = left.__class__
        left = left.value if kind is ast.Number else (
            self._lookup(left) if kind is ast.Name else self.eval(left))  # type: ignore[arg-type]
        kind = right.__class__
        right = right.value if kind is ast.Number else (
            self._lookup(right) if kind is ast.Name else self.eval(right))  # type: ignore
        try:
            value = _BINARY[expr.op](left, right)
            if value is NotImplemented:  # (neither operand's operator took the other)
                raise GradshError("TypeError", "unsupported operand types")
            return value
        except _LOCATED as err:
            raise self._located(err, expr) from None

    def _eval_UnaryOp(self, expr: ast.UnaryOp) -> Any:
        value = self.eval(expr.operand)
        try:
            if expr.op == "not":
                return not value
            if expr.op == "+":
                return +value
            if expr.op == "~":
                return ~value
            return -value
        except _LOCATED as err:
            raise self._located(err, expr) from None

    def _eval_Compare(self, expr: ast.Compare) -> Any:
        left = self.eval(expr.left)
        right = self.eval(expr.right)
        try:
            return _COMPARE[expr.op](left, right)
        except _LOCATED as err:
            raise self._located(err, expr) from None

    def _eval_BoolOp(self, expr: ast.BoolOp) -> Any:
        left = self.eval(expr.left)
        truth = self._at(expr.left, lambda: bool(left))
        if expr.op == "and":
            return self.eval(expr.right) if truth else left
        return left if truth else self.eval(expr.right)

    def _eval_Lambda(self, expr: ast.Lambda) -> Any:
        return UserFunction(expr.params, expr.body, self._invoke_lambda)

    def _eval_Slice(self, expr: ast.Slice) -> Any:
        raise GradshError("SyntaxError", "a slice is only allowed inside [ ]", expr.pos)

    def _invoke_lambda(self, function: UserFunction, args: tuple[Any, ...]) -> Any:
        if len(args) != len(function.params):
            raise GradshError(
                "TypeError",
                f"<lambda>() takes {len(function.params)} positional argument"
                f"{'s' if len(function.params) != 1 else ''} but {len(args)} were given",
            )
        if self._call_depth >= _MAX_CALL_DEPTH:
            raise GradshError("RecursionError", "maximum recursion depth exceeded")
        saved = {p: self.env.get(p, UNSET) for p in function.params}
        self._call_depth += 1
        try:
            for p, a in zip(function.params, args, strict=True):
                self.env[p] = a
            return self.eval(function.body)
        finally:
            self._call_depth -= 1
            for p, old in saved.items():
                if old is UNSET:
                    self.env.pop(p, None)
                else:
                    self.env[p] = old


def _dispatch(prefix: str) -> dict[type, Callable[..., Any]]:
    """Node class -> the Interpreter method for it (`_eval_BinOp` for ast.BinOp), once."""
    table: dict[type, Callable[..., Any]] = {}
    for name, method in vars(Interpreter).items():
        if name.startswith(prefix):
            node = getattr(ast, name[len(prefix):], None)
            assert isinstance(node, type), f"{name} names no node class in gradsh.ast"
            table[node] = method
    return table


_EVAL = _dispatch("_eval_")
_UNBOUND = object()  # (_eval_Name: a name the environment does not hold)
_EXEC = _dispatch("_exec_")


# ---------------------------------------------------------------------------------------------
# Warnings and origins while a statement runs
# ---------------------------------------------------------------------------------------------


class _statement_origins:  # noqa: N801  (used as a context manager, like the others)
    """Anomaly mode records the statement that ran a node's forward (gradsh.torch, once a
    script has loaded it, would record Python's stack, which is gradsh's own here).

    (A class rather than a generator: run_statement enters it for every statement.)"""

    __slots__ = ("previous",)

    def __enter__(self) -> None:
        self.previous = Anomaly.__dict__["trace"]
        Anomaly.trace = _CURRENT_ORIGIN  # type: ignore[assignment]

    def __exit__(self, *exc: object) -> None:
        Anomaly.trace = self.previous


def _current_origin() -> Any:
    return _Origin.value


_CURRENT_ORIGIN = staticmethod(_current_origin)


class _python_warnings:  # noqa: N801
    """Python warnings raised while a statement runs (gradsh.torch's optimizers and modules warn
    through Python's warnings module) go to the step's warnings, as the engine's do."""

    __slots__ = ("handler", "catcher")

    def __init__(self, handler: Callable[[str, str], None]) -> None:
        self.handler = handler

    def show(self, message: Any, category: type[Warning], *rest: Any, **kw: Any) -> None:
        self.handler(category.__name__, str(message))

    def __enter__(self) -> None:
        self.catcher = warnings.catch_warnings()
        self.catcher.__enter__()
        warnings.simplefilter("always")
        warnings.showwarning = self.show

    def __exit__(self, *exc: Any) -> None:
        self.catcher.__exit__(*exc)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _unpack(value: Any, count: int) -> list[Any]:
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise GradshError("TypeError", "iteration over a 0-d tensor")
        items = list(ops.unbind(value, 0))  # Python iterates a tensor through unbind
    elif isinstance(value, (tuple, list, range, zip, enumerate, str)):
        items = list(value)
    else:
        raise GradshError("TypeError", f"cannot unpack non-iterable {_type_name(value)} object")
    if len(items) != count:
        if len(items) > count:
            raise GradshError("ValueError", f"too many values to unpack (expected {count})")
        raise GradshError(
            "ValueError", f"not enough values to unpack (expected {count}, got {len(items)})"
        )
    return items


def _allclose(left: Any, right: Any) -> bool:
    import numpy as np

    from gradsh.snapshot import to_host

    def host(v: Any) -> Any:
        if isinstance(v, Tensor):
            return to_host(v._data)
        if v is None:
            raise GradshError("TypeError", "cannot compare None with a tensor")
        return np.asarray(v)

    a, b = host(left), host(right)
    try:
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False)) and (
            np.broadcast_shapes(a.shape, b.shape) is not None
        )
    except ValueError:
        raise GradshError(
            "RuntimeError",
            f"cannot compare tensors of shapes {list(a.shape)} and {list(b.shape)}",
        ) from None


def _type_name(value: Any) -> str:
    """The type name Python's messages use for the same PyTorch object."""
    if isinstance(value, Tensor):
        return "Tensor"
    if value is None:
        return "NoneType"
    if isinstance(value, Node):
        return value.name
    if isinstance(value, DType):
        return "torch.dtype"
    if isinstance(value, Device):
        return "torch.device"
    if isinstance(value, Size):
        return "torch.Size"
    if isinstance(value, Module):
        return "module"
    if isinstance(value, (BuiltinFunction, BoundMethod)):
        return "builtin_function_or_method"
    if isinstance(value, UserFunction):
        return "function"
    return type(value).__name__


def _source_of(source: str, pos: Pos) -> str:
    lines = source.splitlines()
    if pos.line == pos.end_line and 1 <= pos.line <= len(lines):
        return lines[pos.line - 1][pos.column - 1 : pos.end_column]
    return "expression"
