"""The optimizers' updates of a float32 parameter in one compiled pass (_native_optim.h).

Adam's single-tensor update is a chain of seven in-place ops, each a pass over the parameter's
memory (and the fused multiply-adds of lerp_ and addcmul_ cost NumPy a dozen more); the compiled
kernel makes the same float32 operations in the same order for each element in one pass, so the
bits are those of the op chain (torch/optim/_kernels.py and the engine's ops, which the tests
compare with PyTorch). Each function returns False, having changed nothing, where the kernel
does not apply (no compiled kernels, GRADSH_NATIVE=0, another dtype or device, a view, a
non-contiguous or overlapping buffer, grad mode on): the caller then runs the op chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.grad_mode import current_origin
from gradsh.engine.tensor import Tensor, _GradMode
from gradsh.engine.undo import _Undo
from gradsh.engine.variable import VersionCounter
from gradsh.engine.vecmath import mkl, native, vml

_F32 = np.dtype(np.float32)
# Below this many elements the op chain's NumPy calls cost less than the checks here matter;
# above it one pass saves a dozen (the bits are the same either way).
MIN_ELEMENTS = 1024
# The kernel's flags (_native_optim.h's OPT_*).
MAXIMIZE, L2, DECOUPLED, AMSGRAD, CENTERED, MOMENTUM, NESTEROV = 1, 2, 4, 8, 16, 32, 64


def _arrays(tensors: tuple[Tensor, ...]) -> list[np.ndarray] | None:
    """The tensors' arrays when the kernel can take them: plain float32 C-contiguous CPU arrays
    of one size, each its own storage (no view, no overlap), the written ones (all but the
    second, the gradient) writeable with an ordinary version counter and Tensor's own in-place
    ops; else None."""
    if native.kernels is None or _GradMode.enabled:
        return None
    arrays = []
    size = -1
    for i, t in enumerate(tensors):
        data = t._data
        if (data.__class__ is not np.ndarray or data.dtype is not _F32 or t.device != "cpu"
                or not data.flags.c_contiguous or t._wrapped):
            return None
        if size < 0:
            size = data.size
            if size < MIN_ELEMENTS:
                return None
        elif data.size != size:
            return None
        if i != 1 and (t._base is not None or not data.flags.writeable
                       or t._version_counter.__class__ is not VersionCounter
                       or t.__class__.mul_ is not Tensor.mul_  # (a subclass's own ops run)
                       or t.__class__.add_ is not Tensor.add_):
            return None
        arrays.append(data)
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            if np.may_share_memory(arrays[i], arrays[j]):
                return None
    return arrays


_sqrt_table_set = False


def _set_sqrt_table() -> None:
    """Give the kernels VRSQRT14's table once: their sqrt is MKL's vmsSqrt, which PyTorch's
    float32 sqrt calls (vecmath/vml.py)."""
    global _sqrt_table_set
    native.kernels.set_sqrt_table(np.ascontiguousarray(vml._SIGNIFICAND17, dtype=np.int32))
    _sqrt_table_set = True


_sqrt_is_the_ops: bool | None = None
# The updates whose kernels take a square root (SGD's does not).
_SQRT_KINDS = frozenset({"adam", "rmsprop", "adagrad"})


def kernel_sqrt_is_the_ops() -> bool:
    """Whether the kernels' sqrt gives the float32 sqrt op's bits on this machine (checked once).

    The op calls MKL's VML where the `mkl` package is loaded (vecmath/mkl.py), and VML picks
    its code path by CPU: the kernels compute the path vml.py models, which is not the one VML
    takes on every CPU (on an AVX-512 IFMA machine 17% of random float32 square roots differed,
    and on AMD's EPYC as many). Where the model differs and VML is loaded, the kernels call
    VML's vmsSqrt itself on blocks of their values (VML's results do not depend on where an
    element lies in the array or how many it is given, tests/test_optim_fused.py checks), and
    the check is made again; where that differs too, the updates that take a square root run
    the op chain."""
    global _sqrt_is_the_ops
    if _sqrt_is_the_ops is None:
        if not _sqrt_table_set:
            _set_sqrt_table()
        from gradsh.engine.functions import pointwise

        rng = np.random.default_rng(0)  # positive normal floats over the whole exponent range
        probe = rng.integers(0x00800000, 0x7F800000, 4096, dtype=np.int64).astype(np.int32)
        x = probe.view(np.float32)
        expected = pointwise.unary("sqrt", x)
        out = np.empty_like(x)
        native.kernels.vml_sqrt(out, x, x.size)
        _sqrt_is_the_ops = bool(np.array_equal(out, expected))
        address = None if _sqrt_is_the_ops else mkl.routine_address("sqrt", x.dtype)
        if address is not None:
            native.kernels.set_mkl_sqrt(address, mkl.MODE)
            native.kernels.optim_sqrt(out, x, x.size)
            _sqrt_is_the_ops = bool(np.array_equal(out, expected))
            if not _sqrt_is_the_ops:
                native.kernels.set_mkl_sqrt(0, 0)
                address = None
        global mkl_sqrt_address
        mkl_sqrt_address = address
    return _sqrt_is_the_ops


# The vmsSqrt the kernels call (set_mkl_sqrt), once the check has picked it; else None.
mkl_sqrt_address: int | None = None


def _run(kind: str, tensors: tuple[Tensor, ...], bumps: tuple[int, ...], flags: int,
         scalars: tuple[float, ...]) -> bool:
    """One kernel call over `tensors` (the parameter, its gradient, the state tensors), each
    written one's version counted up by its number of in-place ops in the op chain."""
    if any(value.__class__ not in (float, int) for value in scalars):
        return False  # a hyperparameter given as a tensor: the op chain's tensor arithmetic
    arrays = _arrays(tensors)
    if arrays is None:
        return False
    if kind in _SQRT_KINDS and not kernel_sqrt_is_the_ops():
        return False
    if not _sqrt_table_set:
        _set_sqrt_table()
    log = _Undo.log
    written = [t for t, bump in zip(tensors, bumps) if bump]
    if log is not None:
        for t in written:
            log.record_write(t)
    native.kernels.optim_step(kind, tuple(arrays), arrays[0].size, flags, scalars)
    origin = current_origin()
    for t, bump in zip(tensors, bumps):
        if bump:
            counter = t._version_counter
            counter.value += bump
            counter.origin = origin
    return True


