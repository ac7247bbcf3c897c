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
_adaptive_avg_pool2d _adaptive_avg_pool3d _add_batch_dim _add_relu _add_relu_
_addmm_activation _aminmax _amp_foreach_non_finite_check_and_unscale_ _amp_update_scale_
_assert_async _assert_scalar _assert_tensor_metadata _batch_norm_impl_index _cast_Byte
_cast_Char _cast_Double _cast_Float _cast_Half _cast_Int _cast_Long _cast_Short
_choose_qparams_per_tensor _chunk_cat _coalesce _compute_linear_combination _conj
_conj_copy _conj_physical _convert_indices_from_coo_to_csr
_convert_indices_from_csr_to_coo _convert_weight_to_int4pack
_convert_weight_to_int4pack_for_cpu _convolution _convolution_mode _copy_from
_copy_from_and_resize _cslt_compress _cslt_sparse_mm _cslt_sparse_mm_search _ctc_loss
_cudnn_ctc_loss _cudnn_init_dropout_state _cudnn_rnn _cudnn_rnn_flatten_weight
_cufft_clear_plan_cache _cufft_get_plan_cache_max_size _cufft_get_plan_cache_size
_cufft_set_plan_cache_max_size _cummax_helper _cummin_helper _debug_has_internal_overlap
_dim_arange _dirichlet_grad _dyn_quant_matmul_4bit _dyn_quant_pack_4bit_weight
_efficientzerotensor _embedding_bag _embedding_bag_forward_only _empty_affine_quantized
_empty_per_channel_affine_quantized _euclidean_dist
_fake_quantize_learnable_per_channel_affine _fake_quantize_learnable_per_tensor_affine
_fake_quantize_per_tensor_affine_cachemask_tensor_qparams _fft_c2c _fft_c2r _fft_r2c
_fill_mem_eff_dropout_mask_ _flash_attention_forward_no_dropout_inplace _foobar
_foreach_abs _foreach_abs_ _foreach_acos _foreach_acos_ _foreach_add _foreach_add_
_foreach_addcdiv _foreach_addcdiv_ _foreach_addcmul _foreach_addcmul_ _foreach_asin
_foreach_asin_ _foreach_atan _foreach_atan_ _foreach_ceil _foreach_ceil_
_foreach_clamp_max _foreach_clamp_max_ _foreach_clamp_min _foreach_clamp_min_
_foreach_clone _foreach_copy_ _foreach_cos _foreach_cos_ _foreach_cosh _foreach_cosh_
_foreach_div _foreach_div_ _foreach_erf _foreach_erf_ _foreach_erfc _foreach_erfc_
_foreach_exp _foreach_exp_ _foreach_expm1 _foreach_expm1_ _foreach_floor _foreach_floor_
_foreach_frac _foreach_frac_ _foreach_lerp _foreach_lerp_ _foreach_lgamma
_foreach_lgamma_ _foreach_log _foreach_log10 _foreach_log10_ _foreach_log1p
_foreach_log1p_ _foreach_log2 _foreach_log2_ _foreach_log_ _foreach_max _foreach_maximum
_foreach_maximum_ _foreach_minimum _foreach_minimum_ _foreach_mm _foreach_mul
_foreach_mul_ _foreach_neg _foreach_neg_ _foreach_norm _foreach_pow _foreach_pow_
_foreach_powsum _foreach_reciprocal _foreach_reciprocal_ _foreach_round _foreach_round_
_foreach_rsqrt _foreach_rsqrt_ _foreach_sigmoid _foreach_sigmoid_ _foreach_sign
_foreach_sign_ _foreach_sin _foreach_sin_ _foreach_sinh _foreach_sinh_ _foreach_sqrt
_foreach_sqrt_ _foreach_sub _foreach_sub_ _foreach_tan _foreach_tan_ _foreach_tanh
_foreach_tanh_ _foreach_trunc _foreach_trunc_ _foreach_zero_ _from_blob
_functional_assert_async _functional_assert_scalar _functional_sym_constrain_range
_functional_sym_constrain_range_for_size _fused_adagrad_ _fused_adam_ _fused_adamw_
_fused_dropout _fused_moving_avg_obs_fq_helper _fused_rms_norm _fused_sdp_choice
_fused_sgd_ _fw_primal_copy _grid_sampler_2d_cpu_fallback _grouped_mm
_has_compatible_shallow_copy_type _histogramdd_bin_edges _histogramdd_from_bin_cts
_histogramdd_from_bin_tensors _index_put_impl_ _indices_copy _int_mm _is_all_true
_is_any_true _is_zerotensor _lazy_clone _linalg_check_errors _linalg_det _linalg_eigh
_linalg_slogdet _linalg_solve_ex _linalg_svd _log_softmax _log_softmax_backward_data
_logcumsumexp _lstm_mps _lu_with_info _make_dep_token _make_dual _make_dual_copy
_make_per_channel_quantized_tensor _make_per_tensor_quantized_tensor _masked_scale
_masked_softmax _mixed_dtypes_linear _mkldnn_reshape _mkldnn_transpose
_mkldnn_transpose_ _mps_convolution _mps_convolution_transpose _native_batch_norm_legit
_native_batch_norm_legit_no_training _native_multi_head_attention _neg_view
_neg_view_copy _nested_compute_contiguous_strides_offsets _nested_from_padded
_nested_from_padded_and_nested_example _nested_from_padded_tensor
_nested_get_jagged_dummy _nested_get_lengths _nested_get_max_seqlen
_nested_get_min_seqlen _nested_get_offsets _nested_get_ragged_idx _nested_get_values
_nested_get_values_copy _nested_tensor_from_mask _nested_tensor_from_mask_left_aligned
_nested_tensor_from_tensor_list _nested_tensor_softmax_with_shape
_nested_view_from_buffer _nested_view_from_buffer_copy _nested_view_from_jagged
_nested_view_from_jagged_copy _nnpack_available _nnpack_spatial_convolution
_pack_padded_sequence _pad_packed_sequence _philox_key_fold_in _philox_key_split
_philox_normal_ _philox_uniform_ _pin_memory _prelu_kernel _print _propagate_xla_data
_remove_batch_dim _reshape_alias_copy _reshape_from_tensor _resize_output_
_rowwise_prune _safe_softmax _sample_dirichlet _saturate_weight_to_fp16
_scaled_dot_product_attention_math _scaled_dot_product_attention_math_for_mps
_scaled_dot_product_cudnn_attention _scaled_dot_product_efficient_attention
_scaled_dot_product_flash_attention _scaled_dot_product_flash_attention_for_cpu
_scaled_grouped_mm _scaled_grouped_mm_v2 _scaled_mm _scaled_mm_v2 _segment_reduce
_shape_as_tensor _sobol_engine_draw _sobol_engine_ff_ _sobol_engine_initialize_state_
_sobol_engine_scramble_ _softmax _softmax_backward_data _sparse_broadcast_to
_sparse_broadcast_to_copy _sparse_csr_prod _sparse_csr_sum
_sparse_log_softmax_backward_data _sparse_semi_structured_addmm
_sparse_semi_structured_apply _sparse_semi_structured_apply_dense
_sparse_semi_structured_linear _sparse_semi_structured_mm _sparse_semi_structured_tile
_sparse_softmax_backward_data _sparse_sparse_matmul _sparse_sum _stack _standard_gamma
_standard_gamma_grad _test_autograd_multiple_dispatch
_test_autograd_multiple_dispatch_view _test_autograd_multiple_dispatch_view_copy
_test_check_tensor _test_functorch_fallback _test_parallel_materialize
_test_serialization_subcmul _to_cpu _to_sparse_semi_structured
_transform_bias_rescale_qkv _transformer_encoder_layer_fwd _trilinear
_triton_multi_head_attention _triton_scaled_dot_attention _unique _unique2 _unpack_dual
_unsafe_index _unsafe_index_put _unsafe_masked_index _unsafe_masked_index_put_accumulate
_use_cudnn_ctc_loss _use_cudnn_rnn_flatten_weight _use_miopen_ctc_loss
_validate_compressed_sparse_indices _validate_sparse_bsc_tensor_args
_validate_sparse_bsr_tensor_args _validate_sparse_compressed_tensor_args
_validate_sparse_coo_tensor_args _validate_sparse_csc_tensor_args
_validate_sparse_csr_tensor_args _values_copy _weight_int4pack_mm
_weight_int4pack_mm_for_cpu _weight_int4pack_mm_with_scales_and_zeros
_weight_int8pack_mm _weight_norm _weight_norm_interface _wrapped_linear_prepack
_wrapped_quantized_linear_prepacked abs abs_ absolute acos acos_ acosh acosh_
adaptive_avg_pool1d adaptive_max_pool1d add addbmm addcdiv addcmul addmm addmv addmv_
addr adjoint affine_grid_generator alias_copy all allclose alpha_dropout alpha_dropout_
amax amin aminmax angle any arange arccos arccos_ arccosh arccosh_ arcsin arcsin_
arcsinh arcsinh_ arctan arctan2 arctan_ arctanh arctanh_ argmax argmin argsort argwhere
as_strided as_strided_ as_strided_copy as_strided_scatter as_tensor asarray asin asin_
asinh asinh_ atan atan2 atan_ atanh atanh_ avg_pool1d baddbmm bartlett_window batch_norm
batch_norm_backward_elemt batch_norm_backward_reduce batch_norm_elemt
batch_norm_gather_stats batch_norm_gather_stats_with_counts batch_norm_stats
batch_norm_update_stats bernoulli bilinear binary_cross_entropy_with_logits bincount
binomial bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift
bitwise_xor blackman_window bmm broadcast_to bucketize can_cast cat ccol_indices_copy
ceil ceil_ celu celu_ channel_shuffle cholesky cholesky_inverse cholesky_solve
choose_qparams_optimized chunk clamp clamp_ clamp_max clamp_max_ clamp_min clamp_min_
clip clip_ clone col_indices_copy column_stack combinations complex concat concatenate
conj conj_physical conj_physical_ constant_pad_nd conv1d conv2d conv3d conv_tbc
conv_transpose1d conv_transpose2d conv_transpose3d convolution copysign corrcoef cos
cos_ cosh cosh_ cosine_embedding_loss cosine_similarity count_nonzero cov cross
crow_indices_copy ctc_loss cudnn_affine_grid_generator cudnn_batch_norm
cudnn_convolution cudnn_convolution_add_relu cudnn_convolution_relu
cudnn_convolution_transpose cudnn_grid_sampler cudnn_is_acceptable cummax cummin cumprod
cumsum cumulative_trapezoid deg2rad deg2rad_ dequantize det detach detach_ detach_copy
diag diag_embed diagflat diagonal diagonal_copy diagonal_scatter diff digamma dist div
divide dot dropout dropout_ dsmm dsplit dstack embedding embedding_bag embedding_renorm_
empty empty_like empty_permuted empty_quantized empty_strided eq equal erf erf_ erfc
erfc_ erfinv exp exp2 exp2_ exp_ expand_copy expm1 expm1_ eye
fake_quantize_per_channel_affine fake_quantize_per_tensor_affine
fbgemm_linear_fp16_weight fbgemm_linear_fp16_weight_fp32_activation
fbgemm_linear_int8_weight fbgemm_linear_int8_weight_fp32_activation
fbgemm_linear_quantize_weight fbgemm_pack_gemm_matrix_fp16 fbgemm_pack_quantized_matrix
feature_alpha_dropout feature_alpha_dropout_ feature_dropout feature_dropout_ fill fill_
fix fix_ flatten flip fliplr flipud float_power floor floor_ floor_divide fmax fmin fmod
frac frac_ frexp frobenius_norm from_file from_numpy frombuffer full full_like
fused_moving_avg_obs_fake_quant gather gcd gcd_ ge geqrf ger get_device gradient greater
greater_equal grid_sampler grid_sampler_2d grid_sampler_3d group_norm gru gru_cell gt
hamming_window hann_window hardshrink hash_tensor heaviside hinge_embedding_loss histc
histogram histogramdd hsmm hsplit hspmm hstack hypot i0 i0_ igamma igammac imag
index_add index_copy index_fill index_put index_put_ index_reduce index_select
indices_copy inner instance_norm int_repr inverse is_complex is_conj is_distributed
is_floating_point is_inference is_neg is_nonzero is_same_size is_signed
is_vulkan_available isclose isfinite isin isinf isnan isneginf isposinf isreal istft
kaiser_window kl_div kron kthvalue layer_norm lcm lcm_ ldexp ldexp_ le lerp less
less_equal lgamma linspace log log10 log10_ log1p log1p_ log2 log2_ log_ log_softmax
logaddexp logaddexp2 logcumsumexp logdet logical_and logical_not logical_or logical_xor
logit logit_ logspace logsumexp lstm lstm_cell lt lu_solve lu_unpack margin_ranking_loss
masked_fill masked_scatter masked_select matmul matrix_exp matrix_power max max_pool1d
max_pool1d_with_indices max_pool2d max_pool3d maximum mean median min minimum
miopen_batch_norm miopen_convolution miopen_convolution_add_relu miopen_convolution_relu
miopen_convolution_transpose miopen_ctc_loss miopen_depthwise_convolution miopen_rnn
mkldnn_adaptive_avg_pool2d mkldnn_convolution mkldnn_linear_backward_weights
mkldnn_max_pool2d mkldnn_max_pool3d mkldnn_rnn_layer mm mode moveaxis movedim msort mul
multinomial multiply mv mvlgamma nan_to_num nan_to_num_ nanmean nanmedian nanquantile
nansum narrow narrow_copy native_batch_norm native_channel_shuffle native_dropout
native_group_norm native_layer_norm native_norm ne neg neg_ negative negative_ nextafter
nonzero nonzero_static norm_except_dim normal not_equal nuclear_norm numel ones
ones_like orgqr ormqr outer pairwise_distance pdist permute permute_copy pinverse
pixel_shuffle pixel_unshuffle poisson poisson_nll_loss polar polygamma positive pow
prelu prod promote_types put q_per_channel_axis q_per_channel_scales
q_per_channel_zero_points q_scale q_zero_point qr quantile quantize_per_channel
quantize_per_tensor quantize_per_tensor_dynamic quantized_batch_norm quantized_gru_cell
quantized_lstm_cell quantized_max_pool1d quantized_max_pool2d quantized_max_pool3d
quantized_rnn_relu_cell quantized_rnn_tanh_cell rad2deg rad2deg_ rand rand_like randint
randint_like randn randn_like randperm range ravel real reciprocal reciprocal_ relu
relu_ remainder renorm repeat_interleave reshape resize_as_ resize_as_sparse_
resolve_conj resolve_neg result_type rms_norm rnn_relu rnn_relu_cell rnn_tanh
rnn_tanh_cell roll rot90 round round_ row_indices_copy row_stack rrelu rrelu_ rsqrt
rsqrt_ rsub saddmm scalar_tensor scatter scatter_add scatter_reduce searchsorted
segment_reduce select select_copy select_scatter selu selu_ sgn sigmoid sigmoid_ sign
signbit sin sin_ sinc sinc_ sinh sinh_ slice_copy slice_inverse slice_scatter slogdet
smm softmax sort sparse_bsc_tensor sparse_bsr_tensor sparse_compressed_tensor
sparse_coo_tensor sparse_csc_tensor sparse_csr_tensor split_copy split_with_sizes
split_with_sizes_copy spmm sqrt sqrt_ square square_ squeeze squeeze_copy sspaddmm stack
std std_mean sub subtract sum svd swapaxes swapdims sym_constrain_range
sym_constrain_range_for_size t t_copy take take_along_dim tan tan_ tanh tanh_ tensor
tensor_split threshold threshold_ tile topk trace transpose transpose_copy trapezoid
trapz triangular_solve tril tril_indices triplet_margin_loss triu triu_indices
true_divide trunc trunc_ unbind unbind_copy unflatten unfold_copy unsafe_chunk
unsafe_split unsafe_split_with_sizes unsqueeze unsqueeze_copy values_copy vander var
var_mean vdot view_as_complex view_as_complex_copy view_as_real view_as_real_copy
view_copy vsplit vstack where xlogy xlogy_ zero_ zeros zeros_like""",
        ('torch._C', 'torch._C'): """
