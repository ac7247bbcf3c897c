"""The one generic gradient checker, and the comparison of gradsh with PyTorch as the oracle.

`check_grads` is HIPS autograd's idea: the analytic gradient (gradsh's backward) against central
finite differences in float64, along a random direction and for a random upstream gradient.

`run_parity` runs one case, written once against a torch-like namespace (`m.exp(x)`,
`x.sum(dim=0)`), in PyTorch and in gradsh from the same input arrays and compares everything a
user can see: values, dtype, shape, requires_grad, is_leaf, the grad_fn name and the shape of
its graph, the error type and text, the warnings, the gradients of the inputs, and whether the
graph can be backpropagated a second time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import warnings

import numpy as np

from gradsh.engine import exceptions, ops
from gradsh.engine.exceptions import TorchError
from gradsh.engine.tensor import Tensor

# ---------------------------------------------------------------------------------------------
# Finite differences
# ---------------------------------------------------------------------------------------------


def _as_scalar(out: Tensor, weights: np.ndarray) -> float:
    return float(np.sum(np.asarray(out._data, dtype=np.float64) * weights))


def check_grads(f: Callable[..., Tensor], *arrays: np.ndarray, eps: float = 1e-6,
                rtol: float = 1e-5, atol: float = 1e-6, seed: int = 0) -> None:
    """Assert that gradsh's gradient of `f` at `arrays` matches central finite differences.

    `f` takes gradsh tensors and returns one tensor. The output is contracted with a fixed random
    weight tensor, so every output element's gradient is checked, and each input is probed in
    every coordinate (the inputs in the op table are small).
    """
    rng = np.random.default_rng(seed)
    leaves = [ops.tensor(np.asarray(a, dtype=np.float64).tolist(), dtype=ops.float64,
                         requires_grad=True) for a in arrays]
    out = f(*leaves)
    weights = rng.standard_normal(out.shape)
    out.backward(ops.tensor(weights.tolist(), dtype=ops.float64))
    for k, leaf in enumerate(leaves):
        analytic = np.zeros(leaf.shape) if leaf.grad is None else np.asarray(leaf.grad._data)
        numeric = np.zeros(leaf.shape)
        base = np.asarray(arrays[k], dtype=np.float64)
        for index in np.ndindex(*base.shape):
            values = []
            for sign in (1.0, -1.0):
                shifted = base.copy()
                shifted[index] += sign * eps
                probe = [ops.tensor(np.asarray(a, dtype=np.float64).tolist(), dtype=ops.float64)
                         for a in arrays]
                probe[k] = ops.tensor(shifted.tolist(), dtype=ops.float64)
                values.append(_as_scalar(f(*probe), weights))
            numeric[index] = (values[0] - values[1]) / (2 * eps)
        np.testing.assert_allclose(
            analytic, numeric, rtol=rtol, atol=atol,
            err_msg=f"gradient of input {k} disagrees with finite differences",
        )


# ---------------------------------------------------------------------------------------------
# Parity with PyTorch
# ---------------------------------------------------------------------------------------------

_TORCH_FUNCTIONAL = frozenset({
    "mse_loss", "cross_entropy", "nll_loss", "softmax", "log_softmax", "relu", "l1_loss",
    "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "leaky_relu", "elu", "silu", "softplus", "logsigmoid", "hardtanh", "relu6", "gelu",
    "linear", "mish", "hardsigmoid", "softmin", "normalize", "one_hot", "kl_div",
    "pad", "dropout", "elu_", "leaky_relu_", "hardtanh_", "hardswish", "softshrink",
    "hardshrink", "glu", "layer_norm",
})


# gradsh's names of torch.linalg's functions (where torch.NAME is another function or none)
_TORCH_LINALG = {
    "linalg_inv": "inv", "linalg_slogdet": "slogdet", "linalg_solve": "solve",
    "linalg_cholesky": "cholesky", "linalg_svd": "svd", "linalg_norm": "norm", "qr": "qr",
    "inv_ex": "inv_ex", "solve_ex": "solve_ex", "cholesky_ex": "cholesky_ex",
    "solve_triangular": "solve_triangular", "svdvals": "svdvals", "eigh": "eigh",
    "eigvalsh": "eigvalsh", "pinv": "pinv", "matrix_norm": "matrix_norm",
}


class TorchNamespace:
    """torch and torch.nn.functional behind one attribute lookup, like gradsh's ops."""

    def __init__(self, torch: Any):
        self._torch = torch

    def __getattr__(self, name: str) -> Any:
        torch = self._torch
        if name in _TORCH_FUNCTIONAL:
            return getattr(torch.nn.functional, name)
        if name == "SGD":
            return torch.optim.SGD
        if name == "bool_":
            return torch.bool
        if name == "Tensor_":
            return torch.Tensor
        if name == "grad":
            return torch.autograd.grad
        if name in _TORCH_LINALG:
            return getattr(torch.linalg, _TORCH_LINALG[name])
        if name in ("im2col", "col2im"):  # gradsh's names of F.unfold and F.fold
            return getattr(torch.nn.functional, "unfold" if name == "im2col" else "fold")
        if name == "autograd_backward":
            return torch.autograd.backward
        return getattr(torch, name)


