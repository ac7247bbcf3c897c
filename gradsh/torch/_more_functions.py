"""More torch.* functions under the engine ops' names: the in-place function forms
(torch.ceil_ ...), rms_norm, adaptive_max_pool1d and the less common ops added with them."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops

_FROM_OPS = """
acos_ arccos_ arcsin_ arctan_ asin_ atan_ ceil_ cosh_ erf_ exp2_ expm1_ fill_ floor_ frac_
index_put_ log10_ log1p_ log2_ logit_ nan_to_num_ negative_ round_ rsqrt_ sinh_ tan_ trunc_
xlogy_ zero_ rms_norm adaptive_max_pool1d rrelu rrelu_
rot90 vdot diag_embed diagflat matrix_power chain_matmul cov corrcoef trapezoid trapz
cumulative_trapezoid is_same_size float_power ldexp ldexp_ gcd gcd_ lcm lcm_ nextafter
frexp aminmax isin unravel_index hann_window hamming_window bartlett_window blackman_window
kaiser_window select_scatter slice_scatter diagonal_scatter narrow_copy put
unique_consecutive conv3d max_pool3d addmv addmv_ addr addbmm pdist logcumsumexp matrix_exp sparse_coo_tensor spmm renorm histogram gradient
index_reduce angle _weight_norm norm_except_dim
view_as_real view_as_complex complex polar real imag conj conj_physical resolve_conj is_conj
""".split()

__all__ = list(_FROM_OPS)

_module = globals()
for _name in _FROM_OPS:
    _module[_name] = getattr(ops, _name)
del _module, _name


def adjoint(input: Any) -> Any:  # noqa: A002  (PyTorch's name)
    """torch.adjoint(x): x.adjoint(), the transpose of the last two dimensions."""
    return input.adjoint()


__all__.append("adjoint")
