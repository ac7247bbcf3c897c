"""Which of gradsh's torch.* functions are C functions in PyTorch 2.13 (printed as
builtins) and the module and qualified name of those that are Python functions.
Data only, harvested from torch by tests/test_function_reprs.py (run as a script to
rewrite it), which checks it; read through table() by gradsh/torch/_builtins.py."""

from __future__ import annotations

# module -> (what holds them: _VariableFunctionsClass, whose static methods they are, or the C
# module that is their __self__; their __module__) -> names
BUILTINS: dict[str, dict[tuple[str, ...], str]] = {
    'torch': {
        ('_VariableFunctionsClass', 'torch'): """
_dirichlet_grad _safe_softmax _sample_dirichlet _standard_gamma _standard_gamma_grad
_weight_norm abs abs_ absolute acos acos_ acosh acosh_ adaptive_avg_pool1d
adaptive_max_pool1d add addbmm addcdiv addcmul addmm addmv addmv_ addr adjoint
affine_grid_generator all allclose alpha_dropout amax amin aminmax angle any arange
arccos arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan arctan2 arctan_
arctanh arctanh_ argmax argmin argsort argwhere as_strided as_tensor asarray asin asin_
asinh asinh_ atan atan2 atan_ atanh atanh_ avg_pool1d baddbmm bartlett_window batch_norm
bernoulli bilinear binary_cross_entropy_with_logits bincount binomial bitwise_and
bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor
blackman_window bmm broadcast_to bucketize can_cast cat ceil ceil_ celu celu_
channel_shuffle cholesky cholesky_inverse cholesky_solve chunk clamp clamp_ clamp_max
clamp_max_ clamp_min clamp_min_ clip clip_ clone column_stack combinations complex
concat concatenate conj conj_physical conv1d conv2d conv3d conv_transpose1d
conv_transpose2d conv_transpose3d copysign corrcoef cos cos_ cosh cosh_
cosine_embedding_loss cosine_similarity count_nonzero cov cross ctc_loss cummax cummin
cumprod cumsum cumulative_trapezoid deg2rad deg2rad_ det detach diag diag_embed diagflat
diagonal diagonal_scatter diff digamma dist div divide dot dropout dsplit dstack
embedding embedding_bag empty empty_like empty_strided eq equal erf erf_ erfc erfc_
erfinv exp exp2 exp2_ exp_ expm1 expm1_ eye feature_alpha_dropout feature_dropout fill_
fix fix_ flatten flip fliplr flipud float_power floor floor_ floor_divide fmax fmin fmod
frac frac_ frexp from_numpy frombuffer full full_like gather gcd gcd_ ge geqrf ger
gradient greater greater_equal grid_sampler grid_sampler_2d group_norm gt hamming_window
hann_window hardshrink heaviside hinge_embedding_loss histc histogram hsplit hstack
hypot i0 i0_ igamma igammac imag index_add index_copy index_fill index_put index_put_
index_reduce index_select inner instance_norm inverse is_complex is_conj
is_floating_point is_nonzero is_same_size isclose isfinite isin isinf isnan isneginf
isposinf isreal kaiser_window kl_div kron kthvalue layer_norm lcm lcm_ ldexp ldexp_ le
lerp less less_equal lgamma linspace log log10 log10_ log1p log1p_ log2 log2_ log_
log_softmax logaddexp logaddexp2 logcumsumexp logdet logical_and logical_not logical_or
logical_xor logit logit_ logspace logsumexp lt lu_solve lu_unpack margin_ranking_loss
masked_fill masked_scatter masked_select matmul matrix_exp matrix_power max max_pool1d
max_pool1d_with_indices max_pool2d max_pool3d maximum mean median min minimum mm mode
moveaxis movedim msort mul multinomial multiply mv mvlgamma nan_to_num nan_to_num_
nanmean nanmedian nanquantile nansum narrow narrow_copy native_channel_shuffle ne neg
neg_ negative negative_ nextafter nonzero nonzero_static norm_except_dim normal
not_equal numel ones ones_like orgqr outer pairwise_distance pdist permute pinverse
pixel_shuffle pixel_unshuffle poisson poisson_nll_loss polar polygamma positive pow
prelu prod promote_types put quantile rad2deg rad2deg_ rand rand_like randint
randint_like randn randn_like randperm range ravel real reciprocal reciprocal_ relu
relu_ remainder renorm repeat_interleave reshape resolve_conj result_type rms_norm roll
rot90 round round_ row_stack rrelu rrelu_ rsqrt rsqrt_ rsub scalar_tensor scatter
scatter_add scatter_reduce searchsorted select select_scatter selu selu_ sgn sigmoid
sigmoid_ sign signbit sin sin_ sinc sinc_ sinh sinh_ slice_scatter slogdet softmax sort
sparse_coo_tensor split_with_sizes spmm sqrt sqrt_ square square_ squeeze stack std
std_mean sub subtract sum svd swapaxes swapdims t take take_along_dim tan tan_ tanh
tanh_ tensor tensor_split threshold threshold_ tile topk trace transpose trapezoid trapz
triangular_solve tril tril_indices triplet_margin_loss triu triu_indices true_divide
trunc trunc_ unbind unflatten unsqueeze vander var var_mean vdot view_as_complex
view_as_real vsplit vstack where xlogy xlogy_ zero_ zeros zeros_like""",
        ('torch._C', 'torch'): """
get_default_dtype get_num_interop_threads get_num_threads is_anomaly_check_nan_enabled
is_anomaly_enabled is_grad_enabled is_inference_mode_enabled set_flush_denormal
set_num_interop_threads set_num_threads""",
    },
    'torch.nn.functional': {
        ('_VariableFunctionsClass', 'torch'): """
adaptive_avg_pool1d avg_pool1d bilinear celu_ channel_shuffle conv1d conv2d conv3d
conv_transpose1d conv_transpose2d conv_transpose3d cosine_similarity hardshrink
native_channel_shuffle pairwise_distance pdist pixel_shuffle pixel_unshuffle prelu relu_
rrelu_ selu_ threshold_""",
        ('torch._C._nn', 'torch._C._nn'): """
avg_pool2d avg_pool3d elu_ gelu hardtanh_ leaky_relu_ linear logsigmoid one_hot
scaled_dot_product_attention softplus softshrink""",
    },
    'torch.special': {
        ('torch._C._special', 'torch._C._special'): """
bessel_j0 bessel_j1 bessel_y0 bessel_y1 digamma entr erf erfc erfcx erfinv exp2 expit
expm1 gammainc gammaincc gammaln i0 i0e i1 i1e log1p log_ndtr log_softmax logit
logsumexp modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 modified_bessel_k1
multigammaln ndtr ndtri polygamma psi round scaled_modified_bessel_k0
scaled_modified_bessel_k1 sinc softmax spherical_bessel_j0 xlog1py xlogy zeta""",
    },
    'torch.linalg': {
        ('torch._C._linalg', 'torch._C._linalg'): """
cholesky cholesky_ex cond cross det diagonal eig eigh eigvals eigvalsh
householder_product inv inv_ex ldl_factor ldl_factor_ex ldl_solve lstsq lu lu_factor
lu_factor_ex lu_solve matmul matrix_exp matrix_norm matrix_power matrix_rank multi_dot
norm pinv qr slogdet solve solve_ex solve_triangular svd svdvals tensorinv tensorsolve
vecdot vector_norm""",
    },
    'torch.fft': {
        ('torch._C._fft', 'torch._C._fft'): """
fft fft2 fftfreq fftn fftshift hfft ifft ifft2 ifftn ifftshift ihfft irfft irfft2 irfftn
rfft rfft2 rfftfreq rfftn""",
    },
}