class GradshNamespace:
    """gradsh's ops and torch.optim.SGD behind one attribute lookup, as TorchNamespace is for
    torch."""

    def __getattr__(self, name: str) -> Any:
        if name == "SGD":
            from gradsh.torch.optim import SGD

            return SGD
        return getattr(ops, name)


@dataclass
class Outcome:
    """What one side produced: a value (tensors compared field by field) or an error."""

    value: Any = None
    error: tuple[str, str] | None = None
    warnings: list[str] = field(default_factory=list)
    inputs: list[Any] = field(default_factory=list)


_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.S)


def _torch_error_kind(error: BaseException) -> str:
    name = type(error).__name__
    return {"LinAlgError": "RuntimeError"}.get(name, name)


def run_torch(torch: Any, case: Callable[..., Any], arrays: Sequence[Any],
              requires_grad: Sequence[bool]) -> Outcome:
    import warnings

    inputs = [_torch_input(torch, a, r) for a, r in zip(arrays, requires_grad, strict=True)]
    outcome = Outcome(inputs=inputs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome.value = case(TorchNamespace(torch), *inputs)
        except Exception as error:  # noqa: BLE001 - every torch error is a fact to compare
            outcome.error = (_torch_error_kind(error), _TRIGGERED.sub("", str(error)))
    outcome.warnings = [_TRIGGERED.sub("", str(w.message)) for w in caught]
    return outcome


def run_gradsh(case: Callable[..., Any], arrays: Sequence[Any],
               requires_grad: Sequence[bool]) -> Outcome:
    from gradsh.engine.tensor import _once

    # Each case runs as if in a fresh process (warn-once warnings fire again), and leaves the
    # process-wide state as it found it for whatever test runs next.
    once = set(_once)
    _once.clear()
    inputs = [_gradsh_input(a, r) for a, r in zip(arrays, requires_grad, strict=True)]
    outcome = Outcome(inputs=inputs)
    messages: list[str] = []
    previous = exceptions.set_warning_handler(lambda category, text: messages.append(text))
    try:
        # gradsh.torch (the optimizers, nn) warns through Python's warnings module, as PyTorch
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                outcome.value = case(GradshNamespace(), *inputs)
            finally:
                messages.extend(str(w.message) for w in caught)
    except TorchError as error:
        outcome.error = (error.kind, error.message)
    finally:
        exceptions.set_warning_handler(previous)
        _once.clear()
        _once.update(once)
    outcome.warnings = messages
    return outcome


def _torch_input(torch: Any, array: Any, requires_grad: bool) -> Any:
    if isinstance(array, np.ndarray):
        t = torch.from_numpy(array.copy())
        return t.requires_grad_() if requires_grad else t
    return array


def _gradsh_input(array: Any, requires_grad: bool) -> Any:
    if isinstance(array, np.ndarray):
        t = Tensor._make(array.copy())
        return t.requires_grad_() if requires_grad else t
    return array


def node_name(node: Any) -> str:
    """gradsh nodes carry PyTorch's class name as data; PyTorch's are that class."""
    from gradsh.engine.tensor import Node

    return node.node_name if isinstance(node, Node) else type(node).__name__


def graph_signature(node: Any, depth: int = 4) -> Any:
    """A grad_fn as nested (name, children): PyTorch's and gradsh's nodes read the same."""
    if node is None:
        return None
    name = node_name(node)
    if depth == 0:
        return name
    return (name, tuple(graph_signature(child, depth - 1) for child, _ in node.next_functions))


def _values(t: Any) -> np.ndarray:
    if isinstance(t, Tensor):
        return np.asarray(t._data)
    if t._is_zerotensor():  # PyTorch's efficient zeros (some double-backward results)
        return np.zeros(tuple(t.shape), dtype=str(t.dtype).replace("torch.", ""))
    return t.detach().numpy()


def _dtype_name(t: Any) -> str:
    return str(t.dtype).replace("torch.", "")


def assert_tensor_same(expected: Any, actual: Any, where: str, rtol: float, atol: float,
                       graphs: bool = True) -> None:
    assert isinstance(actual, Tensor), f"{where}: gradsh gave {type(actual).__name__}"
    assert tuple(actual.shape) == tuple(expected.shape), \
        f"{where}: shape {tuple(actual.shape)} != torch {tuple(expected.shape)}"
    assert _dtype_name(actual) == _dtype_name(expected), \
        f"{where}: dtype {_dtype_name(actual)} != torch {_dtype_name(expected)}"
    assert actual.requires_grad == expected.requires_grad, f"{where}: requires_grad differs"
    assert actual.is_leaf == expected.is_leaf, f"{where}: is_leaf differs"
    assert not graphs or graph_signature(actual.grad_fn) == graph_signature(expected.grad_fn), \
        f"{where}: graph {graph_signature(actual.grad_fn)} != torch " \
        f"{graph_signature(expected.grad_fn)}"
    want, got = _values(expected), _values(actual)
    if want.dtype == bool or want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want, err_msg=where)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=where)


