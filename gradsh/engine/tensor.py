"""Tensor and the autograd core in one namespace: what the rest of gradsh imports.

The model is PyTorch's, reduced to what gradsh shows:

- A Tensor wraps a backend array. Tensors that alias one storage (views, `detach()`) share a
  VersionCounter, bumped by every in-place change; `.data` aliases the storage with a fresh
  counter, which is why changes through it go unnoticed by autograd.
- An operation is a Function subclass named after PyTorch's grad_fn class (`MulBackward0`). Its
  `forward` computes the output array and saves what `backward` needs; `backward` returns one
  gradient per input. Leaves that require grad are reached through an AccumulateGrad node.
- Saved tensors remember the version they were saved at and are released after a backward that
  does not retain the graph, so the two classic errors come out exactly where PyTorch raises them.
- Backward is a loop over a ready queue ordered like PyTorch's (latest node first), with
  dependency counts computed by an explicit stack: no recursion over graph depth.

Gradients are plain arrays unless `create_graph` is set; then they are Tensors and backward
formulas build a graph of their own (higher-order gradients). Formulas are written once against
`F` (ArrayOps or TensorOps), using operators that arrays and Tensors share.

The core is split by concern, each module importing only those above it in this list:
grad_mode (grad mode, origins, anomaly mode, saved-tensor hooks, sequence numbers), undo (the
undo log), variable (Tensor, VersionCounter), saved_variable (SavedTensor), node (Node,
Function, AccumulateGrad, AsStridedBackward0, CopySlices, ArrayOps/TensorOps), inplace
(apply_inplace and its checks) and backward (run_backward). This module re-exports them.
"""

from gradsh.engine.backward import (
    CREATE_GRAPH_WARNING,
    _once,
    expandable,
    make_root_grads,
    reset_warn_once,
    run_backward,
)
from gradsh.engine.grad_mode import (
    Anomaly,
    SavedHooks,
    _GradMode,
    _Origin,
    enable_grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
    set_origin,
)
from gradsh.engine.inplace import (
    LEAF_INPLACE_MESSAGE,
    VIEW_OF_LEAF_INPLACE_MESSAGE,
    apply_inplace,
    check_inplace,
    check_writable,
)
from gradsh.engine.node import (
    RESULT,
    AccumulateGrad,
    ArrayOps,
    AsStridedBackward0,
    CopySlices,
    Edge,
    Function,
    GradOps,
    OutputSlots,
    GraphRoot,
    Node,
    TensorOps,
    _as_array,
    _edge,
    _meta,
    _record_forward,
    check_same_device,
    grad_ops,
)
from gradsh.engine.saved_variable import SECOND_BACKWARD_MESSAGE, SavedTensor
from gradsh.engine.undo import UndoLog, _Undo, undo_log
from gradsh.engine.variable import (
    NON_LEAF_GRAD_WARNING,
    NON_LEAF_REQUIRES_GRAD_SUFFIX,
    Array,
    RemovableHandle,
    Shape,
    Tensor,
    VersionCounter,
)

__all__ = [
    "CREATE_GRAPH_WARNING", "LEAF_INPLACE_MESSAGE", "NON_LEAF_GRAD_WARNING",
    "NON_LEAF_REQUIRES_GRAD_SUFFIX", "RESULT",
    "SECOND_BACKWARD_MESSAGE", "VIEW_OF_LEAF_INPLACE_MESSAGE", "AccumulateGrad", "Anomaly",
    "Array", "ArrayOps", "AsStridedBackward0", "CopySlices", "Edge", "Function", "GradOps",
    "GraphRoot", "Node", "OutputSlots", "RemovableHandle", "SavedHooks", "SavedTensor", "Shape", "Tensor",
    "TensorOps", "UndoLog", "VersionCounter", "_GradMode", "_Origin", "_Undo", "_as_array",
    "_edge", "_meta", "_once", "_record_forward", "apply_inplace", "check_inplace",
    "check_same_device", "check_writable", "enable_grad", "expandable", "grad_ops",
    "is_grad_enabled",
    "make_root_grads", "no_grad", "reset_warn_once", "run_backward", "set_grad_enabled",
    "set_origin", "undo_log",
]
