"""The PyTorch half of `gradsh check`: runs an exported program one step at a time, traced as JSON.

    python -m gradsh.torch_side < request.json
    python -m gradsh.torch_side --serve        (requests one per line; see serve_many)

The request (written by gradsh.check) holds the export's header and prelude, the Python code of
each top-level statement and the gradsh name of every variable. The answer is JSON lines on
stdout: first `{"kind": "ready", "torch": VERSION}` (or `{"kind": "torch-missing", ...}` and
exit 3 when `import torch` fails), then one `{"kind": "step", ...}` object per statement in the
shape of `gradsh run --json` (section 5 of the spec, the same JSON conventions: non-finite
numbers as strings, booleans for bool tensors). Anything else the program writes to stdout goes
to stderr, so a stray write cannot corrupt the trace.

Each step runs with `print` replaced by a recorder (what gradsh's `print` shows is what Python's
`print` shows) and warnings recorded with the "always" filter, once per text per step, without
PyTorch's "(Triggered internally at ...)" tail, as gradsh reports them. The snapshot after a
step reads `.grad` with warnings suppressed, so looking never warns, as in gradsh.

With `sim_cuda`, cuda:0 is simulated on the CPU (`SimCuda`): tensors live on the CPU, a
TorchFunctionMode remembers which of them are "on cuda:0" so that `.cuda()`, `.cpu()` and
`.to(device)` copy (ToCopyBackward0) exactly when they would move a tensor between devices, and
`x.device` / `x.is_cuda` answer as on a GPU. Reprs carry no `device='cuda:0'` suffix (the
comparison strips it from gradsh's side) and mixing devices in one operation does not raise.

The chunks come from gradsh.export, which writes only what it vouches for and passes each chunk
through an `ast` gate (gradsh.pysafe); as a second wall they run with a reduced `__builtins__`:
the few the exported program uses, so no gap in the exporter can reach `open`, `eval`, `exec`
or `getattr`. Its `__import__` (which torch's C code also calls, from the program's frame)
serves torch and modules already loaded, and loads nothing new.

This is the only gradsh module that imports torch.
"""

from __future__ import annotations

import builtins
import json
import os
import re
import sys
import traceback
import types
import warnings
import weakref
from collections.abc import Callable
from typing import IO, Any

EXIT_TORCH_MISSING = 3
# Python's builtins the exported program uses: the helpers', `for _ in range(n)` and those a
# script may call (gradsh.pybuiltins).
SAFE_BUILTINS = ("range", "isinstance", "bool", "list", "TypeError", "RuntimeError",
                 "AssertionError", "len", "tuple", "zip", "enumerate", "int", "float", "sum",
                 "min", "max", "abs", "round")
_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^\n]*\)\s*$")


def warning_text(category: type, message: str) -> str:
    """A warning as gradsh shows it: `UserWarning: text`, without the C++ location tail."""
    return f"{category.__name__}: {_TRIGGERED.sub('', message)}"


# ---------------------------------------------------------------------------------------------
# Snapshots: torch state -> gradsh's JSON
# ---------------------------------------------------------------------------------------------


def _host_json(t: Any) -> Any:
    from gradsh.snapshot import json_array

    t = t.detach().cpu().resolve_conj().resolve_neg()
    if str(t.dtype) == "torch.bfloat16":  # torch's numpy() has no bfloat16; float32 holds it
        t = t.float()
    return json_array(t.numpy())


def tensor_json(torch: Any, t: Any, device: str) -> dict[str, Any]:
    """One tensor variable as `gradsh run --json` writes it, read without side effects."""
    try:
        fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    except RuntimeError:  # a view that may not be rebased: PyTorch's repr says <Invalid>
        fn = "Invalid"
    if fn is None or t.retains_grad:
        grad = t.grad
    else:  # only a manually set .grad can be there; reading it must not warn
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grad = t.grad
    return {
        "value": _host_json(t),
        "shape": list(t.shape),
        "dtype": str(t.dtype).removeprefix("torch."),
        "device": device,
        "requires_grad": t.requires_grad,
        "is_leaf": fn is None,
        "grad_fn": fn,
        "grad": _host_json(grad) if grad is not None else None,
        "retains_grad": t.retains_grad,
    }


def kind_of(torch: Any, value: Any) -> str:
    """The `kind` gradsh.values.kind_of gives the same object in gradsh."""
    if isinstance(value, torch.Tensor):
        return "tensor"
    if isinstance(value, torch.autograd.graph.Node):
        return "grad_fn"
    if isinstance(value, torch.dtype):
        return "dtype"
    if isinstance(value, torch.device):
        return "device"
    if isinstance(value, torch.Size):
        return "size"
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                          types.MethodWrapperType, types.MethodDescriptorType)):
        return "function"
    if isinstance(value, torch.optim.Optimizer):
        return "optimizer"
    if value is None:
        return "None"
    if callable(value) and not isinstance(value, type):  # the print recorder, a torch builtin
        return "function"
    return type(value).__name__


