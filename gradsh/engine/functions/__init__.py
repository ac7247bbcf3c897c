"""Every operation as a named Function: forward and backward side by side, one class per op.

Each class carries PyTorch's grad_fn name and saves what PyTorch's derivatives.yaml entry saves
(and only when the input it serves needs a gradient), so `grad_fn`, `next_functions` and "can
this graph be backpropagated twice?" all match PyTorch. Backward formulas read like the yaml:
`grad` is the incoming gradient, `F` supplies the few functions operators cannot express, and
the same formula runs on plain arrays or, under create_graph, on differentiable Tensors.

The engine sums broadcast gradients back to each input's shape and casts them to its dtype
(PyTorch's validate_outputs), so binary ops return the broadcast-shaped gradient.

One module per op family, mirrored by gradsh.engine.ops (the public functions that build these
nodes): common (shared helpers), cascade_sum, arithmetic, unary, selection, comparison,
reductions, sorting, shape (views), joining, indexing, linalg, activations, losses, sampling,
special (torch.special, the gamma and Poisson samplers), copies, combining (block_diag), strided
(as_strided), and the nn layers' convolution, pooling, pooling3d, normalization, embeddings,
rnn, attention, upsampling, grid_sampling; autograd holds
the identity node of module backward hooks, higher_order the fused nodes that only appear in
the backward of a backward, and grad_ops the array half of the gradient namespaces (installed
into ArrayOps on import). Nothing here imports gradsh.engine.ops: dependencies run
dtypes/backend -> tensor -> functions -> ops.
"""

from gradsh.engine.functions.activations import *  # noqa: F403
from gradsh.engine.functions.activations_inplace import *  # noqa: F403
from gradsh.engine.functions.arithmetic import *  # noqa: F403
from gradsh.engine.functions.attention import *  # noqa: F403
from gradsh.engine.functions.autograd import *  # noqa: F403
from gradsh.engine.functions.cascade_sum import *  # noqa: F403
from gradsh.engine.functions.combining import *  # noqa: F403
from gradsh.engine.functions.common import *  # noqa: F403
from gradsh.engine.functions.comparison import *  # noqa: F403
from gradsh.engine.functions.convolution import *  # noqa: F403
from gradsh.engine.functions.copies import *  # noqa: F403
from gradsh.engine.functions.diagonal import *  # noqa: F403
from gradsh.engine.functions.discrete import *  # noqa: F403
from gradsh.engine.functions.distance import *  # noqa: F403
from gradsh.engine.functions.embeddings import *  # noqa: F403
from gradsh.engine.functions.grad_ops import *  # noqa: F403
from gradsh.engine.functions.grid_sampling import *  # noqa: F403
from gradsh.engine.functions.higher_order import *  # noqa: F403
from gradsh.engine.functions.indexing import *  # noqa: F403
from gradsh.engine.functions.joining import *  # noqa: F403
from gradsh.engine.functions.linalg import *  # noqa: F403
from gradsh.engine.functions.linalg_decompositions import *  # noqa: F403
from gradsh.engine.functions.linalg_lu import *  # noqa: F403
from gradsh.engine.functions.losses import *  # noqa: F403
from gradsh.engine.functions.margin_losses import *  # noqa: F403
from gradsh.engine.functions.normalization import *  # noqa: F403
from gradsh.engine.functions.padding import *  # noqa: F403
from gradsh.engine.functions.pooling import *  # noqa: F403
from gradsh.engine.functions.pooling3d import *  # noqa: F403
from gradsh.engine.functions.reductions import *  # noqa: F403
from gradsh.engine.functions.rnn import *  # noqa: F403
from gradsh.engine.functions.sampling import *  # noqa: F403
from gradsh.engine.functions.selection import *  # noqa: F403
from gradsh.engine.functions.shape import *  # noqa: F403
from gradsh.engine.functions.special import *  # noqa: F403
from gradsh.engine.functions.strided import *  # noqa: F403
from gradsh.engine.functions.sorting import *  # noqa: F403
from gradsh.engine.functions.unary import *  # noqa: F403
from gradsh.engine.functions.unfold import *  # noqa: F403
from gradsh.engine.functions.upsampling import *  # noqa: F403
from gradsh.engine.functions.half_opmath import mark_widened_ops

mark_widened_ops()
