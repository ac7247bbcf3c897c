"""Module hook plumbing: the wiring of full backward hooks (PyTorch's BackwardHook); the
handle a register_*_hook call returns is torch.utils.hooks.RemovableHandle, as in PyTorch."""

from __future__ import annotations

from typing import Any

from gradsh.engine import exceptions
from gradsh.engine.functions.autograd import BackwardHookFunctionBackward
from gradsh.engine.tensor import Tensor, is_grad_enabled


_NO_INPUT_GRAD_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHook:
    """One module call's full backward hooks (PyTorch's torch/utils/hooks.py BackwardHook). The
    module's tensor inputs pass through one identity node, its tensor outputs through another
    (BackwardHookFunctionBackward). The outputs' node records grad_output and runs the backward
    pre-hooks, once for all outputs; the inputs' node calls the hooks with (module,
    grad_input, grad_output)."""

    def __init__(self, module: Any, user_hooks: list[Any], user_pre_hooks: list[Any]) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_outputs = 0
        self.output_index: list[int] | None = None
        self.n_inputs = 0
        self.input_index: list[int] | None = None

    @staticmethod
    def _through_node(args: tuple[Any, ...], callback: Any, materialize: bool
                      ) -> tuple[tuple[Any, ...], list[int] | None]:
        """PyTorch's _apply_on_tensors: the tensors among `args` through one identity node
        whose backward calls `callback`; the tensors' positions (None, and `args` as they
        were, when no tensor requires grad or grad mode is off)."""
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (is_grad_enabled() and any(args[i].requires_grad for i in index)):
            return args, None
        outputs = BackwardHookFunctionBackward.apply_hooked([args[i] for i in index], callback,
                                                            materialize)
        wrapped = list(args)
        for i, t in zip(index, outputs, strict=True):
            wrapped[i] = t
        return tuple(wrapped), index

    @staticmethod
    def _pack(index: list[int], grads: tuple[Any, ...], size: int) -> tuple[Any, ...]:
        packed: list[Any] = [None] * size
        for i, g in zip(index, grads, strict=True):
            packed[i] = g
        return tuple(packed)

    def setup_input_hook(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """The tensor arguments pass through one node together, whose backward calls the
        hooks once with every input's gradient."""
        self.n_inputs = len(args)

        def on_grad_inputs(grads: tuple[Tensor, ...]) -> tuple[Any, ...]:
            if self.grad_outputs is None:
                return grads  # the hooks already ran for this call
            assert self.input_index is not None
            result = self._pack(self.input_index, grads, self.n_inputs)
            for hook in self.user_hooks:
                out = hook(self.module, result, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(result):
                    raise RuntimeError("Backward hook returned an invalid number of "
                                       f"grad_input, got {len(out)}, but expected "
                                       f"{len(result)}")
                result = tuple(out)
            self.grad_outputs = None
            return tuple(result[i] for i in self.input_index)

        wrapped, self.input_index = self._through_node(args, on_grad_inputs, True)
        return wrapped

    def setup_output_hook(self, result: Any) -> Any:
        """The tensor outputs pass through one node together, whose backward records
        grad_output (None for an output nothing reached) and runs the pre-hooks, once."""
        is_tuple = isinstance(result, tuple)
        outputs = result if is_tuple else (result,)

        def on_grad_outputs(grads: tuple[Tensor | None, ...]) -> tuple[Any, ...]:
            assert self.output_index is not None
            self.grad_outputs = self._pack(self.output_index, grads, self.n_outputs)
            for pre_hook in self.user_pre_hooks:
                out = pre_hook(self.module, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(self.grad_outputs):
                    raise RuntimeError("Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(out)}, but expected "
                                       f"{len(self.grad_outputs)}")
                self.grad_outputs = tuple(out)
            local = self.grad_outputs
            if self.input_index is None:
                # an engine warning: attributed to the user's backward() call
                exceptions.warn(_NO_INPUT_GRAD_WARNING)
                nothing = (None,) * self.n_inputs
                for hook in self.user_hooks:
                    res = hook(self.module, nothing, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple)
                                                and all(r is None for r in res)):
                        raise RuntimeError("Backward hook for Modules where no input "
                                           "requires gradient should always return None "
                                           "or None for all gradients.")
                self.grad_outputs = None
            return tuple(local[i] for i in self.output_index)

        self.n_outputs = len(outputs)
        wrapped, self.output_index = self._through_node(outputs, on_grad_outputs, False)
        return wrapped if is_tuple else wrapped[0]


# The deprecated register_backward_hook: each hook becomes a hook of the output's grad_fn,
# called with that node's gradients (module, grad_inputs, grad_outputs), as PyTorch wires it;
# when that node is not the whole forward, PyTorch says so with one of these FutureWarnings.
_NON_FULL = "Please use register_full_backward_hook to get the documented behavior."
_NOT_TENSORS = ("Using non-full backward hooks on a Module that does not {} a single Tensor or "
                "a tuple of Tensors is deprecated and will be removed in future versions. This "
                "hook will be missing some of the {}. " + _NON_FULL)
_NESTED = ("Using a non-full backward hook when outputs are nested in python data structure is "
           "deprecated and will be removed in future versions. This hook will be missing some "
           "grad_output.")
_MANY_NODES = ("Using a non-full backward hook when outputs are generated by different autograd "
               "Nodes is deprecated and will be removed in future versions. This hook will be "
               "missing some grad_output. " + _NON_FULL)
_MULTIPLE = ("Using a non-full backward hook when the forward contains multiple autograd Nodes "
             "is deprecated and will be removed in future versions. This hook will be missing "
             "some grad_input. " + _NON_FULL)


def _tensors(value: Any) -> tuple[Tensor, ...] | None:
    if isinstance(value, Tensor):
        return (value,)
    if isinstance(value, tuple) and all(isinstance(v, Tensor) for v in value):
        return value
    return None


def setup_non_full_hooks(module: Any, hooks: list[Any], args: tuple[Any, ...],
                         result: Any) -> str | None:
    """Put `hooks` on the grad_fn of the first tensor in `result`; the FutureWarning PyTorch's
    _maybe_warn_non_full_backward_hook gives for this call, if any."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) \
            else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return None
    for hook in hooks:
        grad_fn.register_hook(lambda grad_in, grad_out, hook=hook: hook(module, grad_in, grad_out))
    outputs, inputs = _tensors(result), _tensors(args[0] if len(args) == 1 else args)
    if outputs is None:
        return _NOT_TENSORS.format("return", "grad_output")
    if inputs is None:
        return _NOT_TENSORS.format("take as input", "grad_input")
    out_nodes = {r.grad_fn for r in outputs if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and grad_fn not in out_nodes):
        return _NESTED
    if len(out_nodes) > 1:
        return _MANY_NODES
    in_nodes = {i.grad_fn for i in inputs if i.grad_fn is not None}
    if in_nodes != {edge[0] for edge in grad_fn.next_functions}:
        return _MULTIPLE
    return None
