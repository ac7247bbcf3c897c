"""torch.empty_strided and torch.frombuffer against PyTorch: shapes, strides, dtypes,
contiguity, requires_grad, frombuffer's values and its sharing of a writable buffer's memory,
and the errors (empty_strided's values are uninitialised memory in PyTorch: not compared)."""

from __future__ import annotations

import array
import warnings

from call_outcomes import outcomes

import gradsh.torch as gt


def _layout(t):
    values = t.tolist() if not str(t.dtype).startswith("torch.float") or t.ndim == 1 else None
    return (tuple(t.shape), t.stride(), str(t.dtype), t.is_contiguous(), t.requires_grad, values)


def _cases(torch):
    buffer = bytearray(b"\x01\x02\x03\x04\x05\x06\x07\x08")
    floats = array.array("f", [1, 2, 3, 4])

    def shared():
        t = torch.frombuffer(buffer, dtype=torch.uint8)
        t[0] = 100
        t.add_(1)
        return list(buffer)

    def read_only():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _layout(torch.frombuffer(b"abcd", dtype=torch.uint8))

    return outcomes([
        lambda: _layout(torch.empty_strided((2, 3), (1, 2))),
        lambda: _layout(torch.empty_strided((2, 3), (3, 1), dtype=torch.float64,
                                            requires_grad=True)),
        lambda: _layout(torch.empty_strided((2, 3), (0, 1))),
        lambda: _layout(torch.empty_strided([], [])),
        lambda: _layout(torch.empty_strided((0, 3), (3, 1))),
        lambda: torch.empty_strided((2, 3), (1,)),
        lambda: torch.empty_strided((2, -3), (1, 2)),
        lambda: torch.empty_strided((2, 3), (-1, 2)),
        lambda: torch.empty_strided((2, 3), (3, 1), dtype=torch.int64, requires_grad=True),
        lambda: _layout(torch.frombuffer(floats, dtype=torch.float32)),
        lambda: _layout(torch.frombuffer(buffer, dtype=torch.int16, count=2, offset=2)),
        shared,
        read_only,
        lambda: torch.frombuffer(buffer, dtype=torch.int32, offset=1),
        lambda: torch.frombuffer(buffer, dtype=torch.int32, count=3),
        lambda: torch.frombuffer(buffer, dtype=torch.int32, count=-1, offset=8),
        lambda: torch.frombuffer(bytearray(), dtype=torch.int32),
        lambda: torch.frombuffer([1, 2], dtype=torch.int32),
        lambda: torch.frombuffer(buffer, dtype=torch.int32, requires_grad=True),
        lambda: _layout(torch.frombuffer(buffer, dtype=torch.float32, requires_grad=True)),
        lambda: torch.frombuffer(buffer, dtype=torch.int32, count=0),
        lambda: torch.frombuffer(buffer, dtype=torch.int32, offset=-1),
    ])


def test_layouts_values_and_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_cases(torch), _cases(gt), strict=True)):
        assert ours == theirs, i


def test_zero_stride_elements_share_memory(torch):
    for m in (torch, gt):
        t = m.empty_strided((2, 3), (0, 1))
        t[0, 1] = 5.0
        assert t[1, 1].item() == 5.0
