"""torch.func's derivative transforms (grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd,
hessian) on gradsh's autograd.

PyTorch's functorch lifts tensors to a new "level" per transform; gradsh runs each transform as
ordinary autograd on fresh leaves (or, for inputs that already require grad, views keeping their
history), always with create_graph, so transforms nest (grad(grad(f)), hessian) and compose with
an outer backward. A result is detached when its graph reaches no tensor outside the transform
(then it is an ordinary tensor, as PyTorch's: requires_grad False, grad_fn None).

Forward mode (jvp, jacfwd) runs under forward-mode AD (torch.autograd.forward_ad: dual tensors,
one pass per tangent), so a custom autograd.Function's jvp staticmethod is called, as PyTorch's
is. Where a dual level is open already (gradsh has one level) and for hessian's outer jacobian
over a reverse-mode one, it uses the double-backward trick: the JVP is the derivative of a VJP
in its cotangent. The values are the JVP's, but they are summed in the backward formulas'
order, so they can differ from PyTorch's forward-mode formulas in the last bits (and in the sign
of a zero).
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


class _Nested(BaseException):
    """A transform entered while forward-mode AD runs jvp or jacfwd: gradsh has one dual level,
    and its tangents carry no reverse-mode graph, so the outer transform is run again by
    double backward (a BaseException, which a user's `except Exception` lets through)."""


_RUNNING = {"dual": 0, "any": 0}  # forward-AD passes, and transforms of any kind, running


def _transform(function: Callable[..., Any]) -> Callable[..., Any]:
    """A transform's call: refused inside a forward-AD pass (_Nested), else counted."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _RUNNING["dual"]:
            raise _Nested
        _RUNNING["any"] += 1
        try:
            return function(*args, **kwargs)
        finally:
            _RUNNING["any"] -= 1

    return run


def _forward_mode(attempt: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, attempt()) where forward-mode AD can run the outermost jvp or jacfwd and no
    transform ran inside it; (False, None) where double backward must."""
    from gradsh.engine import forward_grad

    if _RUNNING["dual"]:
        raise _Nested
    if _RUNNING["any"] or forward_grad.state.level is not None:
        return False, None
    try:
        return True, attempt()
    except _Nested:
        return False, None


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

    return _transform(wrapper)


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


@_transform
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


def _dual_pass(func: Callable[..., Any], args: list[Any], tangents: dict[int, Any],
               has_aux: bool) -> tuple[list[Any], Any, list[Any], Any]:
    """func(*args) under forward-mode AD, args[i] given tangents[i]: (its flat outputs, their
    structure, their tangents (zeros where none), aux)."""
    from gradsh.torch.autograd import forward_ad

    _RUNNING["dual"] += 1
    try:
        with forward_ad.dual_level():
            return _dual_call(func, args, tangents, has_aux, forward_ad)
    finally:
        _RUNNING["dual"] -= 1


def _dual_call(func: Callable[..., Any], args: list[Any], tangents: dict[int, Any],
               has_aux: bool, forward_ad: Any) -> tuple[list[Any], Any, list[Any], Any]:
    """_dual_pass's call, inside the level."""
    duals = [forward_ad.make_dual(a, tangents[i]) if i in tangents else a
             for i, a in enumerate(args)]
    output = func(*duals)
    aux = None
    if has_aux:
        output, aux = output
    flat_out, out_spec = tree_flatten(output)
    unpacked = [forward_ad.unpack_dual(o) if isinstance(o, torch.Tensor) else (o, None)
                for o in flat_out]
    primals = [p for p, _ in unpacked]
    jvps = [torch.zeros_like(p) if t is None and isinstance(p, torch.Tensor) else t
            for p, t in unpacked]
    return primals, out_spec, jvps, aux


def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False,
        has_aux: bool = False) -> Any:
    """(func(*primals), the Jacobian-vector product with tangents): forward-mode AD (a custom
    Function's jvp called), or double backward where transforms nest (_forward_mode)."""
    _check_primals(primals, tangents, "jvp(f, primals, tangents)")
    flat, spec = tree_flatten(primals)
    flat_tangents, _ = tree_flatten(tangents)
    if len(flat_tangents) != len(flat):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                           "the same python structure.")
    done, passed = _forward_mode(lambda: _dual_pass(
        lambda *a: func(*tree_unflatten(list(a), spec)), flat, dict(enumerate(flat_tangents)),
        has_aux))
    if done:
        outputs, out_spec, jvps, aux = passed
        result = (tree_unflatten(outputs, out_spec), tree_unflatten(jvps, out_spec))
        return (*result, aux) if has_aux else result
    return _jvp_by_double_backward(func, flat, spec, flat_tangents, has_aux)