# module -> name -> PyTorch's __name__ where it is not the name
BUILTINS_NAMES: dict[str, dict[str, str]] = {
    'torch.nn.functional': {
        'logsigmoid': 'log_sigmoid',
    },
    'torch.special': {
        'bessel_j0': 'special_bessel_j0',
        'bessel_j1': 'special_bessel_j1',
        'bessel_y0': 'special_bessel_y0',
        'bessel_y1': 'special_bessel_y1',
        'digamma': 'special_digamma',
        'entr': 'special_entr',
        'erf': 'special_erf',
        'erfc': 'special_erfc',
        'erfcx': 'special_erfcx',
        'erfinv': 'special_erfinv',
        'exp2': 'special_exp2',
        'expit': 'special_expit',
        'expm1': 'special_expm1',
        'gammainc': 'special_gammainc',
        'gammaincc': 'special_gammaincc',
        'gammaln': 'special_gammaln',
        'i0': 'special_i0',
        'i0e': 'special_i0e',
        'i1': 'special_i1',
        'i1e': 'special_i1e',
        'log1p': 'special_log1p',
        'log_ndtr': 'special_log_ndtr',
        'log_softmax': 'special_log_softmax',
        'logit': 'special_logit',
        'logsumexp': 'special_logsumexp',
        'modified_bessel_i0': 'special_modified_bessel_i0',
        'modified_bessel_i1': 'special_modified_bessel_i1',
        'modified_bessel_k0': 'special_modified_bessel_k0',
        'modified_bessel_k1': 'special_modified_bessel_k1',
        'multigammaln': 'special_multigammaln',
        'ndtr': 'special_ndtr',
        'ndtri': 'special_ndtri',
        'polygamma': 'special_polygamma',
        'psi': 'special_psi',
        'round': 'special_round',
        'scaled_modified_bessel_k0': 'special_scaled_modified_bessel_k0',
        'scaled_modified_bessel_k1': 'special_scaled_modified_bessel_k1',
        'sinc': 'special_sinc',
        'softmax': 'special_softmax',
        'spherical_bessel_j0': 'special_spherical_bessel_j0',
        'xlog1py': 'special_xlog1py',
        'xlogy': 'special_xlogy',
        'zeta': 'special_zeta',
    },
    'torch.linalg': {
        'cholesky': 'linalg_cholesky',
        'cholesky_ex': 'linalg_cholesky_ex',
        'cond': 'linalg_cond',
        'cross': 'linalg_cross',
        'det': 'linalg_det',
        'diagonal': 'linalg_diagonal',
        'eig': 'linalg_eig',
        'eigh': 'linalg_eigh',
        'eigvals': 'linalg_eigvals',
        'eigvalsh': 'linalg_eigvalsh',
        'householder_product': 'linalg_householder_product',
        'inv': 'linalg_inv',
        'inv_ex': 'linalg_inv_ex',
        'ldl_factor': 'linalg_ldl_factor',
        'ldl_factor_ex': 'linalg_ldl_factor_ex',
        'ldl_solve': 'linalg_ldl_solve',
        'lstsq': 'linalg_lstsq',
        'lu': 'linalg_lu',
        'lu_factor': 'linalg_lu_factor',
        'lu_factor_ex': 'linalg_lu_factor_ex',
        'lu_solve': 'linalg_lu_solve',
        'matmul': 'linalg_matmul',
        'matrix_exp': 'linalg_matrix_exp',
        'matrix_norm': 'linalg_matrix_norm',
        'matrix_power': 'linalg_matrix_power',
        'matrix_rank': 'linalg_matrix_rank',
        'multi_dot': 'linalg_multi_dot',
        'norm': 'linalg_norm',
        'pinv': 'linalg_pinv',
        'qr': 'linalg_qr',
        'slogdet': 'linalg_slogdet',
        'solve': 'linalg_solve',
        'solve_ex': 'linalg_solve_ex',
        'solve_triangular': 'linalg_solve_triangular',
        'svd': 'linalg_svd',
        'svdvals': 'linalg_svdvals',
        'tensorinv': 'linalg_tensorinv',
        'tensorsolve': 'linalg_tensorsolve',
        'vecdot': 'linalg_vecdot',
        'vector_norm': 'linalg_vector_norm',
    },
    'torch.fft': {
        'fft': 'fft_fft',
        'fft2': 'fft_fft2',
        'fftfreq': 'fft_fftfreq',
        'fftn': 'fft_fftn',
        'fftshift': 'fft_fftshift',
        'hfft': 'fft_hfft',
        'ifft': 'fft_ifft',
        'ifft2': 'fft_ifft2',
        'ifftn': 'fft_ifftn',
        'ifftshift': 'fft_ifftshift',
        'ihfft': 'fft_ihfft',
        'irfft': 'fft_irfft',
        'irfft2': 'fft_irfft2',
        'irfftn': 'fft_irfftn',
        'rfft': 'fft_rfft',
        'rfft2': 'fft_rfft2',
        'rfftfreq': 'fft_rfftfreq',
        'rfftn': 'fft_rfftn',
    },
}

