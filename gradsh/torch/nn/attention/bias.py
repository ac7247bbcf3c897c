"""torch.nn.attention.bias: causal_upper_left / causal_lower_right, CausalBias objects that
F.scaled_dot_product_attention takes as attn_mask (PyTorch's tensor subclass whose
__torch_function__ reroutes the call: gradsh's attention op asks the mask's _sdpa_dispatch)."""

from __future__ import annotations

import warnings
from enum import IntEnum, auto
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchValueError
from gradsh.engine.ops import ones, scaled_dot_product_attention, tril
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.attention.bias")

__all__ = ["CausalBias", "CausalVariant", "causal_lower_right", "causal_upper_left"]


class CausalVariant(IntEnum):
    """UPPER_LEFT: tril of ones (is_causal=True); LOWER_RIGHT: the ones aligned to the lower
    right corner (diagonal seq_len_kv - seq_len_q)."""

    UPPER_LEFT = auto()
    LOWER_RIGHT = auto()


class CausalBias(Tensor):
    """A causal attention bias of (seq_len_q, seq_len_kv); prints as its materialised mask."""

    def __init__(self, variant: CausalVariant, seq_len_q: int, seq_len_kv: int) -> None:
        if not isinstance(variant, CausalVariant):
            raise AssertionError(
                f"variant must be a CausalVariant, got {type(variant).__name__}")
        super().__init__()
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn("Lower right causal bias will produce NaNs in the output when "
                          "seq_len_q > seq_len_kv!", stacklevel=2)

    def _materialize(self, device: Any = None) -> Tensor:
        mask = ones((self.seq_len_q, self.seq_len_kv), dtype=dtypes.bool_)
        if self.variant == CausalVariant.UPPER_LEFT:
            return tril(mask)
        return tril(mask, diagonal=self.seq_len_kv - self.seq_len_q)

    @staticmethod
    def _sdpa_dispatch(query: Tensor, key: Tensor, value: Tensor, attn_mask: CausalBias,
                       dropout_p: float = 0.0, is_causal: bool = False,
                       scale: float | None = None, enable_gqa: bool = False) -> Tensor:
        """CausalBias._dispatch on the CPU: is_causal=True for the upper-left variant (or a
        square one), else the materialised lower-right mask (no fused kernel takes it)."""
        if is_causal:
            raise TorchValueError("CausalBias should not be used with causal=True")
        if attn_mask.seq_len_q == attn_mask.seq_len_kv \
                or attn_mask.variant == CausalVariant.UPPER_LEFT:
            return scaled_dot_product_attention(query, key, value, None, dropout_p, True,
                                                scale, enable_gqa)
        if attn_mask.variant == CausalVariant.LOWER_RIGHT:
            return scaled_dot_product_attention(query, key, value, attn_mask._materialize(),
                                                dropout_p, False, scale, enable_gqa)
        raise TorchValueError("CausalBias.variant must be a CausalVariant type, but found: "
                         f"{attn_mask.variant}")

    def __repr__(self) -> str:
        return self._materialize().__repr__()


CausalBias.__module__ = "torch.nn.attention.bias"


def causal_upper_left(*size: int) -> CausalBias:
    """The upper-left causal bias of (seq_len_q, seq_len_kv): is_causal=True's mask."""
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.UPPER_LEFT, seq_len_q, seq_len_kv)


def causal_lower_right(*size: int) -> CausalBias:
    """The lower-right causal bias of (seq_len_q, seq_len_kv)."""
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.LOWER_RIGHT, seq_len_q, seq_len_kv)
