"""torch.func.functional_call and stack_module_state: a module called with other tensors in
place of its parameters and buffers, and the parameters of several models stacked."""

from __future__ import annotations

from typing import Any

import gradsh.torch as torch

__all__ = ["functional_call", "stack_module_state"]


def _owner(module: Any, name: str) -> tuple[Any, str]:
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, leaf


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None,
                    kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """module(*args, **kwargs) with the named tensors standing in for its parameters and
    buffers for the duration of the call (the module is left as it was)."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        replacements = dict(dicts)
    else:
        replacements = {}
        for d in dicts:
            for key in d:
                if key in replacements:
                    raise ValueError(f"{key} appeared in multiple dictionaries; behavior of "
                                     "functional call is ambiguous")
            replacements.update(d)
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {
            n for n, _ in module.named_buffers()}
        missing = sorted(expected - set(replacements))
        unexpected = sorted(set(replacements) - expected)
        if missing or unexpected:
            raise RuntimeError("Error(s) in reparametrizing for " + type(module).__name__
                               + ":\n\t" + _describe(missing, unexpected))
    saved = []
    try:
        for name, tensor in replacements.items():
            owner, leaf = _owner(module, name)
            store = owner._parameters if leaf in owner._parameters else owner._buffers
            saved.append((store, leaf, store.get(leaf), leaf in store))
            store[leaf] = tensor
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for store, leaf, old, existed in reversed(saved):
            if existed:
                store[leaf] = old
            else:
                del store[leaf]


def _describe(missing: list[str], unexpected: list[str]) -> str:
    parts = []
    if unexpected:
        parts.append("Unexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
    if missing:
        parts.append("Missing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
    return "\n\t".join(parts)


def _stacked_leaf(tensors: tuple[Any, ...], name: str) -> Any:
    all_requires_grad = all(t.requires_grad for t in tensors)
    none_requires_grad = all(not t.requires_grad for t in tensors)
    if not all_requires_grad and not none_requires_grad:
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = torch.stack(tensors)
    if all_requires_grad:
        result = result.detach().requires_grad_()
    return result


def stack_module_state(models: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parameters and buffers of same-shaped models, each stacked along a new first
    dimension (fresh leaves where the models' parameters require grad)."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/"
                           "eval mode.")
    model0_typ = type(models[0])
    if not all(type(m) is model0_typ for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(model.named_parameters()) for model in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(model.named_buffers()) for model in models]
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers
