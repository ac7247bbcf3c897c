"""The differentiable ops of the Tensor surface programs touch (in-place forms, indexing
writes, cross, tensordot ...) against float64 finite differences and against PyTorch, with
test_gradients.py's table machinery."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gradcheck import check_grads, run_parity
from test_gradients import C, Case, S, _first, _inputs

from gradsh.engine import ops

ROWS = (1, 3)
OP_TABLE: list[Case] = [
    # in-place forms on a non-leaf: the same node as the function, recorded in place
    C("floor_", lambda m, x: (x * 1).floor_(), S, domain="smooth_kink", edges=False),
    C("sinh_", lambda m, x: (x * 1).sinh_() * x, S),
    C("asin_", lambda m, x: (x * 0.4).asin_(), S),
    C("log2_", lambda m, x: (x * 1).log2_(), S, domain="positive"),
    C("expm1_", lambda m, x: (x * 1).expm1_(), S),
    C("round_decimals", lambda m, x: m.round(x * 3, decimals=1) + x, S, fd=False),
    C("lerp_", lambda m, x, y: (x * 1).lerp_(y, 0.3), S, S),
    C("addcmul_", lambda m, x, a, b: (x * 1).addcmul_(a, b, value=2.0), S, S, (3,)),
    C("addcdiv_", lambda m, x, a, b: (x * 1).addcdiv_(a, b, value=0.5), S, S, S,
      domain="nonzero"),
    C("remainder_", lambda m, x: (x * 1).remainder_(2.5), S, domain="nonzero", edges=False),
    C("fmod_tensor_", lambda m, x, y: (x * 0.4).fmod_(y + 3), S, S),
    C("atan2_", lambda m, x, y: (x * 1).atan2_(y), S, S, domain="nonzero"),
    C("xlogy_", lambda m, x, y: (x * 1).xlogy_(y), S, S, domain="positive"),
    C("true_divide_", lambda m, x, y: (x * 1).true_divide_(y), S, S, domain="nonzero"),
    # writes at indices
    C("index_add_", lambda m, x, s: (x * 1).index_add_(0, m.tensor([1]), s, alpha=2.0) ** 2,
      S, ROWS),
    C("index_fill_", lambda m, x: (x * 1).index_fill_(1, m.tensor([0, 2]), -1.0) * x, S),
    C("index_fill_tensor", lambda m, x, v: x.index_fill(1, m.tensor([0, 2]), v.sum()) * x,
      S, (2,)),
    C("scatter_", lambda m, x, s: (x * 1).scatter_(0, m.tensor([[1, 0, 1]]), s) ** 2, S, ROWS),
    C("scatter_value_", lambda m, x: (x * 1).scatter_(1, m.tensor([[2], [0]]), 7.0) * x, S),
    C("scatter_add_", lambda m, x, s: (x * 1).scatter_add_(0, m.tensor([[1, 1, 0]]), s) ** 2,
      S, ROWS),
    C("index_copy", lambda m, x, s: x.index_copy(0, m.tensor([1]), s) ** 2, S, ROWS),
    C("index_copy_", lambda m, x, s: (x * 1).index_copy_(1, m.tensor([2, 0]), s) * x, S,
      (2, 2)),
    C("masked_scatter", lambda m, x, s: x.masked_scatter(m.tensor([True, False, True]), s) ** 2,
      S, (2, 3)),
    C("masked_scatter_", lambda m, x, s: (x * 1).masked_scatter_(x > 0, s) * x, S, (7,),
      domain="nonzero"),
    C("index_put_acc", lambda m, x, v: (x * 1).index_put_((m.tensor([1, 1]),), v,
                                                           accumulate=True) ** 2, S, (3,)),
    C("index_put", lambda m, x, v: m.index_put(x, (m.tensor([0]), m.tensor([2])), v) * x,
      S, ()),
    # products and compositions
    C("cross", lambda m, x, y: m.cross(x, y, dim=1), (2, 3), (2, 3)),
    C("cross_broadcast", lambda m, x, y: m.cross(x, y, dim=0) ** 2, (3, 2), (3, 1)),
    C("tensordot", lambda m, x, y: m.tensordot(x, y, dims=([1], [0])), S, (3, 2)),
    C("tensordot_2", lambda m, x, y: m.tensordot(x, y, dims=2), S, S),
    C("tensordot_0", lambda m, x, y: m.tensordot(x, y, dims=0), (2,), (3,)),
    C("tensordot_dot", lambda m, x, y: m.tensordot(x[:1], y, dims=1), S, (3, 1)),
    C("atleast_3d", lambda m, x: m.atleast_3d(x) * 2, (3,)),
    C("broadcast_tensors", lambda m, x, y: m.broadcast_tensors(x, y)[0] * y, (3,), S),
    C("cartesian_prod", lambda m, x, y: m.cartesian_prod(x, y) ** 2, (3,), (2,)),
    C("hstack", lambda m, x, y: m.hstack([x, y]) ** 2, S, S),
    C("column_stack", lambda m, x, y: m.column_stack([x, y]) * 3, (3,), (3, 2)),
    C("tile", lambda m, x: x.tile((2, 1, 2)) ** 2, S),
    C("repeat_interleave", lambda m, x: x.repeat_interleave(3, dim=1) ** 2, S),
    C("repeat_interleave_tensor", lambda m, x: x.repeat_interleave(m.tensor([2, 0]), 0) ** 2,
      S),
    C("tensor_split", lambda m, x: x.tensor_split(2, dim=1), S),
    C("take_along_dim", lambda m, x: m.take_along_dim(x, m.tensor([[2], [0]]), 1) ** 2, S),
    C("sum_to_size", lambda m, x: x.sum_to_size(3) ** 2, S),
    C("diff", lambda m, x: x.diff(n=2) ** 2, (2, 5)),
    C("asinh", lambda m, x: m.asinh(x), S),
    C("acosh", lambda m, x: m.acosh(x + 3), S),
    C("atanh", lambda m, x: (x * 0.4).atanh(), S),
    # atanh_'s backward is PyTorch's "not implemented" error: parity only
    C("atanh_", lambda m, x: (x * 0.4).atanh_(), S, fd=False),
    C("erfc", lambda m, x: m.erfc(x), S),
    C("deg2rad", lambda m, x: m.deg2rad(x) * x, S),
    C("hypot", lambda m, x, y: m.hypot(x, y), S, S, domain="nonzero"),
    C("logaddexp", lambda m, x, y: m.logaddexp(x, y), S, (3,)),
    C("logaddexp2", lambda m, x, y: m.logaddexp2(x, y), S, S),
    C("copysign", lambda m, x, y: m.copysign(x, y), S, S, domain="nonzero"),
    C("copysign_scalar", lambda m, x: m.copysign(x, -1.0), S, domain="nonzero"),
    C("fmax", lambda m, x, y: m.fmax(x, y), S, S, domain="distinct"),
    C("fmin", lambda m, x, y: m.fmin(x, y), S, (3,), domain="distinct"),
    C("nansum", lambda m, x: m.nansum(x, 1) ** 2, S),
    C("nanmean", lambda m, x: m.nanmean(x * x, 0), S),
    C("cummax", lambda m, x: x.cummax(1)[0] * 2, (2, 4), domain="distinct"),
    C("cummin", lambda m, x: m.cummin(x, 0).values * 2, (3, 2), domain="distinct"),
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


@pytest.mark.parametrize("f", [
    lambda m, x: m.std_mean(x, 1),
    lambda m, x: m.var_mean(x, 0, keepdim=True),
    lambda m, x: m.std_mean(x, correction=0),
], ids=["std_mean", "var_mean", "std_mean_all"])
def test_mean_pairs(f: Any, torch: Any) -> None:
    """std_mean and var_mean: values and gradients as PyTorch's (one StdMeanBackward0 node
    there, two nodes here: the graphs are not compared)."""
    arrays = _inputs(C("pairs", f, S))
    check_grads(lambda x: _first(f(ops, x)), *arrays)
    run_parity(torch, f, [a.astype(np.float32) for a in arrays], graphs=False)
