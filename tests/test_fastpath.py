"""The C fast path of Function.apply and Tensor._make (gradsh/engine/_fastpath.c) against the
Python code it stands for: the same graphs (grad_fn classes, edges, input metadata, sequence
order), versions, hooks, errors and bits, for the cases it handles and those it hands back."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradsh.engine import fastpath, ops
from gradsh.engine.grad_mode import Anomaly, no_grad
from gradsh.engine.node import Function
from gradsh.engine.saved_variable import SavedTensor
from gradsh.engine.variable import InferenceMode, Tensor

pytestmark = pytest.mark.skipif(fastpath.extension is None,
                                reason="the C fast path is not built (or GRADSH_NATIVE=0)")


def _leaf(values: Any, dtype: Any = np.float32, requires_grad: bool = True) -> Tensor:
    return ops.tensor(np.array(values, dtype=dtype), requires_grad=requires_grad)


def _graph(out: Tensor) -> list[Any]:
    """The graph below `out`: each node's class, edges, input metadata and sequence number
    (relative to the root's), breadth first."""
    seen: dict[int, int] = {}
    rows: list[Any] = []
    root = out.grad_fn
    if root is None:
        return rows
    base = getattr(root, "sequence_nr", 0)
    queue = [root]
    while queue:
        node = queue.pop(0)
        if id(node) in seen:
            continue
        seen[id(node)] = len(seen)
        edges = [(type(n).__name__ if n is not None else None, i)
                 for n, i in node.next_functions]
        sequence = getattr(node, "sequence_nr", None)
        rows.append((type(node).__name__, edges, getattr(node, "input_meta", None),
                     getattr(node, "needs_input_grad", None),
                     None if sequence is None or sequence >= 2**62 else sequence - base))
        queue.extend(n for n, _ in node.next_functions if n is not None)
    return rows


def _describe(result: Any) -> Any:
    if isinstance(result, Tensor):
        data = result._data
        return ("tensor", data.dtype.str, data.shape, data.tobytes(), result.requires_grad,
                result.is_leaf, result._version, str(result.device), result._wrapped,
                result._base is not None, _graph(result))
    if isinstance(result, (tuple, list)):
        return [_describe(r) for r in result]
    return repr(result)


def _run(case: Callable[[], Any], c: bool) -> Any:
    before = fastpath.enable(c)
    try:
        try:
            return _describe(case())
        except Exception as error:  # noqa: BLE001  (the error is what is compared)
            return ("error", type(error).__name__, str(error))
    finally:
        fastpath.enable(before)


def _mul_chain() -> Any:
    x = _leaf([1.0, 2.0, 3.0])
    y = x
    for _ in range(5):
        y = y * 1.0001 + 0.0001
    y.sum().backward()
    return [y, x.grad]


def _binary_tensors() -> Any:
    a, b = _leaf([[1.0, -2.0], [3.0, 0.5]]), _leaf([0.25, -4.0])
    z = (a * b - a / b + b).exp()  # exp saves its result
    z.backward(ops.ones_like(z))
    return [z, a.grad, b.grad]


def _three_inputs() -> Any:
    bias, x, w = _leaf([0.5, -0.5]), _leaf([[1.0, 2.0, 3.0]]), _leaf([[1.0, 0.0], [0.0, 1.0],
                                                                     [2.0, 2.0]])
    out = ops.addmm(bias, x, w)
    out.sum().backward()
    return [out, bias.grad, x.grad, w.grad]


def _partial_requires() -> Any:
    a, b, c = _leaf([1.0, 2.0]), _leaf([3.0, 4.0], requires_grad=False), _leaf([5.0, 6.0])
    out = ops.addcmul(a, b, c, value=0.5)
    return [out, a * b, b * 2.0, b + c]


def _views_and_inplace() -> Any:
    x = _leaf([[1.0, 2.0], [3.0, 4.0]])
    y = x * 2.0
    v = y[0]
    w = v.t() if v.ndim == 2 else v.unsqueeze(0)
    v.mul_(3.0)
    return [y, v, w, y.grad_fn is not None, v._version]


def _integer_results() -> Any:
    x = _leaf([1.5, -2.0, 3.0])
    return [x > 0.0, x.argmax(), (x * 2.0).long(), x.sign()]


def _no_grad_and_inference() -> Any:
    x = _leaf([1.0, 2.0])
    with no_grad():
        y = x * 2.0 + 1.0
    InferenceMode.counter = None
    return [y, x.detach() * 3.0, x.data + 1.0]


def _float16() -> Any:
    x = _leaf([1.0, 2.5, -3.0], dtype=np.float16)
    y = (x * 1.5 + 0.25).sigmoid()
    y.sum().backward()
    return [y, x.grad]


def _hooks_and_retain_grad() -> Any:
    x = _leaf([1.0, 2.0, 3.0])
    seen = []
    y = x * 2.0
    y.retain_grad()
    y.register_hook(lambda g: seen.append(g.sum().item()))
    z = (y * y).sum()
    z.backward()
    return [y.grad, x.grad, repr(seen)]


def _errors() -> Any:
    a, b = _leaf([1.0, 2.0, 3.0]), _leaf([1.0, 2.0])
    results = []
    for f in (lambda: a * b, lambda: a + "x", lambda: ops.addmm(a, a, b), lambda: a * [1, 2],
              lambda: a + b, lambda: a.__mul__(), lambda: a.__add__(b, alpha=2),
              lambda: Tensor.__mul__(1.0, a)):
        try:
            f()
        except Exception as error:  # noqa: BLE001
            results.append((type(error).__name__, str(error), type(error.__context__).__name__,
                            type(error.__cause__).__name__, error.__suppress_context__))
    x = _leaf([1.0, 2.0])
    y = x.exp()
    y.add_(1.0)
    try:
        y.sum().backward()
    except Exception as error:  # noqa: BLE001
        results.append((type(error).__name__, str(error)))
    return repr(results)


def _anomaly() -> Any:
    Anomaly.enabled = True
    try:
        x = _leaf([1.0, 2.0])
        y = x * 2.0
        return [y, sorted(y.grad_fn.metadata)]
    finally:
        Anomaly.enabled = False


def _subclass_and_make() -> Any:
    from gradsh.torch.nn import Parameter

    p = Parameter(ops.tensor([1.0, 2.0]))
    q = p * 3.0
    q.sum().backward()
    made = Tensor._make(np.arange(3.0), "cpu")
    return [q, p.grad, made, Tensor._make(np.float64(2.0)), type(p * 1.0).__name__]


def _saved_tensors() -> Any:
    from gradsh.engine.grad_mode import _Origin
    from gradsh.torch.autograd.graph import saved_tensors_hooks

    packed = []
    x = _leaf([1.0, 2.0, 3.0])
    _Origin.value = "line 7"
    try:
        y = x * 2.0
        with saved_tensors_hooks(lambda t: packed.append(t.shape) or t, lambda t: t * 1.0):
            z = y * y
    finally:
        _Origin.value = None
    saved = y.grad_fn._raw_saved_other
    description = [saved.origin, saved.version, saved.shape, str(saved.dtype), saved.is_output,
                   saved.released, repr(packed), sorted(z.grad_fn._saved)]
    z.sum().backward()
    return [z, x.grad, repr(description), repr(saved.released)]


def _inference_save() -> Any:
    from gradsh.torch import inference_mode

    with inference_mode():
        w = ops.tensor([1.0, 2.0])
    x = _leaf([3.0, 4.0])
    return [x * w]


def _operator_operands() -> Any:
    x = _leaf([1.0, -2.0, 3.0])
    n = ops.tensor([1, 2, 3])
    h = ops.tensor(np.array([1.0, 2.0], dtype=np.float16))
    results = [x * 2, x + 1, x * np.float32(0.5), x + np.float64(0.25), x * True, n * 2.5,
               n + n, h * 0.1, h + h, x * 0.0, x * -0.0, x + float("nan"), 2.0 * x, x - 1.0,
               x * ops.tensor(2.0, dtype=ops.float64) if hasattr(ops, "float64") else x,
               Tensor.__mul__(x, 3.0), Tensor.__add__(x, x), x.detach() * 4.0,
               x[1:] * 0.5 + 0.5]
    return results


def _double_backward() -> Any:
    x = _leaf([1.0, 2.0, 3.0])
    y = (x * x * 2.0 + x * 0.5).sum()
    y.backward(create_graph=True)
    first = x.grad
    x.grad = None
    first.sum().backward()
    return [first, x.grad]


def _bfloat16() -> Any:
    from gradsh.engine import dtypes

    x = ops.tensor([1.0, -2.0, 3.0], dtype=dtypes.bfloat16, requires_grad=True)
    y = (x.relu() * 2.0).exp()  # relu and exp save their results
    y.sum().backward()
    return [y, x.grad]


def _small_forwards() -> Any:
    from gradsh.engine import threads

    x = _leaf([1.5, -2.0, 3.25])
    d = _leaf([1.5, -2.0], dtype=np.float64)
    big = _leaf(np.linspace(-1.0, 1.0, threads.MIN_ELEMENTS))
    w = Tensor.wrap_scalar(0.3)
    results = [x * 0.1, d * 0.1, x + 0.1, d + 0.1, big * 0.1, big + 0.1, ops.mul(2.0, x),
               ops.add(x, 0.5, alpha=1.0), ops.add(x, 0.5, alpha=2),
               ops.add(x, w, alpha=1), ops.add(w, x), ops.mul(w, x), x.detach() * 0.7,
               ops.mul(x, w), x * x, x + x]
    loss = sum(r.sum() for r in results if r.requires_grad)
    loss.backward()
    return results + [x.grad, d.grad, repr(sorted(results[0].grad_fn._saved))]


CASES = [_small_forwards, _bfloat16, _operator_operands, _double_backward, _saved_tensors, _inference_save,
         _mul_chain, _binary_tensors, _three_inputs, _partial_requires, _views_and_inplace,
         _integer_results, _no_grad_and_inference, _float16, _hooks_and_retain_grad, _errors,
         _anomaly, _subclass_and_make]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__.strip("_") for c in CASES])
