"""The public tensor API: torch.* functions and Tensor methods, built on the Function classes.

This layer does what PyTorch's Python bindings and dispatcher do before an op runs: normalise
arguments (sizes as varargs or tuples, negative dims), wrap Python numbers, pick the overload
(`x ** 2` is PowBackward0, `2 ** x` PowBackward2), check argument errors with PyTorch's text,
compose the ops PyTorch composes (matmul, flatten, cross_entropy, setitem) from the same steps
so their graphs look the same, and route in-place variants through `apply_inplace`.

One module per op family, mirroring gradsh.engine.functions (the nodes they build): creation,
copies, arithmetic, unary, comparison, selection, reductions, sorting, shape, joining, indexing,
linalg, activations, losses, sampling, special, autograd, combining, strided, the nn layers'
convolution, pooling, pooling3d, normalization, embeddings, rnn, attention, upsampling,
grid_sampling, functional (what PyTorch composes of other ops) and numerics
(the less common element-wise math, NaN-aware and running reductions); arguments and guard hold
what they all share
(argument normalisation; PyTorch's argument errors, which every public function wears through
@guarded). This package re-exports each family's __all__, so `ops.add`, `ops.relu` and the
builtins table's names keep one flat namespace. Importing it runs the one registration step at
the bottom: Tensor's methods and operators (methods.py's table) and TensorOps, the
differentiable half of the gradient namespaces (grad_ops.py).
"""

from gradsh.engine import dtypes
from gradsh.engine.ops.activations import *  # noqa: F403
from gradsh.engine.ops.activations_inplace import *  # noqa: F403
from gradsh.engine.ops.adaptive_pooling import *  # noqa: F403
from gradsh.engine.ops.arguments import *  # noqa: F403
from gradsh.engine.ops.arguments import _device_name  # noqa: F401  (the runner's --device)
from gradsh.engine.ops.arithmetic import *  # noqa: F403
from gradsh.engine.ops.attention import *  # noqa: F403
from gradsh.engine.ops.binning import *  # noqa: F403
from gradsh.engine.ops.blas_extras import *  # noqa: F403
from gradsh.engine.ops.autograd import *  # noqa: F403
from gradsh.engine.ops.combining import *  # noqa: F403
from gradsh.engine.ops.complex_ops import *  # noqa: F403
from gradsh.engine.ops.comparison import *  # noqa: F403
from gradsh.engine.ops.convolution import *  # noqa: F403
from gradsh.engine.ops.convolution3d import *  # noqa: F403
from gradsh.engine.ops.conv_transpose3d import *  # noqa: F403
from gradsh.engine.ops.copies import *  # noqa: F403
from gradsh.engine.ops.creation import *  # noqa: F403
from gradsh.engine.ops.creation_extra import *  # noqa: F403
from gradsh.engine.ops.ctc import *  # noqa: F403
from gradsh.engine.ops.diagonal import *  # noqa: F403
from gradsh.engine.ops.discrete import *  # noqa: F403
from gradsh.engine.ops.distance import *  # noqa: F403
from gradsh.engine.ops.distance_extras import *  # noqa: F403
from gradsh.engine.ops.distributions import *  # noqa: F403
from gradsh.engine.ops.einsum import *  # noqa: F403
from gradsh.engine.ops.elementwise_extras import *  # noqa: F403
from gradsh.engine.ops.embeddings import *  # noqa: F403
from gradsh.engine.ops.functional import *  # noqa: F403
from gradsh.engine.ops.fractional_pool import *  # noqa: F403
from gradsh.engine.ops.grad_ops import install_tensor_ops
from gradsh.engine.ops import torch_function as _torch_function
from gradsh.engine.ops.grid_sampling import *  # noqa: F403
from gradsh.engine.ops.householder import *  # noqa: F403
from gradsh.engine.ops.indexing import *  # noqa: F403
from gradsh.engine.ops.scatter import *  # noqa: F403
from gradsh.engine.ops.inplace_forms import *  # noqa: F403
from gradsh.engine.ops.joining import *  # noqa: F403
from gradsh.engine.ops.linalg import *  # noqa: F403
from gradsh.engine.ops.linalg_composites import *  # noqa: F403
from gradsh.engine.ops.linalg_decompositions import *  # noqa: F403
from gradsh.engine.ops.linalg_eig import *  # noqa: F403
from gradsh.engine.ops.linalg_lu_factor import *  # noqa: F403
from gradsh.engine.ops.linalg_ldl import *  # noqa: F403
from gradsh.engine.ops.linalg_solvers import *  # noqa: F403
from gradsh.engine.ops.losses import *  # noqa: F403
from gradsh.engine.ops.margin_losses import *  # noqa: F403
from gradsh.engine.ops.matrix_extras import *  # noqa: F403
from gradsh.engine.ops.methods import install_tensor_methods
from gradsh.engine.ops.normalization import *  # noqa: F403
from gradsh.engine.ops.numerics import *  # noqa: F403
from gradsh.engine.ops.pooling import *  # noqa: F403
from gradsh.engine.ops.pooling3d import *  # noqa: F403
from gradsh.engine.ops.quantile import *  # noqa: F403
from gradsh.engine.ops.pooling3d_extra import *  # noqa: F403
from gradsh.engine.ops.pooling3d_more import *  # noqa: F403
from gradsh.engine.ops.reductions import *  # noqa: F403
from gradsh.engine.ops.rms_norm import *  # noqa: F403
from gradsh.engine.ops.weight_norm import *  # noqa: F403
from gradsh.engine.ops.rrelu import *  # noqa: F403
from gradsh.engine.ops.matrix_exp import *  # noqa: F403
from gradsh.engine.ops.numeric_extras import *  # noqa: F403
from gradsh.engine.ops.rnn import *  # noqa: F403
from gradsh.engine.ops.sampling import *  # noqa: F403
from gradsh.engine.ops.scatter_views import *  # noqa: F403
from gradsh.engine.ops.selection import *  # noqa: F403
from gradsh.engine.ops.shape import *  # noqa: F403
from gradsh.engine.ops.sorting import *  # noqa: F403
from gradsh.engine.ops.sparse import *  # noqa: F403
from gradsh.engine.ops.sparse import install_sparse_methods
from gradsh.engine.ops.special import *  # noqa: F403
from gradsh.engine.ops.strided import *  # noqa: F403
from gradsh.engine.ops.unary import *  # noqa: F403
from gradsh.engine.ops.unfold import *  # noqa: F403
from gradsh.engine.ops.upsampling import *  # noqa: F403
from gradsh.engine.ops.windows import *  # noqa: F403
from gradsh.engine.tensor import (  # noqa: F401  (torch.no_grad and friends)
    enable_grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)

# torch.float32 and the other dtypes by name
float16, float32, float64 = dtypes.float16, dtypes.float32, dtypes.float64
bfloat16 = dtypes.bfloat16
int8, int16, int32, int64 = dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64
uint8 = dtypes.uint8
bool_ = dtypes.bool_
complex64, complex128 = dtypes.complex64, dtypes.complex128
half, float_, double, long, short = float16, float32, float64, int64, int16

# The one registration step: Tensor's methods and operators, and TensorOps.
install_tensor_methods()
_torch_function.install()
install_tensor_ops()
install_sparse_methods()
