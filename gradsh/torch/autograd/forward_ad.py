"""torch.autograd.forward_ad: dual tensors, whose tangents every operation carries forward.

While a dual level is open, `Function.apply` is replaced by a version that, after an op whose
inputs have tangents, gives its result the Jacobian-vector product as tangent. The JVP of any
node comes from its backward formula, which is linear in the output gradient `g`: with
vjp(g) = J^T g, the JVP J v is the gradient of <vjp(g), v> with respect to g (the
double-backward trick, one node at a time). Custom autograd Functions use their `jvp`.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from gradsh.engine import forward_grad, ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.forward_grad import set_tangent, tangent_of
from gradsh.engine.grad_mode import _GradMode
from gradsh.engine.tensor import Function, Tensor, enable_grad, no_grad

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]

_current_level = -1
_PLAIN_APPLY = Function.__dict__["apply"]  # Function.apply outside a level (set on entering)


class UnpackedDualTensor(namedtuple("UnpackedDualTensor", ["primal", "tangent"])):
    """What unpack_dual returns: the primal (a view of the dual tensor) and its tangent."""

    __slots__ = ()


UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def enter_dual_level() -> int:
    """Open the dual level (PyTorch has one, 0) and return it."""
    global _current_level, _PLAIN_APPLY
    if forward_grad.state.level is not None:
        raise TorchRuntimeError("Nested forward mode AD is not supported at the moment")
    forward_grad.state.level = _current_level = 0
    _PLAIN_APPLY = Function.__dict__["apply"]  # the C fast path's or the Python one
    Function.apply = classmethod(_apply_with_tangents)  # type: ignore[method-assign]
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the dual level: every tangent made in it is forgotten."""
    global _current_level
    level = _current_level if level is None else level
    if level != _current_level:
        raise TorchRuntimeError("Trying to exit a forward AD level that was not the last one "
                                "that was created. This is not supported.")
    if level < 0:
        raise TorchRuntimeError("Dual level must be a positive number.")
    Function.apply = _PLAIN_APPLY  # type: ignore[method-assign]
    forward_grad.clear()
    forward_grad.state.level = None
    _current_level = level - 1


class dual_level:  # noqa: N801  (PyTorch's name)
    """`with dual_level():` opens the level for the block and closes it after."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: Any) -> None:
        exit_dual_level()

    def __call__(self, function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            with dual_level():
                return function(*args, **kwargs)

        return run


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of `tensor` whose tangent is `tangent` (the object itself when its layout is
    the primal's, else a copy laid out as the primal)."""
    level = _current_level if level is None else level
    if level < 0:
        raise TorchRuntimeError("Trying to create a dual Tensor for forward AD but no level "
                                "exists, make sure to enter_dual_level() first.")
    if not tensor.dtype.is_floating_point:
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not tangent.dtype.is_floating_point:
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if tangent_of(tensor) is not None:
        raise TorchRuntimeError("Making a dual Tensor based on a Tensor that already has a "
                                f"forward gradient at the same level {level} is not supported.")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise TorchRuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}.")
    if tangent.stride() != tensor.stride():
        with no_grad():
            tangent = ops.clone(tangent, memory_format="contiguous")
    dual = ops.view_as(tensor, tensor)
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """(primal, tangent): the primal a view of `tensor` without tangent (grad_fn Identity),
    the tangent None where there is none; outside a level, (tensor, None)."""
    level = _current_level if level is None else level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    tangent = tangent_of(tensor)
    forward_grad.state.suspended += 1
    try:
        primal = FwPrimal.apply(tensor)
    finally:
        forward_grad.state.suspended -= 1
    return UnpackedDualTensor(primal, tangent)


class FwPrimal(Function):
    """_fw_primal: the primal of a dual tensor, a view of it (PyTorch's node: Identity)."""

    node_name = "Identity"
    is_view = True

    def forward(self, a: Tensor) -> Any:
        return a._data[...]

    def view_fn(self, array: Any) -> Any:
        return array[...]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


def _apply_with_tangents(cls: type[Function], *inputs: Tensor, **params: Any) -> Tensor:
    """Function.apply while a level is open: the result, with its tangent when an input has
    one."""
    out = _PLAIN_APPLY.__func__(cls, *inputs, **params)
    if forward_grad.state.suspended or not forward_grad.any_tangents():
        return out
    tangents = [tangent_of(t) for t in inputs]
    if all(t is None for t in tangents) or not out.dtype.is_floating_point:
        return out
    tangent = jvp_of_node(cls, inputs, params, tangents)
    if tangent is not None:
        set_tangent(out, tangent)
    return out


