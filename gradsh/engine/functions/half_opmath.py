"""The ops PyTorch's CPU kernels compute on float16 and bfloat16 in float32
(at::opmath_type<Half>, <BFloat16>): the inputs widened, the result rounded to float16
(bfloat16) once (Function.apply's `_apply_in_float32`). Computed step by step in float16
instead, sigmoid(x) differed from PyTorch's on 11071 of the 63488 finite float16 inputs, rsqrt
on 8402, gelu on 10929, softmax on half the entries of a random batch. Single-step ops (add,
mul, ...) need no listing: NumPy's float16 loops and ml_dtypes' bfloat16 ones compute in float32
and round, as ATen's do."""

from __future__ import annotations

from gradsh.engine.dtypes import BF16_NP, REDUCED_FLOAT_NP
from gradsh.engine.tensor import Function

__all__: list[str] = []

_WIDENED = frozenset("""
ExpBackward0 Exp2Backward0 Expm1Backward0 LogBackward0 Log2Backward0 Log10Backward0
Log1pBackward0 SqrtBackward0 RsqrtBackward0 SinBackward0 CosBackward0 TanBackward0
TanhBackward0 SigmoidBackward0 AsinBackward0 AcosBackward0 AtanBackward0 SinhBackward0
CoshBackward0 ErfBackward0 ReciprocalBackward0 LogitBackward0
GeluBackward0 SiluBackward0 MishBackward0 SoftplusBackward0 EluBackward0 CeluBackward0
HardswishBackward0 HardsigmoidBackward0 LogSigmoidBackward0 LeakyReluBackward0
SoftmaxBackward0
MeanBackward0 MeanBackward1 StdBackward0 VarBackward0
LinalgVectorNormBackward0 CumsumBackward0 CumprodBackward0
""".split())

# bfloat16 only: matrix products, which PyTorch runs through oneDNN (float32 accumulation, one
# rounding); ml_dtypes' bfloat16 matmul returns float32. (float16 keeps NumPy's own loops.)
_WIDENED_BF16 = frozenset("""
MmBackward0 MvBackward0 DotBackward0 BmmBackward0 AddmmBackward0
""".split())


def mark_widened_ops() -> None:
    """Flag every Function class whose grad_fn name is listed (all modules loaded first)."""
    pending = list(Function.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        name = cls.__dict__.get("node_name", None)
        if name in _WIDENED:
            cls.half_opmath, cls.opmath_dtypes = True, REDUCED_FLOAT_NP
        elif name in _WIDENED_BF16:
            cls.half_opmath, cls.opmath_dtypes = True, frozenset((BF16_NP,))
