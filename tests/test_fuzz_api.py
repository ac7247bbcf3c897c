"""The differential fuzzer of the Python torch API (tests/fuzz_api): the cases it found and
gradsh fixed, and one fixed seed's batch, each run under PyTorch and under gradsh.torch in
this process and compared as printed text (values, dtypes, strides, error types and texts)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz_api"))

import fuzz  # noqa: E402

# Shrunk cases the fuzzer found, each a program over `torch` (lines split on "\n").
REGRESSIONS = {
    # in-place floor division and remainder are in place (Tensor.__ifloordiv__, __imod__)
    "ifloordiv_keeps_dtype": "a = torch.tensor([5, -7, 3], dtype=torch.int8)\n"
                             "a //= torch.tensor([2, 2, -2], dtype=torch.int32)\nprint(repr(a))",
    "imod_keeps_dtype": "a = torch.tensor([[5], [-7]], dtype=torch.uint8)\na %= 3\nprint(repr(a))",
    "imod_float_into_int": "a = torch.tensor([[-6], [5]], dtype=torch.int16)\n"
                           "a %= torch.tensor([2.0], dtype=torch.bfloat16)\nprint(repr(a))",
    "ifloordiv_float_into_uint8": "a = torch.tensor([2, 7, 0], dtype=torch.uint8)\n"
                                  "a //= torch.tensor(0.0)\nprint(repr(a))",
    # expand keeps the strides of the dimensions it does not broadcast, and such a view can
    # be written to
    "expand_strides": "a = torch.tensor([[6, -4, 2], [0, -6, 6]])\n"
                      "v = a.unsqueeze(-2).expand(2, -1, -1)\n"
                      "print(v.stride(), torch.zeros(3).expand(2, 1, 3).stride(), "
                      "torch.tensor(1.0).expand(1, 1).stride())",
    "expand_unbroadcast_view_writes": "a = torch.tensor([[4, -1, -6], [3, -3, -4]])\n"
                                      "v = a.unsqueeze(-3).expand(1, -1, -1)\nv[0] = -1\n"
                                      "print(a)",
    "expand_broadcast_view_refuses_writes": "a = torch.zeros(2, 1, 3)\n"
                                            "a.expand(2, 2, 3).add_(1)",
    # operands that PyTorch takes as tensors only
    "logical_and_number": "print(torch.logical_and(torch.tensor([1, 0]), True))",
    "logical_or_method_number": "print(torch.tensor([1, 0]).logical_or(2.5))",
    "logical_xor_int": "print(torch.logical_xor(torch.tensor([[1, -3]]), -1))",
    "atan2_number": "print(torch.atan2(torch.tensor([1.0]), 2))",
    "fmax_number": "print(torch.fmax(torch.tensor([1.0]), 2.0))",
    "hypot_bool": "print(torch.hypot(torch.tensor([1.0]), True))",
    "logaddexp_method": "print(torch.tensor([1.0]).logaddexp(2.5))",
    "gcd_number": "print(torch.gcd(torch.tensor([4, 6]), 2))",
    "igamma_number": "print(torch.igamma(torch.tensor([1.0]), 2))",
    "method_position": "print(torch.tensor([1.0, 2.0]).dot(2.5))",
    "method_position_mm": "print(torch.ones(2, 2).mm(2.5))",
    "outer_vec2": "print(torch.outer(torch.tensor([1.0, 2.0]), 2))",
    # argument errors in the words of PyTorch's parser
    "dim_list_positional": "print(torch.cumsum(torch.ones(2), [0]))",
    "dim_tuple_method": "print(torch.ones(2).argmax((0,), True))",
    "dim_list_keyword": "print(torch.ones(2).nanmedian(dim=[0]))",
    "dim_list_before_keyword": "print(torch.ones(2).cummax(dim=[0], keepdim=True))",
    "missing_dim": "print(torch.logsumexp(torch.ones(2)))",
    "missing_dim_method": "print(torch.ones(2).cumprod(dtype=torch.float64))",
    "takes_no_positional": "print(torch.ones(2).aminmax(0))",
    # out=: PyTorch's dtype checks, and the functions computed in out's dtype
    "out_unary_found_dtype": "print(torch.neg(torch.ones(2), "
                             "out=torch.empty(2, dtype=torch.bool)))",
    "out_abs_wider": "print(torch.abs(torch.ones(2), out=torch.empty(2, dtype=torch.float64)))",
    "out_clamp_numbers": "print(torch.clamp(torch.tensor([1]), 0, 1, out=torch.empty(7)))",
    "out_matmul_expected": "print(torch.matmul(torch.ones(2, 2), torch.ones(2, 2), "
                           "out=torch.empty(0, dtype=torch.float64)))",
    "out_matmul_1d": "print(torch.matmul(torch.ones(2), torch.ones(2), "
                     "out=torch.empty(0, dtype=torch.long)))",
    "out_max_dim_values": "print(torch.max(torch.ones(2, 2), 0, out=(torch.empty(0, "
                          "dtype=torch.float64), torch.empty(0, dtype=torch.long))))",
    "out_sort_indices": "print(torch.sort(torch.ones(2), out=(torch.empty(0), "
                        "torch.empty(0, dtype=torch.int32))))",
    "out_cat_cast": "x = torch.ones(2)\n"
                    "print(torch.cat([x, x], out=torch.empty(0, dtype=torch.int32)))",
    "out_stack_cast": "x = torch.ones(2)\n"
                      "print(torch.stack([x, x], out=torch.empty(0, dtype=torch.bool)))",
    "out_amax": "print(torch.amax(torch.ones(2, 2), 0, out=torch.empty(0, dtype=torch.float64)))",
    "out_nonzero": "print(torch.nonzero(torch.ones(2), out=torch.empty(0, dtype=torch.int32)))",
    "out_cumsum_in_out_dtype": "print(torch.cumsum(torch.tensor([[1.5], [2.0]], "
                               "dtype=torch.float64), 0, out=torch.empty(1, dtype=torch.int64)))",
    "out_prod_in_out_dtype": "print(torch.prod(torch.ones(2, 2), 0, "
                             "out=torch.empty(0, dtype=torch.long)))",
    "out_cumsum_bool": "print(torch.cumsum(torch.ones(2), 0, "
                       "out=torch.empty(0, dtype=torch.bool)))",
    # reductions' dtypes and signs
    "cumsum_never_negative_zero": "print(torch.tensor([[-3.0, 3.0, -0.0]]).cumsum(0), "
                                  "torch.tensor([-0.0, -0.0]).bfloat16().cumsum(0), "
                                  "torch.tensor(-0.0).cumsum(0))",
    "cumsum_bool_dtype": "print(torch.ones(2).cumprod(0, dtype=torch.bool))",
    "prod_keeps_dtype": "print(repr(torch.tensor([3, 4], dtype=torch.int32)"
                        ".prod(dtype=torch.int32)), torch.ones(2).prod(0, dtype=torch.bool))",
    "nansum_integers_in_int64": "print(repr(torch.tensor([[3], [4]], dtype=torch.uint8).nansum(-2, "
                                "keepdim=True)), repr(torch.tensor([True]).nansum()))",
    "rpow_0d": "print(2.0 ** torch.tensor(-2, dtype=torch.int8), 2.5 ** torch.tensor(3.0), "
               "2.5 ** torch.tensor(3.0, dtype=torch.float64))",
    # indexing: a string index, index_put's checks in PyTorch's order (shape, dtype, bounds)
    "string_index": "print(torch.ones(2, 2)['a'])",
    "string_index_set": "x = torch.ones(2, 2)\nx[0, b'a'] = 1",
    "index_put_dtype_before_bounds": "a = torch.tensor([-6], dtype=torch.int32)\n"
                                     "a[[[0, 1]]] = torch.tensor(2.5)",
    "index_put_shape_before_dtype": "a = torch.tensor([False, True, False])\n"
                                    "a[[[0, 1]]] = torch.zeros(3)",
    "index_put_none_list": "a = torch.ones(3)\na[None, [1]] = torch.zeros(3)",
    "index_put_method_position": "print(torch.ones(2).index_put_((torch.tensor([0]),), 5.))",
    # index functions' checks and texts
    "index_select_inner_dim_bounds": "print(torch.ones(2, 3).index_select(1, "
                                     "torch.tensor([0, 7, -1])))",
    "index_add_float_index": "print(torch.ones(3).index_add(0, torch.tensor([1.0]), "
                             "torch.ones(1)))",
    "index_add_count": "print(torch.ones(3).index_add(0, torch.tensor([0, 1]), torch.ones(1)))",
    "index_add_dtypes": "print(torch.ones(3, dtype=torch.int32).index_add(0, "
                        "torch.tensor([0, 1]), torch.ones(2, dtype=torch.long)))",
    "index_add_negative": "print(torch.ones(3).index_add(0, torch.tensor([-1]), torch.ones(1)))",
    "index_fill_int32_index": "print(torch.ones(3).index_fill(0, torch.tensor([1], "
                              "dtype=torch.int32), 2))",
    "take_int32_index": "print(torch.ones(3).take(torch.tensor([1], dtype=torch.int32)))",
    "take_along_dim_dtype": "print(torch.take_along_dim(torch.ones(3), torch.tensor([1.0]), 0))",
    "take_along_dim_ndim": "print(torch.take_along_dim(torch.ones(2, 3), torch.tensor([1]), 1))",
    # kernels that refuse a dtype: NotImplementedError in the kernel's name
    "bitwise_not_float": "print(torch.ones(2).bitwise_not())",
    "invert_float": "print(~torch.ones(2))",
    "arange_bool": "print(torch.arange(3, dtype=torch.bool))",
    "hypot_integers": "print(torch.hypot(torch.ones(2, dtype=torch.int16), "
                      "torch.ones(2, dtype=torch.int16)))",
    "logaddexp_integers": "print(torch.logaddexp(torch.ones(2, dtype=torch.long), "
                          "torch.ones(2, dtype=torch.long)))",
    "logcumsumexp_integers": "print(torch.tensor([1, 2], dtype=torch.uint8).logcumsumexp(0))",
    # TensorIterator's order: shapes, then dtypes (the in-place cast, the kernel's dtypes)
    "inplace_shape_before_cast": "a = torch.ones(4, 3, 4, dtype=torch.uint8)\n"
                                 "a /= torch.ones(3, 4, 3, 4)",
    "floor_divide_shape_before_cast": "a = torch.ones(1, dtype=torch.int16)\n"
                                      "a.floor_divide_(torch.ones(2, dtype=torch.bfloat16))",
    "bitwise_shape_before_kernel": "print(torch.bitwise_and(torch.ones(2, dtype=torch.int8), "
                                   "torch.ones(3, dtype=torch.float16)))",
    "bitwise_inplace_shape_first": "a = torch.tensor([[3], [-4]])\n"
                                   "a.bitwise_and_(torch.ones(5, 2, dtype=torch.bfloat16))",
    "hypot_shape_before_kernel": "print(torch.hypot(torch.ones(3, 3, dtype=torch.int16), "
                                 "torch.ones(3, 4, dtype=torch.uint8)))",
    "shift_bool": "print(torch.ones(2, dtype=torch.bool) << torch.tensor(True))",
    "bitwise_number_first": "print(torch.bitwise_and(5, torch.tensor([1, 2], dtype=torch.int8)), "
                            "torch.bitwise_or(False, torch.tensor(True)))",
    "bitwise_float_number_first": "print(torch.bitwise_xor(7.0, torch.tensor([True])))",
    # dtype=, creation in integer dtypes
    "mean_half_dtype": "print(repr(torch.ones(2, dtype=torch.float16).mean(dim=[-1], "
                       "keepdim=True, dtype=torch.float32)))",
    "arange_float_step_int32": "print(repr(torch.arange(3, 8, 0.5, dtype=torch.int32)))",
    "arange_float_bounds_uint8": "print(repr(torch.arange(-5, 7, 0.5, dtype=torch.uint8)))",
    "arange_float_bounds_int64": "print(repr(torch.arange(-2.5, 4, 1.5, dtype=torch.int64)))",
    "arange_int64_zero_step": "print(repr(torch.arange(0, 4, 0.5, dtype=torch.int64)))",
    "linspace_uint8_wraps": "print(repr(torch.linspace(-2, 5, 5, dtype=torch.uint8)))",
    "linspace_bool": "print(repr(torch.linspace(2, 5, 3, dtype=torch.bool)))",
    # dims and index checks
    "index_fill_2d_index": "print(torch.ones(3).index_fill(0, torch.tensor([[0, 1]]), 2))",
    "count_nonzero_repeated_dim": "print(torch.ones(3).count_nonzero(dim=(0, 0)))",
    "count_nonzero_0d_dims": "print(torch.tensor(2.0).count_nonzero(dim=(0,)))",
    "all_repeated_dim": "print(torch.ones(3, 3).all(dim=[-2, 0], keepdim=True))",
    "t_name": "print(torch.ones(2, 2, 2).t_())",
    # clamp: a 0-d tensor without grad is a Number to PyTorch's parser
    "clamp_tensor_and_number": "print(torch.clip(torch.tensor([6, -5], dtype=torch.int8), "
                               "torch.tensor(0.5), 7.0), torch.clamp(torch.tensor([4, -3, 5], "
                               "dtype=torch.int8), True, torch.tensor(3)))",
    "clamp_min_none": "print(torch.tensor([True]).clamp_max(None))",
    "clamp_min_none_function": "print(torch.clamp_min(torch.ones(2), None))",
    # scatter's checks: an empty index skips the index's; src's sizes before its dims
    "scatter_empty_float_index": "t = torch.ones(3)\nprint(t.scatter(0, torch.tensor([]), 2.0), "
                                 "t.scatter_add(0, torch.tensor([]), torch.ones(3)))",
    "scatter_empty_index_src_dtype": "print(torch.ones(3).scatter_add(0, torch.tensor([]), "
                                     "torch.ones(3, dtype=torch.long)))",
    "scatter_reduce_src_fewer_dims": "print(torch.ones(4, 2).scatter_reduce(0, torch.zeros(4, 2, "
                                     "dtype=torch.long), torch.ones(4), 'sum'))",
    "scatter_reduce_src_smaller": "print(torch.ones(4, 2).scatter_reduce(0, torch.zeros(4, 2, "
                                  "dtype=torch.long), torch.ones(3), 'sum'))",
    # integer bounds and fills take the dtype, checked
    "clamp_uint8_negative_bound": "print(repr(torch.clamp(torch.tensor([0, 3, 250], "
                                  "dtype=torch.uint8), -7, None)))",
    "setitem_nan_into_int": "a = torch.arange(0, 1)\na[:-1] = float('nan')",
    "setitem_negative_into_uint8": "a = torch.arange(0, 3, dtype=torch.uint8)\na[1:] = -1\n"
                                   "print(a)",
    "argmin_dim_list_bool": "print(torch.tensor([[True], [True]]).argmin(dim=[1, -2]))",
    "remainder_inplace_shape_first": "a = torch.ones(3, 4, dtype=torch.long)\n"
                                     "a %= torch.zeros(3, 3, 4, dtype=torch.long)",
    "floor_divide_inplace_shape_first": "a = torch.tensor(3)\n"
                                        "a.floor_divide_(torch.tensor([True, False, True]))",
    "expand_error_bool_type": "torch.ones(1, 2, dtype=torch.bool).expand(3)",
    "expand_error_bfloat16_type": "torch.ones(1, 2, dtype=torch.bfloat16).expand(3)",
    "nonzero_strides": "r = torch.tensor([[1, 0], [2, 3]]).nonzero()\n"
                       "print(r.stride(), r.is_contiguous(), torch.tensor([5, 0, 2]).argwhere()"
                       ".stride())",
    "out_into_expanded": "v = torch.ones(3).expand(3, 3)\ntorch.add(v, 1, out=v)",
    "empty_result_strides": "print(torch.ones(3)[torch.ones(3) > 5].stride(), torch.ones(3, 4)[[]]"
                            ".stride(), torch.eye(0, 2).stride(), torch.ones(3, 4).narrow(1, 1, 0)"
                            ".stride())",
    "bernoulli_0d": "print(repr(torch.bernoulli(torch.full((), 0.5))))",
    "linspace_bool_one_step": "print(repr(torch.linspace(2, 1, 1, dtype=torch.bool)))",
    "clamp_nan_bound": "print(torch.tensor([0.75, -1.0]).clamp_max(float('nan')), "
                       "torch.tensor([0.75, -1.0]).clamp_min(float('nan')))",
    "log_softmax_inner_dim_kernel": "torch.ones(3, 2, dtype=torch.long).log_softmax(0)",
    "histc_range_text": "print(torch.histc(torch.tensor([-4.0, float('inf')]), bins=4))",
    "nanmedian_dim_list_bool": "print(torch.tensor([False, True]).nanmedian(dim=[-1]))",
    "remainder_inplace_cast_first": "a = torch.tensor([[True, False]])\n"
                                    "a %= torch.zeros(4, 2, dtype=torch.uint8)",
    "clamp_inplace_no_promotion": "a = torch.tensor([[-3], [-6]], dtype=torch.int8)\n"
                                  "a.clamp_(2.5)",
    "clamp_inplace_bool": "a = torch.tensor(True)\na.clamp_(2)",
    "clamp_inplace_uint8_bound": "a = torch.tensor([3, 6], dtype=torch.uint8)\na.clamp_(-4)\n"
                                 "print(a)",
    "tensor_mixed_ints_floats_uint8": "print(torch.tensor([[0.5, -4], [3, 2.7]], "
                                      "dtype=torch.uint8))",
    "clip_int_and_float_bounds": "print(repr(torch.clip(torch.arange(0, 3, dtype=torch.uint8), "
                                 "-6, 3.25)))",
    "clamp_min_uint8_negative": "print(torch.tensor([7, 7, 0], dtype=torch.uint8).clamp_min(-2), "
                                "torch.tensor([7, 7, 0], dtype=torch.uint8).clamp_max(-7))",
    "number_mod_uint8": "print(-3 % torch.tensor([3], dtype=torch.uint8), "
                        "torch.remainder(300, torch.tensor([7], dtype=torch.uint8)))",
    "put_dtypes": "torch.ones(1, dtype=torch.long).put(torch.tensor([0]), torch.tensor([9.]))",
    "index_fill_nan_into_int": "print(torch.tensor([-4, 0]).index_fill(0, torch.tensor([1]), "
                               "float('nan')))",
    "gather_empty_float_index": "print(torch.gather(torch.arange(4), 0, torch.tensor([])))",
    "setitem_mask_is_target": "a = torch.tensor([True, False, True, False])\n"
                              "a[a] = torch.zeros(4)",
    "setitem_mask_is_target_fill": "a = torch.tensor([True, False])\na[a] = False\nprint(a)",
    "pow_0d_exponent_tensor": "x = torch.tensor([6, -float('inf'), -2.0], dtype=torch.float64)\n"
                              "print(x.pow(torch.tensor(0.5, dtype=torch.float64)), "
                              "x.float().pow(torch.tensor(0.5)), x.pow(0.5))",
    "gather_empty_index_other_ndim": "print(repr(torch.gather(torch.tensor([[2.5], [2.0]]), -1, "
                                     "torch.tensor([]))))",
    "logcumsumexp_0d_dim_list": "print(torch.tensor(2.0).logcumsumexp(dim=(0,)))",
    "compare_number_first": "print(torch.eq(2, torch.ones(2)))",
    "fmod_number_first": "print(torch.fmod(-7, torch.ones(2)))",
    "compare_method_string": "print(torch.ones(2).ge('a'))",
    "max_number_first": "print(torch.max(2, torch.ones(2)))",
    "scatter_empty_index_other_ndim": "print(repr(torch.tensor([[4], [-6]]).scatter_add(0, "
                                      "torch.tensor([]), torch.ones(2, dtype=torch.long))))",
    # writes PyTorch allows into overlapping memory: fill_ with a number and zero_ (its kernel
    # skips the overlap check), and a view of an expand that does not overlap itself
    "fill_unfold_windows": "a = torch.tensor([1.0, 2.0, 3.0, 4.0])\na.unfold(0, 2, 1).fill_(7)\n"
                           "print(a)",
    "fill_expand_number_not_tensor": "a = torch.zeros(3)\ne = a.expand(2, 3)\ne.fill_(5)\n"
                                     "e[:, 1].zero_()\nprint(a)\ne.fill_(torch.tensor(2.0))",
    "setitem_expand_row": "a = torch.zeros(3)\ne = a.expand(2, 3)\ne[1] = 3\ne[0, 1] = 4\n"
                          "e[1].add_(1)\nprint(a)\ne[:, 1] = 2",
    "fill_unfold_backward": "x = torch.zeros(4, requires_grad=True)\ny = x * 1\n"
                            "y.unfold(0, 2, 1).fill_(3)\ny.sum().backward()\nprint(x.grad, y)",
    # resize_ of a non-contiguous view reads its storage in memory order from its offset
    "resize_transposed": "a = torch.arange(6.0).reshape(2, 3)\nv = a.t()\nv.resize_(2)\n"
                         "print(v, v.stride(), v._base is a)",
    "resize_sliced_writes_base": "a = torch.arange(6.0).reshape(2, 3)\nv = a[:, 1:]\n"
                                 "v.resize_(3)\nv[0] = 9\nprint(v, a)",
    "add_integer_float_alpha_shapes_first": "print(torch.add(torch.ones(2, 2, dtype=torch.int16), "
                                            "torch.ones(3, dtype=torch.int16), alpha=-1.5))",
    "histc_nan_range": "print(torch.histc(torch.tensor([float('nan'), 1.0]), bins=4))",
    "histc_nan_given_range": "print(torch.histc(torch.tensor([1.0]), bins=4, min=float('nan'), "
                             "max=1))",
    "empty_view_data_ptr": "t = torch.arange(3.0).reshape(1, 3)\nr = t[1:]\n"
                           "print(r.data_ptr() == t.data_ptr(), r.data_ptr(), "
                           "torch.empty(0).data_ptr(), t[:, 3:].data_ptr())",
    "nansum_bfloat16": "print(torch.tensor([[-3.0, float('nan'), 2.0]], "
                       "dtype=torch.bfloat16).nansum(-1))",
}



# The fixed seed's batch: mismatches still there (case number: cause), a strict list: a case
# that passes must leave it.
SEED, CASES = 11, 400
KNOWN: dict[int, str] = {
    198: "t[...] = a 0-d tensor that requires grad: PyTorch records FillBackward3 even into a "
         "bool tensor; gradsh records nothing for a non-float target",
}


sides, test_fixed_case, test_fixed_seed_batch = fuzz.test_parts(
    REGRESSIONS, SEED, CASES, None, KNOWN)
