"""torch.linalg.lstsq's node: MKL's gels / gelsy / gelsd / gelss as ATen's apply_lstsq calls
them where the `mkl` package is loaded (vecmath/lapack_decompositions.py), NumPy's SVD-based
lstsq without it; the gradient through A's pseudo-inverse, as linalg_lstsq_backward.

NOTE: gelsy (the CPU default) reads its column-pivot array jpvt as input, and ATen allocates it
uninitialised and reuses it along a batch, so PyTorch's own gelsy solutions change in the last
bits with whatever memory it gets (the same call twice, a freed tensor between: 93 of 100
elements differed). gradsh starts from zeros (free pivoting); gels, gelsd and gelss, and every
gradient (through pinv), are PyTorch's bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.backend import host_kernel
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.linalg_decompositions import pinv_array, pinv_backward
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Array, Tensor
from gradsh.engine.vecmath import lapack_decompositions as mkl_lapack

__all__ = ["LinalgLstsqBackward0", "lstsq_array"]


@host_kernel
def lstsq_array(a: Array, b: Array, rcond: float, driver: str
                ) -> tuple[Array, Array, Array, Array]:
    """(solution, residuals, rank int64, singular values) for a (..., m, n) A and a
    (..., m, k) B with the same batch; empty residuals, rank or singular values where the
    driver does not give them (residuals: m > n, not gelsy, and full rank for gelsd/gelss)."""
    batch, (m, n), k = a.shape[:-2], a.shape[-2:], b.shape[-1]
    empty_float = np.zeros((0,), a.dtype)
    if a.size == 0 or b.size == 0:  # (ATen: zero solutions, rank 0)
        rank = np.zeros(batch if driver != "gels" else (0,), np.int64)
        return np.zeros(batch + (n, k), a.dtype), empty_float, rank, empty_float
    if not mkl_lapack.available(a.dtype):
        with _quiet():
            flat_a, flat_b = a.reshape((-1, m, n)), b.reshape((-1, m, k))
            solution = np.stack([np.linalg.lstsq(x, y, rcond=None)[0] for x, y in zip(
                flat_a, flat_b, strict=True)])
        rank = np.full(batch, min(m, n), np.int64) if driver != "gels" else np.zeros(
            (0,), np.int64)
        return solution.astype(a.dtype).reshape(batch + (n, k)), empty_float, rank, empty_float
    buffer, rank32, values = mkl_lapack.lstsq(a.reshape((-1, m, n)), b.reshape((-1, m, k)),
                                              rcond, driver)
    rows = np.swapaxes(buffer, -1, -2)  # (count, max(m, n), k), column-major
    residuals = empty_float
    full_rank = driver not in ("gelsd", "gelss") or bool((rank32 == n).all())
    if m > n and driver != "gelsy" and full_rank:
        raw = rows[:, n:, :]
        with _quiet():
            residuals = torch_sum(raw * raw, -2, False, a.dtype).reshape(batch + (k,))
    solution = rows[:, :n, :].reshape(batch + (n, k))
    rank = rank32.astype(np.int64).reshape(batch) if driver != "gels" else np.zeros(
        (0,), np.int64)
    singular = values.reshape(batch + values.shape[-1:]) if driver in ("gelsd", "gelss") else (
        empty_float)
    return solution, residuals, rank, singular


class LinalgLstsqBackward0(MultiOutputFunction):
    """(solution, residuals, rank, singular_values); gA through pinv_backward, gB = pinv(A)^H gX;
    the residuals' gradient as 2 r g with r = B - A X (gB) and -2 r g X^H (gA)."""

    node_name = "LinalgLstsqBackward0"
    num_outputs = 4
    differentiable = (True, True, False, False)
    outputs_saved = ("solution", None, None, None)

    def forward(self, a: Tensor, b: Tensor, rcond: float,  # type: ignore[override]
                driver: str, vector: bool) -> tuple[Array, ...]:
        self.vector = vector
        if any(self.needs_input_grad):
            self.save("self", a)
            self.save("b", b)
        data_b = b._data[..., None] if vector else b._data
        solution, residuals, rank, singular = lstsq_array(a._data, data_b, rcond, driver)
        if vector:  # (the residuals keep their last dimension of 1, as ATen's)
            solution = solution[..., 0]
        return solution, residuals, rank, singular

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        gX, gL = grads[0], grads[1]
        A = self.saved("self", F)
        B = self.saved("b", F)
        X = self.saved("solution", F)
        need_a, need_b = self.needs_input_grad
        la = F.la
        if self.vector:
            B, X = la.unsqueeze(B, -1), la.unsqueeze(X, -1)
            gX = la.unsqueeze(gX, -1) if gX is not None else None
        gA = gB = None
        if gX is not None:
            pinvA = self._pinv(F, A)
            if need_a:
                gA = pinv_backward(F, la.matmul(gX, la.mH(B)), pinvA, A)
            if need_b:
                gB = la.matmul(la.mH(pinvA), gX)
        if gL is not None and (gL.numel() if isinstance(gL, Tensor) else gL.size):
            scaled = (B - la.matmul(A, X)) * la.unsqueeze(gL, -2) * 2
            gB = scaled if gB is None else gB + scaled
            term = -la.matmul(scaled, la.mH(X))
            gA = term if gA is None else gA + term
        if self.vector and gB is not None:
            gB = la.squeeze_last(gB)
        return gA if need_a else None, gB if need_b else None

    @staticmethod
    def _pinv(F: Any, A: Any) -> Any:
        if F.as_tensor:
            from gradsh.engine.ops.linalg_decompositions import pinv

            return pinv(A)
        return pinv_array(A, None, None, False)