_initExtension to_dlpack""",
        ('torch._C', 'torch'): """
autocast_decrement_nesting autocast_increment_nesting clear_autocast_cache
get_autocast_cpu_dtype get_autocast_dtype get_autocast_gpu_dtype get_autocast_ipu_dtype
get_autocast_xla_dtype get_default_dtype get_num_interop_threads get_num_threads
is_anomaly_check_nan_enabled is_anomaly_enabled is_autocast_cache_enabled
is_autocast_cpu_enabled is_autocast_enabled is_autocast_ipu_enabled
is_autocast_xla_enabled is_grad_enabled is_inference_mode_enabled set_anomaly_enabled
set_autocast_cache_enabled set_autocast_cpu_dtype set_autocast_cpu_enabled
set_autocast_dtype set_autocast_enabled set_autocast_gpu_dtype set_autocast_ipu_dtype
set_autocast_ipu_enabled set_autocast_xla_dtype set_autocast_xla_enabled
set_flush_denormal set_num_interop_threads set_num_threads""",
    },
    'torch.nn.functional': {
        ('torch._C', 'torch._C'): """
_add_docstr has_torch_function has_torch_function_unary has_torch_function_variadic""",
        ('_VariableFunctionsClass', 'torch'): """
adaptive_avg_pool1d avg_pool1d bilinear celu_ channel_shuffle conv1d conv2d conv3d
conv_tbc conv_transpose1d conv_transpose2d conv_transpose3d cosine_similarity hardshrink
native_channel_shuffle pairwise_distance pdist pixel_shuffle pixel_unshuffle prelu relu_
rrelu_ selu_ threshold_""",
        ('torch._C._nn', 'torch._C._nn'): """
