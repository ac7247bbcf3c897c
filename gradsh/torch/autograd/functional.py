"""torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp and hvp of a Python function,
built on autograd.grad exactly as torch/autograd/functional.py builds them (jvp and hvp by the
double-backward trick), reverse mode only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.tensor import Tensor, set_grad_enabled
from gradsh.engine.tensor import is_grad_enabled as _grad_enabled

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

Func = Callable[..., Any]


def _as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Tensor, ...]]:
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TorchTypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or "
                                 f"a tuple of Tensors but the {where} has type {type(el)}.")
    return is_tuple, items


def _tuple_postprocess(res: Any, to_unpack: Any) -> Any:
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs: tuple[Tensor, ...], create_graph: bool,
                     need_graph: bool) -> tuple[Tensor, ...]:
    """Fresh leaves (or, under create_graph, views keeping the inputs' history)."""
    return tuple(inp.view_as(inp) if create_graph and inp.requires_grad
                 else inp.detach().requires_grad_(need_graph) for inp in inputs)


def _grad_postprocess(inputs: Any, create_graph: bool) -> Any:
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v: tuple[Tensor, ...], other: tuple[Tensor, ...], is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise TorchRuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise TorchRuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other, strict=True)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise TorchRuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} "
                                    f"but got {el_v.size()}.")


def _check_outputs_require_grad(outputs: tuple[Tensor, ...], strict: bool) -> None:
    if not strict:
        return
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise TorchRuntimeError(
                f"Output {i} of the user-provided function does not require gradients. The "
                "outputs must be computed in a differentiable manner from the input when "
                "running in strict mode.")


