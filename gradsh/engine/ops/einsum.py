"""torch.einsum, step by step as ATen's einsum (Linear.cpp) takes it, so the graph has PyTorch's
nodes: each operand's repeated labels become diagonals, missing labels unsqueezed dimensions,
then one permute into a common order; operands are contracted left to right by
`sumproduct_pair` (permute, reshape, bmm, view, permute), and the contracted dimensions are
viewed (or, for one operand, summed) away."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import mul
from gradsh.engine.ops.diagonal import diagonal
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg import bmm
from gradsh.engine.ops.reductions import sum as sum_
from gradsh.engine.ops.shape import movedim, permute, reshape, unsqueeze, view
from gradsh.engine.tensor import Tensor

__all__ = ["einsum"]

_LETTERS = 26
_ELLIPSIS = 2 * _LETTERS


def _subscript(label: str) -> int:
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + _LETTERS


def _label(index: int) -> str:
    return chr(ord("A") + index) if index < _LETTERS else chr(ord("a") + index - _LETTERS)


@guarded(tensor_first=False)
def einsum(*args: Any) -> Tensor:
    """torch.einsum(equation, *operands), the operands also as one list, or the sublist form
    einsum(op1, [0, 1], op2, [1, 2], [0, 2])."""
    if len(args) < 2:
        raise TorchValueError("einsum(): must specify the equation string and at least one "
                              "operand, or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation, operands = _from_sublists(args)
    else:
        equation, operands = args[0], list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    return _einsum(str(equation), [_check_tensor(op, "einsum") for op in operands])


def _from_sublists(args: Sequence[Any]) -> tuple[str, list[Tensor]]:
    """The sublist form as an equation, as torch.functional.einsum converts it."""
    def subscripts(sublist: Sequence[Any]) -> str:
        return "".join("..." if s is Ellipsis else _label(int(s)) for s in sublist)

    operands = list(args[0::2][: len(args) // 2])
    sublists = list(args[1::2][: len(args) // 2])
    equation = ",".join(subscripts(s) for s in sublists)
    if len(args) % 2:
        equation += "->" + subscripts(args[-1])
    return equation, operands


def _parse_inputs(lhs: str, count: int) -> list[list[int]]:
    labels: list[list[int]] = [[] for _ in range(count)]
    current, ellipsis_seen, i = 0, False, 0
    while i < len(lhs):
        char = lhs[i]
        if char == ".":
            if ellipsis_seen:
                raise TorchRuntimeError(f"einsum(): found '.' for operand {current} for which "
                                        "an ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise TorchRuntimeError(f"einsum(): found '.' for operand {current} that is "
                                        "not part of any ellipsis")
            labels[current].append(_ELLIPSIS)
            ellipsis_seen, i = True, i + 2
        elif char == ",":
            current += 1
            if current >= count:
                raise TorchRuntimeError("einsum(): fewer operands were provided than "
                                        "specified in the equation")
            ellipsis_seen = False
        elif char != " ":
            if not (char.isascii() and char.isalpha()):
                raise TorchRuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                        "equation string, subscripts must be in [a-zA-Z]")
            labels[current].append(_subscript(char))
        i += 1
    if current != count - 1:
        raise TorchRuntimeError("einsum(): more operands were provided than specified in the "
                                "equation")
    return labels


def _einsum(equation: str, operands: list[Tensor]) -> Tensor:
    if not operands:
        raise TorchRuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = _parse_inputs(lhs, len(operands))
    label_count = [0] * (2 * _LETTERS)
    ell_num_dim = 0
    for i, (op, labels) in enumerate(zip(operands, op_labels, strict=True)):
        named = [s for s in labels if s != _ELLIPSIS]
        for s in named:
            label_count[s] += 1
        has_ellipsis = len(named) != len(labels)
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, op.ndim - len(named))
        if (len(named) > op.ndim) if has_ellipsis else (len(named) != op.ndim):
            raise TorchRuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(named)}) "
                + ("is more than" if has_ellipsis else "does not match")
                + f" the number of dimensions ({op.ndim}) for operand {i}"
                + ("" if has_ellipsis else " and no ellipsis was given"))
    perm_index_of = [-1] * (2 * _LETTERS)
    perm_index, ell_index, ell_in_output = 0, 0, False
    if arrow < 0:
        perm_index, ell_in_output = ell_num_dim, True
        for s in range(2 * _LETTERS):
            if label_count[s] == 1:
                perm_index_of[s], perm_index = perm_index, perm_index + 1
    else:
        perm_index, ell_index, ell_in_output = _parse_output(
            equation, arrow, lhs, label_count, perm_index_of, ell_num_dim)
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index, perm_index = perm_index, perm_index + ell_num_dim
    for s in range(2 * _LETTERS):
        if label_count[s] > 0 and perm_index_of[s] == -1:
            perm_index_of[s], perm_index = perm_index, perm_index + 1
    ops, dim_counts = _align(operands, op_labels, perm_index_of, perm_index, ell_index,
                             ell_num_dim)
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_dims, b_dims = [], [], []
        for dim in range(out_num_dim, perm_index):
            sa, sb = a.shape[dim] != 1, b.shape[dim] != 1
            if sa and sb:
                if a.shape[dim] != b.shape[dim]:
                    raise TorchRuntimeError("non-broadcast dimensions must match")
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if sa:
                    a_dims.append(dim)
                    dim_counts[dim] = 0
                elif sb:
                    b_dims.append(dim)
                    dim_counts[dim] = 0
        if a_dims:
            a = sum_(a, tuple(a_dims), True)
        if b_dims:
            b = sum_(b, tuple(b_dims), True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if perm_index - out_num_dim > 0:
        if len(operands) > 1:
            return view(result, tuple(result.shape[:out_num_dim]))
        return sum_(result, tuple(range(out_num_dim, perm_index)))
    return result


def _parse_output(equation: str, arrow: int, lhs: str, label_count: list[int],
                  perm_index_of: list[int], ell_num_dim: int) -> tuple[int, int, bool]:
    rhs = equation[arrow + 2:]
    perm_index, ell_index, ell_in_output, i = 0, 0, False, 0
    while i < len(rhs):
        char = rhs[i]
        if char == ".":
            if ell_in_output:
                raise TorchRuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                        "was already found")
            if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                raise TorchRuntimeError("einsum(): found '.' for output that is not part of "
                                        "any ellipsis (...)")
            ell_index, perm_index, ell_in_output, i = (perm_index, perm_index + ell_num_dim,
                                                        True, i + 2)
        elif char != " ":
            if not (char.isascii() and char.isalpha()):
                raise TorchRuntimeError(f"einsum(): invalid subscript given at index "
                                        f"{len(lhs) + 2 + i} in the equation string, "
                                        "subscripts must be in [a-zA-Z]")
            s = _subscript(char)
            if not (label_count[s] > 0 and perm_index_of[s] == -1):
                reason = ("appears more than once in the output" if perm_index_of[s] > -1
                          else "does not appear in the equation for any input operand")
                raise TorchRuntimeError(f"einsum(): output subscript {char} {reason}")
            perm_index_of[s], perm_index = perm_index, perm_index + 1
        i += 1
    return perm_index, ell_index, ell_in_output


def _align(operands: list[Tensor], op_labels: list[list[int]], perm_index_of: list[int],
           perm_index: int, ell_index: int, ell_num_dim: int) -> tuple[list[Tensor], list[int]]:
    """Diagonals for repeated labels, unsqueezed missing dimensions, one permute per operand;
    and how many operands have each dimension with a size other than 1."""
    label_size = [1] * (2 * _LETTERS)
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops: list[Tensor] = []
    for i, operand in enumerate(operands):
        op = operand
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[i]:
            if s == _ELLIPSIS:
                covered = operand.ndim - (len(op_labels[i]) - 1)
                for j in range(ell_num_dim - covered, ell_num_dim):
                    if op.shape[dim] != 1:
                        if ell_sizes[j] not in (1, op.shape[dim]):
                            raise TorchRuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}"
                                f"has size {op.shape[dim]} which does not broadcast with "
                                f"previously seen ellipsis with size {ell_sizes[j]} for the "
                                "respective dimension")
                        ell_sizes[j] = op.shape[dim]
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[perm_index_of[s]] == -1:
                if op.shape[dim] != 1:
                    if label_size[s] not in (1, op.shape[dim]):
                        raise TorchRuntimeError(
                            f"einsum(): subscript {_label(s)} has size {op.shape[dim]} for "
                            f"operand {i} which does not broadcast with previously seen size "
                            f"{label_size[s]}")
                    label_size[s] = op.shape[dim]
                    dim_counts[perm_index_of[s]] += 1
                permutation[perm_index_of[s]] = dim
                dim += 1
            else:
                previous = permutation[perm_index_of[s]]
                if op.shape[dim] != op.shape[previous]:
                    raise TorchRuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {i} but the "
                        f"sizes don't match, {op.shape[dim]} != {op.shape[previous]}")
                op = movedim(diagonal(op, 0, previous, dim), -1, previous)
        for k, value in enumerate(permutation):
            if value == -1:
                op = unsqueeze(op, dim)
                permutation[k] = dim
                dim += 1
        ops.append(permute(op, permutation))
    return ops, dim_counts


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """(left * right).sum(sum_dims, keepdim=True) through one bmm, as ATen's sumproduct_pair."""
    if not sum_dims:
        return mul(left, right)
    ndim = left.ndim
    summed = set(sum_dims)
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(ndim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise TorchRuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = sum_(left, i, True)
            elif sr:
                right = sum_(right, i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise TorchRuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:  # bmm then writes the output in its final order
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo]
                + [1] * len(sum_dims) + [right.shape[d] for d in ro])
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [-1] * len(out_size)
    for position, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = position
    a = reshape(permute(left, lperm), (lro_size, lo_size, sum_size))
    b = reshape(permute(right, rperm), (lro_size, sum_size, ro_size))
    return permute(view(bmm(a, b), *out_size), operm)