avg_pool2d avg_pool3d elu_ gelu hardtanh_ leaky_relu_ linear logsigmoid one_hot
scaled_dot_product_attention softplus softshrink""",
    },
    'torch.special': {
        ('torch._C', 'torch._C'): """
_add_docstr""",
        ('torch._C._special', 'torch._C._special'): """
airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1 chebyshev_polynomial_t
chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w digamma entr erf
erfc erfcx erfinv exp2 expit expm1 gammainc gammaincc gammaln hermite_polynomial_h
hermite_polynomial_he i0 i0e i1 i1e laguerre_polynomial_l legendre_polynomial_p log1p
log_ndtr log_softmax logit logsumexp modified_bessel_i0 modified_bessel_i1
modified_bessel_k0 modified_bessel_k1 multigammaln ndtr ndtri polygamma psi round
scaled_modified_bessel_k0 scaled_modified_bessel_k1 shifted_chebyshev_polynomial_t
shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v
shifted_chebyshev_polynomial_w sinc softmax spherical_bessel_j0 xlog1py xlogy zeta""",
    },
    'torch.linalg': {
        ('torch._C', 'torch._C'): """
_add_docstr""",
        ('torch._C._linalg', 'torch._C._linalg'): """
_powsum cholesky cholesky_ex cond cross det diagonal eig eigh eigvals eigvalsh
householder_product inv inv_ex ldl_factor ldl_factor_ex ldl_solve lstsq lu lu_factor
lu_factor_ex lu_solve matmul matrix_exp matrix_norm matrix_power matrix_rank multi_dot
norm pinv qr slogdet solve solve_ex solve_triangular svd svdvals tensorinv tensorsolve
vander vecdot vector_norm""",
    },
    'torch.fft': {
        ('torch._C', 'torch._C'): """