def _autograd_grad(outputs: tuple[Any, ...], inputs: tuple[Tensor, ...],
                   grad_outputs: tuple[Any, ...] | None = None, create_graph: bool = False,
                   retain_graph: bool | None = None) -> tuple[Tensor | None, ...]:
    """autograd.grad over the outputs that require grad; None for every input if none does."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs, strict=True)
             if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return ops.grad([o for o, _ in pairs], list(inputs), [g for _, g in pairs],
                    allow_unused=True, create_graph=create_graph, retain_graph=retain_graph)


def _fill_in_zeros(grads: tuple[Any, ...], refs: tuple[Tensor, ...], strict: bool,
                   stage: str) -> tuple[Tensor, ...]:
    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise TorchRuntimeError(_STRICT_MESSAGES[stage].format(i=i))
            g = ops.zeros_like(refs[i])
        result.append(g)
    return tuple(result)


_STRICT_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
            "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This "
                   "is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
                         "in the grad_jacobian. This is not allowed in strict mode as it prevents "
                         "from using the double backward trick to replace forward mode AD.",
}


def _prepare_v(v: Any, against: tuple[Tensor, ...], is_tuple: bool, name: str,
               create_graph: bool, none_message: str) -> tuple[Tensor, ...] | None:
    if v is None:
        if len(against) != 1 or against[0].numel() != 1:
            raise TorchRuntimeError(none_message)
        return None
    _, vs = _as_tuple(v, "v", name)
    vs = _grad_preprocess(vs, create_graph=create_graph, need_graph=False)
    _validate_v(vs, against, is_tuple)
    return vs


_V_INPUT = ("The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element.")


def vjp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), v^T J): the vector-Jacobian product."""
    with set_grad_enabled(True):
        is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "vjp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function",
                                           "vjp")
        _check_outputs_require_grad(outs, strict)
        vs = _prepare_v(v, outs, is_outputs_tuple, "vjp", create_graph,
                        "The vector v can only be None if the user-provided function returns "
                        "a single Tensor with a single element.")
    with set_grad_enabled(True if create_graph else _grad_enabled()):
        grads = _autograd_grad(outs, ins, vs, create_graph=create_graph)
        result = _fill_in_zeros(grads, ins, strict, "back")
    return (_tuple_postprocess(_grad_postprocess(outs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_inputs_tuple))


def jvp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick."""
    with set_grad_enabled(True):
        is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "jvp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        vs = _prepare_v(v, ins, is_inputs_tuple, "jvp", create_graph, _V_INPUT)
        is_outputs_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function",
                                           "jvp")
        _check_outputs_require_grad(outs, strict)
        grad_outputs = tuple(ops.zeros_like(out).requires_grad_() for out in outs)
        grad_inputs = _autograd_grad(outs, ins, grad_outputs, create_graph=True)
    with set_grad_enabled(True if create_graph else _grad_enabled()):
        grads = _autograd_grad(grad_inputs, grad_outputs, vs, create_graph=create_graph)
        result = _fill_in_zeros(grads, outs, strict, "back_trick")
    return (_tuple_postprocess(_grad_postprocess(outs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_outputs_tuple))


def jacobian(func: Func, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """The Jacobian of func at inputs, one row (a backward) per output element."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             "Hint: If your function has more outputs than inputs, "
                             '"forward-mode" tends to be more performant. Otherwise, prefer to '
                             'use "reverse-mode".')
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    if vectorize and strict:
        raise TorchRuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                                "`vectorized=True` are not supported together. Please either "
                                "set `strict=False` or `vectorize=False`.")
    # NOTE: gradsh has no vmap and no forward mode: vectorize=True and "forward-mode" compute
    # the same Jacobian row by row in reverse mode (the same values, more backward passes).
    with set_grad_enabled(True):
        is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "jacobian")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function",
                                           "jacobian")
        _check_outputs_require_grad(outs, strict)
        rows: list[tuple[Tensor, ...]] = []
        for i, out in enumerate(outs):
            columns: tuple[list[Tensor], ...] = tuple([] for _ in ins)
            flat = out.reshape(-1)
            for j in range(out.numel()):
                vj = _autograd_grad((flat[j],), ins, retain_graph=True, create_graph=create_graph)
                for k, (column, g, inp) in enumerate(zip(columns, vj, ins, strict=True)):
                    if g is not None and strict and create_graph and not g.requires_grad:
                        # (PyTorch's text names the output's index as the input's)
                        raise TorchRuntimeError(
                            f"The jacobian of the user-provided function is independent of "
                            f"input {i}. This is not allowed in strict mode when "
                            "create_graph=True.")
                    if g is None:
                        if strict:
                            raise TorchRuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}. This is not allowed in strict mode.")
                        g = ops.zeros_like(inp)
                    column.append(g)
            rows.append(tuple(ops.stack(column, 0).view(tuple(out.shape) + tuple(inp.shape))
                              for column, inp in zip(columns, ins, strict=True)))
    result = _grad_postprocess(tuple(rows), create_graph)
    return _tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def hessian(func: Func, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar func at inputs: the jacobian of its jacobian."""
    is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "hessian")

    def ensure_single_output_function(*inp: Tensor) -> Tensor:
        out = func(*inp)
        is_out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_outputs_require_grad(outs, strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise TorchRuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise TorchRuntimeError("The Tensor returned by the function given to hessian should "
                                    "contain a single element")
        return out.squeeze()

    def jac_func(*inp: Tensor) -> Any:
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_jacobian_requires_grad(jac, strict)
        return jac

    result = jacobian(jac_func, ins, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _tuple_postprocess(result, (is_inputs_tuple, is_inputs_tuple))


def _scalar_function_jacobian(func: Func, ins: tuple[Tensor, ...], name: str,
                              strict: bool) -> tuple[tuple[Tensor, ...], bool, tuple[Any, ...]]:
    is_outputs_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function", name)
    _check_outputs_require_grad(outs, strict)
    if is_outputs_tuple or not isinstance(outs[0], Tensor):
        raise TorchRuntimeError(f"The function given to {name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise TorchRuntimeError(f"The Tensor returned by the function given to {name} should "
                                "contain a single element")
    jac = _autograd_grad(outs, ins, create_graph=True)
    _check_jacobian_requires_grad(jac, strict)
    return outs, is_outputs_tuple, jac


def _check_jacobian_requires_grad(jac: tuple[Any, ...], strict: bool) -> None:
    """_check_requires_grad(jac, "jacobian", strict): hessian's inner jacobian must depend on
    the inputs."""
    if not strict:
        return
    for i, g in enumerate(jac):
        if g is None:
            raise TorchRuntimeError(_STRICT_MESSAGES["back"].format(i=i))
        if not g.requires_grad:
            raise TorchRuntimeError(
                f"While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is "
                "not allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).")


def vhp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), v^T H) for a scalar func."""
    with set_grad_enabled(True):
        is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "vhp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        vs = _prepare_v(v, ins, is_inputs_tuple, "vhp", create_graph, _V_INPUT)
        outs, is_outputs_tuple, jac = _scalar_function_jacobian(func, ins, "vhp", strict)
    with set_grad_enabled(True if create_graph else _grad_enabled()):
        grads = _autograd_grad(jac, ins, vs, create_graph=create_graph)
        result = _fill_in_zeros(grads, ins, strict, "double_back")
    return (_tuple_postprocess(_grad_postprocess(outs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_inputs_tuple))


def hvp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), H v) for a scalar func, by the double-backward trick."""
    with set_grad_enabled(True):
        is_inputs_tuple, ins = _as_tuple(inputs, "inputs", "hvp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        vs = _prepare_v(v, ins, is_inputs_tuple, "hvp", create_graph, _V_INPUT)
        outs, is_outputs_tuple, jac = _scalar_function_jacobian(func, ins, "hvp", strict)
        grad_jac = tuple(ops.zeros_like(inp).requires_grad_() for inp in ins)
        double_back = _autograd_grad(jac, ins, grad_jac, create_graph=True)
    with set_grad_enabled(True if create_graph else _grad_enabled()):
        grads = _autograd_grad(double_back, grad_jac, vs, create_graph=create_graph)
        result = _fill_in_zeros(grads, ins, strict, "double_back_trick")
    return (_tuple_postprocess(_grad_postprocess(outs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_inputs_tuple))
