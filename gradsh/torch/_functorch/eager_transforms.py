"""torch.func's derivative transforms (grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd,
hessian) on gradsh's autograd.

PyTorch's functorch lifts tensors to a new "level" per transform; gradsh runs each transform as
ordinary autograd on fresh leaves (or, for inputs that already require grad, views keeping their
history), always with create_graph, so transforms nest (grad(grad(f)), hessian) and compose with
an outer backward. A result is detached when its graph reaches no tensor outside the transform
(then it is an ordinary tensor, as PyTorch's: requires_grad False, grad_fn None).

Forward mode (jvp, jacfwd, hessian's outer jacobian) uses the double-backward trick: the JVP is
the derivative of a VJP in its cotangent. The values are the JVP's, but they are summed in the
backward formulas' order, so they can differ from PyTorch's forward-mode formulas in the last
bits (and in the sign of a zero).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gradsh.torch as torch
from gradsh.engine.node import AccumulateGrad
from gradsh.torch._functorch.pytree import tree_flatten, tree_unflatten

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian"]

Argnums = int | tuple[int, ...]


def _enter(x: Any) -> Any:
    """The tensor a transform differentiates: a view of x keeping x's own history when x
    requires grad (an outer transform or backward), else a fresh leaf."""
    if not isinstance(x, torch.Tensor):
        return x
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_()


def _own_leaves(entered: list[Any], originals: list[Any]) -> set[int]:
    return {id(e) for e, o in zip(entered, originals)
            if isinstance(e, torch.Tensor) and e is not o and e.grad_fn is None}


def _reaches_outside(t: Any, own: set[int]) -> bool:
    """Whether t's graph reaches a leaf that the transform did not make."""
    if not isinstance(t, torch.Tensor) or t.grad_fn is None:
        return isinstance(t, torch.Tensor) and t.requires_grad and id(t) not in own
    seen: set[int] = set()
    stack = [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in own:
                return True
            continue
        stack.extend(edge[0] for edge in node.next_functions)
    return False


def _settle(tree: Any, own: set[int]) -> Any:
    """Detach the results whose graph stays inside the transform."""
    leaves, spec = tree_flatten(tree)
    settled = [leaf.detach() if isinstance(leaf, torch.Tensor) and not _reaches_outside(
        leaf, own) else leaf for leaf in leaves]
    return tree_unflatten(settled, spec)


def _argnums_tuple(argnums: Argnums, count: int, name: str) -> tuple[int, ...]:
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in numbers:
        if not isinstance(n, int):
            raise RuntimeError(f"{name}: argnums must be int or Tuple[int, ...], got: "
                               f"{type(argnums)}")
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    return tuple(n % count for n in numbers)


def _grads(outputs: list[Any], inputs: list[Any], cotangents: list[Any] | None) -> list[Any]:
    """d outputs / d inputs contracted with the cotangents; zeros for unused inputs."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents or [None] * len(outputs))
             if isinstance(o, torch.Tensor) and o.requires_grad]
    if not pairs:
        return [torch.zeros_like(x) for x in inputs]
    found = torch.autograd.grad([o for o, _ in pairs], inputs,
                                [c for _, c in pairs] if cotangents else None,
                                retain_graph=True, create_graph=True, allow_unused=True)
    return [torch.zeros_like(x) if g is None else g for g, x in zip(found, inputs)]


def grad_and_value(func: Callable[..., Any], argnums: Argnums = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """A function returning (gradient of func's scalar output in args[argnums], output)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        numbers = _argnums_tuple(argnums, len(args), "grad_and_value")
        originals = {n: tree_flatten(args[n]) for n in numbers}
        entered = {n: [_enter(x) for x in leaves] for n, (leaves, _) in originals.items()}
        call_args = list(args)
        for n, (_, spec) in originals.items():
            call_args[n] = tree_unflatten(entered[n], spec)
        with torch.enable_grad():
            output = func(*call_args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(output, tuple) and len(output) == 2):
                    raise RuntimeError("grad_and_value(f)(*args): output of function f should "
                                       "be a tuple: (output, aux) if has_aux is True")
                output, aux = output
            if not isinstance(output, torch.Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                    f"got tensor with {output.dim()} dims. Maybe you wanted to use the vjp or "
                    "jacrev APIs instead?")
            flat_inputs = [x for n in numbers for x in entered[n]]
            grads = _grads([output], flat_inputs, None)
        own = _own_leaves(flat_inputs, [x for n in numbers for x in originals[n][0]])
        per_arg, start = [], 0
        for n in numbers:
            count = len(entered[n])
            per_arg.append(tree_unflatten(grads[start:start + count], originals[n][1]))
            start += count
        result = per_arg[0] if isinstance(argnums, int) else tuple(per_arg)
        result, output = _settle(result, own), _settle(output, own)
        if has_aux:
            return result, (output, _settle(aux, own))
        return result, output

    return wrapper


def grad(func: Callable[..., Any], argnums: Argnums = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of func's scalar output with respect to args[argnums] (a pytree of
    tensors: a tensor, a tuple, a dict of parameters); with has_aux, (gradient, aux)."""
    transform = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gradient, value = transform(*args, **kwargs)
        if has_aux:
            return gradient, value[1]
        return gradient

    return wrapper


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) gives one gradient per primal."""
    flat, spec = tree_flatten(primals)
    entered = [_enter(x) for x in flat]
    with torch.enable_grad():
        output = func(*tree_unflatten(entered, spec))
    aux = None
    if has_aux:
        if not (isinstance(output, tuple) and len(output) == 2):
            raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: "
                               "(output, aux) if has_aux is True")
        output, aux = output
    own = _own_leaves(entered, flat)
    flat_out, out_spec = tree_flatten(output)

    def vjp_fn(*cotangents: Any) -> tuple[Any, ...]:
        flat_cot, cot_spec = tree_flatten(cotangents[0] if len(cotangents) == 1 else cotangents)
        if len(flat_cot) != len(flat_out):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function.")
        with torch.enable_grad():
            grads = _grads(flat_out, entered, flat_cot)
        return _settle(tree_unflatten(grads, spec), own)

    result = _settle(tree_unflatten(flat_out, out_spec), own)
    if has_aux:
        return result, vjp_fn, _settle(aux, own)
    return result, vjp_fn


def _check_primals(primals: Any, tangents: Any, name: str) -> None:
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{name}: Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    if not isinstance(tangents, tuple):
        raise RuntimeError(f"{name}: Expected tangents to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")


def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False,
        has_aux: bool = False) -> Any:
    """(func(*primals), the Jacobian-vector product with tangents), by double backward."""
    _check_primals(primals, tangents, "jvp(f, primals, tangents)")
    flat, spec = tree_flatten(primals)
    flat_tangents, _ = tree_flatten(tangents)
    if len(flat_tangents) != len(flat):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                           "the same python structure.")
    entered = [_enter(x) for x in flat]
    with torch.enable_grad():
        output = func(*tree_unflatten(entered, spec))
        aux = None
        if has_aux:
            output, aux = output
        flat_out, out_spec = tree_flatten(output)
        dummies = [torch.zeros_like(o).requires_grad_() for o in flat_out]
        vjps = _grads(flat_out, entered, dummies)
        pairs = [(g, t) for g, t in zip(vjps, flat_tangents) if g.requires_grad]
        if pairs:
            found = torch.autograd.grad([g for g, _ in pairs], dummies, [t for _, t in pairs],
                                        retain_graph=True, create_graph=True, allow_unused=True)
        else:
            found = [None] * len(dummies)
        jvps = [torch.zeros_like(o) if j is None else j for j, o in zip(found, flat_out)]
    own = _own_leaves(entered, flat) | {id(d) for d in dummies}
    jvps = _outer_history(_settle(jvps, own), flat)
    result = (_settle(tree_unflatten(flat_out, out_spec), own), tree_unflatten(jvps, out_spec))
    return (*result, _settle(aux, own)) if has_aux else result