def _f32(value: float) -> float:
    return float(np.float32(value))


def adam(param: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any],
         lr: float, beta1: float, beta2: float, step: float) -> bool:
    """_adam_update's work after `step_t += 1`, in one pass; False: not applicable."""
    weight_decay, eps = group["weight_decay"], group["eps"]
    flags = MAXIMIZE if group["maximize"] else 0
    decay = 0.0
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            flags |= DECOUPLED
            decay = 1 - lr * weight_decay
        else:
            flags |= L2
            decay = weight_decay
    tensors = (param, grad, state["exp_avg"], state["exp_avg_sq"])
    bumps = (2 if flags & DECOUPLED else 1, 0, 1, 2)
    if group["amsgrad"]:
        flags |= AMSGRAD
        tensors += (state["max_exp_avg_sq"],)
        bumps += (1,)
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    step_size = lr / bias_correction1
    w = _f32(1 - beta1)
    scalars = (decay, w, w - 1.0, beta2, 1 - beta2, bias_correction2**0.5, eps, -step_size)
    return _run("adam", tensors, bumps, flags, scalars)


def rmsprop(param: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any],
            lr: float) -> bool:
    """_rmsprop_update's work after `step += 1`, in one pass; False: not applicable."""
    alpha, eps, momentum, weight_decay = (group["alpha"], group["eps"], group["momentum"],
                                          group["weight_decay"])
    flags = (MAXIMIZE if group["maximize"] else 0) | (L2 if weight_decay != 0 else 0)
    tensors = (param, grad, state["square_avg"])
    bumps = (1, 0, 2)
    if group["centered"]:
        flags |= CENTERED
        tensors += (state["grad_avg"],)
        bumps += (1,)
    if momentum > 0:
        flags |= MOMENTUM
        tensors += (state["momentum_buffer"],)
        bumps += (2,)
    c = _f32(1 - alpha)
    scalars = (weight_decay, alpha, c, c - 1.0, eps, momentum, -lr)
    return _run("rmsprop", tensors, bumps, flags, scalars)


def adagrad(param: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any],
            clr: float) -> bool:
    """_adagrad_update's work after the step count, in one pass; False: not applicable."""
    weight_decay = group["weight_decay"]
    flags = (MAXIMIZE if group["maximize"] else 0) | (L2 if weight_decay != 0 else 0)
    return _run("adagrad", (param, grad, state["sum"]), (1, 0, 1), flags,
                (weight_decay, group["eps"], -clr))


def sgd(param: Tensor, grad: Tensor, buf: Tensor, group: dict[str, Any], weight_decay: float,
        lr: float) -> bool:
    """_sgd_update's work once the momentum buffer exists, in one pass; False: not applicable."""
    flags = ((MAXIMIZE if group["maximize"] else 0) | (L2 if weight_decay != 0 else 0)
             | (NESTEROV if group["nesterov"] else 0))
    return _run("sgd", (param, grad, buf), (1, 0, 2), flags,
                (weight_decay, group["momentum"], 1 - group["dampening"], -lr))