def jvp_of_node(cls: type[Function], inputs: tuple[Tensor, ...], params: dict[str, Any],
                tangents: list[Tensor | None]) -> Tensor | None:
    """The tangent of `cls` applied to `inputs`: J v by double backward through one node. It
    keeps a graph (grad_fn) where PyTorch's forward formula would: grad mode on and a primal
    or tangent requiring grad."""
    keep_graph = _GradMode.enabled and any(
        t.requires_grad or (v is not None and v.requires_grad)
        for t, v in zip(inputs, tangents, strict=True))
    forward_grad.state.suspended += 1
    try:
        with enable_grad():
            xs, wrt, vs = [], [], []
            for t, v in zip(inputs, tangents, strict=True):
                if v is None or not t.dtype.is_floating_point:
                    xs.append(t)
                    continue
                x = t if t.requires_grad else ops.detach(t).requires_grad_()
                xs.append(x)
                wrt.append(x)
                vs.append(v if v.dtype is x.dtype else ops.to(v, x.dtype))
            out = _PLAIN_APPLY.__func__(cls, *xs, **params)
            if not out.requires_grad:
                return None
            g = ops.zeros_like(out).requires_grad_()
            vjps = ops.grad([out], wrt, [g], create_graph=True, allow_unused=True)
            pairs = [(j, v) for j, v in zip(vjps, vs, strict=True)
                     if j is not None and j.requires_grad]
            found = None
            if pairs:
                found = ops.grad([j for j, _ in pairs], [g], [v for _, v in pairs],
                                 create_graph=keep_graph, allow_unused=True)[0]
            if found is None:
                found = ops.zeros_like(out)
            primal = next((t for t in inputs if t.requires_grad), None)
            if keep_graph and not found.requires_grad and primal is not None:
                found = ZeroTermSum.apply(found, primal)
    finally:
        forward_grad.state.suspended -= 1
    return found if keep_graph else ops.detach(found)


class ZeroTermSum(Function):
    """A tangent whose formula PyTorch writes as a sum with a zero term that reads a primal
    requiring grad (`mat1_t.mm(mat2_p) + mat1_p.mm(mat2_t)` with mat1_t zero): the tangent,
    unchanged, with that primal's history; its gradient to the primal is zero."""

    node_name = "AddBackward0"

    def forward(self, tangent: Tensor, primal: Tensor) -> Any:
        return tangent._data.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad, None)


def custom_function_jvp(cls: Any, ctx: Any, args: tuple[Any, ...], output: Any) -> None:
    """A custom autograd.Function's outputs get the tangents its `jvp` staticmethod returns
    for the inputs' tangents (None for an input without one)."""
    tangents = [tangent_of(a) if isinstance(a, Tensor) else None for a in args]
    # in jvp, ctx.saved_tensors are the primals of what forward gave save_for_forward (none
    # otherwise: what it saved for backward is not there yet), as in PyTorch
    saved = getattr(ctx, "saved_for_forward", ())
    ctx._jvp_saved = tuple(t if t is None or tangent_of(t) is None else _saved_primal(t)
                           for t in saved)
    try:
        result = cls.jvp(ctx, *tangents)
    finally:
        del ctx._jvp_saved
    outputs = output if isinstance(output, tuple) else (output,)
    results = result if isinstance(result, tuple) else (result,)
    given = [t for t in tangents if t is not None]
    for out, tangent in zip(outputs, results, strict=False):
        if isinstance(out, Tensor) and isinstance(tangent, Tensor):
            if out._base is not None:  # (forward returned a view, or an input as is)
                _check_view_tangent(tangent, given)
            set_tangent(out, tangent)


def _check_view_tangent(tangent: Tensor, given: list[Tensor]) -> None:
    """PyTorch's check of a jvp for a Function whose output is a view: the tangent must be a
    view of one of the tangents jvp was given."""
    if tangent._base is None:
        raise TorchRuntimeError("A custom Function's forward is returning a view (or an input "
                                "as-is) but the jvp is not returning a view.")
    if not any(tangent._base is (t._base if t._base is not None else t) for t in given):
        raise TorchRuntimeError("A custom Function is returning a view but the jvp is not "
                                "returning a view of the given grad input.")


def _saved_primal(dual: Tensor) -> Tensor:
    """What PyTorch's jvp reads for a dual tensor saved for forward: a view of its primal
    without tangent (of make_dual's input, for a dual made by make_dual)."""
    forward_grad.state.suspended += 1
    try:
        source = dual._base if dual._base is not None else dual
        return source.view_as(source)
    finally:
        forward_grad.state.suspended -= 1


def has_dual_argument(args: tuple[Any, ...]) -> bool:
    """Whether a dual level is open and some argument has a tangent."""
    if forward_grad.state.suspended or not forward_grad.any_tangents():
        return False
    return any(isinstance(a, Tensor) and tangent_of(a) is not None for a in args)
