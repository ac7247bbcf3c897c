"""torch.autograd.gradcheck and gradgradcheck (PyTorch's slow mode): the analytical Jacobian
(one backward per output element, run twice for reentrancy) against central finite
differences, with PyTorch's checks and failure texts (torch/autograd/gradcheck.py)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck and gradgradcheck when a check fails."""


GradcheckError.__module__ = "torch.autograd.gradcheck"

FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable(values: tuple[Any, ...]) -> list[Tensor]:
    return [v for v in values if isinstance(v, Tensor) and v.requires_grad]


def _check_inputs(inputs: tuple[Any, ...]) -> None:
    any_requires = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, Tensor) and inp.requires_grad:
            if inp.dtype is not dtypes.float64:
                warnings.warn(
                    f"Input #{idx} requires gradient and is not a double precision floating "
                    "point or complex. This check will likely fail if all the inputs are not of "
                    "double precision floating point or complex. ", stacklevel=4)
            any_requires = True
    if not any_requires:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")


def _numerical_jacobian(func: Callable[..., Any], inputs: tuple[Any, ...],
                        eps: float) -> list[list[Tensor]]:
    """[input][output]: (input numel, output numel) central differences, each element of
    each input perturbed in place by -eps and +eps, as PyTorch does."""
    result = []
    for inp in _differentiable(inputs):
        array = inp._data  # perturbed in place, unseen by autograd (PyTorch perturbs x.data)
        columns: list[list[Tensor]] = []
        for index in np.ndindex(array.shape):
            orig = array[index].copy()
            array[index] = orig - eps
            outa = [o.clone() for o in _differentiable_or_all(func(*inputs))]
            array[index] = orig + eps
            outb = [o.clone() for o in _differentiable_or_all(func(*inputs))]
            array[index] = orig
            columns.append([((b - a) / (2 * eps)).detach().reshape(-1)
                            for a, b in zip(outa, outb, strict=True)])
        per_output = []
        for j in range(len(columns[0]) if columns else 0):
            per_output.append(ops.stack([col[j] for col in columns], 0))
        result.append(per_output)
    return result


def _differentiable_or_all(out: Any) -> list[Tensor]:
    return [o for o in _as_tuple(out) if isinstance(o, Tensor) and o.dtype.is_floating_point]


def _analytical_jacobian(inputs: tuple[Any, ...], output: Tensor, nondet_tol: float,
                         check_grad_dtypes: bool) -> list[Tensor]:
    """[input]: (input numel, output numel), one backward per output element, twice."""
    diff_inputs = _differentiable(inputs)
    runs = []
    for _ in range(2):
        columns: list[list[Tensor]] = [[] for _ in diff_inputs]
        flat_out = output.reshape(-1)
        for j in range(output.numel()):
            grad_out = ops.zeros_like(flat_out)
            grad_out[j] = 1.0
            grads = ops.grad([flat_out], diff_inputs, [grad_out], retain_graph=True,
                             allow_unused=True)
            for column, g, inp in zip(columns, grads, diff_inputs, strict=True):
                if g is not None and g.size() != inp.size():
                    raise GradcheckError("Analytical gradient has incorrect size")
                if check_grad_dtypes and g is not None and g.dtype is not inp.dtype:
                    raise GradcheckError("Gradient has dtype mismatch")
                column.append(ops.zeros(inp.numel(), dtype=inp.dtype) if g is None
                              else g.reshape(-1))
        runs.append([ops.stack(column, 1) if column else
                     ops.zeros((inp.numel(), 0), dtype=inp.dtype)
                     for column, inp in zip(columns, diff_inputs, strict=True)])
    first, second = runs
    for a, b in zip(first, second, strict=True):
        if a.numel() != 0 and float((a - b).abs().max()) > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                "gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG)
    return first


def _allclose(a: Tensor, b: Tensor, rtol: float, atol: float) -> bool:
    x = np.asarray(a.detach()._data, dtype=np.float64)
    y = np.asarray(b.detach()._data, dtype=np.float64)
    return bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=False))


def _not_allclose_message(analytical: Tensor, numerical: Tensor, output_idx: int,
                          input_idx: int) -> str:
    return (f"Jacobian mismatch for output {output_idx:d} with respect to input "
            f"{input_idx:d},\nnumerical:{numerical}\nanalytical:{analytical}\n")


def _forward_jacobian(func: Callable[..., Any], inputs: tuple[Any, ...]) -> list[list[Tensor]]:
    """[input][output]: (input numel, output numel), one forward-mode pass (a dual input
    whose tangent is a basis vector) per input element."""
    from gradsh.torch.autograd import forward_ad

    result = []
    for inp in _differentiable(inputs):
        columns: list[list[Tensor]] = []
        for k in range(inp.numel()):
            basis = ops.zeros(inp.numel(), dtype=inp.dtype)
            basis[k] = 1.0
            with forward_ad.dual_level():
                dual = forward_ad.make_dual(inp.detach(), basis.reshape(inp.shape))
                args = tuple(dual if a is inp else a for a in inputs)
                outs = _differentiable_or_all(func(*args))
                tangents = [forward_ad.unpack_dual(o).tangent for o in outs]
            columns.append([ops.zeros(o.numel(), dtype=o.dtype) if t is None
                            else t.detach().reshape(-1) for t, o in zip(tangents, outs)])
        result.append([ops.stack([col[j] for col in columns], 0)
                       for j in range(len(columns[0]) if columns else 0)])
    return result


