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
}


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
