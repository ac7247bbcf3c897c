"""torch.sparse: products and sums of sparse COO tensors (gradsh.engine.ops.sparse)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.functions.sparse import SparseCOO
from gradsh.torch import _settings
from gradsh.torch._missing import module_getattr

__all__ = ["mm", "sum", "spmm", "check_sparse_tensor_invariants"]

__getattr__ = module_getattr("torch.sparse")

mm = ops.sparse_mm
spmm = ops.spmm
sum = ops.sparse_sum  # noqa: A001  (PyTorch's name)

SparseCOO.layout = property(lambda self: _settings.sparse_coo)  # type: ignore[attr-defined]


class check_sparse_tensor_invariants:  # noqa: N801  (PyTorch's name)
    """Whether sparse tensors' invariants are checked (gradsh always checks the indices
    against the size); a context manager and decorator, as PyTorch's."""

    _enabled = False

    def __init__(self, enable: bool = True) -> None:
        self.enable = enable

    @staticmethod
    def is_enabled() -> bool:
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable() -> None:  # type: ignore[misc]
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable() -> None:
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self) -> None:
        self.saved = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = bool(self.__dict__.get("enable", True))

    def __exit__(self, *exc: Any) -> None:
        check_sparse_tensor_invariants._enabled = self.saved
