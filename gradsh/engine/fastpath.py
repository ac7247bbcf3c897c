"""The optional C fast path (_fastpath.c) of Tensor._make, Function.apply, Function.save,
Function.release_variables and SavedTensor.unpack.

The extension does what node.py's Function.apply and variable.py's Tensor._make do, statement for
statement, on the same objects, and hands every case it does not handle to the Python code. It
is installed when gradsh.engine.node is imported, unless it was not built (no C compiler at
install) or GRADSH_NATIVE=0 is set; `enable(False)` puts the Python code back (the tests run the
engine both ways).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any


def _load() -> ModuleType | None:
    if os.environ.get("GRADSH_NATIVE", "").strip() == "0":
        return None
    try:
        from gradsh.engine import _fastpath
    except ImportError:
        return None
    return _fastpath


extension = _load()
_python: dict[str, Any] = {}  # the Python apply and _make, while the C ones are installed


def enabled() -> bool:
    """Whether the C fast path is the one in use."""
    return bool(_python)


def enable(on: bool) -> bool:
    """Install (or remove) the C fast path; returns whether it was in use before. Without the
    extension it stays off."""
    from gradsh.engine import node, variable  # (which calls enable(True) on first import)
    from gradsh.engine.node import Function
    from gradsh.engine.grad_mode import _LAST, SavedHooks
    from gradsh.engine import saved_variable
    from gradsh.engine.saved_variable import SavedTensor
    from gradsh.engine.undo import _Undo
    from gradsh.engine.variable import Tensor

    before = enabled()
    if on and not before and extension is not None:
        _python.update(apply=Function.__dict__["apply"], make=Tensor.__dict__["_make"],
                       plain_make=variable._make, save=Function.__dict__["save"],
                       unpack=SavedTensor.__dict__["unpack"],
                       release_variables=Function.__dict__["release_variables"],
                       call_backward=Function.__dict__["call_backward"])
        extension.init(_config())
        SavedTensor.unpack = extension.unpack_method(  # type: ignore[method-assign]
            SavedTensor, _python["unpack"], saved_variable.UNCHANGED,
            saved_variable._NUMBER_DTYPES)
        Function.release_variables = extension.release_method(  # type: ignore[method-assign]
            Function, _python["release_variables"], _Undo, _LAST)
        Function.call_backward = extension.call_backward_method(  # type: ignore[method-assign]
            Function, _python["call_backward"], SavedHooks)
        install_sweep()
        Function.apply = classmethod(extension.apply)  # type: ignore[method-assign,assignment]
        Function.save = extension.save_method(Function)  # type: ignore[method-assign]
        Tensor._make = classmethod(extension.make)  # type: ignore[method-assign,assignment]
        variable._make = node._make = extension.make
        install_operators()
    elif not on and before:
        for name in _OPERATORS:
            if name in _python:
                setattr(Tensor, name, _python[name])
        Function.apply = _python["apply"]  # type: ignore[method-assign]
        Tensor._make = _python["make"]  # type: ignore[method-assign]
        Function.save = _python["save"]  # type: ignore[method-assign]
        SavedTensor.unpack = _python["unpack"]  # type: ignore[method-assign]
        Function.release_variables = _python["release_variables"]  # type: ignore[method-assign]
        Function.call_backward = _python["call_backward"]  # type: ignore[method-assign]
        variable._make = node._make = _python["plain_make"]
        if "plain_sweep" in _python:
            from gradsh.engine import backward

            backward.plain_sweep = _python["plain_sweep"]
            backward._dependencies = _python["dependencies"]
        _python.clear()
    return before


_OPERATORS = ("__mul__", "__add__")


def install_operators() -> None:
    """Tensor.__mul__ and __add__ through the extension, around the Python operators that
    gradsh.engine.ops installed (which it calls for every case but the common one)."""
    from gradsh.engine.variable import Tensor

    if not enabled() or extension is None or not hasattr(Tensor.__dict__.get("__mul__"),
                                                         "recover"):
        return  # (off, or gradsh.engine.ops has not installed the operators yet)
    import numpy as np

    from gradsh.engine.functions.arithmetic import AddBackward0, MulBackward0
    from gradsh.engine.functions.grad_ops import ScalarOverloads
    from gradsh.engine import threads
    from gradsh.engine.ops import arithmetic, guard

    extension.init_operators({
        "ScalarOverloads": ScalarOverloads, "shared_floats": arithmetic._SHARED,
        "shared_float": arithmetic._shared_float, "array": np.array,
        "float64": np.dtype(np.float64), "float32": np.dtype(np.float32),
        "MulBackward0": MulBackward0, "AddBackward0": AddBackward0, "multiply": np.multiply,
        "add": np.add, "threads": threads,
    })
    for name, node in zip(_OPERATORS, (MulBackward0, AddBackward0), strict=True):
        python = Tensor.__dict__.get(name)
        recover = getattr(python, "recover", None)
        if recover is None or name in _python:
            continue  # (not installed yet, or not the guard's operator)
        max_reads, measured = python.read_limits  # type: ignore[union-attr]
        _python[name] = python
        setattr(Tensor, name, extension.operator(python, recover, node, guard._ARGUMENT_ERRORS,
                                                 max_reads, measured, name == "__add__"))


def install_sweep() -> None:
    """backward's plain_sweep (loss.backward()'s sweep) and _dependencies (the edges entering
    each node, counted before it) through the extension, once
    gradsh.engine.backward is imported (it calls this when it is imported after enable)."""
    import sys

    backward = sys.modules.get("gradsh.engine.backward")
    if not enabled() or extension is None or "plain_sweep" in _python \
            or not hasattr(backward, "plain_sweep"):  # (not imported yet, or half-way)
        return
    import heapq

    extension.init_sweep({
        "AccumulateGrad": backward.AccumulateGrad, "heappush": heapq.heappush,
        "heappop": heapq.heappop, "add_into": backward._add_into, "sum": backward._sum,
        "validate_grad": backward._validate_grad, "deposit_slot": backward._deposit_slot,
    })
    _python["plain_sweep"] = backward.plain_sweep
    _python["dependencies"] = backward._dependencies
    backward.plain_sweep = extension.plain_sweep
    backward._dependencies = extension.dependencies


def _config() -> dict[str, Any]:
    """What the extension reads and calls: the engine's own objects."""
    import numpy as np

    from gradsh.engine import backend, dtypes, grad_mode, node, pytypes, saved_variable, variable

    return {
        "Tensor": variable.Tensor, "ndarray": np.ndarray, "InferenceMode": variable.InferenceMode,
        "devices": pytypes._DEVICES, "device_of": pytypes.device_of, "place": backend.place,
        "GradMode": grad_mode._GradMode, "sequence": grad_mode._sequence,
        "no_edge": node._NO_EDGE, "needs_one_false": node._NEEDS_ONE[False],
        "needs_one_true": node._NEEDS_ONE[True], "needs_two": node._NEEDS_TWO,
        "needs_none3": node._NEEDS_NONE3, "edge": node._edge, "meta": node._meta,
        "shared": node._shared, "interned": node._interned, "metas": node._METAS,
        "meta_tuples": node._META_TUPLES, "np_dtypes": dtypes._BY_NP,
        "Anomaly": grad_mode.Anomaly, "result_key": node.RESULT_KEY,
        "apply": _python["apply"].__func__, "as_data": node._output_array,
        "finish_view": node._finish_view, "save_result": node._save_result,
        "record_forward": node._record_forward, "is_float": dtypes.is_float_array_dtype,
        "SavedTensor": saved_variable.SavedTensor, "VersionCounter": variable.VersionCounter,
        "SavedHooks": grad_mode.SavedHooks, "Origin": grad_mode._Origin,
        "no_saved": node._NO_SAVED, "RESULT": node.RESULT,
    }
