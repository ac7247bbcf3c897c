"""BatchNorm1d and BatchNorm2d: batch statistics and running-stat updates in training mode,
the running statistics in eval mode."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.nn import functional as F
from gradsh.torch.nn import init
from gradsh.torch.nn.modules.lazy import LazyModuleMixin
from gradsh.torch.nn.modules.linear import factory
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.modules.normalization import affine_parameters
from gradsh.torch.nn.parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d"]


class _NormBase(Module):
    _version = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        kwargs = factory(device, dtype)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        affine_parameters(self, num_features, affine, bias, kwargs)
        if track_running_stats:
            self.register_buffer("running_mean", ops.zeros(num_features, **kwargs))
            self.register_buffer("running_var", ops.ones(num_features, **kwargs))
            self.register_buffer("num_batches_tracked",
                                 ops.tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            with no_grad():
                ops.zero_(self.running_mean)
                ops.fill_(self.running_var, 1)
                ops.zero_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        raise NotImplementedError

    def extra_repr(self) -> str:
        return ("{num_features}, eps={eps}, momentum={momentum}, affine={affine}, "
                "bias={use_bias}, track_running_stats={track_running_stats}".format(
                    **self.__dict__, use_bias=self.bias is not None))

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str,
                              local_metadata: dict[str, Any], *args: Any) -> None:
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked
                                   is not None else ops.tensor(0, dtype=dtypes.int64))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)


class _BatchNorm(_NormBase):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                ops.add_(self.num_batches_tracked, 1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None,
                            self.running_var if keep else None, self.weight, self.bias,
                            use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim != 4:
            raise ValueError(f"expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim != 5:
            raise ValueError(f"expected 5D input (got {input.ndim}D input)")


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A batch norm whose num_features is its first input's channel count."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = ops.tensor(0, dtype=dtypes.int64, device=device)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        for name in (("weight", "bias") if self.affine else ()) + (
                ("running_mean", "running_var") if self.track_running_stats else ()):
            getattr(self, name).materialize((self.num_features,))
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    cls_to_become = BatchNorm2d
