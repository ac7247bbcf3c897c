"""at::_trilinear on arrays, step for step (aten/src/ATen/native/Linear.cpp): F.bilinear's
forward and its three gradients (_trilinear_backward is three more _trilinear calls), so the
products are the bmm calls ATen makes, with their shapes and layouts, and the sums over the
unrolled dimension are added in its order.

_trilinear unsqueezes its three operands at their `expand` dimensions, then for each index k
of `unroll_dim` multiplies the first two with sumproduct_pair over the summed dimensions that
only the third lacks, then that with the third over the rest; a summed unroll dimension adds
the slices' results into a zeroed output in turn, another writes each into its slice.
sumproduct_pair permutes its operands to (both, left only, summed) and (both, summed, right
only), reshapes them to 3-D and runs one bmm.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gradsh.engine.functions import linalg
from gradsh.engine.functions.cascade_sum import torch_sum

__all__ = ["trilinear"]

_BMM_LOOP = 400  # bmm's own loop below this many multiply-adds a matrix


def _unsqueeze(a: np.ndarray, dim: int) -> np.ndarray:
    """Tensor.unsqueeze with ATen's stride for the new dimension (size * stride of the one
    it precedes, 1 at the end): the strides of size-1 dimensions decide whether bmm reads an
    operand as transposed, and so MKL's path."""
    step = a.itemsize * a.shape[dim] * (a.strides[dim] // a.itemsize) if dim < a.ndim \
        else a.itemsize
    return as_strided(a, a.shape[:dim] + (1,) + a.shape[dim:],
                      a.strides[:dim] + (step,) + a.strides[dim:], writeable=False)


def _view_strides(shape: tuple[int, ...], strides: tuple[int, ...],
                  new: tuple[int, ...]) -> tuple[int, ...] | None:
    """ATen's computeStride: the strides (in elements) of a view of `new` shape, or None where
    reshape must copy."""
    out = [0] * len(new)
    view_d = len(new) - 1
    base = strides[-1] if strides else 1
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base, tensor_numel, view_numel = strides[d - 1], 1, 1
    return tuple(out) if view_d == -1 else None


def _reshape(a: np.ndarray, new: tuple[int, ...]) -> np.ndarray:
    """Tensor.reshape: a view with ATen's strides where one exists, else a contiguous copy."""
    if a.size == 0:
        return a.reshape(new)
    found = _view_strides(a.shape, tuple(s // a.itemsize for s in a.strides), new)
    if found is None:
        return np.ascontiguousarray(a).reshape(new)
    return as_strided(a, new, tuple(s * a.itemsize for s in found), writeable=False)


def _sumproduct_pair(left: np.ndarray, right: np.ndarray, sum_dims: Sequence[int]
                     ) -> np.ndarray:
    """sumproduct_pair(left, right, sum_dims, keepdim=True): same-rank operands."""
    if not sum_dims:
        return left * right
    both: list[int] = []
    left_only: list[int] = []
    right_only: list[int] = []
    summed = 1
    for i in range(left.ndim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                summed *= left.shape[i]
            elif sl:  # summed right away: left.sum(i, true)
                left = torch_sum(left, (i,), True, left.dtype.type)
            elif sr:
                right = torch_sum(right, (i,), True, right.dtype.type)
        elif sl and sr:
            both.append(i)
        elif sl:
            left_only.append(i)
        else:
            right_only.append(i)
    sizes = [int(np.prod([left.shape[d] for d in dims], dtype=np.int64))
             for dims in (both, left_only)]
    sizes.append(int(np.prod([right.shape[d] for d in right_only], dtype=np.int64)))
    out_size = ([left.shape[d] for d in both + left_only] + [1] * len(sum_dims)
                + [right.shape[d] for d in right_only])
    sums = list(sum_dims)
    lhs = _reshape(left.transpose(both + left_only + sums + right_only),
                   (sizes[0], sizes[1], summed))
    rhs = _reshape(right.transpose(both + sums + right_only + left_only),
                   (sizes[0], summed, sizes[2]))
    if sizes[2] == 1 and sizes[1] * summed >= _BMM_LOOP:
        # one column a matrix (measured: PyTorch's products there are mv's, batch by batch)
        product = np.stack([linalg.product(lhs[b], rhs[b, :, 0]) for b in range(sizes[0])])
    else:
        product = linalg.product(lhs, rhs)
    result = _reshape(product.reshape(sizes[0], sizes[1], sizes[2]), tuple(out_size))
    order = both + left_only + sums + right_only
    return result.transpose(np.argsort(order))


def trilinear(i1: np.ndarray, i2: np.ndarray, i3: np.ndarray, expand1: Sequence[int],
              expand2: Sequence[int], expand3: Sequence[int], sumdim: Sequence[int],
              unroll_dim: int = 1) -> np.ndarray:
    """at::_trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim)."""
    # (ATen's strides are never negative: a flipped view is a copy there)
    i1, i2, i3 = (np.ascontiguousarray(a) if any(s < 0 for s in a.strides) else a
                  for a in (i1, i2, i3))
    total = i1.ndim + len(expand1)
    output_size = []
    sum_12: list[int] = []
    sum_23: list[int] = []
    unroll_size = 1
    for i in range(total):
        size = 0
        if i in expand1:
            i1 = _unsqueeze(i1, i)
        else:
            size = i1.shape[i]
        if i in expand2:
            i2 = _unsqueeze(i2, i)
        else:
            size = i2.shape[i]
        if i in expand3:
            i3 = _unsqueeze(i3, i)
            if i in sumdim and i != unroll_dim:
                sum_12.append(i)
        else:
            size = i3.shape[i]
            if i in sumdim and i != unroll_dim:
                sum_23.append(i)
        output_size.append(1 if i in sumdim else size)
        if i == unroll_dim:
            unroll_size = size
    muls = [0 if unroll_dim in e else 1 for e in (expand1, expand2, expand3)]
    output = np.zeros(output_size, i1.dtype)
    if i1.size and i2.size and i3.size:
        def narrow(a: np.ndarray, index: int) -> np.ndarray:
            cut = [slice(None)] * a.ndim
            cut[unroll_dim] = slice(index, index + 1)
            return a[tuple(cut)]

        with np.errstate(all="ignore"):
            for k in range(unroll_size):
                buf = _sumproduct_pair(narrow(i1, k * muls[0]), narrow(i2, k * muls[1]), sum_12)
                buf = _sumproduct_pair(buf, narrow(i3, k * muls[2]), sum_23)
                if unroll_dim in sumdim:
                    output += buf
                else:
                    index = [slice(None)] * output.ndim
                    index[unroll_dim] = slice(k, k + 1)
                    output[tuple(index)] += buf
    return output.reshape([n for i, n in enumerate(output_size) if i not in sumdim])
