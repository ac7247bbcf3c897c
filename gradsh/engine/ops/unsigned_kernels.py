"""The ops PyTorch 2.13 has no CPU kernel of for uint16, uint32 and uint64 tensors,
and the kernel its NotImplementedError names (`"add_stub" not implemented for
'UInt16'`). Data only, harvested from torch by tests/test_unsigned_dtypes.py (run as a
script to rewrite it), which checks it; read by ops/guard.py."""

from __future__ import annotations

# kernel -> the ops (as gradsh's argument guards name them)
_BY_KERNEL: dict[str, str] = {
    "_standard_gamma_grad_cpu": """
_standard_gamma_grad""",
    "abs_cpu": """
abs abs_ absolute absolute_""",
    "adaptive_max_pool2d": """
adaptive_max_pool1d""",
    "add_stub": """
add add_ cumulative_trapezoid diff dist gradient hinge_embedding_loss
pairwise_distance rsub sub sub_ subtract subtract_""",
    "addmm_impl_cpu_": """
inner matmul mm""",
    "aminmax_cpu": """
aminmax histc""",
    "argmax_cpu": """
argmax""",
    "argmin_cpu": """
argmin""",
    "bernoulli_scalar_cpu_": """
bernoulli_""",
    "bernoulli_tensor_cpu_self_": """
bernoulli""",
    "bincount_cpu": """
bincount""",
    "bitwise_not_cpu": """
bitwise_not bitwise_not_ invert""",
    "check_uniform_bounds": """
rand_like uniform_""",
    "cholesky_cpu": """
cholesky""",
    "cholesky_inverse_out_cpu": """
cholesky_inverse""",
    "cholesky_solve_cpu": """
cholesky_solve""",
    "clamp_min_scalar_cpu": """
relu relu_""",
    "cummax_cpu": """
cummax""",
    "cummin_cpu": """
cummin""",
    "cumprod_out_cpu": """
cumprod_""",
    "cumsum_out_cpu": """
cumsum_""",
    "dirichlet": """
_sample_dirichlet""",
    "div_floor_cpu": """
floor_divide floor_divide_ stft""",
    "elu_cpu": """
celu celu_ selu selu_""",
    "flip_cpu": """
flip fliplr""",
    "fmod_cpu": """
fmod fmod_""",
    "frac_cpu": """
frac frac_""",
    "gamma_cpu": """
_standard_gamma""",
    "gcd_cpu": """
gcd gcd_""",
    "ge_cpu": """
ge ge_ greater_equal greater_equal_""",
    "geqrf_cpu": """
geqrf""",
    "gt_cpu": """
greater greater_ gt gt_""",
    "hardshrink_cpu": """
hardshrink""",
    "heaviside_cpu": """
heaviside heaviside_""",
    "histogramdd": """
histogram""",
    "hypot_cpu": """
hypot hypot_""",
    "igamma_cpu": """
igamma igamma_""",
    "igammac_cpu": """
igammac igammac_""",
    "isin_default_cpu": """
isin""",
    "kthvalue_cpu": """
kthvalue""",
    "lcm_cpu": """
lcm lcm_""",
    "le_cpu": """
le le_ less_equal less_equal_""",
    "leaky_relu_cpu": """
rrelu rrelu_""",
    "log_normal_cpu": """
log_normal_""",
    "log_sigmoid_cpu": """
binary_cross_entropy_with_logits""",
    "log_softmax_lastdim_kernel_impl": """
log_softmax""",
    "logaddexp2_cpu": """
logaddexp2""",
    "logaddexp_cpu": """
logaddexp""",
    "logcumsumexp_out_cpu": """
logcumsumexp""",
    "logical_and_cpu": """
logical_and logical_and_""",
    "logical_not_cpu": """
logical_not logical_not_""",
    "logical_or_cpu": """
logical_or logical_or_""",
    "logical_xor_cpu": """
logical_xor logical_xor_""",
    "lshift_cpu": """
bitwise_left_shift bitwise_left_shift_""",
    "lt_cpu": """
less less_ lt lt_""",
    "lu_cpu": """
lu""",
    "max_all": """
max""",
    "max_values_cpu": """
amax""",
    "maximum_cpu": """
clamp clamp_ clamp_min clamp_min_ clip clip_ fmax maximum""",
    "median_cpu": """
median nanmedian""",
    "min_all": """
min""",
    "min_values_cpu": """
amin""",
    "minimum_cpu": """
clamp_max clamp_max_ fmin minimum""",
    "mode_cpu": """
mode""",
    "neg_cpu": """
neg neg_ negative negative_""",
    "nextafter_cpu": """
nextafter nextafter_""",
    "nonzero_count_cpu": """
argwhere count_nonzero nonzero""",
    "normal_kernel_cpu": """
normal normal_ randn_like""",
    "poisson_cpu": """
poisson""",
    "pow": """
pow pow_ square square_""",
    "random_kernel_cpu": """
random_""",
    "remainder_cpu": """
remainder remainder_""",
    "repeat_interleave_cpu": """
repeat_interleave""",
    "rshift_cpu": """
bitwise_right_shift bitwise_right_shift_""",
    "searchsorted_out_cpu": """
searchsorted""",
    "sign_cpu": """
sgn sgn_ sign sign_""",
    "softmax_lastdim_kernel_impl": """
_safe_softmax""",
    "trace": """
trace""",
    "weight_norm_kernel": """
_weight_norm""",
    "xor_sum_cpu": """
hash_tensor""",
}

# op -> kernel
UNSIGNED_KERNELS: dict[str, str] = {name: kernel for kernel, names in _BY_KERNEL.items()
                                    for name in names.split()}
