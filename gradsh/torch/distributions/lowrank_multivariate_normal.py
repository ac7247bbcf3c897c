"""torch.distributions.lowrank_multivariate_normal: the multivariate normal whose covariance is
a low-rank factor plus a diagonal, W W^T + D, evaluated through the capacitance matrix
I + W^T D^-1 W (Woodbury identity, matrix determinant lemma), as PyTorch's, step for step."""

from __future__ import annotations

import math
from typing import Any

import gradsh.torch as torch
from gradsh.torch.distributions import constraints
from gradsh.torch.distributions.distribution import Distribution
from gradsh.torch.distributions.multivariate_normal import _batch_mahalanobis, _batch_mv
from gradsh.torch.distributions.utils import _standard_normal, lazy_property

__all__ = ["LowRankMultivariateNormal"]


def _plus_identity(K: Any, n: int) -> Any:  # noqa: N803  (PyTorch's names)
    """K + I for a batch of n x n matrices, in place on K's diagonal as PyTorch adds it."""
    K.view(-1, n * n)[:, :: n + 1] += 1
    return K


def _batch_capacitance_tril(W: Any, D: Any) -> Any:  # noqa: N803
    """The Cholesky factor of I + W^T D^-1 W."""
    m = W.size(-1)
    Wt_Dinv = W.mT / D.unsqueeze(-2)  # noqa: N806
    K = torch.matmul(Wt_Dinv, W).contiguous()  # noqa: N806
    return torch.linalg.cholesky(_plus_identity(K, m))


def _batch_lowrank_logdet(W: Any, D: Any, capacitance_tril: Any) -> Any:  # noqa: N803
    """log |W W^T + D| = log |C| + log |D|."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _batch_lowrank_mahalanobis(W: Any, D: Any, x: Any, capacitance_tril: Any) -> Any:  # noqa
    """x^T (W W^T + D)^-1 x through the Woodbury identity."""
    Wt_Dinv = W.mT / D.unsqueeze(-2)  # noqa: N806
    Wt_Dinv_x = _batch_mv(Wt_Dinv, x)  # noqa: N806
    mahalanobis_term1 = (x.pow(2) / D).sum(-1)
    mahalanobis_term2 = _batch_mahalanobis(capacitance_tril, Wt_Dinv_x)
    return mahalanobis_term1 - mahalanobis_term2


class LowRankMultivariateNormal(Distribution):
    arg_constraints = {
        "loc": constraints.real_vector,
        "cov_factor": constraints.independent(constraints.real, 2),
        "cov_diag": constraints.independent(constraints.positive, 1),
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Any, cov_factor: Any, cov_diag: Any,
                 validate_args: bool | None = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape "
                             f"{event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        loc_ = loc.unsqueeze(-1)
        cov_diag_ = cov_diag.unsqueeze(-1)
        try:
            loc_, self.cov_factor, cov_diag_ = torch.broadcast_tensors(loc_, cov_factor,
                                                                       cov_diag_)
        except RuntimeError as e:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor "
                             f"{cov_factor.shape}, cov_diag {cov_diag.shape}") from e
        self.loc = loc_[..., 0]
        self.cov_diag = cov_diag_[..., 0]
        batch_shape = self.loc.shape[:-1]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _batch_capacitance_tril(cov_factor, cov_diag)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LowRankMultivariateNormal:
        new = self._get_checked_instance(LowRankMultivariateNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        loc_shape = batch_shape + self.event_shape
        new.loc = self.loc.expand(loc_shape)
        new.cov_diag = self.cov_diag.expand(loc_shape)
        new.cov_factor = self.cov_factor.expand(loc_shape + self.cov_factor.shape[-1:])
        new._unbroadcasted_cov_factor = self._unbroadcasted_cov_factor
        new._unbroadcasted_cov_diag = self._unbroadcasted_cov_diag
        new._capacitance_tril = self._capacitance_tril
        super(LowRankMultivariateNormal, new).__init__(batch_shape, self.event_shape,
                                                       validate_args=False)
        new._validate_args = self._validate_args
        return new  # type: ignore[no-any-return]

    mean = mode = property(lambda self: self.loc, doc="The location: the mean and the mode.")

    @lazy_property
    def variance(self) -> Any:
        return (self._unbroadcasted_cov_factor.pow(2).sum(-1)
                + self._unbroadcasted_cov_diag).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self) -> Any:
        n = self._event_shape[0]
        cov_diag_sqrt_unsqueeze = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        Dinvsqrt_W = self._unbroadcasted_cov_factor / cov_diag_sqrt_unsqueeze  # noqa: N806
        K = torch.matmul(Dinvsqrt_W, Dinvsqrt_W.mT).contiguous()  # noqa: N806
        scale_tril = cov_diag_sqrt_unsqueeze * torch.linalg.cholesky(_plus_identity(K, n))
        return scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self) -> Any:
        covariance_matrix = torch.matmul(
            self._unbroadcasted_cov_factor, self._unbroadcasted_cov_factor.mT
        ) + torch.diag_embed(self._unbroadcasted_cov_diag)
        return covariance_matrix.expand(self._batch_shape + self._event_shape
                                        + self._event_shape)

    @lazy_property
    def precision_matrix(self) -> Any:
        Wt_Dinv = (self._unbroadcasted_cov_factor.mT  # noqa: N806
                   / self._unbroadcasted_cov_diag.unsqueeze(-2))
        A = torch.linalg.solve_triangular(self._capacitance_tril, Wt_Dinv,  # noqa: N806
                                          upper=False)
        precision_matrix = torch.diag_embed(self._unbroadcasted_cov_diag.reciprocal()) - A.mT @ A
        return precision_matrix.expand(self._batch_shape + self._event_shape
                                       + self._event_shape)

    def rsample(self, sample_shape: Any = torch.Size()) -> Any:
        shape = self._extended_shape(sample_shape)
        W_shape = shape[:-1] + self.cov_factor.shape[-1:]  # noqa: N806
        eps_W = _standard_normal(W_shape, dtype=self.loc.dtype, device=self.loc.device)  # noqa
        eps_D = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)  # noqa
        return (self.loc + _batch_mv(self._unbroadcasted_cov_factor, eps_W)
                + self._unbroadcasted_cov_diag.sqrt() * eps_D)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = _batch_lowrank_mahalanobis(self._unbroadcasted_cov_factor,  # noqa: N806
                                       self._unbroadcasted_cov_diag, diff,
                                       self._capacitance_tril)
        log_det = _batch_lowrank_logdet(self._unbroadcasted_cov_factor,
                                        self._unbroadcasted_cov_diag, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + log_det + M)

    def entropy(self) -> Any:
        log_det = _batch_lowrank_logdet(self._unbroadcasted_cov_factor,
                                        self._unbroadcasted_cov_diag, self._capacitance_tril)
        H = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + log_det)  # noqa: N806
        if len(self._batch_shape) == 0:
            return H
        return H.expand(self._batch_shape)
