"""The questions programs ask torch about the build and the dtypes before they start (which
backends it has, which devices, what a dtype is), answered as PyTorch 2.13's CPU wheel does."""

from __future__ import annotations

from typing import Any

import pytest

import gradsh.torch as gtorch

QUERIES = [
    "t.backends.mkl.is_available()",
    "t.backends.openmp.is_available()",
    "t.backends.mkldnn.is_available()",
    "t.backends.mps.is_available()",
    # the flags PyTorch's "Numerical accuracy" note names
    "(t.backends.cuda.matmul.allow_tf32, t.backends.cudnn.allow_tf32)",
    "t.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "t.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
    "t.backends.cuda.matmul.allow_fp16_accumulation",
    "t.cuda.is_available()",
    "t.xpu.is_available()",
    "t.xpu.device_count()",
    "t.mps.device_count()",
    "t.is_storage(t.ones(2).untyped_storage())",
    "t.is_storage(t.ones(2))",
    "t.is_storage([1.0])",
    "[d.is_signed for d in (t.bool, t.uint8, t.int8, t.int16, t.int32, t.int64, t.float16,"
    " t.bfloat16, t.float32, t.float64)]",
    "[d.is_complex for d in (t.bool, t.uint8, t.int64, t.float16, t.float32, t.float64)]",
]


@pytest.fixture
def no_simulated_cuda() -> Any:
    """The answers of a plain CPU run: a test that ran gradsh's CLI in this process with
    --sim-cuda may have left the simulated cuda:0 on."""
    from gradsh.engine import backend

    was = backend.sim_cuda_enabled()
    backend.disable_sim_cuda()
    try:
        yield
    finally:
        if was:
            backend.enable_sim_cuda()


@pytest.mark.parametrize("expression", QUERIES)
def test_query_answers_as_torch(torch: Any, no_simulated_cuda: None, expression: str) -> None:
    assert eval(expression, {"t": gtorch}) == eval(expression, {"t": torch})  # noqa: S307


def test_submodules_import_as_torchs(torch: Any) -> None:
    """`import torch.xpu` / `import torch.mps` work and give the same answers."""
    import importlib

    for name in ("xpu", "mps"):
        module = importlib.import_module(f"gradsh.torch.{name}")
        assert getattr(gtorch, name) is module
        assert module.device_count() == getattr(torch, name).device_count()
