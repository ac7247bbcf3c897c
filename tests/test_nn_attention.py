"""Attention against PyTorch: scaled_dot_product_attention (flash and math backends),
MultiheadAttention (training, eval, masks, batch_first, kdim/vdim, bias_kv, zero_attn) and the
Transformer layers, from the same seed: parameters bit for bit, reprs, whole grad_fn graphs,
values and gradients (float32 tolerance: matmuls); gradients against float64 finite
differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine import ops
from tests.gradcheck import check_grads
from tests.nn_parity import graph_names, run_layer

r = np.random.default_rng(3)
TOL = {"rtol": 2e-4, "atol": 2e-5}


def rn(*s: int) -> np.ndarray:
    return r.standard_normal(s).astype(np.float32)


def _attention(t: Any, kwargs: dict[str, Any], call: dict[str, Any], cross: bool = False
               ) -> Any:
    """A module around nn.MultiheadAttention: self-attention on one input (or query and
    memory), returning the outputs that are tensors."""

    class Attend(t.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.attn = t.nn.MultiheadAttention(**kwargs)

        def forward(self, x: Any, memory: Any = None) -> Any:
            source = x if memory is None else memory
            masks = {k: (t.from_numpy(v.copy()) if isinstance(v, np.ndarray) else v)
                     for k, v in call.items()}
            out = self.attn(x, source, source, **masks)
            return tuple(o for o in out if o is not None)

    return Attend()


CAUSAL = np.triu(np.full((5, 5), -np.inf, dtype=np.float32), 1)
PADDING = np.array([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
MHA_CASES: dict[str, tuple[dict[str, Any], dict[str, Any], list[np.ndarray], bool]] = {
    "weights": ({"embed_dim": 8, "num_heads": 2}, {}, [rn(5, 3, 8)], True),
    "no_weights": ({"embed_dim": 8, "num_heads": 2}, {"need_weights": False}, [rn(5, 3, 8)],
                   True),
    "per_head": ({"embed_dim": 8, "num_heads": 4}, {"average_attn_weights": False},
                 [rn(5, 3, 8)], True),
    "dropout": ({"embed_dim": 8, "num_heads": 2, "dropout": 0.3}, {}, [rn(5, 3, 8)], True),
    "dropout_sdpa": ({"embed_dim": 8, "num_heads": 2, "dropout": 0.3},
                     {"need_weights": False}, [rn(5, 3, 8)], True),
    "eval_dropout": ({"embed_dim": 8, "num_heads": 2, "dropout": 0.3}, {"need_weights": False},
                     [rn(5, 3, 8)], False),
    "causal_mask": ({"embed_dim": 8, "num_heads": 2}, {"attn_mask": CAUSAL}, [rn(5, 3, 8)],
                    True),
    "causal_sdpa": ({"embed_dim": 8, "num_heads": 2},
                    {"attn_mask": CAUSAL, "need_weights": False, "is_causal": True},
                    [rn(5, 3, 8)], True),
    "bool_padding": ({"embed_dim": 8, "num_heads": 2, "batch_first": True},
                     {"key_padding_mask": PADDING}, [rn(3, 5, 8)], True),
    "bool_padding_sdpa": ({"embed_dim": 8, "num_heads": 2, "batch_first": True},
                          {"key_padding_mask": PADDING, "need_weights": False},
                          [rn(3, 5, 8)], True),
    "cross_kvdim": ({"embed_dim": 8, "num_heads": 2, "kdim": 6, "vdim": 6},
                    {}, [rn(4, 3, 8), rn(5, 3, 6)], True),
    "cross_packed": ({"embed_dim": 8, "num_heads": 2}, {"need_weights": False},
                     [rn(4, 3, 8), rn(5, 3, 8)], True),
    "bias_kv_zero_attn": ({"embed_dim": 8, "num_heads": 2, "add_bias_kv": True,
                           "add_zero_attn": True}, {}, [rn(5, 3, 8)], True),
    "no_bias": ({"embed_dim": 8, "num_heads": 2, "bias": False}, {}, [rn(5, 3, 8)], True),
    "unbatched": ({"embed_dim": 8, "num_heads": 2}, {}, [rn(5, 8)], True),
}


@pytest.mark.parametrize("name", sorted(MHA_CASES))
def test_multihead_attention_matches_torch(torch: Any, name: str) -> None:
    kwargs, call, inputs, train = MHA_CASES[name]
    run_layer(torch, lambda t: _attention(t, kwargs, call), inputs, train=train, depth=40,
              **TOL)


TRANSFORMER_CASES: dict[str, tuple[Any, list[np.ndarray], bool]] = {
    "encoder_layer": (lambda t: t.nn.TransformerEncoderLayer(8, 2, 16), [rn(5, 3, 8)], True),
    "encoder_layer_gelu_norm_first": (
        lambda t: t.nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True,
                                               batch_first=True), [rn(3, 5, 8)], True),
    "encoder_eval": (lambda t: t.nn.TransformerEncoder(
        t.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2), [rn(3, 5, 8)], False),
    "decoder_layer": (lambda t: t.nn.TransformerDecoderLayer(8, 2, 16),
                      [rn(4, 3, 8), rn(5, 3, 8)], True),
    "transformer": (lambda t: t.nn.Transformer(8, 2, 1, 1, 16), [rn(5, 2, 8), rn(4, 2, 8)],
                    True),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMER_CASES))
def test_transformer_layers_match_torch(torch: Any, name: str) -> None:
    build, inputs, train = TRANSFORMER_CASES[name]
    with pytest.warns(UserWarning) if name == "transformer" else _nothing():
        run_layer(torch, build, inputs, train=train, depth=60, **TOL)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: Any) -> None:
        return None


def test_encoder_warns_and_zeroes_padding_on_the_fast_path(torch: Any) -> None:
    """TransformerEncoder's warning text, and PyTorch's nested-tensor fast path (eval, no grad,
    batch_first): the padded positions come out as zeros."""
    results = []
    for t in (torch, gtorch):
        t.manual_seed(0)
        with pytest.warns(UserWarning) as caught:
            t.nn.TransformerEncoder(t.nn.TransformerEncoderLayer(9, 3, 16), 1)
        texts = [str(w.message) for w in caught]
        t.manual_seed(0)
        encoder = t.nn.TransformerEncoder(t.nn.TransformerEncoderLayer(8, 2, 16,
                                                                       batch_first=True), 1)
        encoder.eval()
        x = t.from_numpy(rn(3, 5, 8) if t is torch else results[0][1])
        padding = t.from_numpy(PADDING.copy())
        with t.no_grad(), pytest.warns(UserWarning, match="nested tensors"):
            fast = encoder(x, src_key_padding_mask=padding).numpy()
        slow = encoder(x, src_key_padding_mask=padding).detach().numpy()
        results.append((texts, x.numpy().copy(), fast, slow))
    (t_texts, _, t_fast, t_slow), (g_texts, _, g_fast, g_slow) = results
    assert g_texts == t_texts
    assert t_texts[0].endswith("because encoder_layer.self_attn.batch_first was not True(use "
                               "batch_first for better inference performance)")
    assert np.all(g_fast[1, 3:] == 0) and np.all(g_fast[2, 4:] == 0)
    np.testing.assert_allclose(g_fast, t_fast, **TOL)
    np.testing.assert_allclose(g_slow, t_slow, **TOL)


SDPA_CASES: dict[str, tuple[list[tuple[int, ...]], dict[str, Any]]] = {
    "flash": ([(2, 2, 3, 4)] * 3, {}),
    "flash_cross": ([(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6)], {}),
    "flash_causal": ([(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)], {"is_causal": True}),
    "flash_scale": ([(1, 2, 3, 4)] * 3, {"scale": 0.3}),
    "math_3d": ([(2, 3, 4)] * 3, {}),
    "math_broadcast": ([(2, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)], {}),
    "math_3d_causal": ([(2, 3, 4), (2, 5, 4), (2, 5, 4)], {"is_causal": True}),
}


@pytest.mark.parametrize("name", sorted(SDPA_CASES))
@pytest.mark.parametrize("mask", ["none", "bool", "float"])
def test_scaled_dot_product_attention_matches_torch(torch: Any, name: str, mask: str) -> None:
    shapes, kwargs = SDPA_CASES[name]
    if mask != "none" and kwargs.get("is_causal"):
        pytest.skip("is_causal takes no mask")
    arrays = [rn(*s) for s in shapes]
    rows, cols = shapes[0][-2], shapes[1][-2]
    mask_array = {"none": None, "bool": r.random((rows, cols)) > 0.3,
                  "float": rn(rows, cols)}[mask]
    if mask == "bool":
        mask_array[0] = False  # a fully masked row: 0, not NaN
    seen = []
    for t in (torch, gtorch):
        q, k, v = (t.from_numpy(a.copy()).requires_grad_() for a in arrays)
        extra = dict(kwargs)
        if mask_array is not None:
            extra["attn_mask"] = t.from_numpy(mask_array.copy())
        out = t.nn.functional.scaled_dot_product_attention(q, k, v, **extra)
        out.backward(t.from_numpy(np.ones(tuple(out.shape), np.float32)))
        seen.append((graph_names(out, 20), out.detach().numpy(),
                     [x.grad.numpy() for x in (q, k, v)]))
    (t_graph, t_out, t_grads), (g_graph, g_out, g_grads) = seen
    assert g_graph == t_graph
    np.testing.assert_allclose(g_out, t_out, **TOL)
    for g, e in zip(g_grads, t_grads, strict=True):
        np.testing.assert_allclose(g, e, **TOL)


def test_sdpa_dropout_draws_match_torch(torch: Any) -> None:
    arrays = [rn(2, 2, 4, 3) for _ in range(3)]
    outs = []
    for t in (torch, gtorch):
        t.manual_seed(5)
        q, k, v = (t.from_numpy(a.copy()) for a in arrays)
        out = t.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
        outs.append((out.numpy(), float(t.rand(1))))
    np.testing.assert_allclose(outs[1][0], outs[0][0], **TOL)
    assert outs[1][1] == outs[0][1]


@pytest.mark.parametrize("shape", [(1, 2, 3, 2), (2, 3, 2)])
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_gradients_are_the_derivative(shape: tuple[int, ...], causal: bool) -> None:
    mask = np.array([[0.0, -1.0, 0.5], [0.2, 0.0, -np.inf], [0.0, 0.3, 0.1]])

    def attend(q: Any, k: Any, v: Any) -> Any:
        extra = {"is_causal": True} if causal else {"attn_mask": ops.tensor(
            mask.tolist(), dtype=ops.float64)}
        return ops.scaled_dot_product_attention(q, k, v, **extra)

    check_grads(attend, r.standard_normal(shape), r.standard_normal(shape),
                r.standard_normal(shape))


def test_baddbmm_matches_torch_and_the_derivative(torch: Any) -> None:
    arrays = [rn(1, 3, 4), rn(2, 3, 5), rn(2, 5, 4)]
    got, want = [], []
    for t, sink in ((torch, want), (gtorch, got)):
        leaves = [t.from_numpy(a.copy()).requires_grad_() for a in arrays]
        out = t.baddbmm(*leaves, beta=0.5, alpha=2.0)
        out.sum().backward()
        sink.extend([out.grad_fn.name(), out.detach().numpy()] + [x.grad.numpy()
                                                                   for x in leaves])
    assert got[0] == want[0] == "BaddbmmBackward0"
    for g, e in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(g, e, **TOL)
    check_grads(lambda a, b, c: ops.baddbmm(a, b, c, beta=0.5, alpha=2.0),
                *(a.astype(np.float64) for a in arrays))


def test_multi_head_attention_forward_gradients_are_the_derivative() -> None:
    """The functional form in float64 with fixed weights, against finite differences."""
    w_in, b_in = r.standard_normal((12, 4)), r.standard_normal(12)
    w_out, b_out = r.standard_normal((4, 4)), r.standard_normal(4)

    def attend(x: Any, w: Any) -> Any:
        def f(a: np.ndarray) -> Any:
            return ops.tensor(a.tolist(), dtype=ops.float64)
        out, _ = gtorch.nn.functional.multi_head_attention_forward(
            x, x, x, 4, 2, w, f(b_in), None, None, False, 0.0, f(w_out), f(b_out),
            need_weights=False)
        return out

    check_grads(attend, r.standard_normal((3, 2, 4)), w_in)


@pytest.mark.parametrize("shapes", [[(1, 4, 3, 2), (1, 2, 5, 2)], [(4, 3, 2), (2, 5, 2)]])
def test_grouped_query_attention_matches_torch(torch: Any, shapes: list[tuple[int, ...]]
                                               ) -> None:
    arrays = [rn(*shapes[0]), rn(*shapes[1]), rn(*shapes[1])]
    seen = []
    for t in (torch, gtorch):
        q, k, v = (t.from_numpy(a.copy()).requires_grad_() for a in arrays)
        out = t.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        out.backward(t.from_numpy(np.ones(tuple(out.shape), np.float32)))
        seen.append((graph_names(out, 6), [out.detach().numpy()] + [x.grad.numpy()
                                                                     for x in (q, k, v)]))
    (t_graph, t_values), (g_graph, g_values) = seen
    assert g_graph == t_graph
    for g, e in zip(g_values, t_values, strict=True):
        np.testing.assert_allclose(g, e, **TOL)
