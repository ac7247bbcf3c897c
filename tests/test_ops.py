"""gradsh's ops against PyTorch: creation, dtypes and promotion, shapes, indexing, setitem,
in-place ops, casts and the errors and warnings of each, all from tables run on both sides.

Every row is one snippet written once against a torch-like namespace `m` and run in PyTorch and
in gradsh on the same inputs (tests/gradcheck.py's run_parity): the result's values, dtype,
shape, requires_grad, is_leaf and grad_fn graph, or the error's type and exact text, and the
warnings, must be the same; where the result requires grad, so must the input gradients.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from gradcheck import run_parity

F32 = np.float32
X23 = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], dtype=F32)
X3 = np.array([1.0, 2.0, 3.0], dtype=F32)
I3 = np.array([1, 2, 3], dtype=np.int64)
B3 = np.array([True, False, True])


def case(name: str, f: Callable[..., Any], *arrays: Any, grad: Any = None,
         **kw: Any) -> Any:
    return pytest.param(f, list(arrays), grad, kw, id=name)


def _nonleaf(m: Any, x: Any) -> Any:
    return x * 1


CREATION = [
    case("tensor_float", lambda m: m.tensor([1.0, 2.0])),
    case("tensor_int", lambda m: m.tensor([1, 2])),
    case("tensor_bool", lambda m: m.tensor([True, False])),
    case("tensor_mixed", lambda m: m.tensor([1, 2.5])),
    case("tensor_empty", lambda m: m.tensor([])),
    case("tensor_nested", lambda m: m.tensor([[1, 2], [3, 4]])),
    case("tensor_ragged", lambda m: m.tensor([[1, 2], [3]])),
    case("tensor_scalar", lambda m: m.tensor(2.0, requires_grad=True)),
    case("tensor_dtype", lambda m: m.tensor([1, 2], dtype=m.float64)),
    case("tensor_float_to_int", lambda m: m.tensor([1.7, -1.7], dtype=m.int64)),
    case("tensor_int_requires_grad", lambda m: m.tensor([1, 2], requires_grad=True)),
    case("tensor_of_tensor", lambda m, x: m.tensor(x), X3),
    case("tensor_of_0d_tensors", lambda m: m.tensor([m.tensor(1.0), m.tensor(2.0)])),
    case("Tensor_ints", lambda m: m.Tensor_([2, 3])),
    case("Tensor_sizes", lambda m: m.Tensor_(2, 3).shape),
    case("zeros", lambda m: m.zeros(2, 3)),
    case("zeros_tuple", lambda m: m.zeros((2, 3), dtype=m.int64)),
    case("zeros_list", lambda m: m.zeros([2])),
    case("zeros_requires_grad", lambda m: m.zeros(2, requires_grad=True)),
    case("zeros_int_requires_grad",
         lambda m: m.zeros(2, dtype=m.int64, requires_grad=True)),
    case("zeros_float_size", lambda m: m.zeros(2.5)),
    case("zeros_float_size_second", lambda m: m.zeros(2, 2.5)),
    case("ones", lambda m: m.ones(3)),
    case("ones_0d", lambda m: m.ones(())),
    case("full_int", lambda m: m.full((2,), 3)),
    case("full_float", lambda m: m.full((2, 2), 7.0)),
    case("full_bool", lambda m: m.full((2,), True)),
    case("full_dtype", lambda m: m.full((2,), 3, dtype=m.float32)),
    case("arange_int", lambda m: m.arange(5)),
    case("arange_start_end", lambda m: m.arange(2, 7)),
    case("arange_step", lambda m: m.arange(0, 10, 3)),
    case("arange_float", lambda m: m.arange(0, 1, 0.1)),
    case("arange_float_start", lambda m: m.arange(1.5, 4)),
    case("arange_negative_step", lambda m: m.arange(5, 0, -1.5)),
    case("arange_requires_grad", lambda m: m.arange(10.0, requires_grad=True)),
    case("arange_int_requires_grad", lambda m: m.arange(10, requires_grad=True)),
    case("arange_zero_step", lambda m: m.arange(0, 10, 0)),
    case("arange_inconsistent", lambda m: m.arange(10, 0)),
    case("arange_negative_end", lambda m: m.arange(-3)),
    case("arange_dtype", lambda m: m.arange(4, dtype=m.float64)),
    case("arange_reshape", lambda m: m.arange(10.0, requires_grad=True).reshape(10, 1)),
    case("linspace", lambda m: m.linspace(0, 1, 5)),
    case("linspace_odd", lambda m: m.linspace(-1, 2.5, 7)),
    case("linspace_one", lambda m: m.linspace(3, 5, 1)),
    case("linspace_zero", lambda m: m.linspace(3, 5, 0)),
    case("linspace_int", lambda m: m.linspace(0, 10, 4, dtype=m.int64)),
    case("linspace_negative", lambda m: m.linspace(0, 1, -1)),
    case("eye", lambda m: m.eye(3)),
    case("eye_rect", lambda m: m.eye(2, 3)),
    case("zeros_like", lambda m, x: m.zeros_like(x), X23),
    case("ones_like_dtype", lambda m, x: m.ones_like(x, dtype=m.float64), I3),
    case("full_like", lambda m, x: m.full_like(x, 2.5), X3),
    case("full_like_int", lambda m, x: m.full_like(x, 2.5), I3),
    case("empty_shape", lambda m: m.empty(2, 3).shape),
    case("empty_like_shape", lambda m, x: m.empty_like(x).shape, X23),
    case("zeros_like_requires_grad", lambda m, x: m.zeros_like(x, requires_grad=True), X3),
    case("randint_dtype", lambda m: m.randint(3, 10, (2,)).dtype),
    case("randint_requires_grad", lambda m: m.randint(3, 10, (2,), requires_grad=True)),
    case("rand_int_dtype", lambda m: m.rand(2, dtype=m.int64)),
    case("randn_int_dtype", lambda m: m.randn(2, dtype=m.int64)),
    case("rand_like_int", lambda m, x: m.rand_like(x), I3),
]

SEEDED = [
    case("rand", lambda m: (m.manual_seed(20200910), m.rand(10))[1]),
    case("randn", lambda m: (m.manual_seed(20200910), m.randn(3, 5))[1]),
    case("randn_requires_grad",
         lambda m: (m.manual_seed(0), m.randn(4, requires_grad=True).mean() * 2)[1]),
    case("randint_high", lambda m: (m.manual_seed(1), m.randint(10, (6,)))[1]),
    case("randint_low_high", lambda m: (m.manual_seed(1), m.randint(-5, 5, (2, 3)))[1]),
    case("rand_like", lambda m, x: (m.manual_seed(2), m.rand_like(x))[1], X23),
    case("randn_like", lambda m, x: (m.manual_seed(2), m.randn_like(x))[1], X23),
    case("rand_float64", lambda m: (m.manual_seed(3), m.rand(5, dtype=m.float64))[1]),
]

PROMOTION = [
    case("int_plus_float_scalar", lambda m, i: i + 2.5, I3),
    case("int_times_int_scalar", lambda m, i: i * 2, I3),
    case("int_div_int", lambda m, i: i / 2, I3),
    case("int_div_int_tensor", lambda m, i: i / i, I3),
    case("int_div_zero", lambda m, i: i / 0, I3),
    case("int_floordiv_zero", lambda m, i: i // 0, I3),
    case("int_mod_zero", lambda m, i: i % 0, I3),
    case("int_floordiv_tensor_zero", lambda m, i: i // (i - 1), I3),
    case("float_floordiv_zero", lambda m, x: x // 0, X3),
    case("int_floordiv", lambda m, i: i // 2, np.array([-3, 3, 4])),
    case("int_mod", lambda m, i: i % 2, np.array([-3, 3, 4])),
    case("float_mod_negative", lambda m, x: x % -1.5, X3),
    case("fmod_negative", lambda m, x: m.fmod(-x, 1.5), X3),
    case("float_plus_double_0d", lambda m, x: x + m.tensor(1.0, dtype=m.float64), X3),
    case("float_plus_double_1d", lambda m, x: x + m.ones(3, dtype=m.float64), X3),
    case("int_plus_double_0d", lambda m, i: i + m.tensor(1.0, dtype=m.float64), I3),
    case("bool_plus_int", lambda m, b: b + 1, B3),
    case("bool_plus_bool", lambda m, b: b + b, B3),
    case("bool_times_float", lambda m, b: b * 1.5, B3),
    case("bool_minus", lambda m, b: b - 1, B3),
    case("bool_neg", lambda m, b: -b, B3),
    case("int_pow_negative", lambda m, i: i ** -1, I3),
    case("int_pow_float", lambda m, i: i ** 0.5, I3),
    case("int_exp", lambda m, i: m.exp(i), I3),
    case("int_sqrt", lambda m, i: i.sqrt(), I3),
    case("int_sigmoid", lambda m, i: m.sigmoid(i), I3),
    case("int_relu", lambda m, i: m.relu(i - 2), I3),
    case("int_abs", lambda m, i: m.abs(-i), I3),
    case("int_neg", lambda m, i: -i, I3),
    case("int_sum", lambda m, i: i.sum(), I3),
    case("bool_sum", lambda m, b: b.sum(), B3),
    case("int_prod", lambda m, i: i.prod(), I3),
    case("int_mean", lambda m, i: i.mean(), I3),
    case("int_max", lambda m, i: i.max(), I3),
    case("int_var", lambda m, i: i.var(), I3),
    case("int_norm", lambda m, i: i.norm(), I3),
    case("int_softmax", lambda m, i: m.softmax(i, 0), I3),
    case("int_mse", lambda m, i: m.mse_loss(i, i), I3),
    case("maximum_mixed", lambda m, i, x: m.maximum(i, x), I3, X3),
    case("maximum_number", lambda m, x: m.maximum(x, 2), X3),
    case("clamp_int_float", lambda m, i: m.clamp(i, 1.5), I3),
    case("clamp_int_int", lambda m, i: i.clamp(2, 2), I3),
    case("clamp_min_above_max", lambda m, x: m.clamp(x, 2, 1), X3),
    case("clamp_none", lambda m, x: m.clamp(x), X3),
    case("where_promote", lambda m, b, i: m.where(b, i, 0.5), B3, I3),
    case("where_promote_double", lambda m, b, x: m.where(b, x, m.ones(3, dtype=m.float64)),
         B3, X3),
    case("where_nonbool", lambda m, x: m.where(x, x, x), X3),
    case("where_broadcast_error",
         lambda m: m.where(m.ones(3) > 0, m.ones(2, 3), m.ones(4, 1))),
    case("compare_int_float", lambda m, i: i > 1.5, I3),
    case("compare_broadcast", lambda m, x, y: x == y, X23, X3),
    case("compare_requires_grad", lambda m, x: x < 1, X3),
    case("compare_scalar_left", lambda m, x: 2 <= x, X3),
    case("ne", lambda m, x, y: x != y, X3, X3),
    case("bool_and", lambda m, b: b & ~b, B3),
    case("bool_or_int", lambda m, b, i: b | i, B3, I3),
    case("bool_xor", lambda m, b: b ^ True, B3),
    case("int_invert", lambda m, i: ~i, I3),
    case("float_and", lambda m, x: x & x, X3),
    case("float_invert", lambda m, x: ~x, X3),
    case("logical_not", lambda m, x: m.logical_not(x), X3),
    case("isnan", lambda m, x: m.isnan(x / x), np.array([0.0, 1.0], dtype=F32)),
    case("broadcast_error", lambda m: m.ones(2, 3) + m.ones(2)),
    case("broadcast_error_3d", lambda m: m.ones(4, 1, 3) * m.ones(2, 2)),
    case("broadcast_error_sub", lambda m, x: x - m.ones(4), X23),
    case("float16_mul", lambda m, x: x.half() * 2, X3),
    case("div_by_zero_float", lambda m, x: x / 0, np.array([1.0, -1.0, 0.0], dtype=F32)),
    case("log_zero_negative", lambda m, x: m.log(x), np.array([0.0, -1.0, 1.0], dtype=F32)),
]

REDUCTIONS = [
    case("max_dim_pair", lambda m, x: tuple(x.max(1)), X23),
    case("max_dim_indices", lambda m, x: x.max(dim=0).indices, X23),
    case("max_dim_values_attr", lambda m, x: m.max(x, 1, True).values, X23),
    case("min_dim_unpack", lambda m, x: m.min(x, 0)[1], X23),
    case("max_dim_repr", lambda m, x: repr(x.max(1)), X23, grad=[False]),
    case("max_ties", lambda m, x: x.max(1), np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], F32)),
    case("max_empty", lambda m: m.ones(0).max()),
    case("max_dim_empty", lambda m: m.ones(0).max(0)),
    case("argmax", lambda m, x: x.argmax(), X23),
    case("argmax_dim", lambda m, x: m.argmax(x, 1), X23),
    case("argmin_keepdim", lambda m, x: x.argmin(0, keepdim=True), X23),
    case("argmax_ties", lambda m, x: x.argmax(1), np.array([[3.0, 3.0], [1.0, 1.0]], F32)),
    case("argmax_nan", lambda m, x: x.argmax(), np.array([1.0, np.nan, 3.0], F32)),
    case("argmax_empty", lambda m: m.ones(0).argmax()),
    case("max_nan", lambda m, x: x.max(), np.array([1.0, np.nan, 3.0], F32)),
    case("sum_dim_out_of_range", lambda m, x: x.sum(2), X23),
    case("sum_0d_dim_1", lambda m: m.tensor(1.0).sum(1)),
    case("sum_repeated_dim", lambda m, x: x.sum((0, 0)), X23),
    case("mean_dtype", lambda m, x: x.mean(dtype=m.float64), X23),
    case("mean_int_dtype", lambda m, x: x.mean(dtype=m.int64), X23),
    case("mean_int_input_float_dtype", lambda m, i: i.mean(dtype=m.float32), I3),
    case("var_dof_warning", lambda m: m.tensor([1.0]).var()),
    case("std_dof_warning", lambda m: m.tensor([1.0]).std()),
    case("var_dim_dof_warning", lambda m: m.ones(1, 3).var(0)),
    case("var_unbiased_positional", lambda m, x: m.var(x, False), X23),
    case("std_correction_2", lambda m, x: x.std(correction=2), X23),
    case("norm_zero_vector", lambda m, x: (x * 0).norm(), X3),
    case("norm_p0", lambda m, x: x.norm(0), X23),
    case("prod_0d", lambda m: m.tensor(3.0, requires_grad=True).prod()),
    case("prod_two_zeros", lambda m, x: x.prod(), np.array([0.0, 2.0, 0.0], F32)),
    case("prod_dim_zeros", lambda m, x: x.prod(1),
         np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]], F32)),
    case("logsumexp_large", lambda m, x: x.logsumexp(0), np.array([1000.0, 1000.0], F32)),
    case("softmax_large", lambda m, x: x.softmax(0), np.array([1000.0, 0.0], F32)),
    case("softmax_0d", lambda m: m.softmax(m.tensor(1.0, requires_grad=True), 0)),
    case("softmax_0d_implicit", lambda m: m.softmax(m.tensor(1.0))),
    case("softmax_dtype", lambda m, x: m.softmax(x, 0, dtype=m.float64), X3),
    case("mse_int", lambda m, i: m.mse_loss(i, i), I3),
    case("mse_double_target", lambda m, x: m.mse_loss(x, m.zeros(3, dtype=m.float64)), X3),
    case("mse_bad_reduction", lambda m, x: m.mse_loss(x, x, reduction="avg"), X3),
    case("mse_bad_shape", lambda m, x: m.mse_loss(x, m.zeros(2)), X3),
    case("cross_entropy_float_target", lambda m, x: m.cross_entropy(x, m.zeros(2)), X23),
    case("cross_entropy_out_of_range", lambda m, x: m.cross_entropy(x, m.tensor([0, 5])), X23),
    case("nll_batch_mismatch", lambda m, x: m.nll_loss(x, m.tensor([0])), X23),
    # empty tensors and explicit empty dim lists, found by a reduction fuzz against torch
    case("amax_empty", lambda m: m.ones(0, 3).amax()),
    case("amax_empty_dim", lambda m: m.ones(0, 3).amax(-2)),
    case("amax_empty_kept_dim", lambda m: m.ones(0, 3).amax(1)),
    case("std_empty_dof_warning", lambda m: m.ones(0, 3).std(-1)),
    case("var_explicit_empty_dims", lambda m, x: x.var(()), X23),
    case("std_explicit_empty_dims", lambda m, x: x.std((), unbiased=False, keepdim=True), X23),
    case("logsumexp_empty_dims", lambda m, x: x.logsumexp(()), X23),
    case("logsumexp_empty_dims_keepdim", lambda m, x: x.logsumexp((), True), X23),
    case("logsumexp_empty_tensor", lambda m: m.ones(0, 3).logsumexp(())),
    case("split_0d", lambda m: m.tensor(1.0).split(1)),
    case("chunk_0d", lambda m: m.tensor(1.0).chunk(2)),
    case("chunk_empty", lambda m: m.ones(0, 3, requires_grad=True).chunk(2)),
    case("permute_no_dims", lambda m: m.tensor(1.0).permute()),
    case("transpose_0d", lambda m: m.tensor(1.0, requires_grad=True).transpose(0, -1)),
]

SHAPES = [
    case("view_incompatible", lambda m, x: x.t().view(6), X23),
    case("view_bad_size", lambda m, x: x.view(4), X23),
    case("view_two_unknown", lambda m, x: x.view(-1, -1), X23),
    case("reshape_bad", lambda m, x: x.reshape(4, -1), X23),
    case("reshape_empty_ambiguous", lambda m: m.ones(0).reshape(0, -1)),
    case("reshape_0d", lambda m: m.tensor(2.0, requires_grad=True).reshape(1, 1)),
    case("reshape_same_shape", lambda m, x: x.reshape(2, 3), X23),
    case("unsqueeze_out_of_range", lambda m, x: x.unsqueeze(3), X23),
    case("squeeze_out_of_range", lambda m, x: x.squeeze(2), X23),
    case("transpose_out_of_range", lambda m, x: x.transpose(0, 2), X23),
    case("permute_wrong_length", lambda m, x: x.permute(0), X23),
    case("permute_duplicate", lambda m, x: x.permute(0, 0), X23),
    case("t_3d", lambda m: m.ones(2, 2, 2).t()),
    case("T_2d", lambda m, x: x.T, X23),
    case("mT_1d", lambda m, x: x.mT, X3),
    case("flatten_same_dim", lambda m, x: x.flatten(1, 1), X23),
    case("flatten_bad", lambda m, x: x.flatten(1, 0), X23),
    case("flatten_1d", lambda m, x: x[0].flatten(), X23),
    case("unflatten_bad", lambda m, x: x.unflatten(1, (2, 2)), X23),
    case("unflatten_neg", lambda m, x: x.unflatten(1, (-1, 1)), X23),
    case("squeeze_0d", lambda m: m.tensor(1.0, requires_grad=True).squeeze()),
    case("squeeze_0d_dim", lambda m: m.tensor(1.0, requires_grad=True).squeeze(0)),
    case("unsqueeze_0d", lambda m: m.tensor(1.0, requires_grad=True).unsqueeze(0)),
    case("expand_bad", lambda m, x: x.expand(3, 3), X23),
    case("expand_bad_last_dim_first", lambda m: m.ones(2, 1, 2).expand(3, 3, 3)),
    case("expand_fewer", lambda m, x: x.expand(3), X23),
    case("expand_leading_neg1", lambda m, x: x.expand(-1, 2, 3), X23),
    case("expand_same", lambda m, x: x.expand(2, 3), X23),
    case("cat_0d", lambda m: m.cat([m.tensor(1.0), m.tensor(2.0)])),
    case("cat_empty_list", lambda m: m.cat([])),
    case("cat_size_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(2, 2)])),
    case("cat_ndim_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(3)])),
    case("cat_promote", lambda m, x: m.cat([x, m.ones(3, dtype=m.float64)]), X3),
    case("cat_int_float", lambda m, i, x: m.cat([i, x]), I3, X3),
    case("cat_dim_out_of_range", lambda m: m.cat([m.ones(2), m.ones(2)], 1)),
    case("cat_legacy_empty", lambda m, x: m.cat([x, m.ones(0)]), X23),
    case("stack_mismatch", lambda m: m.stack([m.ones(2, 3), m.ones(3)])),
    case("stack_empty", lambda m: m.stack([])),
    case("stack_promote", lambda m, x: m.stack([x, m.ones(3, dtype=m.float64)]), X3),
    case("size", lambda m, x: x.size(), X23),
    case("size_dim", lambda m, x: x.size(-1), X23),
    case("size_dim_out_of_range", lambda m, x: x.size(2), X23),
    case("shape", lambda m, x: x.shape, X23),
    case("numel", lambda m, x: x.numel(), X23),
    case("dim", lambda m, x: x.dim(), X23),
    case("item", lambda m, x: x[0, 0].item(), X23),
    case("item_many", lambda m, x: x.item(), X23),
    case("item_bool", lambda m, b: b[0].item(), B3),
    case("tolist", lambda m, x: x.tolist(), X23),
    case("len_0d", lambda m: len(m.tensor(1.0))),
    case("bool_ambiguous", lambda m, x: bool(x), X23),
    case("int_of_float", lambda m: int(m.tensor([2.7]))),
    case("float_of_many", lambda m, i: float(i), I3),
    case("element_size", lambda m, x: x.element_size(), X23),
    case("is_contiguous_t", lambda m, x: x.t().is_contiguous(), X23),
    case("contiguous_is_self", lambda m, x: x.contiguous() is x, X23),
    case("iterate", lambda m, x: list(x), X23),
    case("split_sections", lambda m, x: x.split([1, 2], 1), X23),
    case("split_bad_sections", lambda m, x: x.split([1, 1], 1), X23),
    case("chunk_uneven", lambda m: m.arange(5.0, requires_grad=True).chunk(3)),
    case("narrow_error", lambda m, x: x.narrow(1, 2, 2), X23),
]

CASTS = [
    case("float_is_self", lambda m, x: x.float() is x, X23),
    case("long", lambda m, x: x.long(), X23),
    case("int", lambda m, x: x.int(), X23),
    case("bool", lambda m, x: x.bool(), X23),
    case("half", lambda m, x: x.half(), X23),
    case("to_int", lambda m, x: x.to(m.int64), X23),
    case("to_same_is_self", lambda m, x: x.to(m.float32) is x, X23),
    case("to_tensor", lambda m, x, i: x.to(i), X23, I3),
    case("to_cpu_is_self", lambda m, x: x.to("cpu") is x, X23),
    case("cpu_is_self", lambda m, x: x.cpu() is x, X23),
    case("type_string", lambda m, x: x.type(), X23),
    case("type_dtype", lambda m, x: x.type(m.float64), X23),
    case("type_name", lambda m, x: x.type("torch.DoubleTensor"), X23),
    case("detach", lambda m, x: x.detach(), X23),
    case("clone_int", lambda m, i: i.clone(), I3),
    case("double_backward_dtype", lambda m, x: (x.double() ** 2).sum(), X3),
    case("sum_dtype_backward", lambda m, x: x.sum(dtype=m.float64) * 2, X3),
]

INDEXING = [
    case("out_of_bounds", lambda m, x: x[5], X23),
    case("out_of_bounds_negative", lambda m, x: x[-3], X23),
    case("out_of_bounds_second", lambda m, x: x[0, 3], X23),
    case("float_index", lambda m, x: x[1.5], X23),
    case("too_many", lambda m, x: x[0, 0, 0], X23),
    case("negative_step", lambda m, x: x[::-1], X23),
    case("zero_step", lambda m, x: x[::0], X23),
    case("list_out_of_bounds", lambda m, x: x[[0, 5]], X23),
    case("mask_shape", lambda m, x: x[m.tensor([True, False, True])], X23),
    case("float_tensor_index", lambda m, x: x[m.ones(1)], X23),
    case("broadcast_indices", lambda m, x: x[m.tensor([0, 1]), m.tensor([0, 1, 2])], X23),
    case("true", lambda m, x: x[True], X23),
    case("false", lambda m, x: x[False], X23),
    case("empty_list", lambda m, x: x[[]], X23),
    case("ellipsis_twice", lambda m, x: x[..., ...], X23),
    # a 0-d index counts as one element of a vector (the Transforms tutorial's one-hot)
    case("scatter_0d_index_value", lambda m, x: (x * 1).scatter(0, m.tensor(1), value=5.0), X3),
    case("scatter_0d_index_src", lambda m, x: m.zeros(3).scatter(0, m.tensor(2), x.sum()), X3),
    case("scatter_add_0d_index", lambda m, x: (x * 2).scatter_add(0, m.tensor(0), x[1]), X3),
    case("scatter_index_dims", lambda m, x: x.view(3, 1).scatter(0, m.tensor([1]), value=1.0),
         X3),
    case("gather_0d_index", lambda m, x: x.gather(0, m.tensor(2)), X3),
    case("none_none", lambda m, x: x[None, None], X23),
    case("0d_int", lambda m: m.tensor(1.0)[0]),
    case("0d_none", lambda m: m.tensor(1.0, requires_grad=True)[None]),
    case("0d_ellipsis", lambda m: m.tensor(1.0, requires_grad=True)[...]),
    case("mask_then_int", lambda m: m.ones(2, 3, 4)[m.ones(2, 3, dtype=m.bool_), 0].shape),
    case("int_slice_list", lambda m: m.ones(2, 3, 4)[0, :, [0, 1]].shape),
    case("list_slice_int", lambda m: m.ones(2, 3, 4)[[0, 1], :, 0].shape),
    case("bool_list", lambda m, x: x[[True, False]], X23),
    case("int_tensor_2d_index", lambda m, x: x[m.tensor([[0, 1], [1, 1]])], X23),
    case("negative_list", lambda m, x: x[[-1, 0]], X23),
    case("slice_beyond", lambda m, x: x[5:], X23),
    case("slice_negative_start", lambda m, x: x[:, -2:], X23),
    case("slice_of_select", lambda m, x: x[0][1:], X23),
    case("index_view_is_view", lambda m, x: x[0]._base is x, X23),
    case("index_of_int_tensor", lambda m, i: i[[0, 2]], I3),
    # error order and wording, found by a random key fuzz against PyTorch
    case("none_then_list_oob", lambda m, x: x[None, [3]], X23),
    case("ellipsis_int_oob", lambda m, x: x[..., 3], X3),
    case("mask_error_before_bounds", lambda m: m.ones(2, 3, 4)[[-3], m.tensor(1),
                                                                m.tensor([True, False, True])]),
    case("broadcast_error_before_bounds", lambda m, x: x[[-3, -1, 1], [0, -3]], X23),
    case("empty_result_skips_bounds", lambda m: m.ones(2, 3, 4)[[2], m.tensor([True, False]),
                                                                 5:]),
    case("too_many_with_masks", lambda m: m.ones(2, 3, 4)[..., ..., m.tensor([True] * 4),
                                                          m.tensor([True] * 3)]),
    case("two_ellipses", lambda m: m.ones(2, 3, 4)[..., 0, ...]),
    case("two_ellipses_select_past_end", lambda m: m.ones(2, 3, 4)[..., ..., -1]),
    case("second_bad_index_named", lambda m, x: x[[0, 1], [1, 7]], X23),
]


def _setitem(key: Any, value: Any) -> Callable[..., Any]:
    def run(m: Any, x: Any) -> Any:
        y = x * 1
        v = value(m) if callable(value) else value
        y[key(m) if callable(key) else key] = v
        return y

    return run


SETITEM = [
    case("int_number", _setitem(0, 5.0), X23),
    case("int_tensor", _setitem(0, lambda m: m.ones(3, requires_grad=True)), X23),
    case("int_tensor_1", _setitem(0, lambda m: m.ones(1, requires_grad=True)), X23),
    case("int_tensor_1x3", _setitem(0, lambda m: m.ones(1, 3, requires_grad=True)), X23),
    case("int_tensor_0d", _setitem(0, lambda m: m.tensor(2.0, requires_grad=True)), X23),
    case("pair_number", _setitem((0, 1), 5.0), X23),
    case("pair_0d", _setitem((0, 1), lambda m: m.tensor(2.0, requires_grad=True)), X23),
    case("full_slice_number", _setitem(slice(None), 5.0), X23),
    case("full_slice_tensor", _setitem(slice(None), lambda m: m.ones(2, 3, requires_grad=True)),
         X23),
    case("full_slice_broadcast", _setitem(slice(None), lambda m: m.ones(3, requires_grad=True)),
         X23),
    case("ellipsis_number", _setitem(Ellipsis, 5.0), X23),
    case("ellipsis_tensor", _setitem(Ellipsis, lambda m: m.ones(2, 3, requires_grad=True)), X23),
    case("full_slices_tensor",
         _setitem((slice(None), slice(None)), lambda m: m.ones(2, 3, requires_grad=True)), X23),
    case("slice_number", _setitem(slice(1, None), 5.0), X23),
    case("column_number", _setitem((slice(None), 1), 5.0), X23),
    case("mask_number",
         _setitem(lambda m: m.tensor([[True, False, True], [False, False, True]]), 0.0), X23),
    case("list_tensor", _setitem([0], lambda m: m.ones(3, requires_grad=True)), X23),
    case("list_tensor_1x3", _setitem([0], lambda m: m.ones(1, 3, requires_grad=True)), X23),
    case("slice_list_number", _setitem((slice(None), [0, 2]), 0.0), X23),
    case("int_list_number", _setitem((0, [0, 2]), 0.0), X23),
    case("none_number", _setitem(None, 0.0), X23),
    case("true_number", _setitem(True, 0.0), X23),
    case("false_number", _setitem(False, 0.0), X23),
    case("mask_double",
         _setitem([True, False], lambda m: m.ones(3, dtype=m.float64)), X23),
    case("int_double", _setitem(0, lambda m: m.ones(3, dtype=m.float64)), X23),
    case("int_int", _setitem(0, lambda m: m.ones(3, dtype=m.int64)), X23),
    case("mask_bad_shape", _setitem([True, False], lambda m: m.ones(2)), X23),
    case("int_bad_shape", _setitem(0, lambda m: m.ones(2)), X23),
    case("int_too_big", _setitem(0, lambda m: m.ones(2, 3)), X23),
    case("int_1x1x3", _setitem(0, lambda m: m.ones(1, 1, 3)), X23),
    case("int_float_into_int", lambda m, i: (i.__setitem__(0, 2.7), i)[1], I3),
    case("empty_slice_then_list", _setitem((slice(1, -1, 2), [3]),
                                           lambda m: m.tensor(3.0, requires_grad=True)), X23),
    case("ellipses_full_slice", _setitem((Ellipsis, Ellipsis, slice(None)),
                                         lambda m: m.tensor(3.0, requires_grad=True)), X23),
]


def _leaf_setitem(key: Any) -> Callable[..., Any]:
    def run(m: Any, x: Any) -> Any:
        x[key] = 0.0
        return x

    return run


def _view_then_mul(base: Any) -> Any:
    view = base[1]
    view.unsqueeze_(0).mul_(3)
    return base, view


INPLACE = [
    case("leaf_setitem_int", _leaf_setitem(0), X23),
    case("leaf_setitem_ellipsis", _leaf_setitem(Ellipsis), X23),
    case("leaf_setitem_slice", _leaf_setitem(slice(None)), X23),
    case("leaf_setitem_mask", _leaf_setitem([True, False]), X23),
    case("leaf_add_", lambda m, x: x.add_(1), X23),
    case("leaf_view_add_", lambda m, x: x[0].add_(1), X23),
    case("leaf_iadd", lambda m, x: x.__iadd__(1), X23),
    case("nonleaf_add_", lambda m, x: (x * 1).add_(1), X23),
    case("nonleaf_add_tensor", lambda m, x, y: (x * 1).add_(y, alpha=2), X23, X3),
    case("nonleaf_sub_", lambda m, x: (x * 1).sub_(2), X23),
    # in-place view ops: the tensor takes the view's shape, the node its in-place name
    case("unsqueeze_", lambda m, x: (x * 2).unsqueeze_(1), X23),
    case("squeeze_all_", lambda m, x: (x * 2).view(1, 2, 1, 3).squeeze_(), X23),
    case("squeeze_dim_", lambda m, x: (x * 2).view(2, 1, 3).squeeze_(1), X23),
    case("squeeze_dims_", lambda m, x: (x * 2).view(1, 2, 1, 3).squeeze_((0, 2)), X23),
    case("t_", lambda m, x: (x * 2).t_(), X23),
    case("transpose_", lambda m, x: (x * 2).transpose_(0, 1), X23),
    case("swapdims_", lambda m, x: (x * 2).swapdims_(1, 0), X23),
    case("unsqueeze_leaf", lambda m, x: x.unsqueeze_(0), X23),
    case("unsqueeze_view_of_leaf", lambda m, x: x[0].unsqueeze_(0), X23),
    case("unsqueeze_view_then_mul_", lambda m, x: _view_then_mul(x * 1), X23),
    case("alpha_0d_tensor", lambda m, x, y: (x * 1).add_(y, alpha=m.tensor(-2.0)), X23, X3),
    case("alpha_0d_int_tensor", lambda m, x, y: m.sub(x, y, alpha=m.tensor(3)), X23, X3),
    case("alpha_1d_tensor", lambda m, x, y: x.add(y, alpha=m.tensor([2.0])), X23, X3),
    case("alpha_tensor_needing_grad", lambda m, x, y: y.add(y, alpha=x.sum()), X23, X3),
    case("nonleaf_mul_", lambda m, x: (x * 1).mul_(2), X23),
    case("nonleaf_div_", lambda m, x: (x * 1).div_(2), X23),
    case("nonleaf_pow_", lambda m, x: (x * 1).pow_(2), X23),
    case("nonleaf_exp_", lambda m, x: (x * 1).exp_(), X23),
    case("nonleaf_relu_", lambda m, x: (x * 1).relu_(), X23),
    case("nonleaf_sigmoid_", lambda m, x: (x * 1).sigmoid_(), X23),
    case("nonleaf_tanh_", lambda m, x: (x * 1).tanh_(), X23),
    case("nonleaf_neg_", lambda m, x: (x * 1).neg_(), X23),
    case("nonleaf_clamp_", lambda m, x: (x * 1).clamp_(0, 1), X23),
    case("nonleaf_zero_", lambda m, x: (x * 1).zero_(), X23),
    case("nonleaf_fill_", lambda m, x: (x * 1).fill_(1), X23),
    case("nonleaf_fill_tensor", lambda m, x: (x * 1).fill_(m.tensor(2.0, requires_grad=True)),
         X23),
    case("nonleaf_copy_", lambda m, x, y: (x * 1).copy_(y), X23, X3),
    case("nonleaf_iadd", lambda m, x: (x * 1).__iadd__(1), X23),
    case("nonleaf_imul_tensor", lambda m, x, y: (x * 1).__imul__(y), X23, X3),
    case("view_of_nonleaf_mul_", lambda m, x: (lambda y: (y[0].mul_(2), y)[1])(x * 1), X23),
    case("view_of_nonleaf_grad_fns",
         lambda m, x: (lambda y: (y[:, 1].mul_(2), y[0], y)[1:])(x * 1), X23),
    case("leaf_copy_from_grad", lambda m, y: m.zeros(3).copy_(y), X3),
    case("exp_int", lambda m, i: i.exp_(), I3),
    case("add_float_into_int", lambda m, i: i.add_(1.5), I3),
    case("mul_bool", lambda m, b: b.mul_(2), B3),
    case("add_broadcast_out", lambda m: m.ones(3).add_(m.ones(2, 3))),
    case("copy_broadcast_out", lambda m: m.ones(3).copy_(m.ones(2, 3))),
    case("copy_mismatch", lambda m: m.ones(3).copy_(m.ones(2))),
    case("copy_int_into_float", lambda m, i: m.ones(3).copy_(i), I3),
    case("fill_int_with_float", lambda m, i: i.fill_(1.5), I3),
    case("version_after_inplace", lambda m, x: (lambda y: (y.add_(1), y._version)[1])(x * 1),
         X23),
    case("inplace_under_no_grad",
         lambda m, x: (lambda _: (x, x.requires_grad, x.is_leaf))(_no_grad_add(m, x)), X23),
    case("detach_view_inplace", lambda m, x: x[0].detach_(), X23),
    case("exp_saved_modified", lambda m, x: _backward_after(m, x, lambda y: y.exp(),
                                                            lambda y: y.add_(1)), X23),
    case("sigmoid_saved_modified", lambda m, x: _backward_after(m, x, lambda y: y.sigmoid(),
                                                                lambda y: y.mul_(2)), X23),
    case("leaf_saved_modified", lambda m, x: _backward_leaf_after(m, x), X23),
    case("input_saved_modified", lambda m, x: _backward_input_after(m, x), X23),
]


def _no_grad_add(m: Any, x: Any) -> Any:
    with m.no_grad():
        x.add_(1)
    return x


def _backward_after(m: Any, x: Any, make: Callable[..., Any], change: Callable[..., Any]) -> Any:
    y = make(x)
    change(y)
    y.sum().backward()
    return x.grad


def _backward_leaf_after(m: Any, x: Any) -> Any:
    y = (x * x).sum()
    with m.no_grad():
        x.mul_(2)
    y.backward()
    return x.grad


def _backward_input_after(m: Any, x: Any) -> Any:
    a = x * 1
    y = a.sin()
    a.add_(1)
    y.sum().backward()
    return x.grad


LINALG = [
    case("mm_dtype", lambda m: m.ones(2, 3) @ m.ones(3, 2, dtype=m.float64)),
    case("mm_int_float", lambda m: m.tensor([[1, 2]]) @ m.ones(2, 2)),
    case("mm_shapes", lambda m: m.ones(2, 3) @ m.ones(2, 3)),
    case("mm_fn_vector", lambda m: m.mm(m.ones(2, 3), m.ones(3))),
    case("mm_fn_vector_first", lambda m: m.mm(m.ones(2), m.ones(2, 2))),
    case("mv_shapes", lambda m: m.mv(m.ones(2, 3), m.ones(2))),
    case("mv_matrix", lambda m: m.mv(m.ones(2, 3), m.ones(2, 3))),
    case("mv_dtype", lambda m: m.ones(2, 3) @ m.ones(3, dtype=m.float64)),
    case("mv_dtype_mat", lambda m: m.mv(m.ones(2, 3, dtype=m.float64), m.ones(3))),
    case("dot_sizes", lambda m: m.ones(3) @ m.ones(2)),
    case("dot_2d", lambda m: m.dot(m.ones(2, 3), m.ones(3))),
    case("dot_dtype", lambda m: m.dot(m.ones(3), m.ones(3, dtype=m.int64))),
    case("dot_int_float", lambda m: m.tensor([1, 2]) @ m.ones(2)),
    case("bmm_2d", lambda m: m.bmm(m.ones(2, 3), m.ones(1, 3, 2))),
    case("bmm_2d_second", lambda m: m.bmm(m.ones(1, 2, 3), m.ones(3, 2))),
    case("bmm_mismatch", lambda m: m.bmm(m.ones(1, 2, 3), m.ones(1, 2, 2))),
    case("bmm_batch", lambda m: m.bmm(m.ones(1, 2, 3), m.ones(2, 3, 2))),
    case("bmm_dtype", lambda m: m.bmm(m.ones(1, 2, 3, dtype=m.float64), m.ones(1, 3, 2))),
    case("matmul_0d", lambda m: m.matmul(m.tensor(1.0), m.ones(2))),
    case("matmul_batch_mismatch", lambda m: m.ones(4, 2, 3) @ m.ones(5, 3, 2)),
    case("matmul_int", lambda m: m.tensor([[1, 2]]) @ m.tensor([[3], [4]])),
    case("matmul_transposed_input", lambda m, x, y: x.t() @ y, X23, X23),
    case("matmul_3d_transposed", lambda m, x: x.expand(4, 2, 3) @ m.ones(3, 2),
         X23),
    case("matmul_3x1_expanded", lambda m, x: x.expand(4, 2, 3) @ m.ones(3), X23),
    case("matmul_1x3_left_only", lambda m, x: x @ m.ones(4, 3, 2), X3),
    case("matmul_1x3_right_only", lambda m, x: m.ones(3) @ x.expand(4, 3, 3), np.ones((3, 3),
                                                                                         F32)),
]

ALL = CREATION + SEEDED + PROMOTION + REDUCTIONS + SHAPES + CASTS + INDEXING + SETITEM + \
    INPLACE + LINALG


@pytest.mark.parametrize("f, arrays, grad, kw", ALL)
def test_parity(f: Callable[..., Any], arrays: list[Any], grad: Any, kw: dict[str, Any],
                torch: Any) -> None:
    run_parity(torch, f, arrays, grad, **kw)


def test_arange_and_linspace_are_bitwise_pytorch(torch: Any) -> None:
    """PyTorch's CPU kernels round every fused multiply-add once and fill arange vector by
    vector; gradsh reproduces the exact bits (a print of `arange(0, 1, 0.1)` must agree)."""
    from gradsh.engine import ops

    rng = np.random.default_rng(7)
    for _ in range(300):
        start = round(float(rng.uniform(-5, 5)), int(rng.integers(0, 4)))
        step = round(float(rng.uniform(0.05, 2)), int(rng.integers(1, 4))) * float(
            rng.choice([-1, 1]))
        end = start + step * int(rng.integers(1, 200)) - step * float(rng.uniform(0.01, 0.99))
        for name in ("float32", "float64"):
            want = torch.arange(start, end, step, dtype=getattr(torch, name)).numpy()
            got = ops.arange(start, end, step, dtype=getattr(ops, name))._data
            assert want.tobytes() == got.tobytes(), (start, end, step, name)
    for _ in range(300):
        start, end = (float(v) for v in rng.uniform(-10, 10, 2))
        steps = int(rng.integers(0, 200))
        for name in ("float32", "float64"):
            want = torch.linspace(start, end, steps, dtype=getattr(torch, name)).numpy()
            got = ops.linspace(start, end, steps, dtype=getattr(ops, name))._data
            assert want.tobytes() == got.tobytes(), (start, end, steps, name)
        want = torch.linspace(int(start), int(end), steps, dtype=torch.int64).numpy()
        got = ops.linspace(int(start), int(end), steps, dtype=ops.int64)._data
        assert want.tobytes() == got.tobytes(), (start, end, steps)


def test_sum_and_mean_are_bitwise_pytorch(torch: Any) -> None:
    """Float sums follow PyTorch's cascade (not NumPy's pairwise) summation, so means print the
    same last digits once scaled: the blog's seeded `randn(3, 5).mean() * 20200910`."""
    from gradsh.engine import ops

    torch.manual_seed(20200910)
    ops.manual_seed(20200910)
    want = (torch.randn(3, 5, requires_grad=True).mean() * 20200910).item()
    got = (ops.randn(3, 5, requires_grad=True).mean() * 20200910).item()
    assert got == want == 1182591.375

    rng = np.random.default_rng(0)
    shapes = [(15,), (3, 5), (8,), (9,), (33,), (1000,), (4099,), (32768,), (5, 40), (40, 5),
              (3, 70), (70, 3), (2, 3, 4), (300, 9), (9, 300), (50, 50, 3)]
    for shape in shapes:
        for name in ("float32", "float64"):
            x = (rng.standard_normal(shape) * 10).astype(name)
            t, g = torch.from_numpy(x), ops.tensor(x.tolist(), dtype=getattr(ops, name))
            dims_list = [None] + [tuple(range(k)) for k in range(1, len(shape))] + \
                [tuple(range(k, len(shape))) for k in range(1, len(shape))]
            for dims in dims_list:
                for op in ("sum", "mean"):
                    want_t = getattr(t, op)() if dims is None else getattr(t, op)(dims)
                    got_t = getattr(g, op)() if dims is None else getattr(g, op)(dims)
                    assert want_t.numpy().tobytes() == got_t._data.tobytes(), (shape, dims, op)


