"""torch.nn.utils.rnn: padding variable-length sequences into one tensor and back."""

from __future__ import annotations

from collections.abc import Iterable

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.utils.rnn")

__all__ = ["pad_sequence", "unpad_sequence"]


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
