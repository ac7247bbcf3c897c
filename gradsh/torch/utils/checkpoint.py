"""torch.utils.checkpoint: activation checkpointing. The reentrant variant is a custom autograd
Function (CheckpointFunctionBackward) that runs the function without a graph and runs it again,
with the forward's random state, when the gradient is needed; the non-reentrant variant gives
the same values and gradients as calling the function, which is what gradsh does for it."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from gradsh.engine.tensor import Tensor, enable_grad, no_grad
from gradsh.pytrace import warn_from_engine
from gradsh.torch._random import get_rng_state, set_rng_state
from gradsh.torch.autograd.function import Function
from gradsh.torch.random import fork_rng

__all__ = ["checkpoint", "checkpoint_sequential"]

_EXPLICIT = ("the use_reentrant parameter should be passed explicitly. {when} calling checkpoint "
             "without use_reentrant will raise an exception. use_reentrant=False is recommended, "
             "but if you need to preserve the current default behavior, you can pass "
             "use_reentrant=True. Refer to docs for more details on the differences between the "
             "two variants.")


def _detached(inputs: Sequence[Any]) -> tuple[Any, ...]:
    """Each tensor input detached, keeping its requires_grad (the graph root of the rerun)."""
    out = []
    for value in inputs:
        if isinstance(value, Tensor):
            leaf = value.detach()
            leaf.requires_grad = value.requires_grad
            out.append(leaf)
        else:
            out.append(value)
    return tuple(out)


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx: Any, run_function: Callable[..., Any], preserve_rng_state: bool,
                *args: Any) -> Any:
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            # attributed to the user's line that called checkpoint, past gradsh's frames
            warn_from_engine("UserWarning",
                             "None of the inputs have requires_grad=True. Gradients will be None")
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = get_rng_state()
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                set_rng_state(ctx.fwd_cpu_state)
            detached = _detached(inputs)
            with enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        from gradsh.torch.autograd import backward

        backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(d.grad if isinstance(d, Tensor) else None for d in detached)


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable[..., Any] | None = None,
               determinism_check: str = "default", debug: bool = False,
               **kwargs: Any) -> Any:
    """function(*args) without keeping its activations for the backward pass."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: " + _EXPLICIT.format(
            when="Starting in PyTorch 2.9,"), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not None or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    return function(*args, **kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Any,  # noqa: A002
                          use_reentrant: bool | None = None, **kwargs: Any) -> Any:
    """Run the modules in `segments` chunks, checkpointing every chunk but the last."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter "
                      "should be passed explicitly. In version 2.9 we will raise an exception "
                      "if use_reentrant is not passed. use_reentrant=False is recommended, but "
                      "if you need to preserve the current default behavior, you can pass "
                      "use_reentrant=True. Refer to docs for more details on the differences "
                      "between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    from gradsh.torch.nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start: int, end: int) -> Callable[[Any], Any]:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