SIGNED_ZEROS_AND_NAN = np.array([np.nan, -0.0, 0.0, 2.0, -np.inf, np.inf], dtype=F32)
LAYOUT_AND_EDGE_VALUES = [
    case("sign_nan_zero", lambda m, x: m.sign(x), SIGNED_ZEROS_AND_NAN, grad=[False]),
    case("relu_nan_zero", lambda m, x: m.relu(x), SIGNED_ZEROS_AND_NAN, grad=[False]),
    case("clamp_nan_zero", lambda m, x: x.clamp(-1, 1), SIGNED_ZEROS_AND_NAN, grad=[False]),
    case("maximum_nan_zero", lambda m, x: m.maximum(x, m.zeros(6)), SIGNED_ZEROS_AND_NAN,
         grad=[False]),
    case("minimum_nan_zero", lambda m, x: m.minimum(m.zeros(6), x), SIGNED_ZEROS_AND_NAN,
         grad=[False]),
    case("abs_nan_grad", lambda m, x: m.abs(m.log(x)), np.array([-1.0, 2.0], F32)),
    case("amax_nan_grad", lambda m, x: (m.log(x) * 0 + x).amax(-1) ** 2,
         np.array([[-1.0, 2.0], [3.0, 1.0]], F32)),
    case("clone_keeps_layout", lambda m, x: x.t().clone().reshape(-1), X23),
    case("softmax_contiguous", lambda m, x: m.softmax(x.t(), -1).reshape(-1), X23),
    case("broadcast_error_last_dim_first", lambda m, x: x.t() + x, X23),
]