_add_docstr""",
        ('torch._C._fft', 'torch._C._fft'): """
fft fft2 fftfreq fftn fftshift hfft hfft2 hfftn ifft ifft2 ifftn ifftshift ihfft ihfft2
ihfftn irfft irfft2 irfftn rfft rfft2 rfftfreq rfftn""",
    },
}

# module -> name -> PyTorch's __name__ where it is not the name
BUILTINS_NAMES: dict[str, dict[str, str]] = {
    'torch': {
        '_segment_reduce': 'segment_reduce',
        'to_dlpack': '_to_dlpack',
    },
    'torch.nn.functional': {
        'has_torch_function': '_has_torch_function',
        'has_torch_function_unary': '_has_torch_function_unary',
        'has_torch_function_variadic': '_has_torch_function_variadic',
        'logsigmoid': 'log_sigmoid',
    },
    'torch.special': {
        'airy_ai': 'special_airy_ai',
        'bessel_j0': 'special_bessel_j0',
        'bessel_j1': 'special_bessel_j1',
        'bessel_y0': 'special_bessel_y0',
        'bessel_y1': 'special_bessel_y1',
        'chebyshev_polynomial_t': 'special_chebyshev_polynomial_t',
        'chebyshev_polynomial_u': 'special_chebyshev_polynomial_u',
        'chebyshev_polynomial_v': 'special_chebyshev_polynomial_v',
        'chebyshev_polynomial_w': 'special_chebyshev_polynomial_w',
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
        'hermite_polynomial_h': 'special_hermite_polynomial_h',
        'hermite_polynomial_he': 'special_hermite_polynomial_he',
        'i0': 'special_i0',
        'i0e': 'special_i0e',
        'i1': 'special_i1',
        'i1e': 'special_i1e',
        'laguerre_polynomial_l': 'special_laguerre_polynomial_l',
        'legendre_polynomial_p': 'special_legendre_polynomial_p',
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
        'shifted_chebyshev_polynomial_t': 'special_shifted_chebyshev_polynomial_t',
        'shifted_chebyshev_polynomial_u': 'special_shifted_chebyshev_polynomial_u',
        'shifted_chebyshev_polynomial_v': 'special_shifted_chebyshev_polynomial_v',
        'shifted_chebyshev_polynomial_w': 'special_shifted_chebyshev_polynomial_w',
        'sinc': 'special_sinc',
        'softmax': 'special_softmax',
        'spherical_bessel_j0': 'special_spherical_bessel_j0',
        'xlog1py': 'special_xlog1py',
        'xlogy': 'special_xlogy',
        'zeta': 'special_zeta',
    },
    'torch.linalg': {
        '_powsum': 'linalg__powsum',
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
        'vander': 'linalg_vander',
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
        'hfft2': 'fft_hfft2',
        'hfftn': 'fft_hfftn',
        'ifft': 'fft_ifft',
        'ifft2': 'fft_ifft2',
        'ifftn': 'fft_ifftn',
        'ifftshift': 'fft_ifftshift',
        'ihfft': 'fft_ihfft',
        'ihfft2': 'fft_ihfft2',
        'ihfftn': 'fft_ihfftn',
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
_as_tensor_fullprec _assert _check _check_index _check_is_size _check_not_implemented
_check_tensor_all _check_tensor_all_with _check_type _check_value _check_with
_constrain_as_size _get_cuda_dep_paths _import_device_backends
_is_device_backend_autoload_enabled _load_global_deps _preload_cuda_deps
_preload_cuda_lib _register_device_module _running_with_deploy _sym_acos _sym_asin
_sym_atan _sym_cos _sym_cosh _sym_log2 _sym_sin _sym_sinh _sym_sqrt _sym_tan _sym_tanh
are_deterministic_algorithms_enabled compile compiled_with_cxx11_abi cond
get_default_device get_deterministic_debug_mode get_float32_matmul_precision
is_deterministic_algorithms_warn_only_enabled is_storage is_tensor
is_warn_always_enabled set_default_device set_default_dtype set_default_tensor_type
set_deterministic_debug_mode set_float32_matmul_precision set_warn_always sym_float
sym_fresh_size sym_int sym_ite sym_max sym_min sym_not sym_sqrt sym_sum typename
use_deterministic_algorithms""",
        ('torch._compile', ''): """
_disable_dynamo""",
        ('torch._utils', ''): """
_import_dotted_name _sync classproperty""",
        ('torch.storage', ''): """
_warn_typed_storage_removal""",
        ('torch.functional', ''): """
atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes broadcast_tensors
cartesian_prod cdist chain_matmul einsum meshgrid norm split stft tensordot
unravel_index""",
        ('torch._linalg_utils', ''): """
eig lstsq matrix_rank solve symeig""",
        ('torch.utils.dlpack', ''): """
from_dlpack""",
        ('torch._utils_internal', ''): """
get_file_path prepare_multiprocessing_environment
profiler_allow_cudagraph_cupti_lazy_reinit_cuda12""",
        ('torch.random', ''): """
get_rng_state initial_seed manual_seed seed set_rng_state thread_safe_generator""",
        ('torch.serialization', ''): """
load save""",
        ('torch._lobpcg', ''): """
lobpcg""",
        ('torch.functional', 'boolean_dispatch.<locals>.fn'): """
lu unique unique_consecutive""",
        ('torch._lowrank', ''): """
pca_lowrank svd_lowrank""",
        ('torch._tensor_str', ''): """
set_printoptions""",
        ('torch.func', ''): """
vmap""",
        ('torch._higher_order_ops.while_loop', ''): """
while_loop""",
    },
    'torch.nn.functional': {
        ('torch.nn.functional', ''): """
_adaptive_max_pool1d _adaptive_max_pool2d _adaptive_max_pool3d _canonical_mask
_check_key_padding_mask _check_unpool_output_size _enum_list_as_int_list
_expand_single_value _fractional_max_pool2d _fractional_max_pool3d _get_softmax_dim
_in_projection _in_projection_packed _is_integer _list_or_empty _max_pool1d _max_pool2d
_max_pool3d _mha_shape_check _no_grad_embedding_renorm_ _none_or_dtype _threshold
_unpool_output_size _verify_batch_size _verify_spatial_size adaptive_avg_pool2d
adaptive_avg_pool3d adaptive_max_pool1d_with_indices adaptive_max_pool2d_with_indices
adaptive_max_pool3d_with_indices affine_grid alpha_dropout assert_int_or_pair batch_norm
binary_cross_entropy binary_cross_entropy_with_logits celu cosine_embedding_loss
cross_entropy ctc_loss dropout dropout1d dropout2d dropout3d elu embedding embedding_bag
feature_alpha_dropout fold fractional_max_pool2d_with_indices
fractional_max_pool3d_with_indices gaussian_nll_loss glu grid_sample group_norm
grouped_mm gumbel_softmax hardsigmoid hardswish hardtanh hinge_embedding_loss huber_loss
instance_norm interpolate kl_div l1_loss layer_norm leaky_relu linear_cross_entropy
local_response_norm log_softmax lp_pool1d lp_pool2d lp_pool3d margin_ranking_loss
max_pool1d_with_indices max_pool2d_with_indices max_pool3d_with_indices max_unpool1d
max_unpool2d max_unpool3d mish mse_loss multi_head_attention_forward multi_margin_loss
multilabel_margin_loss multilabel_soft_margin_loss nll_loss normalize pad
poisson_nll_loss relu relu6 rms_norm rrelu scaled_grouped_mm scaled_mm selu sigmoid silu
smooth_l1_loss soft_margin_loss softmax softmin softsign tanh tanhshrink threshold
triplet_margin_loss triplet_margin_with_distance_loss unfold upsample upsample_bilinear
upsample_nearest""",
        ('torch._jit_internal', ''): """
_jit_unused _overload boolean_dispatch""",
        ('torch.nn.modules.utils', ''): """
_list_with_default""",
        ('torch.nn.modules.utils', '_ntuple.<locals>.parse'): """
_pair _single _triple""",
        ('torch', ''): """
_sym_int""",
        ('torch.nn.functional', 'boolean_dispatch.<locals>.fn'): """
adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d fractional_max_pool2d
fractional_max_pool3d max_pool1d max_pool2d max_pool3d""",
        ('torch.overrides', ''): """
handle_torch_function""",
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
    'torch': {
        '_sync': '_functionalize_sync',
        'sym_sqrt': '_sym_sqrt',
        'symeig': '_symeig',
    },
    'torch.nn.functional': {
        '_jit_unused': 'unused',
        '_sym_int': 'sym_int',
        'threshold': '_threshold',
    },
}


def table(title: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """BUILTINS or FUNCTIONS as module -> name -> (PyTorch's __name__, *kind)."""
    grouped, names = globals()[title], globals()[title + "_NAMES"]
    return {dotted: {name: (names.get(dotted, {}).get(name, name), *kind)
                     for kind, text in groups.items() for name in text.split()}
            for dotted, groups in grouped.items()}
