"""torch.special: the special functions under SciPy's names (gammaln, psi, expit, ndtr ...).

The Bessel family (bessel_j0 ... spherical_bessel_j0) is ATen's kernels (engine/special_bessel.py),
without a gradient as in PyTorch. What gradsh does not compute yet raises `gradsh does not
implement torch.special.NAME yet`: airy_ai and the orthogonal polynomials (chebyshev_*,
hermite_*, laguerre_*, legendre_*), which PyTorch gives no gradient either.
"""

from __future__ import annotations

from gradsh.engine import ops
from gradsh.engine.ops.guard import prefixed_names
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.special")

digamma = psi = ops.digamma
entr = ops.special_entr
erf = ops.erf
erfc = ops.erfc
erfcx = ops.special_erfcx
erfinv = ops.erfinv
exp2 = ops.exp2
expit = ops.sigmoid
expm1 = ops.expm1
gammainc = ops.igamma
gammaincc = ops.igammac
gammaln = ops.lgamma
i0 = ops.i0
i0e = ops.special_i0e
i1 = ops.special_i1
i1e = ops.special_i1e
log1p = ops.log1p
log_ndtr = ops.special_log_ndtr
logit = ops.logit
logsumexp = ops.logsumexp
multigammaln = ops.mvlgamma
ndtr = ops.special_ndtr
ndtri = ops.special_ndtri
polygamma = ops.polygamma
round = ops.special_round  # noqa: A001
sinc = ops.sinc
xlog1py = ops.special_xlog1py
xlogy = ops.xlogy
zeta = ops.special_zeta
bessel_j0 = ops.special_bessel_j0
bessel_j1 = ops.special_bessel_j1
bessel_y0 = ops.special_bessel_y0
bessel_y1 = ops.special_bessel_y1
modified_bessel_i0 = ops.special_modified_bessel_i0
modified_bessel_i1 = ops.special_modified_bessel_i1
modified_bessel_k0 = ops.special_modified_bessel_k0
modified_bessel_k1 = ops.special_modified_bessel_k1
scaled_modified_bessel_k0 = ops.special_scaled_modified_bessel_k0
scaled_modified_bessel_k1 = ops.special_scaled_modified_bessel_k1
spherical_bessel_j0 = ops.special_spherical_bessel_j0


def softmax(input: Tensor, dim: int, *, dtype: object = None) -> Tensor:  # noqa: A002
    """torch.special.softmax (dim is required here, unlike F.softmax)."""
    return ops.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: object = None) -> Tensor:  # noqa: A002
    """torch.special.log_softmax (dim is required here, unlike F.log_softmax)."""
    return ops.log_softmax(input, dim, dtype=dtype)


__all__ = [
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc",
    "gammaincc", "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax",
    "logit", "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc",
    "softmax", "xlog1py", "xlogy", "zeta", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
]
globals().update(prefixed_names(globals(), "special_", __all__))
softmax.__name__ = softmax.__qualname__ = "special_softmax"
log_softmax.__name__ = log_softmax.__qualname__ = "special_log_softmax"


from gradsh.torch._builtins import as_torchs as _as_torchs  # noqa: E402

_as_torchs(globals(), "torch.special")  # PyTorch's C functions as builtins (their reprs)
