"""F.scaled_dot_product_attention on PyTorch's CPU flash kernel against PyTorch 2.13's bits
(gradsh/engine/vecmath/flash_attention.py): the output, the logsumexp and the three gradients
for float32 and float64, causal or masked, query lengths on each side of the split sizes (32,
64, 256 query rows; 512 keys a block), key lengths with and without a vector tail, grouped-query
heads and transposed layouts, at one and two threads; and nn.MultiheadAttention and
TransformerEncoderLayer (training, eval, the eval fast path) built on it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import flash_attention

SHAPES = {  # (query shape, key/value shape)
    "nanogpt": ((4, 4, 32, 16), (4, 4, 32, 16)),
    "q64_split": ((2, 2, 256, 16), (2, 2, 256, 16)),
    "two_kv_blocks_tail": ((2, 2, 600, 20), (2, 2, 600, 20)),
    "q256_split": ((1, 1, 1024, 16), (1, 1, 1024, 16)),
    "cross_kv_tail": ((1, 2, 100, 24), (1, 2, 700, 24)),
    "scalar_rows": ((2, 3, 7, 5), (2, 3, 7, 5)),
    "grouped": ((2, 8, 300, 16), (2, 2, 300, 16)),
}
CASES = [(name, dtype, variant) for name in SHAPES for dtype in ("float32", "float64")
         for variant in ("plain", "causal", "mask")]


def _bits(a: Any) -> np.ndarray:
    a = np.ascontiguousarray(np.asarray(a))
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def _run(lib: Any, arrays: list[np.ndarray], mask: np.ndarray | None, causal: bool,
         gqa: bool, grad: np.ndarray) -> list[np.ndarray]:
    q, k, v = (lib.tensor(a, requires_grad=True) for a in arrays)
    out = lib.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=None if mask is None else lib.tensor(mask), is_causal=causal,
        enable_gqa=gqa)
    out.backward(lib.tensor(grad))
    return [out.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()]


@pytest.mark.parametrize(("name", "dtype", "variant"), CASES,
                         ids=["-".join(c) for c in CASES])
def test_flash_attention_bits(torch: Any, thread_count: int, name: str, dtype: str,
                              variant: str) -> None:
    q_shape, kv_shape = SHAPES[name]
    if name == "q256_split" and variant != "causal":
        pytest.skip("one variant of the longest shape is enough")
    rng = np.random.default_rng(len(name) + q_shape[2])
    arrays = [rng.standard_normal(q_shape).astype(dtype)]
    arrays += [rng.standard_normal(kv_shape).astype(dtype) for _ in range(2)]
    mask = None
    if variant == "mask":
        mask = rng.standard_normal((q_shape[2], kv_shape[2])).astype(dtype)
        mask[0] = -np.inf  # a fully masked row: zeros, not NaN
    grad = rng.standard_normal(q_shape).astype(dtype)
    gqa = q_shape[1] != kv_shape[1]
    theirs = _run(torch, arrays, mask, variant == "causal", gqa, grad)
    ours = _run(gtorch, arrays, mask, variant == "causal", gqa, grad)
    for what, a, b in zip(("output", "grad q", "grad k", "grad v"), ours, theirs):
        assert a.shape == b.shape, what
        assert (_bits(a) == _bits(b)).all(), f"{what}: {int((_bits(a) != _bits(b)).sum())}"


@pytest.mark.parametrize("mask_shape", [(2, 1, 40, 40), (1, 2, 1, 40), "bool"])
def test_broadcast_and_boolean_masks(torch: Any, thread_count: int, mask_shape: Any) -> None:
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal((2, 2, 40, 16)).astype(np.float32) for _ in range(3)]
    mask = (rng.standard_normal((40, 40)) > 0 if mask_shape == "bool"
            else rng.standard_normal(mask_shape).astype(np.float32))
    grad = rng.standard_normal((2, 2, 40, 16)).astype(np.float32)
    theirs = _run(torch, arrays, mask, False, False, grad)
    ours = _run(gtorch, arrays, mask, False, False, grad)
    for a, b in zip(ours, theirs):
        assert (_bits(a) == _bits(b)).all()


def test_logsumexp_and_transposed_layout(torch: Any, thread_count: int) -> None:
    """The kernel's own outputs (output and logsumexp) for (B, T, H, D) memory seen as
    (B, H, T, D), the layout of a transformer's q, k, v after .transpose(1, 2)."""
    rng = np.random.default_rng(11)
    q, k, v = (rng.standard_normal((2, 300, 3, 24)).astype(np.float32).transpose(0, 2, 1, 3)
               for _ in range(3))
    out, lse = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
        *(torch.from_numpy(a) for a in (q, k, v)), is_causal=True)
    ours = flash_attention.forward(q, k, v, None, True, 1 / np.sqrt(24))
    assert (_bits(ours[0]) == _bits(out.numpy())).all()
    assert (_bits(ours[1]) == _bits(lse.numpy())).all()


def test_exp_u20_is_close_to_exp() -> None:
    """The AVX-512 exp_u20 polynomial: within its 20 ulp of the true exp on [-86, 0] (below,
    its 2^n reaches the exponent field's zero and the result flushes to 0)."""
    x = np.linspace(-86, 0, 20001).astype(np.float32)
    ours = flash_attention.exp_u20(x).astype(np.float64)
    exact = np.exp(x.astype(np.float64))
    ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
    assert (np.abs(ours - exact) <= 20 * ulp).all()


def _module_outputs(lib: Any, kind: str, x: np.ndarray, mode: str, causal: bool,
                    dtype: str) -> list[np.ndarray]:
    lib.manual_seed(0)
    if kind == "mha":
        module = lib.nn.MultiheadAttention(32, 4)
    else:
        module = lib.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, dropout=0.0)
    if dtype == "float64":
        module = module.double()
    module.train(mode == "train")
    inputs = lib.tensor(x, requires_grad=mode != "fast")
    mask = None
    if causal:
        mask = lib.tensor(np.triu(np.full((x.shape[0],) * 2, -np.inf, dtype), 1))
    with lib.no_grad() if mode == "fast" else lib.enable_grad():
        if kind == "mha":
            out = module(inputs, inputs, inputs, need_weights=False, attn_mask=mask)[0]
        else:
            out = module(inputs, src_mask=mask)
    results = [out.detach().numpy()]
    if mode != "fast":
        out.backward(lib.tensor(np.cos(np.arange(out.numel())).reshape(out.shape)
                                .astype(dtype)))
        results += [inputs.grad.numpy()] + [p.grad.numpy() for p in module.parameters()]
    return results


@pytest.mark.parametrize("kind", ["mha", "encoder"])
@pytest.mark.parametrize("mode", ["train", "eval", "fast"])
@pytest.mark.parametrize("causal", [False, True], ids=["unmasked", "causal"])
def test_attention_modules_bits(torch: Any, thread_count: int, kind: str, mode: str,
                                causal: bool) -> None:
    dtype = "float64" if causal else "float32"
    x = np.random.default_rng(3).standard_normal((40, 3, 32)).astype(dtype)
    theirs = _module_outputs(torch, kind, x, mode, causal, dtype)
    ours = _module_outputs(gtorch, kind, x, mode, causal, dtype)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (_bits(a) == _bits(b)).all()
