"""Every differentiable op against finite differences and against PyTorch, from one table.

Each row of OP_TABLE is one case: a function written once against a torch-like namespace `m`
(`m.exp(x)`, `x.sum(0)`), the input shapes (broadcasting pairs included) and the domain the
inputs are drawn from. Inputs mix the edge values -1, 0 and 1 with random ones, kept away
from the op's kinks (kink behaviour has its own explicit tests below). For each row:

- gradsh's gradient matches central finite differences in float64 (tests/gradcheck.py);
- gradsh matches PyTorch in float32: values, dtype, grad_fn name and graph, input gradients,
  and whether backward can run a second time.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from gradcheck import check_grads, run_parity

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchError


@dataclass(frozen=True)
class Case:
    name: str
    f: Callable[..., Any]
    shapes: tuple[tuple[int, ...], ...]
    domain: str = "any"  # any | positive | nonzero | unit | distinct | smooth_kink
    fd: bool = True  # finite differences are meaningful (not piecewise constant)
    edges: bool = True  # include -1, 0, 1 among the inputs
    rtol: float = 1e-5
    atol: float = 1e-6

    def __str__(self) -> str:
        return self.name


def _draw(case: Case, index: int, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(f"{case.name}/{index}".encode()))
    n = int(np.prod(shape)) if shape else 1
    values = rng.uniform(-2.0, 2.0, n)
    if case.edges and n >= 3 and case.domain == "any":
        values[:3] = [-1.0, 0.0, 1.0]
    if case.domain == "positive":
        values = rng.uniform(0.3, 2.5, n)
        if case.edges and n >= 2:
            values[:2] = [1.0, 2.0]
    elif case.domain == "nonzero":
        values = np.where(np.abs(values) < 0.3, values + np.sign(values + 1e-9) * 0.5, values)
        if case.edges and n >= 2:
            values[:2] = [-1.0, 1.0]
    elif case.domain == "unit":
        values = rng.uniform(-0.8, 0.8, n)
        if case.edges and n >= 1:
            values[0] = 0.0
    elif case.domain == "distinct":
        # Distinct and away from each other (max/min/sort-like ops): a permutation of a grid.
        values = (rng.permutation(n) - n / 2) * 0.37 + 0.11 * index
    elif case.domain == "smooth_kink":
        # away from 0 and from +-0.5 (relu, abs, clamp(-0.5, 0.5) kinks)
        values = np.where(np.abs(values) < 0.15, values + 0.3, values)
        values = np.where(np.abs(np.abs(values) - 0.5) < 0.1, values * 1.5, values)
    return values.reshape(shape)


def _inputs(case: Case) -> list[np.ndarray]:
    return [_draw(case, i, s) for i, s in enumerate(case.shapes)]


def C(name: str, f: Callable[..., Any], *shapes: tuple[int, ...], **kw: Any) -> Case:
    return Case(name, f, tuple(shapes), **kw)


S = (2, 3)
BROADCAST = [((3, 1), (1, 4)), ((), (2, 3)), ((2, 3), ()), ((2, 3), (3,)), ((2, 3), (2, 3))]

OP_TABLE: list[Case] = [
    # -- unary element-wise ------------------------------------------------------------------
    C("exp", lambda m, x: m.exp(x), S),
    C("exp_0d", lambda m, x: x.exp(), ()),
    C("log", lambda m, x: m.log(x), S, domain="positive"),
    C("log2", lambda m, x: m.log2(x), S, domain="positive"),
    C("log10", lambda m, x: m.log10(x), S, domain="positive"),
    C("sin", lambda m, x: m.sin(x), S),
    C("cos", lambda m, x: m.cos(x), S),
    C("tan", lambda m, x: m.tan(x), S, domain="unit"),
    C("tanh", lambda m, x: m.tanh(x), S),
    C("sigmoid", lambda m, x: m.sigmoid(x), S),
    C("relu", lambda m, x: m.relu(x), S, domain="smooth_kink"),
    C("relu_method", lambda m, x: x.relu(), (4,), domain="smooth_kink"),
    C("sqrt", lambda m, x: m.sqrt(x), S, domain="positive"),
    C("rsqrt", lambda m, x: m.rsqrt(x), S, domain="positive"),
    C("abs", lambda m, x: m.abs(x), S, domain="smooth_kink"),
    C("square", lambda m, x: m.square(x), S),
    C("neg", lambda m, x: m.neg(x), S),
    C("neg_op", lambda m, x: -x, S),
    C("reciprocal", lambda m, x: m.reciprocal(x), S, domain="nonzero"),
    C("sign", lambda m, x: m.sign(x), S, domain="smooth_kink"),
    C("floor", lambda m, x: m.floor(x), S, domain="smooth_kink", edges=False),
    C("clamp_both", lambda m, x: m.clamp(x, -0.5, 0.5), S, domain="smooth_kink"),
    C("clamp_min", lambda m, x: x.clamp(min=-0.5), S, domain="smooth_kink"),
    C("clamp_max", lambda m, x: x.clamp(max=0.5), S, domain="smooth_kink"),
    C("clamp_min_fn", lambda m, x: m.clamp_min(x, 0.5), S, domain="smooth_kink"),
    C("clamp_max_fn", lambda m, x: m.clamp_max(x, -0.5), S, domain="smooth_kink"),
    C("clamp_tensor", lambda m, x, lo: m.clamp(x, min=lo), S, (3,), domain="distinct"),
    C("clamp_tensors", lambda m, x, lo, hi: m.clamp(x, lo, hi + 3), S, (3,), (2, 3),
      domain="distinct"),
    # -- binary element-wise, with broadcasting ------------------------------------------------
    *[C(f"add_{a}x{b}", lambda m, x, y: x + y, a, b) for a, b in BROADCAST],
    *[C(f"sub_{a}x{b}", lambda m, x, y: x - y, a, b) for a, b in BROADCAST],
    *[C(f"mul_{a}x{b}", lambda m, x, y: x * y, a, b) for a, b in BROADCAST],
    *[C(f"div_{a}x{b}", lambda m, x, y: x / y, a, b, domain="nonzero") for a, b in BROADCAST],
    *[C(f"pow_{a}x{b}", lambda m, x, y: x ** y, a, b, domain="positive") for a, b in BROADCAST],
    *[C(f"maximum_{a}x{b}", lambda m, x, y: m.maximum(x, y), a, b, domain="distinct")
      for a, b in BROADCAST],
    *[C(f"minimum_{a}x{b}", lambda m, x, y: m.minimum(x, y), a, b, domain="distinct")
      for a, b in BROADCAST],
    C("max_binary", lambda m, x, y: m.max(x, y), S, S, domain="distinct"),
    C("add_alpha", lambda m, x, y: m.add(x, y, alpha=0.5), S, (3,)),
    C("sub_alpha", lambda m, x, y: x.sub(y, alpha=2), S, S),
    C("add_scalar", lambda m, x: x + 1, S),
    C("radd_scalar", lambda m, x: 1.5 + x, S),
    C("sub_scalar", lambda m, x: x - 1, S),
    C("rsub_scalar", lambda m, x: 1 - x, S),
    C("mul_scalar", lambda m, x: x * 2, S),
    C("rmul_scalar", lambda m, x: 2.5 * x, S),
    C("div_scalar", lambda m, x: x / 2, S),
    C("rdiv_scalar", lambda m, x: 2 / x, S, domain="nonzero"),
    C("pow_2", lambda m, x: x ** 2, S),
    C("pow_3", lambda m, x: x.pow(3), S),
    C("pow_half", lambda m, x: x ** 0.5, S, domain="positive"),
    C("pow_0", lambda m, x: x ** 0, S),
    C("pow_neg1", lambda m, x: x ** -1, S, domain="nonzero"),
    C("rpow", lambda m, x: 2 ** x, S),
    C("rpow_e", lambda m, x: 0.5 ** x, S),
    C("remainder_scalar", lambda m, x: x % 1.7, S, domain="positive", edges=False),
    C("fmod_scalar", lambda m, x: m.fmod(x, 1.7), S, domain="positive", edges=False),
    C("where", lambda m, x, y: m.where(x > 0, x, y), S, (3,), domain="smooth_kink"),
    C("where_scalar", lambda m, x: m.where(x > 0, x, 0.0), S, domain="smooth_kink"),
    C("where_scalar_first", lambda m, x: m.where(x > 0, 1.0, x), S, domain="smooth_kink"),
    # -- reductions ------------------------------------------------------------------------------
    C("sum", lambda m, x: x.sum(), S),
    C("sum_0", lambda m, x: x.sum(0), S),
    C("sum_neg1_keepdim", lambda m, x: m.sum(x, -1, keepdim=True), S),
    C("sum_dims", lambda m, x: x.sum((0, 2)), (2, 3, 2)),
    C("sum_empty_dims", lambda m, x: x.sum(()), S),
    C("sum_0d", lambda m, x: x.sum(), ()),
    C("sum_0d_dim", lambda m, x: x.sum(0), ()),
    C("sum_dtype", lambda m, x: x.sum(dtype=m.float64), S),
    C("mean", lambda m, x: x.mean(), S),
    C("mean_1", lambda m, x: m.mean(x, 1), S),
    C("mean_keepdim", lambda m, x: x.mean(0, keepdim=True), S),
    C("mean_dims", lambda m, x: x.mean((0, 1)), (2, 3, 2)),
    C("prod", lambda m, x: x.prod(), S, domain="nonzero"),
    C("prod_with_zero", lambda m, x: x.prod(), S),
    C("prod_dim", lambda m, x: x.prod(1), S, domain="nonzero"),
    C("prod_dim_keepdim_zero", lambda m, x: x.prod(0, keepdim=True), S),
    C("max_all", lambda m, x: x.max(), S, domain="distinct"),
    C("min_all", lambda m, x: m.min(x), S, domain="distinct"),
    C("max_dim", lambda m, x: x.max(1), S, domain="distinct"),
    C("max_dim_values", lambda m, x: x.max(0)[0], S, domain="distinct"),
    C("min_dim_keepdim", lambda m, x: m.min(x, 0, keepdim=True), S, domain="distinct"),
    C("max_dim_0d", lambda m, x: x.max(0), (), domain="distinct"),
    C("amax", lambda m, x: x.amax(1), S, domain="distinct"),
    C("amin", lambda m, x: m.amin(x, (0, 1)), S, domain="distinct"),
    C("norm", lambda m, x: x.norm(), S),
    C("norm_fn", lambda m, x: m.norm(x), (4,)),
    C("norm_p1", lambda m, x: x.norm(p=1), S, domain="smooth_kink"),
    C("norm_p3", lambda m, x: x.norm(3), S, domain="smooth_kink"),
    C("norm_inf", lambda m, x: x.norm(float("inf")), S, domain="distinct"),
    C("norm_dim", lambda m, x: x.norm(dim=1), S),
    C("norm_dim_keepdim", lambda m, x: x.norm(2, 0, True), S),
    C("var", lambda m, x: x.var(), S),
    C("var_0", lambda m, x: x.var(0), S),
    C("var_biased", lambda m, x: m.var(x, 1, unbiased=False), S),
    C("var_correction", lambda m, x: x.var(correction=0, dim=1, keepdim=True), S),
    C("std", lambda m, x: x.std(), S),
    C("std_1_keepdim", lambda m, x: x.std(1, keepdim=True), S),
    C("logsumexp", lambda m, x: x.logsumexp(1), S),
    # -- shape ---------------------------------------------------------------------------------
    C("reshape", lambda m, x: x.reshape(3, 2), S),
    C("reshape_neg1", lambda m, x: x.reshape(-1), S),
    C("reshape_copy", lambda m, x: x.t().reshape(6), S),
    C("view", lambda m, x: x.view(3, 2), S),
    C("view_tuple", lambda m, x: x.view((6, 1)), S),
    C("t", lambda m, x: x.t(), S),
    C("t_1d", lambda m, x: m.t(x), (3,)),
    C("T", lambda m, x: x.T, S),
    C("mT", lambda m, x: x.mT, (2, 3, 2)),
    C("transpose", lambda m, x: x.transpose(0, 2), (2, 3, 2)),
    C("permute", lambda m, x: x.permute(2, 0, 1), (2, 3, 2)),
    C("permute_tuple", lambda m, x: m.permute(x, (1, 0)), S),
    C("flatten", lambda m, x: x.flatten(), (2, 3, 2)),
    C("flatten_1", lambda m, x: m.flatten(x, 1), (2, 3, 2)),
    C("flatten_copy", lambda m, x: x.t().flatten(), S),
    C("flatten_0d", lambda m, x: x.flatten(), ()),
    C("unflatten", lambda m, x: x.unflatten(1, (3, 1)), S),
    C("unsqueeze", lambda m, x: x.unsqueeze(1), S),
    C("unsqueeze_neg", lambda m, x: m.unsqueeze(x, -1), S),
    C("squeeze", lambda m, x: x.squeeze(), (2, 1, 3, 1)),
    C("squeeze_dim", lambda m, x: x.squeeze(1), (2, 1, 3)),
    C("squeeze_dim_noop", lambda m, x: x.squeeze(0), S),
    C("squeeze_dims", lambda m, x: x.squeeze((1, 3)), (2, 1, 3, 1)),
    C("expand", lambda m, x: x.expand(4, 2, 3), (2, 1)),
    C("expand_neg1", lambda m, x: x.expand(-1, 3), (2, 1)),
    C("expand_as", lambda m, x, y: x.expand_as(y), (3,), (2, 3)),
    C("contiguous", lambda m, x: x.t().contiguous(), S),
    C("contiguous_noop", lambda m, x: (x * 1).contiguous(), S),
    C("cat", lambda m, x, y: m.cat([x, y]), S, (1, 3)),
    C("cat_dim1", lambda m, x, y: m.cat((x, y), dim=1), S, (2, 2)),
    C("cat_neg", lambda m, x, y: m.cat([x, y, x], -1), (3,), (2,)),
    C("stack", lambda m, x, y: m.stack([x, y]), S, S),
    C("stack_dim2", lambda m, x, y: m.stack([x, y], dim=2), S, S),
    C("split", lambda m, x: x.split(2), (5, 2)),
    C("chunk", lambda m, x: x.chunk(2, 1), (2, 5)),
    C("narrow", lambda m, x: x.narrow(1, 1, 2), (2, 4)),
    C("select", lambda m, x: x.select(1, -1), S),
    C("unbind", lambda m, x: x.unbind(1), S),
    # -- indexing ------------------------------------------------------------------------------
    C("index_int", lambda m, x: x[0], S),
    C("index_neg", lambda m, x: x[-1], S),
    C("index_pair", lambda m, x: x[1, 2], S),
    C("index_slice", lambda m, x: x[1:], (4, 2)),
    C("index_full_slice", lambda m, x: x[:], S),
    C("index_step", lambda m, x: x[::2], (5,)),
    C("index_col", lambda m, x: x[:, 1], S),
    C("index_full_slices", lambda m, x: x[:, :], S),
    C("index_ellipsis", lambda m, x: x[...], S),
    C("index_ellipsis_int", lambda m, x: x[..., 0], (2, 3, 2)),
    C("index_none", lambda m, x: x[None], S),
    C("index_none_mid", lambda m, x: x[:, None, 1:], S),
    C("index_out_of_range_slice", lambda m, x: x[1:100], S),
    C("index_list", lambda m, x: x[[0, 0, 1]], S),
    C("index_tensor", lambda m, x: x[m.tensor([1, 0])], S),
    C("index_0d_tensor", lambda m, x: x[m.tensor(1)], S),
    C("index_mask", lambda m, x: x[x > 0], S, domain="smooth_kink"),
    C("index_two_lists", lambda m, x: x[[0, 1], [2, 0]], S),
    C("index_slice_list", lambda m, x: x[:, [2, 0, 2]], S),
    C("index_int_list", lambda m, x: x[0, [2, 0]], (2, 3, 2)),
    C("index_split_advanced", lambda m, x: x[[0, 1], :, [1, 0]], (2, 3, 2)),
    C("index_view_then_list", lambda m, x: x[1:][[0, 0]], (3, 2)),
    # -- linear algebra --------------------------------------------------------------------------
    C("matmul_1x1", lambda m, x, y: x @ y, (3,), (3,)),
    C("matmul_2x1", lambda m, x, y: x @ y, (2, 3), (3,)),
    C("matmul_1x2", lambda m, x, y: x @ y, (3,), (3, 4)),
    C("matmul_2x2", lambda m, x, y: m.matmul(x, y), (2, 3), (3, 4)),
    C("matmul_3x1", lambda m, x, y: x @ y, (4, 2, 3), (3,)),
    C("matmul_1x3", lambda m, x, y: x @ y, (3,), (4, 3, 2)),
    C("matmul_3x2", lambda m, x, y: x @ y, (4, 2, 3), (3, 2)),
    C("matmul_2x3", lambda m, x, y: x @ y, (2, 3), (4, 3, 2)),
    C("matmul_3x3", lambda m, x, y: x @ y, (4, 2, 3), (4, 3, 2)),
    C("matmul_4x3_broadcast", lambda m, x, y: x @ y, (5, 1, 2, 3), (4, 3, 2)),
    C("matmul_batch1_left", lambda m, x, y: x @ y, (1, 2, 3), (4, 3, 2)),
    C("matmul_batch1_right", lambda m, x, y: x @ y, (4, 2, 3), (1, 3, 2)),
    C("mm", lambda m, x, y: m.mm(x, y), (2, 3), (3, 2)),
    C("mm_transposed", lambda m, x, y: m.mm(x.t(), y.t()), (3, 2), (2, 3)),
    C("mv", lambda m, x, y: m.mv(x, y), (2, 3), (3,)),
    C("dot", lambda m, x, y: m.dot(x, y), (3,), (3,)),
    C("bmm", lambda m, x, y: m.bmm(x, y), (2, 2, 3), (2, 3, 4)),
    C("outer", lambda m, x, y: m.outer(x, y), (2,), (3,)),
    # -- nn ------------------------------------------------------------------------------------
    C("softmax_1", lambda m, x: m.softmax(x, 1), S),
    C("softmax_0", lambda m, x: x.softmax(0), S),
    C("softmax_implicit", lambda m, x: m.softmax(x), S),
    C("softmax_3d_implicit", lambda m, x: m.softmax(x), (2, 3, 2)),
    C("log_softmax", lambda m, x: m.log_softmax(x, dim=-1), S),
    C("log_softmax_implicit", lambda m, x: m.log_softmax(x), (4,)),
    C("mse_loss", lambda m, x, y: m.mse_loss(x, y), S, S),
    C("mse_loss_sum", lambda m, x, y: m.mse_loss(x, y, reduction="sum"), S, S),
    C("mse_loss_none", lambda m, x, y: m.mse_loss(x, y, reduction="none"), S, S),
    C("mse_loss_broadcast", lambda m, x, y: m.mse_loss(x, y), S, (3,)),
    C("cross_entropy", lambda m, x: m.cross_entropy(x, m.tensor([2, 0])), S),
    C("cross_entropy_sum", lambda m, x: m.cross_entropy(x, m.tensor([1, 1]), reduction="sum"), S),
    C("cross_entropy_1d", lambda m, x: m.cross_entropy(x, m.tensor(1)), (3,)),
    C("nll_loss", lambda m, x: m.nll_loss(x, m.tensor([2, 0])), S),
    C("nll_loss_none", lambda m, x: m.nll_loss(x, m.tensor([0, 1]), reduction="none"), S),
    C("nll_loss_ignore", lambda m, x: m.nll_loss(x, m.tensor([0, 1]), ignore_index=1), S),
    C("cross_entropy_probs", lambda m, x, p: m.cross_entropy(x, m.softmax(p, 1)), S, S),
    C("cross_entropy_3d", lambda m, x: m.cross_entropy(x, m.tensor([[2, 0], [1, 1]])), (2, 3, 2)),
    C("cross_entropy_4d_weight", lambda m, x: m.cross_entropy(
        x, m.tensor([[[2, 0]], [[1, -100]]]), weight=m.tensor([0.5, 2.0, 1.0])), (2, 3, 1, 2)),
    C("cross_entropy_5d_none", lambda m, x: m.cross_entropy(
        x, m.tensor([[[[0, 1]]], [[[1, 0]]]]), reduction="none"), (2, 2, 1, 1, 2)),
    C("nll_loss_4d_sum", lambda m, x: m.nll_loss(x, m.tensor([[[0, 2], [1, 1]]]),
                                                 reduction="sum"), (1, 3, 2, 2)),
    C("cross_entropy_3d_probs", lambda m, x, p: m.cross_entropy(x, m.softmax(p, 1)),
      (2, 3, 2), (2, 3, 2)),
    C("cross_entropy_3d_smoothing", lambda m, x: m.cross_entropy(
        x, m.tensor([[2, 0], [1, -100]]), label_smoothing=0.3), (2, 3, 2)),
    C("cross_entropy_smoothing", lambda m, x: m.cross_entropy(x, m.tensor([2, 0]),
                                                              label_smoothing=0.2), S),
    C("l1_loss", lambda m, x, y: m.l1_loss(x, y), S, S, domain="smooth_kink"),
    C("smooth_l1_loss", lambda m, x, y: m.smooth_l1_loss(x, y, beta=0.5), S, S,
      domain="distinct"),
    C("huber_loss", lambda m, x, y: m.huber_loss(x, y, delta=0.5, reduction="none"), S, S,
      domain="distinct"),
    C("binary_cross_entropy", lambda m, x, y: m.binary_cross_entropy(
        m.sigmoid(x), m.sigmoid(y)), S, S),
    # (the target in x's dtype: binary_cross_entropy refuses another, also in the float64
    # finite differences)
    C("binary_cross_entropy_weight", lambda m, x: m.binary_cross_entropy(
        m.sigmoid(x), m.tensor([[0.0, 1.0, 0.5], [1.0, 1.0, 0.0]], dtype=x.dtype),
        weight=m.tensor([1.0, 2.0, 0.5]), reduction="sum"), S),
    C("bce_with_logits", lambda m, x, y: m.binary_cross_entropy_with_logits(
        x, m.sigmoid(y)), S, S),
    C("bce_with_logits_pos_weight", lambda m, x, y: m.binary_cross_entropy_with_logits(
        x, m.sigmoid(y), pos_weight=m.tensor([2.0, 1.0, 0.5]), reduction="none"), S, S),
    # -- more element-wise and activations -----------------------------------------------------
    C("log1p", lambda m, x: m.log1p(x), S, domain="positive"),
    C("expm1", lambda m, x: x.expm1(), S),
    C("exp2", lambda m, x: m.exp2(x), S),
    C("sinh", lambda m, x: m.sinh(x), S),
    C("cosh", lambda m, x: x.cosh(), S),
    C("asin", lambda m, x: m.asin(x), S, domain="unit"),
    C("acos", lambda m, x: x.acos(), S, domain="unit"),
    C("atan", lambda m, x: m.atan(x), S),
    C("erf", lambda m, x: m.erf(x), S),
    C("leaky_relu", lambda m, x: m.leaky_relu(x, 0.2), S, domain="smooth_kink"),
    C("elu", lambda m, x: m.elu(x, alpha=0.7), S, domain="smooth_kink"),
    C("silu", lambda m, x: m.silu(x), S),
    C("softplus", lambda m, x: m.softplus(x, beta=2.0, threshold=3.0), S, domain="smooth_kink"),
    C("logsigmoid", lambda m, x: m.logsigmoid(x), S),
    C("hardtanh", lambda m, x: m.hardtanh(x, -0.5, 0.5), S, domain="smooth_kink"),
    C("gelu", lambda m, x: m.gelu(x), S),
    C("gelu_tanh", lambda m, x: m.gelu(x, approximate="tanh"), S),
    # -- in-place activations: on a non-leaf, rebasing its history --------------------------
    C("relu_", lambda m, x: m.relu_(x * 1), S, domain="smooth_kink"),
    C("elu_inplace", lambda m, x: m.elu(x * 1, alpha=0.7, inplace=True), S,
      domain="smooth_kink"),
    C("elu_", lambda m, x: m.elu_(x * 2), S, domain="smooth_kink"),
    C("selu_", lambda m, x: m.selu_(x * 1), S, domain="smooth_kink"),
    C("celu_", lambda m, x: m.celu_(x * 1, 0.5), S, domain="smooth_kink"),
    C("leaky_relu_inplace", lambda m, x: m.leaky_relu(x * 1, 0.2, inplace=True), S,
      domain="smooth_kink"),
    C("leaky_relu_", lambda m, x: m.leaky_relu_(x - 0.1), S, domain="smooth_kink"),
    C("hardtanh_inplace", lambda m, x: m.hardtanh(x * 1, -0.5, 0.5, inplace=True), S,
      domain="smooth_kink"),
    C("hardtanh_", lambda m, x: m.hardtanh_(x * 1), S, domain="smooth_kink"),
    C("relu6_inplace", lambda m, x: m.relu6(x * 4, inplace=True), S, domain="smooth_kink"),
    C("threshold_", lambda m, x: m.threshold_(x * 1, 0.1, 2.0), S, domain="smooth_kink"),
    C("silu_inplace", lambda m, x: m.silu(x * 1, inplace=True), S),
    C("mish_inplace", lambda m, x: m.mish(x * 1, inplace=True), S),
    C("hardsigmoid_inplace", lambda m, x: m.hardsigmoid(x * 4, inplace=True), S,
      domain="smooth_kink"),
    C("elu_inplace_on_view", lambda m, x: m.elu(x[1:] * 1, inplace=True) * x[:1], (3, 2),
      domain="smooth_kink"),
    # -- cumulative, flips, repeats, gathers, triangles ------------------------------------------
    C("cumsum", lambda m, x: x.cumsum(1), S),
    C("cumsum_0", lambda m, x: m.cumsum(x, 0) * x, S),
    C("cumprod", lambda m, x: x.cumprod(1), S, domain="nonzero"),
    C("cumprod_zeros", lambda m, x: m.cumprod(x * m.tensor([1.0, 0.0, 1.0]), 1), S),
    C("flip", lambda m, x: x.flip(0, 1) * x, S),
    C("repeat", lambda m, x: x.repeat(2, 1, 2), S),
    C("gather", lambda m, x: x.gather(1, m.tensor([[2, 2], [0, 1]])), S),
    C("index_select", lambda m, x: x.index_select(1, m.tensor([0, 2, 0])), S),
    C("tril", lambda m, x: x.tril(1), S),
    C("triu", lambda m, x: m.triu(x, -1), S),
    C("trace", lambda m, x: x.trace(), S),
    C("linear", lambda m, x, w: m.linear(x, w), S, (4, 3)),
    C("linear_bias", lambda m, x, w, b: m.linear(x, w, b), S, (4, 3), (4,)),
    C("linear_1d_bias", lambda m, x, w, b: m.linear(x, w, b), (3,), (4, 3), (4,)),
    C("linear_3d_bias", lambda m, x, w, b: m.linear(x, w, b), (2, 2, 3), (4, 3), (4,)),
    C("addmm", lambda m, b, x, y: m.addmm(b, x, y, beta=0.5, alpha=2.0), (3,), S, (3, 3)),
    C("roll", lambda m, x: x.roll((1, -1), (0, 1)) * x, S),
    C("roll_flat", lambda m, x: m.roll(x, 2) * x, S),
    C("atan2", lambda m, y, x: m.atan2(y, x), S, S, domain="nonzero"),
    C("lerp", lambda m, x, y: m.lerp(x, y, 0.3), S, S),
    C("lerp_weight_above_half", lambda m, x, y: m.lerp(x, y, 0.8), S, S),
    C("lerp_tensor", lambda m, x, y, w: m.lerp(x, y, w), S, S, S),
    C("lerp_tensor_broadcast", lambda m, x, y, w: m.lerp(x, y, w), (2, 1), (3,), (2, 3)),
    C("lerp_tensor_0d_weight", lambda m, x, y, w: x.lerp(y, w), S, (3,), ()),
    C("movedim", lambda m, x: m.movedim(x, 0, 1) @ x, S),
    C("mish", lambda m, x: m.mish(x), S),
    C("hardsigmoid", lambda m, x: m.hardsigmoid(x * 4), S, domain="smooth_kink"),
    C("softmin", lambda m, x: m.softmin(x, 1), S),
    C("sort", lambda m, x: x.sort(1)[0] * m.tensor([1.0, 2.0, 3.0]), S, domain="distinct"),
    C("sort_descending", lambda m, x: m.sort(x, 0, descending=True).values, S,
      domain="distinct"),
    C("topk", lambda m, x: x.topk(2)[0] * m.tensor([1.0, -2.0]), S, domain="distinct"),
    C("topk_smallest", lambda m, x: m.topk(x, 1, dim=0, largest=False)[0], S,
      domain="distinct"),
    C("nan_to_num", lambda m, x: m.nan_to_num(x * x), S),
    C("normalize", lambda m, x: m.normalize(x, dim=1), S, domain="nonzero"),
    C("normalize_p1", lambda m, x: m.normalize(x, p=1, dim=0), S, domain="nonzero"),
    C("cosine_similarity", lambda m, x, y: m.cosine_similarity(x, y), S, S, domain="nonzero"),
    C("diag_matrix", lambda m, x: x.diag(1), S),
    C("diag_vector", lambda m, x: m.diag(x, -1), (3,)),
    C("masked_select", lambda m, x: x.masked_select(m.tensor([True, False, True])), S),
    C("addcmul", lambda m, x, a, b: x.addcmul(a, b, value=0.5), S, (3,), S),
    C("addcdiv", lambda m, x, a, b: m.addcdiv(x, a, b, value=2.0), S, S, (3,), domain="nonzero"),
    C("frac", lambda m, x: x.frac() * x, S, domain="smooth_kink"),
    C("dist", lambda m, x, y: m.dist(x, y), S, S, domain="distinct"),
    C("dist_p1", lambda m, x, y: m.dist(x, y, 1), S, (3,), domain="distinct"),
    C("dist_p3", lambda m, x, y: x.dist(y, 3), S, S, domain="distinct"),
    C("cdist", lambda m, x, y: m.cdist(x, y), (3, 4), (2, 4), domain="distinct"),
    C("diagonal", lambda m, x: x.diagonal(1) * 2, (3, 4)),
    C("diagonal_dims", lambda m, x: m.diagonal(x, -1, 2, 0), (3, 2, 4)),
    C("einsum_matmul", lambda m, x, y: m.einsum("ij,jk->ik", x, y), (2, 3), (3, 4)),
    C("einsum_trace", lambda m, x: m.einsum("ii", x), (3, 3)),
    C("einsum_diag_outer", lambda m, x, y: m.einsum("ii,j->ij", x, y), (3, 3), (2,)),
    C("einsum_batch_ellipsis", lambda m, x, y: m.einsum("...ij,...jk->...ik", x, y),
      (2, 2, 3), (3, 2)),
    C("einsum_three", lambda m, x, y, z: m.einsum("ij,jk,kl->il", x, y, z), (2, 3), (3, 2),
      (2, 2)),
    C("einsum_sum_out", lambda m, x, y: m.einsum("ijk,jk->i", x, y), (2, 3, 2), (3, 2)),
    C("einsum_elementwise", lambda m, x, y: m.einsum("ij,ij->ij", x, y), S, S),
    C("cdist_p1_batch", lambda m, x, y: m.cdist(x, y, p=1.0), (2, 3, 2), (4, 2),
      domain="distinct"),
    C("cdist_p3", lambda m, x, y: m.cdist(x, y, p=3.0), (3, 2), (2, 2), domain="distinct"),
    C("cdist_p_half", lambda m, x, y: m.cdist(x, y, p=0.5), (2, 2), (2, 2), domain="distinct"),
    C("cdist_inf", lambda m, x, y: m.cdist(x, y, p=float("inf")), (3, 2), (2, 2),
      domain="distinct"),
    C("cdist_mm", lambda m, x, y: m.cdist(x, y, compute_mode="use_mm_for_euclid_dist"),
      (3, 4), (2, 4), domain="distinct", rtol=1e-4, atol=1e-5),
    C("cdist_mm_batch", lambda m, x, y: m.cdist(x, y), (2, 26, 2), (3, 2), domain="distinct",
      rtol=1e-4, atol=1e-5),
    C("pad", lambda m, x: m.pad(x, (1, 2, -1, 1), value=0.5) * 2, S),
    *[C(f"pad_{mode}_{len(p) // 2}d_of_{len(shape)}d", lambda m, x, p=p, mode=mode: m.pad(x * 1, p, mode=mode),
        shape) for mode in ("reflect", "replicate", "circular")
      for shape, p in (((2, 4), (2, 3)), ((1, 2, 5), (-1, 3)), ((1, 3, 4), (1, 2, 2, 0)),
                       ((1, 1, 2, 3, 3), (1, 1, 1, 0, 1, 1)))],
    C("logit", lambda m, x: m.logit(m.sigmoid(x)), S),
    C("unfold_view", lambda m, x: x.unfold(1, 3, 2) * 1, (2, 7)),
    C("unfold_overlap", lambda m, x: x.unfold(0, 4, 1) ** 2, (6,)),
    C("unfold_0d", lambda m, x: x.unfold(0, 1, 1), ()),
    C("unfold_inplace", lambda m, x: (x * 1).unfold(0, 2, 2).mul_(3), (5, 2)),
    C("im2col", lambda m, x: m.im2col(x, (2, 3), padding=1, stride=(2, 1)), (2, 2, 3, 4)),
    C("im2col_unbatched_dilated", lambda m, x: m.im2col(x, 2, dilation=2), (2, 4, 3)),
    C("col2im", lambda m, x: m.col2im(x, (3, 4), (2, 2), padding=1, stride=2), (1, 8, 6)),
    # -- torch.linalg ----------------------------------------------------------------------------
    C("linalg_inv", lambda m, x: m.linalg_inv(x + 3 * m.eye(3)), (3, 3)),
    C("linalg_inv_batch", lambda m, x: m.linalg_inv(x + 3 * m.eye(3)), (2, 3, 3)),
    C("inverse", lambda m, x: m.inverse(x.mT + 3 * m.eye(3)), (3, 3)),
    C("det", lambda m, x: m.det(x), (2, 3, 3)),
    C("det_transposed", lambda m, x: m.det(x.mT), (3, 3)),
    C("linalg_slogdet", lambda m, x: m.linalg_slogdet(x + 3 * m.eye(3)), (3, 3)),
    C("logdet", lambda m, x: m.logdet(x @ x.mT + m.eye(3)), (3, 3)),
    C("linalg_solve", lambda m, a, b: m.linalg_solve(a + 3 * m.eye(3), b), (3, 3), (3, 2)),
    C("linalg_solve_vector_batch", lambda m, a, b: m.linalg_solve(a + 3 * m.eye(3), b),
      (2, 3, 3), (3,)),
    C("linalg_solve_right", lambda m, a, b: m.linalg_solve(a + 3 * m.eye(3), b, left=False),
      (3, 3), (2, 3)),
    C("solve_triangular", lambda m, a, b: m.solve_triangular(a + 4 * m.eye(3), b, upper=True),
      (3, 3), (3, 2)),
    C("solve_triangular_right_unit", lambda m, a, b: m.solve_triangular(
        a, b, upper=False, left=False, unitriangular=True), (3, 3), (2, 3)),
    C("linalg_cholesky", lambda m, x: m.linalg_cholesky(x @ x.mT + m.eye(3)), (3, 3)),
    C("linalg_cholesky_upper", lambda m, x: m.linalg_cholesky(x @ x.mT + m.eye(3), upper=True),
      (2, 3, 3)),
    C("qr", lambda m, x: m.qr(x), (4, 3)),
    C("qr_wide", lambda m, x: m.qr(x), (2, 4)),
    C("svdvals", lambda m, x: m.svdvals(x), (3, 2), domain="distinct"),
    C("linalg_svd_invariant", lambda m, x: (lambda r: (r.U @ r.Vh, r.S))(
        m.linalg_svd(x, full_matrices=False)), (3, 2), domain="distinct"),
    C("linalg_svd_full_wide", lambda m, x: (lambda r: (r.U @ r.Vh[:2], r.S))(
        m.linalg_svd(x)), (2, 3), domain="distinct"),
    C("eigh_invariant", lambda m, x: (lambda r: (r.eigenvectors ** 2 * r.eigenvalues))(
        m.eigh(x + x.mT)), (3, 3), domain="distinct"),
    C("eigvalsh_upper", lambda m, x: m.eigvalsh(x + x.mT, UPLO="U"), (3, 3), domain="distinct"),
    C("pinv", lambda m, x: m.pinv(x), (3, 2)),
    C("pinv_wide_hermitian", lambda m, x: m.pinv(x @ x.mT, hermitian=True), (2, 3)),
    C("matrix_norm_nuc", lambda m, x: m.matrix_norm(x, "nuc"), (2, 3, 2), domain="distinct"),
    C("matrix_norm_2_keepdim", lambda m, x: m.matrix_norm(x, 2, dim=(0, 2), keepdim=True),
      (2, 3, 2), domain="distinct"),
    C("matrix_norm_inf", lambda m, x: m.matrix_norm(x, float("inf")), (3, 3),
      domain="distinct"),
    C("linalg_norm_fro", lambda m, x: m.linalg_norm(x, dim=(0, 1)), (2, 3)),
    C("logit_eps", lambda m, x: x.logit(eps=0.1), S, domain="unit"),
    C("take", lambda m, x: x.take(m.tensor([0, 5, 5, 2])), S),
    C("index_fill", lambda m, x: x.index_fill(1, m.tensor([0, 2]), -1.0) * x, S),
    C("scatter", lambda m, x, s: x.scatter(0, m.tensor([[1, 0, 1]]), s) ** 2, S, (1, 3)),
    C("scatter_value", lambda m, x: m.scatter(x, 1, m.tensor([[2], [0]]), 7.0) * x, S),
    C("scatter_add", lambda m, x, s: x.scatter_add(0, m.tensor([[1, 1, 0]]), s) ** 2, S, (1, 3)),
    C("index_add", lambda m, x, s: x.index_add(0, m.tensor([1]), s, alpha=2.0) ** 2, S, (1, 3)),
    C("median_all", lambda m, x: x.median(), S, domain="distinct"),
    C("median_dim", lambda m, x: x.median(1)[0], S, domain="distinct"),
    C("kthvalue", lambda m, x: m.kthvalue(x, 2, 0, keepdim=True)[0], S, domain="distinct"),
    C("mode", lambda m, x: x.mode(1)[0], S, domain="distinct"),
    C("xlogy", lambda m, x, y: m.xlogy(x, y), S, S, domain="positive"),
    C("kl_div", lambda m, x, p: m.kl_div(m.log_softmax(x, 1), m.softmax(p, 1),
                                         reduction="batchmean"), S, S),
    # -- copies and casts ----------------------------------------------------------------------
    C("clone", lambda m, x: x.clone(), S),
    C("double", lambda m, x: x.double(), S),
    C("to_float64", lambda m, x: x.to(m.float64), S),
    # (finite differences through a float32 cast are too coarse to check)
    C("to_copy", lambda m, x: x.to(m.float32, copy=True), S, fd=False),
    C("float_noop", lambda m, x: x.float(), S, fd=False),
    C("double_then_float", lambda m, x: (x.double() * 3).float(), S, fd=False),
]


def test_op_table_names_are_unique() -> None:
    names = [c.name for c in OP_TABLE]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", OP_TABLE, ids=str)
def test_op(case: Case, torch: Any) -> None:
    arrays = _inputs(case)
    if case.fd:
        check_grads(lambda *xs: _first(case.f(ops, *xs)), *arrays)
    run_parity(torch, case.f, [a.astype(np.float32) for a in arrays], rtol=case.rtol,
               atol=case.atol)


def _first(value: Any) -> Any:
    """The tensor finite differences check: the first of a tuple of outputs."""
    if isinstance(value, tuple):
        return _stack_outputs(value)
    return value


def _stack_outputs(values: tuple[Any, ...]) -> Any:
    """A differentiable single tensor from several outputs (split, max(dim) ...)."""
    from gradsh.engine.tensor import Tensor

    parts = [v.reshape(-1) for v in values if isinstance(v, Tensor) and v.dtype.is_floating_point]
    return ops.cat(parts)


# ---------------------------------------------------------------------------------------------
# Kinks and edges: exactly PyTorch's choice of (sub)gradient
# ---------------------------------------------------------------------------------------------

EDGE = np.array([-1.0, -0.5, 0.0, 0.5, 1.0], dtype=np.float32)
TIES = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], dtype=np.float32)

KINKS = [
    pytest.param(lambda m, x: m.relu(x), [EDGE], id="relu_at_0"),
    pytest.param(lambda m, x: m.relu(x * 1), [EDGE], id="relu_nonleaf"),
    pytest.param(lambda m, x: m.abs(x), [EDGE], id="abs_at_0"),
    pytest.param(lambda m, x: m.sign(x), [EDGE], id="sign_at_0"),
    pytest.param(lambda m, x: x.clamp(-0.5, 0.5), [EDGE], id="clamp_at_bounds"),
    pytest.param(lambda m, x: x.clamp(min=0.0), [EDGE], id="clamp_min_at_bound"),
    pytest.param(lambda m, x: m.clamp_max(x, 0.5), [EDGE], id="clamp_max_at_bound"),
    pytest.param(lambda m, x: x.clamp(0.5, -0.5), [EDGE], id="clamp_min_above_max"),
    pytest.param(lambda m, x, lo: m.clamp(x, min=lo), [EDGE, EDGE[::-1].copy()],
                 id="clamp_tensor_ties"),
    pytest.param(lambda m, x, lo, hi: m.clamp(x, lo, hi), [EDGE, EDGE * 0, EDGE * 0],
                 id="clamp_tensor_equal_bounds"),
    pytest.param(lambda m, x: m.sqrt(x), [np.array([0.0, 1.0, 4.0], np.float32)],
                 id="sqrt_at_0"),
    pytest.param(lambda m, x: m.log(x), [np.array([0.0, 1.0, 2.0], np.float32)], id="log_at_0"),
    pytest.param(lambda m, x: m.log(x), [np.array([-1.0, 1.0], np.float32)],
                 id="log_negative"),
    pytest.param(lambda m, x: m.rsqrt(x), [np.array([0.0, 4.0], np.float32)], id="rsqrt_at_0"),
    pytest.param(lambda m, x: x.reciprocal(), [np.array([0.0, 2.0], np.float32)],
                 id="reciprocal_at_0"),
    pytest.param(lambda m, x: x ** 0.5, [np.array([0.0, 4.0], np.float32)], id="pow_half_at_0"),
    pytest.param(lambda m, x: x ** 2, [EDGE], id="pow_2_at_0"),
    pytest.param(lambda m, x: x ** 0, [EDGE], id="pow_0_at_0"),
    pytest.param(lambda m, x: x ** -1, [EDGE], id="pow_neg1_at_0"),
    pytest.param(lambda m, x, y: x ** y, [np.array([0.0, 0.0, 2.0], np.float32),
                                         np.array([0.0, 2.0, -1.0], np.float32)], id="pow_tt_0"),
    pytest.param(lambda m, x: 0 ** x, [EDGE], id="rpow_base_0"),
    pytest.param(lambda m, x: x.max(), [TIES], id="max_ties"),
    pytest.param(lambda m, x: x.min(), [TIES], id="min_ties"),
    pytest.param(lambda m, x: x.max(1), [TIES], id="max_dim_ties"),
    pytest.param(lambda m, x: x.min(0), [TIES], id="min_dim_ties"),
    pytest.param(lambda m, x: x.amax(1), [TIES], id="amax_ties"),
    pytest.param(lambda m, x: x.norm(float("inf")), [TIES], id="norm_inf_ties"),
    pytest.param(lambda m, x, y: m.maximum(x, y), [EDGE, EDGE * 0], id="maximum_ties"),
    pytest.param(lambda m, x, y: m.minimum(x, y), [EDGE, EDGE * 0], id="minimum_ties"),
    pytest.param(lambda m, x: m.maximum(x, x), [EDGE], id="maximum_self"),
    pytest.param(lambda m, x: x.norm(), [np.zeros(3, np.float32)], id="norm_zero_vector"),
    pytest.param(lambda m, x: x.norm(dim=1), [np.array([[0.0, 0.0], [3.0, 4.0]], np.float32)],
                 id="norm_zero_row"),
    pytest.param(lambda m, x: x.norm(p=1), [EDGE], id="norm_1_at_0"),
    pytest.param(lambda m, x: x.std(), [np.ones(4, np.float32)], id="std_zero_variance"),
    pytest.param(lambda m, x: x.prod(), [np.array([0.0, 2.0, 3.0], np.float32)],
                 id="prod_one_zero"),
    pytest.param(lambda m, x: x.prod(), [np.array([0.0, 2.0, 0.0], np.float32)],
                 id="prod_two_zeros"),
    pytest.param(lambda m, x: m.where(x > 0, m.log(x), x), [EDGE], id="where_nan_branch"),
    pytest.param(lambda m, x: x / x, [np.array([0.0, 1.0], np.float32)], id="div_zero_by_zero"),
    pytest.param(lambda m, x: m.tanh(x * 50), [EDGE], id="tanh_saturated"),
    pytest.param(lambda m, x: m.sigmoid(x * 200), [EDGE], id="sigmoid_saturated"),
    pytest.param(lambda m, x: m.exp(x * 100), [EDGE], id="exp_overflow"),
    pytest.param(lambda m, x: m.softmax(x * 1000, 0), [EDGE], id="softmax_extreme"),
    pytest.param(lambda m, x: m.heaviside(x, m.tensor(0.25)), [EDGE], id="heaviside_raises"),
    pytest.param(lambda m, x, v: m.heaviside(x, v), [EDGE, EDGE + 2], id="heaviside_values"),
]


@pytest.mark.parametrize("f, arrays", KINKS)
def test_kink(f: Callable[..., Any], arrays: list[np.ndarray], torch: Any) -> None:
    run_parity(torch, f, arrays)


@pytest.mark.parametrize("values", [[-2.0, 0.0, 3.0, 0.0], [0.0, -1.0, 0.0], [-1.0, 0.0, 2.0]])
def test_prod_gradient_at_zeros_signs_and_graph(values: list[float], torch: Any) -> None:
    """prod's gradient at zeros, printed (so the signs of zeros count): two zeros or more give
    ATen's zeros_like (+0.) on a first backward; under create_graph the product of the others,
    computed over the flattened input and viewed back (ViewBackward0)."""
    import gradsh.torch as gt

    def run(m: Any) -> list[str]:
        x = m.tensor(values, requires_grad=True)
        (x * 1).prod().backward()
        y = m.tensor(values, dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(y.prod(), y, create_graph=True)
        z = m.tensor([values], requires_grad=True)
        z.prod(1).sum().backward()
        return [str(x.grad), str(g), str(z.grad)]

    assert run(gt) == run(torch)


# ---------------------------------------------------------------------------------------------
# Higher-order gradients: create_graph results, their graphs and the second derivatives
# ---------------------------------------------------------------------------------------------

POSITIVE = np.array([[0.5, 1.5, 2.0], [1.0, 3.0, 0.25]], dtype=np.float32)
MIXED = np.array([[0.5, -1.5, 2.0], [-1.0, 3.0, 0.25]], dtype=np.float32)

SECOND_ORDER = [
    ("mul", lambda m, x: x * x, POSITIVE),
    ("mul_scalar", lambda m, x: x * 3, POSITIVE),
    ("pow", lambda m, x: x ** 3, MIXED),
    ("pow_tensor", lambda m, x: x ** x, POSITIVE),
    ("rpow", lambda m, x: 2 ** x, MIXED),
    ("exp", lambda m, x: m.exp(x), MIXED),
    ("log", lambda m, x: m.log(x), POSITIVE),
    ("sin", lambda m, x: m.sin(x), MIXED),
    ("cos", lambda m, x: m.cos(x), MIXED),
    ("tan", lambda m, x: m.tan(x), MIXED * 0.3),
    ("tanh", lambda m, x: m.tanh(x), MIXED),
    ("sigmoid", lambda m, x: m.sigmoid(x), MIXED),
    ("relu", lambda m, x: m.relu(x), MIXED),
    ("sqrt", lambda m, x: m.sqrt(x), POSITIVE),
    ("abs", lambda m, x: m.abs(x), MIXED),
    ("reciprocal", lambda m, x: m.reciprocal(x), POSITIVE),
    ("div", lambda m, x: 1 / x, POSITIVE),
    ("div_tensors", lambda m, x: x / (x + 1), POSITIVE),
    ("sub_rsub", lambda m, x: (1 - x) * (x - 2), MIXED),
    ("sum", lambda m, x: (x * x).sum(0), MIXED),
    ("mean", lambda m, x: (x * x).mean(), MIXED),
    ("matmul", lambda m, x: x @ x.t(), MIXED),
    ("mv", lambda m, x: x @ x[0], MIXED),
    ("dot", lambda m, x: x[0] @ x[1], MIXED),
    ("softmax", lambda m, x: m.softmax(x, 1) * x, MIXED),
    ("log_softmax", lambda m, x: m.log_softmax(x, 1) * x, MIXED),
    ("mse_loss", lambda m, x: m.mse_loss(x * x, m.zeros(2, 3)), MIXED),
    ("cross_entropy", lambda m, x: m.cross_entropy(x * x, m.tensor([0, 1])), MIXED),
    ("cross_entropy_3d", lambda m, x: m.cross_entropy((x * x).reshape(1, 2, 3),
                                                      m.tensor([[0, 1, 1]])), MIXED),
    ("nll_loss_4d", lambda m, x: m.nll_loss(x.reshape(1, 3, 2, 1) * x.reshape(1, 3, 2, 1),
                                            m.tensor([[[0], [2]]])), MIXED),
    ("norm", lambda m, x: x.norm(), MIXED),
    ("var", lambda m, x: x.var(), MIXED),
    ("std", lambda m, x: x.std(), MIXED),
    ("prod", lambda m, x: x.prod(), POSITIVE),
    ("select", lambda m, x: x[0] * x[1], MIXED),
    ("slice", lambda m, x: x[:, 1:] ** 2, MIXED),
    ("maximum", lambda m, x: m.maximum(x, x[[1, 0]]) ** 2, MIXED),
    ("where", lambda m, x: m.where(x > 1, x * x, x), MIXED),
    ("clamp", lambda m, x: x.clamp(0, 1) * x, MIXED),
    ("expand_sum", lambda m, x: x[:, :1].expand(2, 3) * x, MIXED),
    ("view", lambda m, x: x.view(6) ** 2, MIXED),

    ("max_all_ties", lambda m, x: (x * 0 + 1).max() * x, MIXED),
    ("max_dim", lambda m, x: x.max(1)[0] ** 2, MIXED),
    ("amax", lambda m, x: x.amax(0) ** 2, MIXED),
    ("mean_dim", lambda m, x: x.mean(1) ** 2, MIXED),
    ("var_of_scalar", lambda m, x: x.sum().var() * x, MIXED),
    ("std_of_scalar", lambda m, x: x.sum().std() * x, MIXED),
    ("transpose", lambda m, x: x.t() ** 2, MIXED),
    # the activations whose backward is an op of its own (EluBackwardBackward0 ...), and the
    # unary formulas derivatives.yaml writes with self.pow(2) or `1 - x` (SubBackward0)
    ("elu", lambda m, x: m.elu(x, alpha=0.7), MIXED),
    ("elu_inplace", lambda m, x: m.elu(x * 1, alpha=0.7, inplace=True), MIXED),
    ("selu", lambda m, x: m.selu(x), MIXED),
    ("celu", lambda m, x: m.celu(x, alpha=0.5), MIXED),
    ("gelu", lambda m, x: m.gelu(x), MIXED),
    ("gelu_tanh", lambda m, x: m.gelu(x, approximate="tanh"), MIXED),
    ("softplus", lambda m, x: m.softplus(x, beta=2.0, threshold=3.0), MIXED),
    ("logsigmoid", lambda m, x: m.logsigmoid(x), MIXED),
    ("hardtanh", lambda m, x: m.hardtanh(x * 1.7) * x, MIXED),
    ("relu6", lambda m, x: m.relu6(x * 3) * x, MIXED),
    ("leaky_relu", lambda m, x: m.leaky_relu(x, 0.2) * x, MIXED),
    ("leaky_relu_inplace", lambda m, x: m.leaky_relu(x * 1, 0.2, inplace=True) * x, MIXED),
    ("hardswish", lambda m, x: m.hardswish(x * 2), MIXED),
    ("softshrink", lambda m, x: m.softshrink(x, 0.6) * x, MIXED),
    ("hardshrink", lambda m, x: m.hardshrink(x, 0.6) * x, MIXED),
    ("silu", lambda m, x: m.silu(x), MIXED),
    ("mish", lambda m, x: m.mish(x), MIXED),
    ("asinh", lambda m, x: m.asinh(x), MIXED),
    ("atanh", lambda m, x: m.atanh(x * 0.3), MIXED),
    ("erfc", lambda m, x: m.erfc(x), MIXED),
    ("logit", lambda m, x: m.logit(x * 0.2 + 0.5), MIXED),
    ("logit_eps", lambda m, x: m.logit(x * 0.4 + 0.5, eps=0.1), MIXED),
    ("smooth_l1", lambda m, x: m.smooth_l1_loss(x[0] * x[0], x[1], beta=0.7), MIXED),
    ("smooth_l1_sum", lambda m, x: m.smooth_l1_loss(x[0], x[1] * 2, reduction="sum"), MIXED),
    ("huber_none", lambda m, x: m.huber_loss(x[0], x[1] * 2, reduction="none", delta=0.8),
     MIXED),
    ("huber", lambda m, x: m.huber_loss(x[0] * x[0], x[1], delta=0.8), MIXED),
    # glu_backward, binary_cross_entropy_backward: their own nodes (GluBackwardBackward0,
    # BinaryCrossEntropyBackwardBackward0); bce with logits and dist: the formulas'
    # operations in PyTorch's order (DivBackward1 last, norm_backward's MaskedFillBackward0)
    ("glu", lambda m, x: m.glu(x, 0), MIXED),
    ("glu_dim1", lambda m, x: m.glu(x[:, :2] * x[:, 1:], 1), MIXED),
    ("bce", lambda m, x: m.binary_cross_entropy(m.sigmoid(x), m.sigmoid(x.detach() * 2)),
     MIXED),
    ("bce_weight", lambda m, x: m.binary_cross_entropy(
        m.sigmoid(x), m.sigmoid(x.detach() * 2), weight=x.detach().abs()), MIXED),
    ("bce_sum_target", lambda m, x: m.binary_cross_entropy(
        m.sigmoid(x), m.sigmoid(x * 2), reduction="sum"), MIXED),
    ("bce_none", lambda m, x: m.binary_cross_entropy(
        m.sigmoid(x), m.sigmoid(-x), reduction="none") * x, MIXED),
    ("bce_logits", lambda m, x: m.binary_cross_entropy_with_logits(
        x, m.sigmoid(x.detach() * 2)), MIXED),
    ("bce_logits_target", lambda m, x: m.binary_cross_entropy_with_logits(
        x * x, m.sigmoid(x * 2)), MIXED),
    ("bce_logits_pos_weight", lambda m, x: m.binary_cross_entropy_with_logits(
        x, m.sigmoid(x.detach()), pos_weight=m.tensor([1.0, 2.0, 0.5])), MIXED),
    ("dist", lambda m, x: m.dist(x[0], x[1]), MIXED),
    ("dist_p3", lambda m, x: m.dist(x[0], x[1], 3), MIXED),
    ("dist_inf", lambda m, x: m.dist(x[0], x[1], float("inf")), MIXED),
    # native_layer_norm_backward: one node of three results (NativeLayerNormBackwardBackward0)
    ("layer_norm", lambda m, x: m.layer_norm(x, (3,)), MIXED),
    ("layer_norm_affine", lambda m, x: m.layer_norm(x * x, (3,), x[0] * 1, x[1] * 1) * x, MIXED),
    ("layer_norm_2d_weight", lambda m, x: m.layer_norm(x.reshape(1, 2, 3), (2, 3), x * 2,
                                                       None).sin(), MIXED),
]


# PyTorch differentiates prod at zeros through cumprod and flip, which gradsh does not have:
# the second derivatives agree, the graph of the first derivative does not.
SECOND_ORDER_VALUES_ONLY = [
    ("prod_with_zero", lambda m, x: (x * (x > 1)).prod(), MIXED),
    ("prod_dim_with_zeros", lambda m, x: (x * (x > 1)).prod(1) * x[0], MIXED),
]
# torch.linalg's formulas under create_graph: the values (the graphs of the helpers that build
# diagonal matrices differ: a product with eye where PyTorch writes into a diagonal view).
SECOND_ORDER_LINALG = [
    ("linalg_inv", lambda m, x: m.linalg_inv(x @ x.mT + m.eye(2)), MIXED),
    ("det", lambda m, x: m.det(x[:, :2]) * x, MIXED),
    ("det_singular", lambda m, x: m.det(x[:, :2] * 0 + x[0, :2]) * x, MIXED),
    ("linalg_slogdet", lambda m, x: m.linalg_slogdet(x @ x.mT)[1] * x, MIXED),
    ("linalg_solve", lambda m, x: m.linalg_solve(x[:, :2] + 3 * m.eye(2), x), MIXED),
    ("solve_triangular", lambda m, x: m.solve_triangular(x[:, 1:] + 3 * m.eye(2), x,
                                                         upper=False), MIXED),
    ("linalg_cholesky", lambda m, x: m.linalg_cholesky(x @ x.mT + m.eye(2)), MIXED),
    ("qr", lambda m, x: m.qr(x.mT).Q * m.qr(x.mT).R.sum(), MIXED),
    ("svdvals", lambda m, x: m.svdvals(x), MIXED),
    ("linalg_svd_invariant", lambda m, x: (lambda r: r.U @ r.Vh)(
        m.linalg_svd(x, full_matrices=False)), MIXED),
    ("eigh_invariant", lambda m, x: (lambda r: r.eigenvectors ** 2 * r.eigenvalues)(
        m.eigh(x @ x.mT)), MIXED),
    ("pinv", lambda m, x: m.pinv(x), MIXED),
]
SECOND_ORDER_VALUES_ONLY += SECOND_ORDER_LINALG


def _inplace_on_view(m: Any, x: Any) -> Any:
    y = x * x
    v = y[0]
    v.mul_(y[1].detach() + x[1])
    w = y.t()
    w[1:].exp_()
    return y ** 2


def _setitem_then_view(m: Any, x: Any) -> Any:
    y = x * 1
    y[0] = x[1] * x[0]
    a = y[:, 1:]
    a.pow_(2)
    return y.sin() * a.sum()


# Through CopySlices and the views regenerated after in-place changes (AsStridedBackward0).
SECOND_ORDER += [
    ("inplace_on_view", _inplace_on_view, MIXED),
    ("setitem_then_view", _setitem_then_view, MIXED),
]


@pytest.mark.parametrize("f, x, graphs", [
    *[pytest.param(f, x, True, id=name) for name, f, x in SECOND_ORDER],
    *[pytest.param(f, x, False, id=name) for name, f, x in SECOND_ORDER_VALUES_ONLY],
])
def test_second_order(f: Callable[..., Any], x: np.ndarray, graphs: bool, torch: Any) -> None:
    def first_derivative(m: Any, t: Any) -> Any:
        y = f(m, t)
        return m.grad(y.sum() if y.dim() else y, t, create_graph=True)

    # The create_graph gradient's value and graph, then its own backward (the second
    # derivative, accumulated into the input) against PyTorch.
    run_parity(torch, first_derivative, [x], twice=False, graphs=graphs)


@pytest.mark.parametrize("name, f", [
    ("elu", lambda m, x: m.elu(x, alpha=0.7)),
    ("softplus", lambda m, x: m.softplus(x, beta=2.0, threshold=3.0)),
    ("gelu", lambda m, x: m.gelu(x)),
    ("gelu_tanh", lambda m, x: m.gelu(x, approximate="tanh")),
    ("logsigmoid", lambda m, x: m.logsigmoid(x)),
    ("hardswish", lambda m, x: m.hardswish(x * 2)),
    ("tanh", lambda m, x: m.tanh(x)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_third_order_of_activations(torch: Any, name: str, f: Callable[..., Any]) -> None:
    """Through the double-backward nodes' own backward (elu_double_backward ...)."""
    def third(m: Any, t: Any) -> Any:
        g1, = m.grad(f(m, t).sum(), t, create_graph=True)
        g2, = m.grad((g1 * g1).sum(), t, create_graph=True)
        return g2

    run_parity(torch, third, [MIXED])


