"""Result layouts (strides) against PyTorch where they change what a program sees: a mask drawn
in memory order (dropout, rand_like), the order a float32 sum adds in, and .view's refusal of a
non-contiguous tensor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _data(lib: Any, shape: tuple[int, ...], seed: int = 0) -> Any:
    return lib.tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32))


CASES: dict[str, Callable[[Any], Any]] = {
    # MKL's rank-1 update path of addmm (Linear(1, n)): a new row-major result in ATen
    "linear_in_features_1": lambda L: L.nn.functional.linear(
        _data(L, (20, 1)), _data(L, (300, 1), 1), _data(L, (300,), 2)),
    "cat_of_transposed": lambda L: L.cat([_data(L, (4, 3)).t(), _data(L, (4, 3), 1).t()]),
    "stack_of_transposed": lambda L: L.stack([_data(L, (4, 3)).t(), _data(L, (4, 3)).t()]),
    "cat_channels_last": lambda L: L.cat(
        [_data(L, (2, 4, 5, 3)).permute(0, 3, 1, 2)] * 2, 1),  # NHWC strides stay NHWC
    "index_columns": lambda L: _data(L, (4, 5))[:, [0, 2, 3]],
    "index_middle": lambda L: _data(L, (2, 4, 5))[:, [0, 2], :],
    "index_mask_columns": lambda L: _data(L, (4, 5))[:, L.tensor([True, False, True, False,
                                                                  True])],
    "ones_like_transposed": lambda L: L.ones_like(_data(L, (4, 5)).t()),
    "rand_like_transposed": lambda L: L.rand_like(_data(L, (4, 5)).t()),
    "randn_like_permuted": lambda L: L.randn_like(_data(L, (2, 3, 4)).permute(2, 0, 1)),
    "randint_like_transposed": lambda L: L.randint_like(_data(L, (4, 5)).t(), 10),
    "tensor_of_fortran_array": lambda L: L.tensor(np.asfortranarray(np.ones((3, 4), np.float32))),
    # TensorIterator lays a result out as its first operand when the operands disagree
    "transposed_plus_row_major": lambda L: _data(L, (4, 3)).t() + _data(L, (3, 4), 1),
    "row_major_times_transposed": lambda L: _data(L, (3, 4), 1) * _data(L, (4, 3)).t(),
    "squared_error_of_transposed": lambda L: (_data(L, (4, 3)).t() - _data(L, (3, 4), 1)) ** 2,
    "permuted_over_row_major": lambda L: _data(L, (2, 4, 3)).transpose(1, 2)
    / _data(L, (2, 3, 4), 1),
    "transposed_greater": lambda L: (_data(L, (4, 3)).t() > _data(L, (3, 4), 1)).float(),
    "reflection_pad": lambda L: L.nn.functional.pad(_data(L, (1, 2, 3, 3)), (1, 2, 0, 1),
                                                    "reflect"),
    # empty_like(self, Preserve): flip and sort keep a transposed or permuted layout ...
    "flip_transposed": lambda L: _data(L, (4, 3)).t().flip(0),
    "flip_permuted_sliced": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1)[::2].flip(0),
    "sort_values_transposed": lambda L: _data(L, (4, 3)).t().sort(0)[0],
    "argsort_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).argsort(-1).float(),
    "lerp_permuted": lambda L: L.lerp(_data(L, (2, 3, 4)).permute(2, 0, 1),
                                      _data(L, (2, 3, 4), 1).permute(2, 0, 1), 0.25),
    "addcmul_transposed": lambda L: L.addcmul(_data(L, (4, 3)).t(), _data(L, (4, 3), 1).t(),
                                              _data(L, (3, 4), 2), value=0.5),
    "maximum_transposed": lambda L: L.maximum(_data(L, (4, 3)).t(), _data(L, (4, 3), 1).t()),
    # ... while these write a fresh row-major result
    "roll_transposed": lambda L: _data(L, (4, 3)).t().roll(1, 0),
    "cumsum_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).cumsum(0),
    "cummax_transposed": lambda L: _data(L, (4, 3)).t().cummax(0)[0],
    "tril_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).tril(),
    "repeat_transposed": lambda L: _data(L, (4, 3)).t().repeat(1, 1),
    "gather_transposed": lambda L: _data(L, (4, 3)).t().gather(
        0, L.zeros(3, 4, dtype=L.long).t().t()),
    # AccumulateGrad's layout contract: a dense leaf's .grad has the leaf's strides
    "grad_of_transposed_leaf": lambda L: _leaf_grad(L, _data(L, (4, 3)).t()),
    "grad_of_permuted_leaf": lambda L: _leaf_grad(L, _data(L, (2, 3, 4)).permute(2, 0, 1)),
    "grad_of_sliced_leaf": lambda L: _leaf_grad(L, _data(L, (4, 6))[:, ::2]),
    # TensorIterator's fast setup: contiguous operands (size-1 dimensions' strides aside) give a
    # contiguous result; a wrapped number makes it take the slow path, which keeps the strides
    "exp_of_size1_column": lambda L: _column(L).exp(),
    "sigmoid_of_size1_column": lambda L: _column(L).sigmoid(),
    "times_number_of_size1_column": lambda L: _column(L) * 2,
    "over_number_of_size1_column": lambda L: _column(L) / 3,
    "minus_number_of_size1_column": lambda L: 1 - _column(L),
    "floor_divide_size1_column": lambda L: _column(L) // 0.3,
    "pow_of_size1_column": lambda L: _column(L) ** 0.5,
    "deg2rad_of_size1_column": lambda L: _column(L).deg2rad(),
    "unsqueezed_transposed_times_number": lambda L: _data(L, (3, 4)).t().unsqueeze(1) * 2,
    "clone_of_size1_column": lambda L: _column(L).clone(),
    "to_double_of_size1_column": lambda L: _column(L).double(),
    "zeros_like_size1_column": lambda L: L.zeros_like(_column(L)) + _column(L),
    "rand_like_size1_column": lambda L: L.rand_like(_column(L)),
    "hardtanh_of_size1_column": lambda L: L.nn.functional.hardtanh(_column(L)),
    "nan_to_num_of_size1_column": lambda L: _column(L).nan_to_num(),
    # unary ops keep a transposed or permuted input's layout ...
    "lgamma_transposed": lambda L: _data(L, (4, 3)).t().abs().lgamma(),
    "sinc_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).sinc(),
    "asinh_transposed": lambda L: _data(L, (4, 3)).t().asinh(),
    "i0_permuted": lambda L: L.i0(_data(L, (2, 3, 4)).permute(2, 0, 1)),
    "glu_of_transposed": lambda L: L.nn.functional.glu(_data(L, (3, 4)).t(), 0),
    "index_fill_transposed": lambda L: _data(L, (4, 3)).t().index_fill(0, L.tensor([0]), 1.0),
    "put_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).put(L.tensor([0]),
                                                                       L.tensor([9.0])),
    "index_put_transposed": lambda L: _data(L, (4, 3)).t().index_put((L.tensor([0]),),
                                                                     L.tensor(5.0)),
    "bce_none_transposed": lambda L: L.nn.functional.binary_cross_entropy(
        _data(L, (4, 3)).t().sigmoid(), _data(L, (4, 3), 1).t().sigmoid(), reduction="none"),
    "where_contiguous_first": lambda L: L.where(_data(L, (4, 3)).t() > 0,
                                                _data(L, (3, 4), 1), _data(L, (4, 3)).t()),
    "where_number_transposed": lambda L: L.where(_data(L, (4, 3)).t() > 0, 1.0,
                                                 _data(L, (4, 3)).t()),
    "exp_out_resized": lambda L: L.exp(_data(L, (4, 3)).t(), out=L.empty(0)),
    "expand_plus_transposed": lambda L: _data(L, (1, 3)).expand(4, 3) + _data(L, (3, 4)).t(),
    "channels_last_plus_bias": lambda L: _data(L, (2, 4, 5, 3)).permute(0, 3, 1, 2)
    + _data(L, (1, 3, 1, 1), 1),
    "contiguous_plus_channels_last": lambda L: _data(L, (2, 3, 4, 5))
    + _data(L, (2, 4, 5, 3), 1).permute(0, 3, 1, 2),
    # ... while these write a fresh row-major result
    "logsigmoid_transposed": lambda L: L.nn.functional.logsigmoid(_data(L, (4, 3)).t()),
    "cumprod_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).cumprod(0),
    "logcumsumexp_transposed": lambda L: _data(L, (4, 3)).t().logcumsumexp(0),
    "cummax_indices_transposed": lambda L: _data(L, (4, 3)).t().cummax(0)[1].float(),
    "renorm_transposed": lambda L: _data(L, (4, 3)).t().renorm(2, 0, 1),
    "amax_keepdim_transposed": lambda L: _data(L, (4, 3)).t().amax(1, keepdim=True),
    "prod_keepdim_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).prod(1, True),
    "norm_dim_permuted": lambda L: _data(L, (2, 3, 4)).permute(2, 0, 1).norm(dim=1),
    "var_mean_permuted": lambda L: L.var_mean(_data(L, (2, 3, 4)).permute(2, 0, 1), 1)[0],
    "all_dim_permuted": lambda L: (_data(L, (2, 3, 4)).permute(2, 0, 1) > 0).all(1).float(),
    "clone_of_expanded": lambda L: _data(L, (1, 3)).t().expand(3, 4).clone(),
    "cross_transposed": lambda L: L.linalg.cross((_data(L, (3, 3)) * 4).round().t(),
                                                 (_data(L, (3, 3), 1) * 4).round().t(), dim=0),
    "rpow_transposed": lambda L: 2 ** _data(L, (4, 3)).t(),
    "topk_indices_transposed": lambda L: _data(L, (4, 3)).t().topk(1, 0)[1].float(),
    # AccumulateGrad keeps a gradient that obeys the contract; retain_grad clones contiguous
    "grad_of_size1_column_sum": lambda L: _leaf_grad(L, _column(L)),
    "grad_of_size1_column_exp": lambda L: _grad_of(L, _column(L), lambda v: v.exp().sum()),
    "grad_of_size1_column_sigmoid": lambda L: _grad_of(
        L, _column(L), lambda v: (v.sigmoid() * v.detach()).sum()),
    "retained_grad_of_transposed": lambda L: _retained_grad(L, _data(L, (4, 3)).t()),
    "grad_of_column_used_twice": lambda L: _grad_of(L, _column(L),
                                                    lambda v: (v * v.contiguous()).sum()),
    # kernels that allocate in the input's suggested memory format (channels-last or not)
    "conv2d_channels_last": lambda L: L.nn.functional.conv2d(_nhwc(L), _data(L, (4, 3, 3, 3), 1)),
    "max_pool_channels_last": lambda L: L.nn.functional.max_pool2d(_nhwc(L), 2),
    "avg_pool_channels_last": lambda L: L.nn.functional.avg_pool2d(_nhwc(L), 2),
    "pad_channels_last": lambda L: L.nn.functional.pad(_nhwc(L), (1, 1)),
    "upsample_channels_last": lambda L: L.nn.functional.interpolate(_nhwc(L), scale_factor=2),
    "roll_channels_last": lambda L: _nhwc(L).roll(1, -1),
    "one_hot_transposed": lambda L: L.nn.functional.one_hot(
        (_data(L, (4, 3)).t().abs() * 2).long() % 3, 3).float(),
}


def _nhwc(L: Any) -> Any:
    """A (2, 3, 4, 4) batch laid out channels-last."""
    return _data(L, (2, 4, 4, 3)).permute(0, 3, 1, 2)


def _column(L: Any) -> Any:
    """A (4, 1) column of a transposed tensor: contiguous, its size-1 dimension's stride 4."""
    return _data(L, (3, 4)).t()[:, :1] / 10


def _grad_of(L: Any, t: Any, loss: Callable[[Any], Any]) -> Any:
    leaf = t.detach().requires_grad_()
    loss(leaf).backward()
    return leaf.grad


def _retained_grad(L: Any, t: Any) -> Any:
    mid = t.detach().requires_grad_() * 2
    mid.retain_grad()
    (mid.exp() * mid.detach()).sum().backward()
    return mid.grad


def _leaf_grad(L: Any, t: Any) -> Any:
    leaf = t.requires_grad_()
    (leaf.flip(0) * L.arange(float(leaf.shape[-1]))).sum().backward()
    return leaf.grad


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_strides_and_what_depends_on_them(torch: Any, name: str) -> None:
    results = []
    for lib in (torch, gtorch):
        lib.manual_seed(0)
        out = CASES[name](lib)
        mask = lib.nn.functional.dropout(out, 0.5)  # drawn in the memory order of out
        results.append((tuple(out.stride()), out.is_contiguous(), mask.flatten().tolist(),
                        out.sum().item(), out.flatten().tolist()))
    assert results[1] == results[0]