def _check_forward_ad(func: Callable[..., Any], inputs: tuple[Any, ...],
                      numerical: list[list[Tensor]], atol: float, rtol: float) -> None:
    for j, per_output in enumerate(_forward_jacobian(func, inputs)):
        for i, analytical in enumerate(per_output):
            expected = numerical[j][i]
            if not _allclose(analytical, expected, rtol, atol):
                raise GradcheckError(
                    f"Jacobian computed with forward mode mismatch for output {i:d} with "
                    f"respect to input {j:d},\nnumerical:{expected}\nanalytical:{analytical}\n")


def _gradcheck(func: Callable[..., Any], inputs: Any, eps: float, atol: float, rtol: float,
               nondet_tol: float, check_grad_dtypes: bool, check_forward_ad: bool = False,
               check_backward_ad: bool = True, check_undefined_grad: bool = True) -> bool:
    tupled = _as_tuple(inputs)
    _check_inputs(tupled)
    func_out = func(*tupled)
    outputs = _differentiable(_as_tuple(func_out))
    numerical = _numerical_jacobian(func, tupled, eps)
    if check_forward_ad:
        _check_forward_ad(func, tupled, numerical, atol, rtol)
    if not check_backward_ad:
        return True
    if not outputs:  # nothing to backpropagate: the function must not depend on the inputs
        for per_input in numerical:
            for n in per_input:
                if n.numel() and float(n.abs().max()) > 0:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    for i, out in enumerate(outputs):
        analytical = _analytical_jacobian(tupled, out, nondet_tol, check_grad_dtypes)
        for j, a in enumerate(analytical):
            n = numerical[j][i]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_not_allclose_message(a, n, i, j))
    _check_backward_mul_by_grad_output(outputs, tupled)
    if check_undefined_grad:
        _check_undefined_grad(func, tupled, len(outputs))
    return True


def _check_backward_mul_by_grad_output(outputs: list[Tensor], inputs: tuple[Any, ...]) -> None:
    """PyTorch's _test_backward_mul_by_grad_output: zero output gradients through the graph
    already built must give zero input gradients, of the inputs' dtype and size."""
    diff_inputs = _differentiable(inputs)
    grads = ops.grad(outputs, diff_inputs, [ops.zeros_like(o) for o in outputs],
                     allow_unused=True)
    for g, inp in zip(grads, diff_inputs, strict=True):
        if g is None:
            continue
        if not bool(g.eq(0).all()):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype is not inp.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.size() != inp.size():
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grad(func: Callable[..., Any], inputs: tuple[Any, ...],
                          num_outputs: int) -> None:
    """PyTorch's _test_undefined_backward_mode: func runs again (once more per output when
    there are several: PyTorch leaves each one's gradient undefined in turn) and backward
    with zero gradients must give the inputs none or zeros. gradsh passes zeros where PyTorch
    passes undefined gradients: what a custom Function's backward gets either way while its
    grads are materialized."""
    diff_inputs = _differentiable(inputs)
    for _ in range(1 + (num_outputs if num_outputs > 1 else 0)):
        outputs = _differentiable(_as_tuple(func(*inputs)))
        try:
            grads_input = ops.grad(outputs, diff_inputs, [ops.zeros_like(o) for o in outputs],
                                   allow_unused=True)
        except RuntimeError as error:
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from error
        for g in grads_input:
            if g is not None and not bool(g.eq(0).all()):
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads "
                    'are undefined or zero. Please look at "Notes about undefined output '
                    'gradients" in "tools/autograd/derivatives.yaml"')


def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Whether func's analytical gradients match finite differences (allclose); raises
    GradcheckError with PyTorch's text unless raise_exception=False."""
    if check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("gradsh does not implement gradcheck's batched checks yet")
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
                          check_forward_ad, check_backward_ad, check_undefined_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the gradient: func's vector-Jacobian product with respect to the inputs
    and to grad_outputs (random in [-1, 1) from the global generator unless given)."""
    tupled = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable(_as_tuple(func(*tupled)))
        grad_outputs = tuple(
            ops.empty(tuple(o.shape), dtype=o.dtype).uniform_(-1, 1).requires_grad_()
            for o in outputs)
    tupled_grads = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grads)
    diff_indices = [i for i, x in enumerate(tupled) if isinstance(x, Tensor) and x.requires_grad]
    diff_grad_indices = [i for i, g in enumerate(tupled_grads) if g.requires_grad]

    def new_func(*args: Any) -> Any:
        inputs_ = args[:-num_outputs]
        grads_ = args[-num_outputs:]
        outputs = _differentiable(_as_tuple(func(*inputs_)))
        diff = [inputs_[i] for i in diff_indices]
        grads = ops.grad(outputs, diff, list(grads_), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    if not diff_grad_indices and not diff_indices:
        return True
    return gradcheck(new_func, tupled + tupled_grads, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes)
