"""The ops PyTorch's CPU kernels compute on float16 in float32 (at::opmath_type<Half>): the
float16 inputs widened, the result rounded to float16 once (Function.apply's
`_apply_in_float32`). Computed step by step in float16 instead, sigmoid(x) differed from
PyTorch's on 11071 of the 63488 finite float16 inputs, rsqrt on 8402, gelu on 10929,
softmax on half the entries of a random batch."""

from __future__ import annotations

from gradsh.engine.tensor import Function

__all__: list[str] = []

_WIDENED = frozenset("""
ExpBackward0 Exp2Backward0 Expm1Backward0 LogBackward0 Log2Backward0 Log10Backward0
Log1pBackward0 SqrtBackward0 RsqrtBackward0 SinBackward0 CosBackward0 TanBackward0
TanhBackward0 SigmoidBackward0 AsinBackward0 AcosBackward0 AtanBackward0 SinhBackward0
CoshBackward0 ErfBackward0 ReciprocalBackward0 LogitBackward0
GeluBackward0 SiluBackward0 MishBackward0 SoftplusBackward0 EluBackward0 CeluBackward0
HardswishBackward0 HardsigmoidBackward0 LogSigmoidBackward0 LeakyReluBackward0
SoftmaxBackward0 LogSoftmaxBackward0
MeanBackward0 MeanBackward1 StdBackward0 VarBackward0
LinalgVectorNormBackward0 CumsumBackward0 CumprodBackward0
""".split())


def mark_widened_ops() -> None:
    """Flag every Function class whose grad_fn name is listed (all modules loaded first)."""
    pending = list(Function.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__dict__.get("node_name", None) in _WIDENED:
            cls.half_opmath = True