def test_same_graphs_and_bits(case: Callable[[], Any]) -> None:
    assert _run(case, True) == _run(case, False)


def test_installed_and_removed() -> None:
    before = fastpath.enable(True)
    try:
        assert fastpath.enabled()
        assert "built-in" in repr(Function.__dict__["apply"].__func__)
        assert "of 'SavedTensor' objects" in repr(SavedTensor.__dict__["unpack"])
        assert "of 'Function' objects" in repr(Function.__dict__["call_backward"])
        fastpath.enable(False)
        assert not fastpath.enabled()
        assert Function.__dict__["apply"].__func__.__module__ == "gradsh.engine.node"
        assert Function.__dict__["call_backward"].__module__ == "gradsh.engine.node"
        assert SavedTensor.__dict__["unpack"].__module__ == "gradsh.engine.saved_variable"
    finally:
        fastpath.enable(before)


def test_native_off_keeps_the_python_code() -> None:
    code = ("from gradsh.engine import fastpath, ops; x = ops.tensor(1.0, requires_grad=True); "
            "y = x * 2.0; print(fastpath.enabled(), type(y.grad_fn).__name__)")
    env = dict(os.environ, GRADSH_NATIVE="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "MulBackward0"]


def test_make_arguments() -> None:
    data = np.ones(2, dtype=np.float32)
    t = Tensor._make(data, device="cpu", grad_fn=None, requires_grad=True)
    assert t.requires_grad and t.is_leaf and t._data is data and t.device == "cpu"
    with pytest.raises(TypeError):
        Tensor._make(data, "cpu", None, False, 1)
    with pytest.raises(TypeError):
        Tensor._make(data, colour="red")


def _saved_result_fields(c: bool) -> list[Any]:
    """The SavedTensor an op saves of its own output (exp, relu, log_softmax, tanh), made by
    the C apply or by node._save_result: every slot that says what was saved."""
    before = fastpath.enable(c)
    try:
        x = _leaf([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]])
        rows = []
        for out in (x.exp(), ops.relu(x), ops.log_softmax(x, 1), x.tanh()):
            node = out.grad_fn
            saved = node._saved
            (name, record), = saved.items()
            rows.append((type(node).__name__, name, record.is_output, record.version,
                         record.released, record.shape, str(record.dtype), record.device,
                         record._tensor, record._weak() is out, record._data is out._data,
                         record.view_grad_fn, record._hooked, record.origin,
                         record._counter is out._version_counter))
            out.sum().backward()
            rows.append(x.grad._data.tobytes())
        return rows
    finally:
        fastpath.enable(before)


