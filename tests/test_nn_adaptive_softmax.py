"""nn.AdaptiveLogSoftmaxWithLoss against PyTorch: repr, parameters after a seed, forward's
(output, loss) namedtuple and its gradients (float32 bits), log_prob, predict (all three of
its branches), unbatched input, head_bias, float64, and the errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _bits(t: Any) -> Any:
    return None if t is None else t.detach().numpy().tobytes()


def _run(lib: Any, seed: int, dtype_name: str, head_bias: bool) -> list[Any]:
    dtype = getattr(lib, dtype_name)
    rng = np.random.default_rng(seed)
    lib.manual_seed(seed)
    asm = lib.nn.AdaptiveLogSoftmaxWithLoss(12, 20, cutoffs=[4, 10], div_value=2.0,
                                            head_bias=head_bias).to(dtype)
    seen: list[Any] = [repr(asm)] + [(name, _bits(p)) for name, p in asm.named_parameters()]
    x = lib.tensor(rng.standard_normal((7, 12)), dtype=dtype, requires_grad=True)
    target = lib.tensor(rng.integers(0, 20, size=7))
    out = asm(x, target)
    seen += [type(out).__name__, out._fields, repr(out), _bits(out.output), _bits(out.loss)]
    out.loss.backward()
    seen += [_bits(x.grad)] + [(name, _bits(p.grad)) for name, p in asm.named_parameters()]
    with lib.no_grad():
        seen += [_bits(asm.log_prob(x)), repr(asm.predict(x)), repr(asm.predict(x[:1])),
                 repr(asm(x[0], target[0]))]
        # predict's branch where the head picks a cluster for every example
        asm.head.weight[:4] = -5.0
        seen.append(repr(asm.predict(x)))
    return seen


@pytest.mark.parametrize("seed, dtype_name, head_bias", [
    (0, "float32", False), (1, "float32", True), (2, "float64", False)])
def test_adaptive_log_softmax_matches_torch(torch: Any, seed: int, dtype_name: str,
                                            head_bias: bool) -> None:
    assert _run(gtorch, seed, dtype_name, head_bias) == _run(torch, seed, dtype_name, head_bias)


def _errors(lib: Any) -> list[str]:
    seen = []
    asm = lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3])
    for action in (lambda: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 3]),
                   lambda: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[]),
                   lambda: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[10]),
                   lambda: asm(lib.zeros(2, 8), lib.tensor([0, 10])),
                   lambda: asm(lib.zeros(3, 8), lib.tensor([0, 1])),
                   lambda: asm(lib.zeros(2, 2, 8), lib.tensor([0, 1])),
                   lambda: asm(lib.zeros(2, 8), lib.tensor(1)),
                   lambda: asm(lib.zeros(2, 8), lib.zeros(2, 2, dtype=lib.int64))):
        try:
            action()
            seen.append("no error")
        except Exception as error:  # noqa: BLE001  (the error is what is compared)
            seen.append(f"{type(error).__name__}: {error}")
    return seen


def test_adaptive_log_softmax_errors_match_torch(torch: Any) -> None:
    assert _errors(gtorch) == _errors(torch)