# module -> (their __module__, their __qualname__ where not their __name__) -> names
FUNCTIONS: dict[str, dict[tuple[str, ...], str]] = {
    'torch': {
        ('torch', ''): """
are_deterministic_algorithms_enabled get_default_device get_deterministic_debug_mode
get_float32_matmul_precision is_deterministic_algorithms_warn_only_enabled is_storage
is_tensor is_warn_always_enabled set_default_device set_default_dtype
set_default_tensor_type set_deterministic_debug_mode set_float32_matmul_precision
set_warn_always typename use_deterministic_algorithms""",
        ('torch.functional', ''): """
atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes broadcast_tensors
cartesian_prod cdist chain_matmul einsum meshgrid norm split tensordot unravel_index""",
        ('torch.random', ''): """
get_rng_state initial_seed manual_seed seed set_rng_state""",
        ('torch.serialization', ''): """
load save""",
        ('torch.functional', 'boolean_dispatch.<locals>.fn'): """
lu unique unique_consecutive""",
        ('torch._tensor_str', ''): """
set_printoptions""",
    },
    'torch.nn.functional': {
        ('torch.nn.functional', ''): """
_canonical_mask _in_projection _in_projection_packed _mha_shape_check _none_or_dtype
adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d_with_indices
adaptive_max_pool2d_with_indices adaptive_max_pool3d_with_indices affine_grid
alpha_dropout batch_norm binary_cross_entropy binary_cross_entropy_with_logits celu
cosine_embedding_loss cross_entropy ctc_loss dropout dropout1d dropout2d dropout3d elu
embedding embedding_bag feature_alpha_dropout fold fractional_max_pool2d_with_indices
fractional_max_pool3d_with_indices gaussian_nll_loss glu grid_sample group_norm
gumbel_softmax hardsigmoid hardswish hardtanh hinge_embedding_loss huber_loss
instance_norm interpolate kl_div l1_loss layer_norm leaky_relu local_response_norm
log_softmax lp_pool1d lp_pool2d lp_pool3d margin_ranking_loss max_pool1d_with_indices
max_pool2d_with_indices max_pool3d_with_indices max_unpool1d max_unpool2d max_unpool3d
mish mse_loss multi_head_attention_forward multi_margin_loss multilabel_margin_loss
multilabel_soft_margin_loss nll_loss normalize pad poisson_nll_loss relu relu6 rms_norm
rrelu selu sigmoid silu smooth_l1_loss soft_margin_loss softmax softmin softsign tanh
tanhshrink threshold triplet_margin_loss triplet_margin_with_distance_loss unfold
upsample upsample_bilinear upsample_nearest""",
        ('torch.nn.functional', 'boolean_dispatch.<locals>.fn'): """
adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d fractional_max_pool2d
fractional_max_pool3d max_pool1d max_pool2d max_pool3d""",
    },
    'torch.special': {
    },
    'torch.linalg': {
    },
    'torch.fft': {
    },
}

# module -> name -> PyTorch's __name__ where it is not the name
FUNCTIONS_NAMES: dict[str, dict[str, str]] = {
    'torch.nn.functional': {
        'threshold': '_threshold',
    },
}


def table(title: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """BUILTINS or FUNCTIONS as module -> name -> (PyTorch's __name__, *kind)."""
    grouped, names = globals()[title], globals()[title + "_NAMES"]
    return {dotted: {name: (names.get(dotted, {}).get(name, name), *kind)
                     for kind, text in groups.items() for name in text.split()}
            for dotted, groups in grouped.items()}