@_transform
def _jvp_by_double_backward(func: Callable[..., Any], flat: list[Any], spec: Any,
                            flat_tangents: list[Any], has_aux: bool) -> Any:
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

    return _transform(wrapper)


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
    """The Jacobian of func in args[argnums] by forward mode (one JVP per input element, under
    forward-mode AD where no dual level is open: a custom Function's jvp is called)."""
    by_double_backward = _jacobian(func, argnums, has_aux, "jacfwd", forward=True)

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        done, result = _forward_mode(lambda: _dual_jacobian(func, argnums, has_aux, args))
        return result if done else by_double_backward(*args)

    return wrapper


def _dual_jacobian(func: Callable[..., Any], argnums: Argnums, has_aux: bool,
                   args: tuple[Any, ...]) -> Any:
    """jacfwd by forward-mode AD: func run once per element of the differentiated inputs, with
    that element's basis tangent; each block output.shape + input.shape."""
    numbers = _argnums_tuple(argnums, len(args), "jacfwd")
    trees = {n: tree_flatten(args[n]) for n in numbers}
    slots = [(n, k) for n in numbers for k in range(len(trees[n][0]))]
    flat_args: list[Any] = []
    where: dict[tuple[int, int], int] = {}
    call = list(args)
    for n in range(len(args)):
        if n in trees:
            for k, leaf in enumerate(trees[n][0]):
                where[n, k] = len(flat_args)
                flat_args.append(leaf)
        else:
            flat_args.append(args[n])

    def run(*flat: Any) -> Any:
        for n in numbers:
            call[n] = tree_unflatten([flat[where[n, k]] for k in range(len(trees[n][0]))],
                                     trees[n][1])
        return func(*[call[n] if n in trees else flat[_plain_index(where, n, trees)]
                      for n in range(len(args))])

    outputs, out_spec, aux = None, None, None
    columns: dict[tuple[int, int], list[list[Any]]] = {}
    for slot in slots:
        x = flat_args[where[slot]]
        columns[slot] = []
        for e in _basis(x):
            outputs, out_spec, jvps, aux = _dual_pass(run, flat_args, {where[slot]: e},
                                                       has_aux)
            columns[slot].append(jvps)
    if outputs is None:  # (no element to differentiate: call once for the output's shape)
        outputs, out_spec, _, aux = _dual_pass(run, flat_args, {}, has_aux)
    per_output = []
    for k, o in enumerate(outputs):
        per_arg, start = [], 0
        for n in numbers:
            blocks = []
            for j in range(len(trees[n][0])):
                x = flat_args[where[n, j]]
                cols = [c[k] for c in columns[n, j]]
                stacked = torch.stack(cols, -1) if cols else torch.zeros(
                    o.shape + (0,), dtype=o.dtype)
                blocks.append(stacked.reshape(o.shape + x.shape))
            per_arg.append(tree_unflatten(blocks, trees[n][1]))
            start += len(trees[n][0])
        per_output.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
    result = tree_unflatten(per_output, out_spec)
    return (result, aux) if has_aux else result


def _plain_index(where: dict[tuple[int, int], int], n: int, trees: dict[int, Any]) -> int:
    """The place in the flat arguments of args[n], an argument not differentiated."""
    return n + sum(len(trees[m][0]) - 1 for m in trees if m < n)


def hessian(func: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """jacfwd(jacrev(func)), as PyTorch composes it (the outer jacobian by double backward)."""
    return _jacobian(jacrev(func, argnums), argnums, False, "jacfwd", forward=True)
