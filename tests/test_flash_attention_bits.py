"""scaled_dot_product_attention's CPU flash kernel to the bit (vecmath/flash_attention.py):
outputs and gradients of F.scaled_dot_product_attention (masks, causal,
scale, online rescaling past 512 keys, larger query blocks), nn.MultiheadAttention without
weights and a TransformerDecoderLayer, against PyTorch at one and two threads, and exp_u20
against its definition."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import blas
from gradsh.engine.vecmath import flash_attention as flash

pytestmark = pytest.mark.skipif(not blas.available(), reason="MKL's sgemm is not loaded")

F32 = np.float32

CASES = {
    # name: (query shape, key/value shape, mask kind, is_causal, scale)
    "plain": ((2, 2, 6, 8), (2, 2, 6, 8), None, False, None),
    "cross, scale": ((1, 2, 6, 8), (1, 2, 9, 8), None, False, 0.3),
    "float mask": ((1, 2, 6, 8), (1, 2, 9, 8), "float", False, None),
    "float mask, vectors and tail": ((1, 2, 6, 8), (1, 2, 20, 8), "float", False, None),
    "bool mask": ((1, 2, 6, 8), (1, 2, 20, 8), "bool", False, None),
    "4-d bool mask": ((1, 2, 6, 8), (1, 2, 20, 8), "bool4", False, None),
    "causal": ((1, 2, 40, 8), (1, 2, 40, 8), None, True, None),
    "64-row query blocks": ((1, 1, 200, 8), (1, 1, 30, 8), None, False, None),
    "online rescale past 512 keys": ((1, 1, 4, 8), (1, 1, 600, 8), None, False, None),
    "causal past 512 keys": ((1, 1, 600, 8), (1, 1, 600, 8), None, True, None),
    "heads of 32": ((1, 2, 33, 32), (1, 2, 33, 32), None, False, None),
}


def _inputs(case: str) -> tuple[np.ndarray, ...]:
    q_shape, kv_shape, mask_kind, _, _ = CASES[case]
    rng = np.random.default_rng(sorted(CASES).index(case))
    q, k, v = (rng.standard_normal(s).astype(F32) for s in (q_shape, kv_shape, kv_shape))
    rows, cols = q_shape[2], kv_shape[2]
    if mask_kind == "float":
        return q, k, v, rng.standard_normal((rows, cols)).astype(F32)
    if mask_kind == "bool":
        mask = rng.random((rows, cols)) > 0.3
        mask[1] = False  # a fully masked row: zeros
        return q, k, v, mask
    if mask_kind == "bool4":
        return q, k, v, rng.random((1, q_shape[1], rows, cols)) > 0.3
    return q, k, v


def _sdpa(lib: Any, case: str) -> np.ndarray:
    _, _, _, causal, scale = CASES[case]
    tensors = [lib.tensor(a) for a in _inputs(case)]
    mask = tensors[3] if len(tensors) > 3 else None
    out = lib.nn.functional.scaled_dot_product_attention(
        *tensors[:3], attn_mask=mask, is_causal=causal, scale=scale)
    return out.numpy()


@pytest.mark.parametrize("case", sorted(CASES))
def test_sdpa_outputs_are_torchs_bits(torch: Any, thread_count: int, case: str) -> None:
    ours, theirs = _sdpa(gtorch, case), _sdpa(torch, case)
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


def _sdpa_grads(lib: Any, case: str) -> list[np.ndarray]:
    """grad_q, grad_k, grad_v of a weighted sum of the output (the flash backward)."""
    _, _, _, causal, scale = CASES[case]
    arrays = _inputs(case)
    tensors = [lib.tensor(a, requires_grad=True) for a in arrays[:3]]
    mask = lib.tensor(arrays[3]) if len(arrays) > 3 else None
    out = lib.nn.functional.scaled_dot_product_attention(
        *tensors, attn_mask=mask, is_causal=causal, scale=scale)
    weights = np.random.default_rng(7).standard_normal(out.shape).astype(F32)
    (out * lib.tensor(weights)).sum().backward()
    return [t.grad.numpy() for t in tensors]


@pytest.mark.parametrize("case", sorted(CASES))
def test_sdpa_gradients_are_torchs_bits(torch: Any, thread_count: int, case: str) -> None:
    for ours, theirs in zip(_sdpa_grads(gtorch, case), _sdpa_grads(torch, case), strict=True):
        np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


def _key_sweep(lib: Any, keys: int, shape: tuple[int, int, int, int], kind: str
               ) -> list[np.ndarray]:
    """Output and gradients of one (B, H, L, D) query against `keys` keys, plain, masked or
    causal: odd key counts misalign the kernel's dst block in its per-thread buffer."""
    rng = np.random.default_rng(keys)
    batch, heads, rows, dim = shape
    arrays = [rng.standard_normal(s).astype(F32)
              for s in (shape, (batch, heads, keys, dim), (batch, heads, keys, dim))]
    mask = lib.tensor(rng.standard_normal((rows, keys)).astype(F32)) if kind == "mask" else None
    tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = lib.nn.functional.scaled_dot_product_attention(
        *tensors, attn_mask=mask, is_causal=kind == "causal")
    weights = np.random.default_rng(7).standard_normal(out.shape).astype(F32)
    (out * lib.tensor(weights)).sum().backward()
    return [out.detach().numpy()] + [t.grad.numpy() for t in tensors]