@pytest.mark.parametrize("loss", ["smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_piecewise_loss_double_backward_in_every_input(torch: Any, loss: str,
                                                       reduction: str) -> None:
    """SmoothL1LossBackwardBackward0 / HuberLossBackwardBackward0: the gradients of the first
    derivative in grad_output, input and target (grad_output's summed when reduced)."""
    def case(m: Any, x: Any, t: Any) -> Any:
        y = getattr(m, loss)(x, t, reduction=reduction, **{
            "smooth_l1_loss": {"beta": 0.5}, "huber_loss": {"delta": 0.5}}[loss])
        go = m.ones_like(y).requires_grad_()
        gx, gt = m.grad(y, (x, t), go, create_graph=True)
        weights = m.tensor([1.0, -2.0, 0.5, 3.0])
        return m.grad((gx * weights).sum() + (gt * gt).sum(), (go, x, t), create_graph=True)

    run_parity(torch, case, [np.array([0.5, -1.5, 2.0, 0.1], np.float32),
                             np.array([0.3, 0.2, 0.0, 0.05], np.float32)], backward=False)


def test_hardsigmoid_double_backward_is_not_implemented(torch: Any) -> None:
    def second(m: Any, t: Any) -> Any:
        g, = m.grad(m.hardsigmoid(t).sum(), t, create_graph=True)
        return g

    expected, actual = run_parity(torch, second, [MIXED], backward=False)
    assert actual.value.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(TorchError, match="derivative for aten::hardsigmoid_backward is not "
                                         "implemented"):
        actual.value.sum().backward()


def test_third_order(torch: Any) -> None:
    def third(m: Any, t: Any) -> Any:
        g1, = m.grad((t ** 4).sum(), t, create_graph=True)
        g2, = m.grad(g1.sum(), t, create_graph=True)
        return m.grad(g2.sum(), t, create_graph=True)

    run_parity(torch, third, [MIXED])