def _outer_history(jvps: list[Any], primals: list[Any]) -> list[Any]:
    """PyTorch's forward formulas read every primal, so with grad mode on a tangent has
    history whenever a primal requires grad, even where its contribution is zero (a zero
    tangent times a primal): such tangents are tied to that primal (forward_ad.ZeroTermSum)."""
    outer = next((p for p in primals if isinstance(p, torch.Tensor) and p.requires_grad), None)
    if outer is None or not torch.is_grad_enabled():
        return jvps
    from gradsh.torch.autograd.forward_ad import ZeroTermSum

    return [ZeroTermSum.apply(j, outer) if isinstance(j, torch.Tensor) and not j.requires_grad
            and j.dtype.is_floating_point else j for j in jvps]


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the JVP at primals."""
    output = func(*primals)

    def jvp_fn(*tangents: Any) -> Any:
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


def _jacobian(func: Callable[..., Any], argnums: Argnums, has_aux: bool, name: str,
              forward: bool) -> Callable[..., Any]:
    """jacrev (one VJP per output element) and jacfwd (one JVP per input element): each
    Jacobian block has shape output.shape + input.shape."""

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        numbers = _argnums_tuple(argnums, len(args), name)
        trees = {n: tree_flatten(args[n]) for n in numbers}
        entered = {n: [_enter(x) for x in trees[n][0]] for n in numbers}
        call_args = list(args)
        for n in numbers:
            call_args[n] = tree_unflatten(entered[n], trees[n][1])
        flat_in = [x for n in numbers for x in entered[n]]
        own = _own_leaves(flat_in, [x for n in numbers for x in trees[n][0]])
        with torch.enable_grad():
            output = func(*call_args)
            aux = None
            if has_aux:
                output, aux = output
            flat_out, out_spec = tree_flatten(output)
            blocks = (_forward_blocks if forward else _reverse_blocks)(flat_out, flat_in, own)
        per_output = []
        for row in blocks:
            per_arg, start = [], 0
            for n in numbers:
                count = len(entered[n])
                per_arg.append(tree_unflatten(row[start:start + count], trees[n][1]))
                start += count
            per_output.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
        result = _settle(tree_unflatten(per_output, out_spec), own)
        return (result, _settle(aux, own)) if has_aux else result

    return wrapper


def _basis(t: Any) -> list[Any]:
    eye = torch.eye(t.numel(), dtype=t.dtype, device=t.device)
    return [eye[k].reshape(t.shape) for k in range(t.numel())]


def _reverse_blocks(outputs: list[Any], inputs: list[Any], own: set[int]) -> list[list[Any]]:
    blocks = []
    for o in outputs:
        rows = [_grads([o], inputs, [e]) for e in _basis(o)]
        blocks.append([torch.stack([r[i] for r in rows]).reshape(o.shape + x.shape)
                       if rows else torch.zeros(o.shape + x.shape, dtype=x.dtype)
                       for i, x in enumerate(inputs)])
    return blocks


def _forward_blocks(outputs: list[Any], inputs: list[Any], own: set[int]) -> list[list[Any]]:
    dummies = [torch.zeros_like(o).requires_grad_() for o in outputs]
    own.update(id(d) for d in dummies)  # the double-backward trick's cotangents
    vjps = _grads(outputs, inputs, dummies)
    blocks: list[list[Any]] = [[] for _ in outputs]
    for i, x in enumerate(inputs):
        columns = []
        for e in _basis(x):
            if vjps[i].requires_grad:
                found = torch.autograd.grad(vjps[i], dummies, e, retain_graph=True,
                                            create_graph=True, allow_unused=True)
            else:
                found = [None] * len(dummies)
            columns.append([torch.zeros_like(o) if j is None else j
                            for j, o in zip(found, outputs)])
        for k, o in enumerate(outputs):
            stacked = torch.stack([c[k] for c in columns], -1) if columns else torch.zeros(
                o.shape + (0,), dtype=o.dtype)
            blocks[k].append(stacked.reshape(o.shape + x.shape))
    return blocks


def jacrev(func: Callable[..., Any], argnums: Argnums = 0, *, has_aux: bool = False,
           chunk_size: int | None = None, _preallocate_and_copy: bool = False
           ) -> Callable[..., Any]:
    """The Jacobian of func in args[argnums] by reverse mode (one VJP per output element)."""
    return _jacobian(func, argnums, has_aux, "jacrev", forward=False)


def jacfwd(func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable[..., Any]:
    """The Jacobian of func in args[argnums] by forward mode (one JVP per input element)."""
    return _jacobian(func, argnums, has_aux, "jacfwd", forward=True)


def hessian(func: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """jacfwd(jacrev(func)), as PyTorch composes it."""
    return jacfwd(jacrev(func, argnums), argnums)
