"""torch.nn.utils.rnn: padding variable-length sequences into one tensor and back, and packing
them into a PackedSequence for the recurrent layers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from gradsh.engine import dtypes, ops
from gradsh.engine.ops import rnn as rnn_ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.utils.rnn")

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence",
           "pad_sequence", "unpack_sequence", "unpad_sequence"]


class PackedSequence_(NamedTuple):  # noqa: N801  (PyTorch's name)
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """The data of variable-length sequences, time step after time step, and the batch size of
    each step (what pack_padded_sequence returns and the recurrent layers accept)."""

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None) -> PackedSequence:
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=dtypes.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=dtypes.float32)

    @property
    def is_cuda(self) -> bool:
        return bool(self.data.is_cuda)

    def is_pinned(self) -> bool:
        return False


def _invert_permutation(permutation: Tensor) -> Tensor:
    output = ops.empty_like(permutation)
    output.scatter_(0, permutation, ops.arange(0, permutation.numel(),
                                               device=permutation.device))
    return output


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,  # noqa: A002
                         enforce_sorted: bool = True) -> PackedSequence:
    """The valid steps of a padded batch, packed (sorted by length first unless
    enforce_sorted, in which case the lengths must already decrease)."""
    if not isinstance(lengths, Tensor):
        lengths = ops.tensor(lengths, dtype=dtypes.int64)
    else:
        lengths = lengths.to(dtype=dtypes.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = ops.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    values = [int(v) for v in lengths.tolist()] if lengths.ndim == 1 else []
    if lengths.ndim != 1 or lengths.device != "cpu":
        raise TorchRuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                                f"{lengths.ndim}D {lengths.device} Long tensor")
    batch = input.shape[0 if batch_first else 1]
    if input.numel() == 0:
        raise TorchRuntimeError("Cannot pack empty tensors.")
    if len(values) != batch:
        raise TorchRuntimeError("Expected `len(lengths)` to be equal to batch_size, but got "
                                f"{len(values)} (batch_size={batch})")
    if values[-1] <= 0:
        raise TorchRuntimeError("Length of all samples has to be greater than 0, but found an "
                                "element in 'lengths' that is <= 0")
    if any(a < b for a, b in zip(values, values[1:])):
        raise TorchRuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
            "sidestep this requirement if you do not need ONNX exportability.")
    sizes = [sum(1 for v in values if v > t) for t in range(values[0])]
    data = rnn_ops.pack_padded(input, sizes, batch_first)
    return PackedSequence(data, ops.tensor(sizes, dtype=dtypes.int64), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """The padded batch back from a PackedSequence, and each sequence's length (ATen's
    _pad_packed_sequence: slices of the data copied into a tensor of padding_value)."""
    sizes = [int(v) for v in sequence.batch_sizes.tolist()]
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_len}")
        max_len = total_length
    data = sequence.data
    out = ops.full((max_len, sizes[0]) + tuple(data.shape[1:]), padding_value,
                   dtype=data.dtype, device=data.device)
    lengths = [0] * sizes[0]
    offset, prev_i, prev = 0, 0, sizes[0]
    for i in range(len(sizes) + 1):
        size = sizes[i] if i != len(sizes) else 0
        if size != prev:
            count = prev * (i - prev_i)
            block = data.narrow(0, offset, count).view((i - prev_i, prev) + tuple(data.shape[1:]))
            out.narrow(0, prev_i, i - prev_i).narrow(1, 0, prev).copy_(block)
            offset += count
            prev_i = i
        for j in range(size, prev):
            lengths[j] = i
        prev = size
    if batch_first:
        out = out.transpose(0, 1)
    length_tensor = ops.tensor(lengths, dtype=dtypes.int64)
    if sequence.unsorted_indices is not None:
        return (out.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                length_tensor[sequence.unsorted_indices])
    return out, length_tensor


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """pad_sequence then pack_padded_sequence with the sequences' lengths."""
    lengths = ops.tensor([v.size(0) for v in sequences], dtype=dtypes.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def pad_sequence(sequences: Tensor | list[Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> Tensor:
    """ATen's pad_sequence: a tensor full of padding_value, each sequence copied into its
    slice (so the result's history is CopySlices, as PyTorch's)."""
    if not isinstance(sequences, Iterable):
        raise TorchRuntimeError("pad_sequence: Expected iterable for input sequences, but got "
                                f"arg of type: {type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise TorchRuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise TorchRuntimeError("Expected padding_side to be one of left or right, but got "
                                f"{padding_side}.")
    first = sequences[0]
    max_len = max(seq.size(0) for seq in sequences)
    lead = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = ops.full(lead + tuple(first.shape[1:]), padding_value, dtype=first.dtype,
                   device=first.device)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor,
                   batch_first: bool = False) -> list[Tensor]:
    """The sequences back from a padded batch (time-major padding is transposed in place,
    as PyTorch does)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = ops.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]