# ---------------------------------------------------------------------------------------------
# Simulated cuda:0
# ---------------------------------------------------------------------------------------------


def make_sim_cuda(torch: Any) -> Any:
    """A TorchFunctionMode simulating cuda:0 on the CPU (see the module docstring)."""
    from torch.overrides import TorchFunctionMode
    from torch.utils._pytree import tree_flatten

    try:
        from torch.utils._device import _device_constructors

        constructors = set(_device_constructors())
    except (ImportError, AttributeError):  # pragma: no cover  (a private helper; be safe)
        constructors = {getattr(torch, name) for name in (
            "tensor", "empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange",
            "linspace", "eye")}

    def device_type(device: Any) -> str | None:
        if isinstance(device, torch.device):
            return str(device.type)
        if isinstance(device, str):
            try:
                return str(torch.device(device).type)
            except RuntimeError:
                return None
        if isinstance(device, int) and not isinstance(device, bool):
            return "cuda"
        return None

    class SimCuda(TorchFunctionMode):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self._on_cuda: dict[int, weakref.ref[Any]] = {}
            self.default_cuda = False

        def is_cuda(self, value: Any) -> bool:
            ref = self._on_cuda.get(id(value))
            return ref is not None and ref() is value

        def mark(self, value: Any) -> None:
            for t in tree_flatten(value)[0]:
                if isinstance(t, torch.Tensor) and not self.is_cuda(t):
                    key = id(t)

                    def forget(ref: Any, key: int = key) -> None:
                        if self._on_cuda.get(key) is ref:
                            del self._on_cuda[key]

                    self._on_cuda[key] = weakref.ref(t, forget)

        def set_default_device(self, device: Any) -> None:
            """torch.set_default_device under simulation: cuda means "mark new tensors"."""
            self.default_cuda = device is not None and device_type(device) == "cuda"

        def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (),
                               kwargs: dict[str, Any] | None = None) -> Any:
            kwargs = dict(kwargs or {})
            if getattr(func, "__name__", "") == "__get__" and args:
                attribute = getattr(getattr(func, "__self__", None), "__name__", "")
                if self.is_cuda(args[0]):
                    if attribute == "device":
                        return torch.device("cuda", 0)
                    if attribute == "is_cuda":
                        return True
            if func is torch.Tensor.cuda:
                if self.is_cuda(args[0]):
                    return args[0]
                out = args[0].to("cpu", copy=True)
                self.mark(out)
                return out
            if func is torch.Tensor.cpu:
                if self.is_cuda(args[0]):
                    return args[0].to("cpu", copy=True)
                return func(*args, **kwargs)
            if func is torch.Tensor.to:
                return self._to(func, args, kwargs)
            target = None
            if "device" in kwargs and kwargs["device"] is not None:
                target = device_type(kwargs["device"])
                if target == "cuda":
                    kwargs["device"] = "cpu"
            elif self.default_cuda and func in constructors:
                target = "cuda"
            inputs = [t for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)]
            from_cuda = any(self.is_cuda(t) for t in inputs)
            out = func(*args, **kwargs)
            if target == "cuda" or (target is None and from_cuda):
                self.mark(out)
            return out

        def _to(self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            source, rest = args[0], list(args[1:])
            target = None
            if kwargs.get("device") is not None:
                target = device_type(kwargs["device"])
                kwargs["device"] = "cpu"
            for i, arg in enumerate(rest):
                if isinstance(arg, (str, torch.device)):
                    target = device_type(arg)
                    rest[i] = "cpu"
                elif isinstance(arg, torch.Tensor):
                    target = "cuda" if self.is_cuda(arg) else "cpu"
            on_cuda = self.is_cuda(source)
            if target is not None and (target == "cuda") != on_cuda:
                kwargs["copy"] = True
            out = func(source, *rest, **kwargs)
            if target == "cuda" or (target is None and on_cuda):
                self.mark(out)
            return out

    return SimCuda()


# ---------------------------------------------------------------------------------------------
# Running the steps
# ---------------------------------------------------------------------------------------------


class PrintRecorder:
    """Python's print for the exported program: records one entry per call, as gradsh's print
    does, and shows itself as the builtin it replaces."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, *args: Any, sep: str | None = " ", end: str | None = "\n",
                 file: IO[str] | None = None, flush: bool = False) -> None:
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        self.lines.append(sep.join(str(a) for a in args) + (end if end != "\n" else ""))

    def __repr__(self) -> str:
        return "<built-in function print>"


def _import_loaded(name: str, globals_: Any = None, locals_: Any = None,
                   fromlist: Any = (), level: int = 0) -> Any:
    """`__import__` for the exported program: torch's modules, or one already loaded."""
    torch_module = name == "torch" or name.startswith("torch.")
    if level != 0 or not (torch_module or name in sys.modules):
        raise ImportError(f"the exported program may not import {name!r}")
    return builtins.__import__(name, globals_, locals_, fromlist, level)


def restricted_builtins() -> dict[str, Any]:
    names: dict[str, Any] = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
    names["__import__"] = _import_loaded
    return names


class StepRunner:
    """Runs exported chunks in one namespace and snapshots the variables after each."""

    def __init__(self, torch: Any, names: dict[str, str], sim_cuda: bool) -> None:
        self.torch = torch
        self.names = names  # Python name -> gradsh name
        self.print = PrintRecorder()
        self.namespace: dict[str, Any] = {"__name__": "__gradsh_export__", "print": self.print,
                                          "__builtins__": restricted_builtins()}
        self.sim = make_sim_cuda(torch) if sim_cuda else None
        if self.sim is not None:
            torch.set_default_device = self.sim.set_default_device

    def run(self, code: str, label: str) -> tuple[dict[str, Any] | None, list[str], list[str]]:
        """Run one chunk: (error or None, printed lines, warnings)."""
        self.print.lines = []
        error = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                compiled = compile(code, label, "exec")
                if self.sim is not None:
                    with self.sim:
                        exec(compiled, self.namespace)  # noqa: S102  (the exported program)
                else:
                    exec(compiled, self.namespace)  # noqa: S102
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as err:  # noqa: BLE001  (the script's error, reported)
                error = {"type": type(err).__name__, "message": str(err)}
        texts: list[str] = []
        for w in caught:
            text = warning_text(w.category, str(w.message))
            if text not in texts:
                texts.append(text)
        return error, list(self.print.lines), texts

    def snapshot(self) -> dict[str, Any]:
        """Every gradsh variable, in definition order (the namespace keeps it, as gradsh does);
        a module as its parameters and buffers under qualified names, as gradsh's table."""
        variables: dict[str, Any] = {}
        for python, value in list(self.namespace.items()):
            name = self.names.get(python)
            if name is None:
                continue
            try:
                if isinstance(value, self.torch.nn.Module):
                    for qualified, t in [*value.named_parameters(), *value.named_buffers()]:
                        variables[f"{name}.{qualified}"] = self._variable(t)
                    continue
                variables[name] = self._variable(value)
            except Exception as err:  # noqa: BLE001  (a value we cannot read is a difference)
                variables[name] = {"kind": "unreadable", "repr": f"{type(err).__name__}: {err}"}
        return variables

    def _variable(self, value: Any) -> dict[str, Any]:
        torch = self.torch
        if isinstance(value, torch.Tensor):
            device = str(value.device)
            if self.sim is not None and self.sim.is_cuda(value):
                device = "cuda:0"
            return tensor_json(torch, value, device)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = repr(value)
        return {"kind": kind_of(torch, value), "repr": text}


class ProgramRunner:
    """A Python program (`gradsh check FILE.py`) under real torch, one top-level statement at a
    time, as gradsh.pyrun runs it: the user's own code, with Python's builtins (no sandbox, as
    `python FILE.py`). After each statement: what it printed to stdout, its warnings (Python's
    default filters), its error, and every tensor variable and module parameter."""

    def __init__(self, torch: Any, request: dict[str, Any]) -> None:
        import ast

        self.torch = torch
        self.path = request["path"]
        self.module = types.ModuleType("__main__")
        self.module.__file__ = request.get("file", self.path)
        self.namespace = self.module.__dict__
        tree = ast.parse(request["source"], self.path)
        self.codes = [compile(ast.Module(body=[node], type_ignores=[]), self.path, "exec",
                              dont_inherit=True) for node in tree.body]
        sys.modules["__main__"] = self.module
        sys.argv = [request.get("argv0", self.path), *request.get("argv", ())]
        sys.path.insert(0, request.get("directory", os.getcwd()))

    def run(self, code: Any) -> tuple[dict[str, Any] | None, list[str], list[str]]:
        import contextlib
        import io

        out = io.StringIO()
        texts: list[str] = []

        def record(message: Any, category: type, *args: Any, **kwargs: Any) -> None:
            text = warning_text(category, str(message))
            if text not in texts:
                texts.append(text)

        error = None
        with warnings.catch_warnings(), contextlib.redirect_stdout(out):
            warnings.resetwarnings()
            for action, category, module in reversed(_DEFAULT_FILTERS):
                warnings.filterwarnings(action, category=category, module=module)
            warnings.showwarning = record
            try:
                exec(code, self.namespace)  # noqa: S102  (the user's own program)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as err:  # noqa: BLE001  (the program's error, reported)
                error = {"type": type(err).__name__, "message": str(err)}
        return error, out.getvalue().splitlines(), texts

    def snapshot(self) -> dict[str, Any]:
        """Tensor variables, and each module's parameters and buffers by qualified name."""
        torch = self.torch
        variables: dict[str, Any] = {}
        for name, value in list(self.namespace.items()):
            if isinstance(value, torch.Tensor):
                variables[name] = tensor_json(torch, value, str(value.device))
            elif not name.startswith("__") and isinstance(value, torch.nn.Module):
                for qualified, t in [*value.named_parameters(), *value.named_buffers()]:
                    variables[f"{name}.{qualified}"] = tensor_json(torch, t, str(t.device))
        return variables


# Python's own warning filters for `python FILE.py` (as gradsh.pytrace.python_warnings).
_DEFAULT_FILTERS = (("default", DeprecationWarning, "__main__"),
                    ("ignore", DeprecationWarning, ""), ("ignore", PendingDeprecationWarning, ""),
                    ("ignore", ImportWarning, ""), ("ignore", ResourceWarning, ""))


def serve_program(torch: Any, request: dict[str, Any],
                  emit: Callable[[dict[str, Any]], None]) -> int:
    if request.get("seed") is not None:
        torch.manual_seed(request["seed"])
    runner = ProgramRunner(torch, request)
    for number, code in enumerate(runner.codes, start=1):
        error, printed, texts = runner.run(code)
        emit({"kind": "step", "step": number, "ok": error is None, "printed": printed,
              "warnings": texts, "error": error, "vars": runner.snapshot()})
        if error is not None and not request.get("keep_going"):
            break
    return 0


def serve(request: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> int:
    """Run a request (see the module docstring), emitting each JSON line; the exit status."""
    try:
        import torch
    except Exception as err:  # noqa: BLE001  (ImportError, or a broken install)
        emit({"kind": "torch-missing", "message": f"{type(err).__name__}: {err}"})
        return EXIT_TORCH_MISSING
    # One intra-op thread, as gradsh reproduces (docs/float32.md): large float sums and a few
    # kernels give other last bits with more threads, and PyTorch's default is the core count.
    torch.set_num_threads(1)
    emit({"kind": "ready", "torch": torch.__version__})
    if request.get("mode") == "python":
        return serve_program(torch, request, emit)
    runner = StepRunner(torch, dict(request["names"]), bool(request.get("sim_cuda")))
    for label, code in (("<header>", request["header"]), ("<prelude>", request["prelude"])):
        error, printed, texts = runner.run(code, label)
        if error is not None:
            emit({"kind": "setup-error", "error": error, "printed": printed, "warnings": texts})
            return 1
    for number, code in enumerate(request["steps"], start=1):
        error, printed, texts = runner.run(code, f"<step {number}>")
        emit({"kind": "step", "step": number, "ok": error is None, "printed": printed,
              "warnings": texts, "error": error, "vars": runner.snapshot()})
        if error is not None and not request.get("keep_going"):
            break
    return 0


def serve_many(emit: Callable[[dict[str, Any]], None]) -> int:
    """`--serve`: one request per line of stdin, each run in a child forked from this process,
    which imported torch once (a second of CPU that every check would pay again). The child
    starts with torch's state untouched (nothing ran here), its crash ends only itself, and
    its stderr is collected; after it, `{"kind": "exit", "code": N, "stderr": TEXT}`."""
    import tempfile

    try:
        import torch  # noqa: F401  (imported before the forks: the point of the server)
    except Exception:  # noqa: BLE001  (each child says so, as a lone torch side does)
        pass
    for line in sys.stdin:
        if not line.strip():
            continue
        with tempfile.TemporaryFile() as errors:
            pid = os.fork()
            if pid == 0:  # the child: one request, as `python -m gradsh.torch_side` runs it
                code = 1
                try:
                    os.dup2(errors.fileno(), 1)
                    os.dup2(errors.fileno(), 2)
                    code = serve(json.loads(line), emit)
                except BaseException:  # noqa: BLE001  (a bug here: on its stderr)
                    traceback.print_exc()
                finally:
                    sys.stderr.flush()
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            errors.seek(0)
            text = errors.read().decode("utf-8", "replace")
        emit({"kind": "exit", "code": os.waitstatus_to_exitcode(status), "stderr": text[-4000:]})
    return 0


def main() -> int:
    # The trace goes to the real stdout; fd 1 then points at stderr for everything else.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr

    def emit(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    try:
        if sys.argv[1:] == ["--serve"] and hasattr(os, "fork"):
            return serve_many(emit)
        request = json.loads(sys.stdin.read())
        return serve(request, emit)
    except Exception:  # noqa: BLE001  (a bug here: say so on stderr, exit non-zero)
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