def test_saved_result_as_python_saves_it() -> None:
    assert _saved_result_fields(True) == _saved_result_fields(False)


def test_dependencies_as_python_counts_them() -> None:
    """backward._dependencies in C: the same counts in the same order (the sweep's ready order
    does not depend on it, but the dict is the Python function's, item for item)."""
    from gradsh.engine import backward

    x, w = _leaf([1.0, 2.0, 3.0]), _leaf([0.5, 0.25, 2.0])
    y = (x * w + x).exp() * w
    z = y.sum() + (x * 2.0).sum() + (y * y).sum()
    roots = [z.grad_fn, y.grad_fn]
    before = fastpath.enable(True)
    try:
        assert "built-in" in repr(backward._dependencies)
        c = list(backward._dependencies(roots).items())
        fastpath.enable(False)
        assert "built-in" not in repr(backward._dependencies)
        assert c == list(backward._dependencies(roots).items())
    finally:
        fastpath.enable(before)


def _released_fields(c: bool) -> list[Any]:
    """What backward's release of a node's saved tensors leaves (released, where it was freed,
    nothing kept), outside an undo log and inside one that predates the graph (undoable: the
    release is recorded and undone) or not, in C and in Python."""
    from gradsh.engine.grad_mode import _Origin
    from gradsh.engine.undo import undo_log

    before = fastpath.enable(c)
    rows: list[Any] = []
    try:
        for where in ("plain", "log before the graph", "graph inside the log"):
            _Origin.value = f"made {where}"
            x = _leaf([0.5, -1.0, 2.0])
            if where == "log before the graph":
                y = (x * x).exp()
            with undo_log() as log:
                if where != "log before the graph":
                    y = (x * x).exp()
                _Origin.value = f"freed {where}"
                nodes = [y.grad_fn, y.grad_fn.next_functions[0][0]]
                records = [list(n._saved.values()) for n in nodes]
                y.sum().backward()
                rows.append([(r.released, r.freed_origin, r._tensor, r._data, r.origin)
                             for saved in records for r in saved])
                rows.append(x.grad._data.tobytes())
                if where == "log before the graph":
                    log.rollback()
                    rows.append([(r.released, r._tensor is not None, r._data is not None,
                                  r.freed_origin) for saved in records for r in saved])
        return rows
    finally:
        _Origin.value = None
        fastpath.enable(before)


def test_release_as_python_releases() -> None:
    assert _released_fields(True) == _released_fields(False)


def test_here_answers_from_the_running_frame() -> None:
    """pywhole's _Origin.live in C: the statement at the frame's instruction offset, from its
    table; where there is no frame or no entry yet, the Python method (`find`)."""
    found: list[str] = []
    here = fastpath.extension.Here(lambda: found.append("find") or "from find")
    assert here() == "from find" and found == ["find"]  # no frame yet
    frame = sys._getframe()
    here.frame = frame
    here.table = {}
    assert here() == "from find" and found == ["find"] * 2  # an offset not in the table
    here.table = {offset: f"statement at {offset}"
                  for offset in range(0, len(frame.f_code.co_code) + 2, 2)}
    answer = here()
    assert answer.startswith("statement at ") and found == ["find"] * 2
    assert int(answer.split()[-1]) < frame.f_lasti  # (the call's offset: before this line's)
    with pytest.raises(TypeError):
        here(1)
