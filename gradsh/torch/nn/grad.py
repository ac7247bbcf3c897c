"""torch.nn.grad: the gradients of conv1d/2d/3d with respect to their input or weight, given
the output's gradient (PyTorch calls convolution_backward; gradsh differentiates the same
convolution, so the numbers are those of conv's own backward)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor, is_grad_enabled

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
           "conv3d_weight"]


def _gradient(dims: int, input: Tensor, weight: Tensor, grad_output: Tensor,  # noqa: A002
              wrt_input: bool, stride: Any, padding: Any, dilation: Any, groups: int) -> Tensor:
    """d(conv(input, weight)) / d(input or weight) applied to grad_output; a graph through it
    when one of the given tensors requires grad (PyTorch's is ConvolutionBackwardBackward0)."""
    from gradsh.torch import autograd, enable_grad
    from gradsh.torch.nn import functional as F

    given = [grad_output, weight if wrt_input else input]
    create_graph = is_grad_enabled() and any(t.requires_grad for t in given)
    wrt = (input if wrt_input else weight).detach().requires_grad_()
    conv = getattr(F, f"conv{dims}d")
    x, w = (wrt, weight) if wrt_input else (input, wrt)
    with enable_grad():
        out = conv(x, w, None, stride, padding, dilation, groups)
    return autograd.grad(out, wrt, grad_output, create_graph=create_graph)[0]  # type: ignore


def _input_fn(dims: int) -> Any:
    def conv_input(input_size: Any, weight: Tensor, grad_output: Tensor, stride: Any = 1,
                   padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
        placeholder = grad_output.new_zeros(tuple(input_size))
        return _gradient(dims, placeholder, weight, grad_output, True, stride, padding,
                         dilation, groups)

    conv_input.__name__ = f"conv{dims}d_input"
    return conv_input


def _weight_fn(dims: int) -> Any:
    def conv_weight(input: Tensor, weight_size: Any, grad_output: Tensor,  # noqa: A002
                    stride: Any = 1, padding: Any = 0, dilation: Any = 1,
                    groups: int = 1) -> Tensor:
        placeholder = grad_output.new_zeros(tuple(weight_size))
        return _gradient(dims, input, placeholder, grad_output, False, stride, padding,
                         dilation, groups)

    conv_weight.__name__ = f"conv{dims}d_weight"
    return conv_weight


conv1d_input, conv2d_input, conv3d_input = (_input_fn(d) for d in (1, 2, 3))
conv1d_weight, conv2d_weight, conv3d_weight = (_weight_fn(d) for d in (1, 2, 3))
