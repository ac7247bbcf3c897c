"""torch.nn.AdaptiveLogSoftmaxWithLoss: the adaptive softmax of Grave et al. (a head over the
frequent classes and one entry per cluster, a low-rank projection per cluster of rarer
classes), PyTorch's module step for step: the same parameters after a seed, the same ops in
the same order (so the same float bits and grad_fns), the same errors."""

from __future__ import annotations

import itertools
from collections import namedtuple
from collections.abc import Sequence
from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.container import ModuleList, Sequential
from gradsh.torch.nn.modules.linear import Linear
from gradsh.torch.nn.modules.module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])  # noqa: PYI024  (PyTorch's)


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int],
                 div_value: float = 4.0, head_bias: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise TorchValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise TorchValueError("cutoffs should be a sequence of unique, positive integers "
                                  "sorted in an increasing order, where each value is between "
                                  "1 and n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias,
                           **factory_kwargs)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(self.in_features // (self.div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(
                Linear(self.in_features, hsz, bias=False, **factory_kwargs),
                Linear(hsz, osz, bias=False, **factory_kwargs)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> Any:
        """The log-probability of each target and the mean negative one (_ASMoutput)."""
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise TorchRuntimeError("Input and target should have the same size in the "
                                        "batch dimension.")
            if input_.dim() != 2:
                raise TorchRuntimeError(f"1D target tensor expects 2D input tensors, but found "
                                        f"inputs with size {input_.size()}")
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise TorchRuntimeError(f"0D target tensor expects 1D input tensors, but found "
                                        f"inputs with size {input_.size()}")
        else:
            raise TorchRuntimeError("0D or 1D target tensor expected, multi-target not "
                                    "supported")
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)  # noqa: A001  (PyTorch's name)
        target = target_ if is_batched else target_.unsqueeze(0)
        used_rows = 0
        batch_size = target.size(0)
        output = input.new_zeros(batch_size)
        gather_inds = target.new_empty(batch_size)
        cutoff_values = [0] + self.cutoffs
        for i in range(len(cutoff_values) - 1):
            low_idx, high_idx = cutoff_values[i], cutoff_values[i + 1]
            target_mask = (target >= low_idx) & (target < high_idx)
            row_indices = target_mask.nonzero().squeeze()
            if row_indices.numel() == 0:
                continue
            if i == 0:
                gather_inds.index_copy_(0, row_indices, target[target_mask])
            else:
                relative_target = target[target_mask] - low_idx
                input_subset = input.index_select(0, row_indices)
                cluster_output = self.tail[i - 1](input_subset)
                cluster_index = self.shortlist_size + i - 1
                gather_inds.index_fill_(0, row_indices, cluster_index)
                cluster_logprob = ops.log_softmax(cluster_output, dim=1)
                local_logprob = cluster_logprob.gather(1, relative_target.unsqueeze(1))
                output.index_copy_(0, row_indices, local_logprob.squeeze(1))
            used_rows += row_indices.numel()
        if used_rows != batch_size:
            raise TorchRuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                                    f"values in range [{target.min().item()}, "
                                    f"{target.max().item()}] were found. ")
        head_output = self.head(input)
        head_logprob = ops.log_softmax(head_output, dim=1)
        output += head_logprob.gather(1, gather_inds.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:  # noqa: A002
        """The log of the full distribution, from the input and the head's output."""
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = ops.log_softmax(head_output, dim=1)
        out[:, : self.shortlist_size] = head_logprob[:, : self.shortlist_size]
        for i, (start_idx, stop_idx) in enumerate(itertools.pairwise(self.cutoffs)):
            cluster_output = self.tail[i](input)
            cluster_logprob = ops.log_softmax(cluster_output, dim=1)
            output_logprob = cluster_logprob + head_logprob[
                :, self.shortlist_size + i].unsqueeze(1)
            out[:, start_idx:stop_idx] = output_logprob
        return out

    def log_prob(self, input: Tensor) -> Tensor:  # noqa: A002
        """The log-probability of every class: (N, n_classes)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:  # noqa: A002
        """The most probable class of each example (log_prob(input).argmax(1), cheaper where
        the head's choice is a shortlist class)."""
        head_output = self.head(input)
        output = ops.argmax(head_output, dim=1)
        not_in_shortlist = output >= self.shortlist_size
        all_in_shortlist = not (not_in_shortlist.any())
        if all_in_shortlist:
            return output
        if not_in_shortlist.all():
            log_prob = self._get_full_log_prob(input, head_output)
            return ops.argmax(log_prob, dim=1)
        log_prob = self._get_full_log_prob(input[not_in_shortlist],
                                           head_output[not_in_shortlist])
        output[not_in_shortlist] = ops.argmax(log_prob, dim=1)
        return output