@pytest.mark.parametrize("shape", [(1, 2, 6, 8), (2, 3, 7, 12), (1, 1, 33, 16)])
def test_sdpa_key_counts_are_torchs_bits(torch: Any, thread_count: int,
                                         shape: tuple[int, int, int, int]) -> None:
    """Every key count 1..40 (whole 16-lane vectors, tails, odd counts), plain and masked, and
    causal where keys and queries match."""
    for keys in range(1, 41):
        for kind in ("plain", "mask") + (("causal",) if keys == shape[2] else ()):
            theirs = _key_sweep(torch, keys, shape, kind)
            for ours, want in zip(_key_sweep(gtorch, keys, shape, kind), theirs, strict=True):
                np.testing.assert_array_equal(ours.view(np.uint32), want.view(np.uint32),
                                              err_msg=f"{keys} keys, {kind}")


def _layers(lib: Any) -> list[np.ndarray]:
    """MultiheadAttention (need_weights=False, a key padding mask) and a TransformerDecoderLayer
    in eval mode, from one seed."""
    lib.manual_seed(0)
    attention = lib.nn.MultiheadAttention(16, 4).eval()  # (not batch_first: no fast path)
    decoder = lib.nn.TransformerDecoderLayer(d_model=16, nhead=2, dim_feedforward=32).eval()
    x, memory = lib.randn(5, 2, 16), lib.randn(7, 2, 16)
    padding = lib.tensor([[False] * 4 + [True], [False] * 5])
    with lib.no_grad():
        attended, weights = attention(x, x, x, key_padding_mask=padding, need_weights=False)
        decoded = decoder(x, memory)
    assert weights is None
    return [attended.numpy(), decoded.numpy()]


def test_attention_layers_are_torchs_bits(torch: Any, thread_count: int) -> None:
    for ours, theirs in zip(_layers(gtorch), _layers(torch), strict=True):
        np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


def test_exp_u20_is_its_polynomial() -> None:
    """Within its 20 ulp of exp over the range the kernel feeds it (x - max <= 0; near
    log(FLT_MIN) its 2^n step goes through a subnormal), exactly 1 at 0, and 0 below
    log(FLT_MIN) and at -inf."""
    x = np.concatenate([-np.geomspace(1e-6, 80.0, 4001).astype(F32), [F32(0.0)]])
    got = flash.exp_u20(x)
    want = np.exp(x.astype(np.float64))
    ulp = np.spacing(want.astype(F32)).astype(np.float64)
    assert np.max(np.abs(got - want) / ulp) <= 20
    assert got[-1] == 1.0
    np.testing.assert_array_equal(flash.exp_u20(np.array([-88.0, -100.0, -np.inf], F32)), 0.0)


def _layouts(lib: Any) -> list[Any]:
    """The strides of batch_first MultiheadAttention outputs: on PyTorch's fast path (eval,
    no grad, self-attention) a new contiguous tensor, else the transposed view; `.view` works
    on the first."""
    lib.manual_seed(0)
    attention = lib.nn.MultiheadAttention(16, 4, batch_first=True)
    x = lib.randn(2, 5, 16)
    found = []
    for train, grad, need in ((False, False, False), (False, False, True), (True, False, False),
                              (False, True, False)):
        attention.train(train)
        with lib.set_grad_enabled(grad):
            out, weights = attention(x, x, x, need_weights=need)
        found.append((out.stride(), None if weights is None else weights.stride()))
    attention.eval()
    with lib.no_grad():
        out = attention(x, x, x.clone(), need_weights=False)[0]  # not self-attention
        found.append(out.stride())
        found.append(attention(x, x, x)[0].view(-1).shape)
    return found


def test_multihead_attention_fast_path_layout(torch: Any) -> None:
    assert _layouts(gtorch) == _layouts(torch)