def assert_value_same(expected: Any, actual: Any, where: str, rtol: float, atol: float,
                      graphs: bool = True) -> None:
    if type(expected).__name__ == "Tensor":
        assert_tensor_same(expected, actual, where, rtol, atol, graphs)
    elif isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"{where}: gradsh gave {actual!r}"
        assert len(actual) == len(expected), f"{where}: length differs"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_value_same(e, a, f"{where}[{i}]", rtol, atol, graphs)
    elif type(expected).__name__ == "Size":
        assert tuple(actual) == tuple(expected), f"{where}: {actual} != {expected}"
    elif isinstance(expected, float):
        assert actual == expected or (np.isnan(actual) and np.isnan(expected)) or \
            np.isclose(actual, expected, rtol=rtol, atol=atol), f"{where}: {actual} != {expected}"
    else:
        assert str(actual) == str(expected), f"{where}: {actual!r} != torch {expected!r}"


def _outputs(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            out.extend(_outputs(v))
        return out
    return [value]


def run_parity(torch: Any, case: Callable[..., Any], arrays: Sequence[Any],
               requires_grad: Sequence[bool] | None = None, *, rtol: float = 1e-5,
               atol: float = 1e-6, backward: bool = True, twice: bool = True,
               grad_seed: int = 0, graphs: bool = True) -> tuple[Outcome, Outcome]:
    """Run `case` on both sides and assert they agree on everything visible (`graphs=False`
    skips the grad_fn graphs of the results, for known differences in higher-order graphs)."""
    if requires_grad is None:
        requires_grad = [isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in arrays]
    expected = run_torch(torch, case, arrays, requires_grad)
    actual = run_gradsh(case, arrays, requires_grad)
    assert actual.warnings == expected.warnings, \
        f"warnings {actual.warnings} != torch {expected.warnings}"
    if expected.error is not None:
        assert actual.error == expected.error, \
            f"error {actual.error} != torch {expected.error}"
        return expected, actual
    assert actual.error is None, f"gradsh raised {actual.error}, torch gave {expected.value!r}"
    assert_value_same(expected.value, actual.value, "result", rtol, atol, graphs)
    if backward:
        _compare_backward(torch, expected, actual, rtol, atol, twice, grad_seed)
    return expected, actual


def _compare_backward(torch: Any, expected: Outcome, actual: Outcome, rtol: float, atol: float,
                      twice: bool, grad_seed: int) -> None:
    t_outs = [o for o in _outputs(expected.value)
              if type(o).__name__ == "Tensor" and o.requires_grad]
    g_outs = [o for o in _outputs(actual.value) if isinstance(o, Tensor) and o.requires_grad]
    assert len(t_outs) == len(g_outs)
    if not t_outs:
        return
    rng = np.random.default_rng(grad_seed)
    seeds = [rng.standard_normal(o.shape).astype(_values(o).dtype) for o in t_outs]
    t_seeds = [torch.from_numpy(s.copy()) for s in seeds]
    g_seeds = [Tensor._make(s.copy()) for s in seeds]
    t_err = g_err = None
    try:
        torch.autograd.backward(t_outs, t_seeds, retain_graph=False)
    except RuntimeError as error:
        t_err = _TRIGGERED.sub("", str(error))
    try:
        ops.autograd_backward(g_outs, g_seeds, retain_graph=False)
    except TorchError as error:
        g_err = error.message
    assert g_err == t_err, f"backward error {g_err!r} != torch {t_err!r}"
    for i, (t_in, g_in) in enumerate(zip(expected.inputs, actual.inputs, strict=True)):
        if type(t_in).__name__ != "Tensor" or not t_in.requires_grad:
            continue
        t_grad, g_grad = t_in.grad, g_in.peek_grad()
        if t_grad is None:
            assert g_grad is None, f"input {i}: gradsh has a grad, torch None"
            continue
        assert g_grad is not None, f"input {i}: gradsh grad is None"
        assert_tensor_same(t_grad, g_grad, f"grad of input {i}", rtol, atol)
    if twice and t_err is None:
        t_second = g_second = None
        try:
            torch.autograd.backward(t_outs, t_seeds)
        except RuntimeError as error:
            t_second = _TRIGGERED.sub("", str(error))
        try:
            ops.autograd_backward(g_outs, g_seeds)
        except TorchError as error:
            g_second = error.message
        assert g_second == t_second, \
            f"second backward: gradsh {g_second!r} != torch {t_second!r}"
