"""torch.nn.attention against PyTorch: sdpa_kernel's backend switches (which node
F.scaled_dot_product_attention records, its values, the errors when no enabled backend takes
the inputs, torch.backends.cuda's *_sdp_enabled read-back) and the causal biases of
torch.nn.attention.bias (their masks, reprs and the attention they give)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _qkv(lib: Any, lq: int = 4, lk: int = 4) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(0)
    return tuple(lib.tensor(rng.standard_normal((2, 3, n, 8)).astype(np.float32),
                            requires_grad=True) for n in (lq, lk, lk))


CASES = ["MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION",
         "MATH+FLASH_ATTENTION", "FLASH_ATTENTION:dropout", "MATH:causal"]


def _run(lib: Any, case: str) -> tuple[Any, ...]:
    from importlib import import_module
    attention = import_module(f"{lib.__name__}.nn.attention")
    names, _, option = case.partition(":")
    backends = [getattr(attention.SDPBackend, n) for n in names.split("+")]
    q, k, v = _qkv(lib)
    lib.manual_seed(0)
    with attention.sdpa_kernel(backends if len(backends) > 1 else backends[0]):
        flags = (lib.backends.cuda.flash_sdp_enabled(), lib.backends.cuda.math_sdp_enabled(),
                 lib.backends.cuda.mem_efficient_sdp_enabled())
        try:
            out = lib.nn.functional.scaled_dot_product_attention(
                q, k, v, dropout_p=0.5 if option == "dropout" else 0.0,
                is_causal=option == "causal")
        except RuntimeError as error:
            return flags, str(error)
    out.sum().backward()
    return flags, type(out.grad_fn).__name__, out.detach().numpy().round(5).tolist(), \
        q.grad.numpy().round(5).tolist()


@pytest.mark.parametrize("case", CASES)
def test_sdpa_kernel_backends(torch: Any, case: str) -> None:
    assert _run(gtorch, case) == _run(torch, case)
    assert gtorch.backends.cuda.flash_sdp_enabled() and gtorch.backends.cuda.math_sdp_enabled()


def test_sdpa_kernel_refuses_other_arguments(torch: Any) -> None:
    def refusal(lib: Any) -> str:
        from importlib import import_module
        try:
            with import_module(f"{lib.__name__}.nn.attention").sdpa_kernel("math"):
                pass
        except AssertionError as error:
            return str(error)
        return ""
    assert refusal(gtorch) == refusal(torch) != ""


@pytest.mark.parametrize("variant", ["causal_upper_left", "causal_lower_right"])
@pytest.mark.parametrize("sizes", [(2, 5), (4, 4)])
def test_causal_bias(torch: Any, variant: str, sizes: tuple[int, int]) -> None:
    def run(lib: Any) -> tuple[Any, ...]:
        from importlib import import_module
        bias = getattr(import_module(f"{lib.__name__}.nn.attention.bias"), variant)(*sizes)
        q, k, v = _qkv(lib, *sizes)
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v, bias)
        out.sum().backward()
        try:
            lib.nn.functional.scaled_dot_product_attention(q, k, v, bias, is_causal=True)
        except ValueError as error:
            refused = str(error)
        return (repr(bias), type(bias).__name__, isinstance(bias, lib.Tensor), int(bias.variant),
                type(out.grad_fn).__name__, out.detach().numpy().round(5).tolist(),
                q.grad.numpy().round(5).tolist(), refused)
    assert run(gtorch) == run(torch)
