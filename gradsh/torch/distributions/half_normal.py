"""torch.distributions.half_normal (HalfNormal lives beside HalfCauchy)."""

from gradsh.torch.distributions.half_cauchy import HalfNormal

__all__ = ["HalfNormal"]