BOOLS = np.array([True, False])
BOOL_MATRIX = np.array([[True, False], [False, True]])
# What bool tensors support and how the rest fails (PyTorch's kernel names), found by a dtype
# fuzz against torch.
BOOL_TENSORS = [
    case(f"bool_{name}", f, BOOLS, BOOL_MATRIX, grad=[False, False]) for name, f in [
        ("mod", lambda m, b, B: b % b), ("fmod", lambda m, b, B: m.fmod(b, b)),
        ("fmod_int", lambda m, b, B: m.fmod(b, 2)), ("floordiv", lambda m, b, B: b // b),
        ("floordiv_scalar", lambda m, b, B: b // True), ("pow", lambda m, b, B: b ** b),
        ("pow_true", lambda m, b, B: b ** True), ("pow_false", lambda m, b, B: b ** False),
        ("pow_int", lambda m, b, B: b ** 2), ("rpow_int", lambda m, b, B: 2 ** b),
        ("rpow_bool", lambda m, b, B: True ** b), ("mv", lambda m, b, B: B @ b),
        ("mm", lambda m, b, B: B @ B), ("dot", lambda m, b, B: b @ b),
        ("bmm", lambda m, b, B: B[None] @ B[None]),
        ("clamp_min", lambda m, b, B: b.clamp(min=True)),
        ("clamp_max", lambda m, b, B: b.clamp(max=False)),
        ("clamp", lambda m, b, B: b.clamp(False, True)),
        ("clamp_tensor", lambda m, b, B: b.clamp(min=b)),
        ("sum", lambda m, b, B: b.sum()), ("prod", lambda m, b, B: b.prod()),
        ("max", lambda m, b, B: b.max()), ("abs", lambda m, b, B: b.abs()),
        ("sign", lambda m, b, B: b.sign()), ("exp", lambda m, b, B: b.exp()),
        ("relu", lambda m, b, B: b.relu()), ("sigmoid", lambda m, b, B: b.sigmoid()),
        ("argmax", lambda m, b, B: b.argmax()), ("softmax", lambda m, b, B: b.softmax(0)),
        ("reciprocal", lambda m, b, B: b.reciprocal()), ("square", lambda m, b, B: b.square()),
        ("floor", lambda m, b, B: b.floor()), ("round", lambda m, b, B: b.round()),
        ("mul", lambda m, b, B: b * b), ("div", lambda m, b, B: b / b),
        ("neg", lambda m, b, B: -b), ("add_alpha", lambda m, b, B: b.add(b, alpha=True)),
        ("add_alpha_int", lambda m, b, B: b.add(b, alpha=2)),
        ("int_add_float_alpha", lambda m, b, B: m.tensor([1, 2]).add(3, alpha=2.5)),
        ("float_add_bool_alpha", lambda m, b, B: m.ones(2).add(3, alpha=True)),
    ]
]


@pytest.mark.parametrize("f, arrays, grad, kw", LAYOUT_AND_EDGE_VALUES + BOOL_TENSORS)
def test_layout_and_edge_values(f: Callable[..., Any], arrays: list[Any], grad: Any,
                                kw: dict[str, Any], torch: Any) -> None:
    run_parity(torch, f, arrays, grad, **kw)


def test_tie_indices_of_kthvalue_median_mode_and_sort_are_pytorchs(torch: Any) -> None:
    # With many equal values the index each op reports depends on the algorithm: quickselect
    # for kthvalue, an index-ordered nth_element for median, a small-array std::sort for mode,
    # a stable sort for sort. Rows of 1 to 16 small integers, NaN among them, every k.
    from gradsh.engine import ops

    rng = np.random.default_rng(11)
    for n in range(1, 17):
        for _ in range(6):
            row = rng.integers(0, 4, n).astype(np.float32)
            if n > 3 and rng.random() < 0.3:
                row[rng.integers(0, n)] = np.nan
            ours, theirs = ops.tensor(row.tolist()), torch.tensor(row.tolist())
            for k in range(1, n + 1):
                assert int(ops.kthvalue(ours, k).indices.item()) == int(
                    theirs.kthvalue(k).indices), (row, k)
            assert int(ops.median(ours, 0).indices.item()) == int(theirs.median(0).indices), row
            assert int(ops.mode(ours, 0).indices.item()) == int(theirs.mode(0).indices), row
            for descending in (False, True):
                assert ops.sort(ours, descending=descending).indices._data.tolist() == \
                    theirs.sort(descending=descending, stable=True).indices.tolist(), row


def test_float_of_a_tensor_that_needs_grad_warns_once_and_not_under_no_grad() -> None:
    """PyTorch warns (TORCH_WARN_ONCE) only with grad mode on: L-BFGS's float(closure())
    inside its no_grad step stays silent."""
    import warnings

    import gradsh.torch as gt
    from gradsh.engine.tensor import _once

    _once.discard("scalar_grad")
    x = gt.ones(1, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with gt.no_grad():
            assert float(x * 2) == 2.0
        assert not caught
        float(x * 2)
        float(x * 3)
    assert [str(w.message).splitlines()[0] for w in caught] == [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior."]


@pytest.mark.parametrize("shapes", [((2,), (3, 1), (1, 1, 1)), ((2, 3), (3, 2)),
                                    ([2, 3], [3, 2]), (3, (2, 1)), (5, 4), (), ((0,), (1,)),
                                    ((2, -1),), ((2,), None)])
def test_broadcast_shapes_is_pytorchs_python_version(torch: Any, shapes: tuple) -> None:
    """torch.broadcast_shapes has its own messages (torch._refs): argument index, the shape
    as given, the common shape so far as a list."""
    import gradsh.torch as gt

    outcomes = []
    for lib in (torch, gt):
        try:
            outcomes.append(str(lib.broadcast_shapes(*shapes)))
        except (RuntimeError, ValueError) as error:
            outcomes.append(f"{type(error).__name__}: {error}")
    assert outcomes[1] == outcomes[0]
    sizes = (torch.Size([4]), torch.Size([3]))
    with pytest.raises(RuntimeError) as theirs:
        torch.broadcast_shapes(*sizes)
    with pytest.raises(RuntimeError) as ours:
        gt.broadcast_shapes(*(gt.Size(s) for s in sizes))
    assert str(ours.value) == str(theirs.value)
