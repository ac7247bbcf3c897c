"""torch.autograd.graph: saved_tensors_hooks, save_on_cpu and disable_saved_tensors_hooks
(what is kept for backward, and how it comes back), as in torch/autograd/graph.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.ops.autograd import GradientEdge
from gradsh.engine.tensor import Node, SavedHooks, Tensor, enable_grad
from gradsh.torch.autograd._multi_hook import register_multi_grad_hook
from gradsh.torch.autograd.function import BackwardCFunction

__all__ = ["GradientEdge", "Node", "disable_saved_tensors_hooks", "get_gradient_edge",
           "register_multi_grad_hook", "save_on_cpu", "saved_tensors_hooks"]


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge where `tensor`'s gradient is computed: its grad_fn (its AccumulateGrad node for
    a leaf) and its output number; for a custom Function's output, a view node holding the
    graph, PyTorch's ownership token."""
    if not tensor.requires_grad:
        raise TorchRuntimeError("It is not possible to get the gradient edge for a Tensor that "
                                "does not require gradients")
    node, output_nr = tensor._gradient_edge()
    token = None
    if isinstance(node, BackwardCFunction):
        with enable_grad():
            token = tensor.view_as(tensor).grad_fn
    return GradientEdge(node, output_nr, ownership_token=token)


class saved_tensors_hooks:  # noqa: N801  (PyTorch's name)
    """Inside, every tensor saved for backward is stored as pack_hook(tensor), and backward
    reads it as unpack_hook(packed) (once per node it runs)."""

    def __init__(self, pack_hook: Callable[[Tensor], Any],
                 unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _Disabled.message is not None:
            raise TorchRuntimeError(_Disabled.message)
        SavedHooks.stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args: Any) -> None:
        SavedHooks.stack.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Saved tensors kept on the CPU (copied there) and moved back to their device for
    backward."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Tensor) -> tuple[str, Tensor]:
            return (tensor.device, tensor.detach().to("cpu", copy=True))

        def unpack_from_cpu(packed: tuple[str, Tensor]) -> Tensor:
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class _Disabled:
    message: str | None = None


class disable_saved_tensors_hooks:  # noqa: N801
    """saved_tensors_hooks raise `error_message` while this is active."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        self.prev = _Disabled.message
        _Disabled.message = self.error_message

    def __exit__(self, *args: Any) -> None:
        _Disabled.message = self.prev
