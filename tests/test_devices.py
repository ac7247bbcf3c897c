"""Devices: cuda:0 simulated on NumPy (--sim-cuda), on CuPy, and the rules PyTorch keeps.

Three layers, one file:

- the device rules, under `--sim-cuda` and under the CuPy path alike: leaves and
  ToCopyBackward0, gradients that come back across copies, PyTorch's mixed-device errors (the
  TensorIterator text and the per-argument text of mm, bmm, dot, addmv, cat, nll_loss), the CPU
  scalar exception, seeded random numbers equal on every device, the error without a device;
- the CuPy path in CI, where there is no GPU: tests/fake_cupy.py stands in for CuPy (a device
  array NumPy refuses to read implicitly). The whole op table of tests/test_gradients.py runs on
  cuda:0 and on cpu from the same inputs: values, grad_fn names and gradients agree, every
  result is a device array, and no operation copied an array across (`implicit_copies`);
  finite differences check the gradients through `.cuda()` / `.cpu()` copies;
- `gpu` tests: the same checks with the real CuPy on a real GPU, compared with NumPy by
  tolerance, skipped with the reason where there is no CuPy or no GPU.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fake_cupy
import numpy as np
import pytest
from gradcheck import check_grads, graph_signature
from test_gradients import (
    OP_TABLE,
    SECOND_ORDER,
    SECOND_ORDER_LINALG,
    Case,
    _first,
    _inputs,
)

from gradsh.engine import backend, ops
from gradsh.engine.exceptions import TorchError
from gradsh.engine.tensor import Tensor

ROOT = Path(__file__).resolve().parent.parent
MIXED = "Expected all tensors to be on the same device, but found at least two devices, " \
        "cuda:0 and cpu!"


@contextmanager
def default_device(device: str) -> Iterator[None]:
    previous = ops.DefaultDevice.value
    ops.DefaultDevice.value = device
    try:
        yield
    finally:
        ops.DefaultDevice.value = previous


@pytest.fixture
def sim_cuda() -> Iterator[None]:
    backend.enable_sim_cuda()
    try:
        yield
    finally:
        backend.disable_sim_cuda()


@contextlib.contextmanager
def _cupy_as(module: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The backend imports `module` as `cupy` for the duration."""
    monkeypatch.setitem(sys.modules, "cupy", module)
    backend.reset()
    try:
        yield module
    finally:
        backend.reset()


@pytest.fixture
def fake_cuda(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """cuda:0 on tests/fake_cupy.py, imported by the backend as `cupy`."""
    with _cupy_as(fake_cupy.module, monkeypatch) as module:
        yield module


def _real_cupy() -> Any:
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed (pip install 'gradsh[cuda]' on a machine with an "
                    "NVIDIA GPU)")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001  (no driver, no device ...)
        pytest.skip(f"no usable GPU: {error}")
    if count < 1:
        pytest.skip("no GPU")
    return cupy


@pytest.fixture(params=["fake", pytest.param("gpu", marks=pytest.mark.gpu)])
def cuda_arrays(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
                ) -> Iterator[Any]:
    """The module computing for cuda:0: the stand-in in CI, the real CuPy on a GPU."""
    module = fake_cupy.module if request.param == "fake" else _real_cupy()
    with _cupy_as(module, monkeypatch):
        yield module


@pytest.fixture(params=["sim", "fake"])
def cuda_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """cuda:0 simulated on NumPy, or through the CuPy path (the stand-in): the rules are one."""
    if request.param == "sim":
        backend.enable_sim_cuda()
    else:
        monkeypatch.setitem(sys.modules, "cupy", fake_cupy.module)
        backend.reset()
    try:
        yield request.param
    finally:
        backend.disable_sim_cuda()
        backend.reset()


def error_of(f: Callable[[], Any]) -> tuple[str, str]:
    with pytest.raises(TorchError) as caught:
        f()
    return caught.value.kind, caught.value.message


# ---------------------------------------------------------------------------------------------
# Without a device
# ---------------------------------------------------------------------------------------------


def test_cuda_without_cupy_names_both_remedies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    backend.reset()
    try:
        kind, message = error_of(lambda: ops.ones(2).cuda())
        assert kind == "RuntimeError"
        assert message == (
            "CUDA is not available (CuPy is not installed): install CuPy on a machine with an "
            "NVIDIA GPU (pip install 'gradsh[cuda]'), or run gradsh with --sim-cuda (or "
            "GRADSH_SIM_CUDA=1) to simulate cuda:0 on the CPU"
        )
        for make in (lambda: ops.zeros(2, device="cuda"), lambda: ops.ones(2).to("cuda"),
                     lambda: ops.DeviceHooks.check("cuda:0")):
            assert error_of(make) == (kind, message)
        assert ops.ones(2).cpu().device == "cpu"  # the CPU never needs CuPy
    finally:
        backend.reset()


def test_cupy_without_a_gpu_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoDriver(Exception):
        pass

    def no_device() -> int:
        raise NoDriver("cudaErrorInsufficientDriver: CUDA driver version is insufficient for "
                       "CUDA runtime version")

    broken = fake_cupy.FakeCupyModule("cupy")
    broken.cuda = type("cuda", (), {"runtime": type("runtime", (), {
        "getDeviceCount": staticmethod(no_device)})})
    monkeypatch.setitem(sys.modules, "cupy", broken)
    backend.reset()
    try:
        _, message = error_of(lambda: ops.rand(2, device="cuda"))
        assert message.startswith("CUDA is not available (CuPy found no usable GPU: "
                                  "cudaErrorInsufficientDriver")
        assert "pip install 'gradsh[cuda]'" in message and "--sim-cuda" in message
        assert not backend.cuda_available()
    finally:
        backend.reset()


def test_the_command_line_says_so_and_exits_2_or_1(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRADSH_SIM_CUDA"}
    script = tmp_path / "t.grad"
    script.write_text("x = rand(2).cuda()\n")
    ran = subprocess.run([sys.executable, "-m", "gradsh", str(script)], capture_output=True,
                         text=True, env=env, timeout=120)
    if "CuPy is not installed" not in ran.stdout + ran.stderr:
        pytest.skip("CuPy is installed here: cuda may well be usable")
    assert ran.returncode == 1
    assert "--sim-cuda" in ran.stderr and "gradsh[cuda]" in ran.stderr
    usage = subprocess.run([sys.executable, "-m", "gradsh", "--device", "cuda", str(script)],
                           capture_output=True, text=True, env=env, timeout=120)
    assert usage.returncode == 2 and "--sim-cuda" in usage.stderr


def test_sim_cuda_from_the_environment_says_so_once(tmp_path: Path) -> None:
    script = tmp_path / "t.grad"
    script.write_text("x = rand(2).cuda()\ny = x.cpu().cuda()\nprint(y.device)\n")
    ran = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(script)],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "GRADSH_SIM_CUDA": "1"})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "cuda:0\n"
    assert ran.stderr.count(backend.SIM_CUDA_NOTICE) == 1


# ---------------------------------------------------------------------------------------------
# The device rules (simulated, and through the CuPy path)
# ---------------------------------------------------------------------------------------------


def test_leaf_rules_of_the_source_article(cuda_mode: str) -> None:
    b = ops.rand(10, requires_grad=True).cuda()
    assert not b.is_leaf and b.grad_fn.name() == "ToCopyBackward0" and b.device == "cuda:0"
    assert ops.rand(10).cuda().is_leaf
    e = ops.rand(10).cuda().requires_grad_()
    assert e.is_leaf and e.requires_grad
    f = ops.rand(10, requires_grad=True, device="cuda")
    assert f.is_leaf and f.device == "cuda:0" and f.is_cuda
    assert b.cuda() is b and b.to("cuda:0") is b  # already there: no copy, no node
    assert b.cpu().grad_fn.name() == "ToCopyBackward0"
    assert repr(f).endswith("device='cuda:0', requires_grad=True)")
    assert f.type() == "torch.cuda.FloatTensor"


def test_gradients_come_back_across_copies(cuda_mode: str) -> None:
    x = ops.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x.cuda() * x.cuda().double()).sum().backward()
    assert x.grad.device == "cpu" and x.grad.dtype is ops.float32
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    w = ops.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    (w.cpu() ** 2).sum().backward()
    assert w.grad.device == "cuda:0" and w.grad.tolist() == [2.0, 4.0]


def test_second_derivatives_across_copies(cuda_mode: str) -> None:
    x = ops.tensor([1.0, -2.0], requires_grad=True)
    (g,) = ops.grad((x.cuda() ** 3).sum(), x, create_graph=True)
    assert g.device == "cpu" and g.grad_fn.name() == "ToCopyBackward0"
    assert g.tolist() == [3.0, 12.0]
    g.sum().backward()
    assert x.grad.tolist() == [6.0, -12.0]


def test_a_cpu_scalar_joins_a_cuda_op_and_gets_its_gradient_on_the_cpu(cuda_mode: str) -> None:
    w = ops.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    s = ops.tensor(3.0, requires_grad=True)
    y = w * s
    assert y.device == "cuda:0"
    assert (s * w).device == "cuda:0"
    assert ops.where(w > 1, ops.tensor(1.0), ops.tensor(0.0)).device == "cuda:0"
    y.sum().backward()
    assert s.grad.device == "cpu" and s.grad.item() == 3.0
    assert w.grad.device == "cuda:0" and w.grad.tolist() == [3.0, 3.0]


def test_copy_between_devices_is_allowed_and_differentiable(cuda_mode: str) -> None:
    src = ops.tensor([1.0, 2.0], requires_grad=True)
    dst = ops.zeros(2, device="cuda")
    dst.copy_(src * 2)
    assert dst.device == "cuda:0" and dst.grad_fn.name() == "CopyBackwards"
    dst.sum().backward()
    assert src.grad.device == "cpu" and src.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("expression, message", [
    # TensorIterator ops: the common device is the first that is not the CPU, either order
    ("g + c", MIXED),
    ("c + g", MIXED),
    ("c * g.t()", MIXED),
    ("ops.maximum(c, g)", MIXED),
    ("ops.where(g > 0, c, g)", MIXED),
    ("ops.mse_loss(g, c)", MIXED),
    # kernels whose generated wrapper checks argument by argument, in order
    ("g @ c", "but got mat2 is on cpu, different from other tensors on cuda:0 (when checking "
              "argument in method wrapper_CUDA_mm)"),
    ("c @ g", "but got mat2 is on cuda:0, different from other tensors on cpu (when checking "
              "argument in method wrapper_CUDA_mm)"),
    ("gv @ cv", "but got tensor is on cpu, different from other tensors on cuda:0 (when "
                "checking argument in method wrapper_CUDA__dot)"),
    # mv is addmv_ into a result made on the vector's device
    ("g @ cv", "but got mat is on cuda:0, different from other tensors on cpu (when checking "
               "argument in method wrapper_CUDA_addmv_)"),
    ("c @ gv", "but got mat is on cpu, different from other tensors on cuda:0 (when checking "
               "argument in method wrapper_CUDA_addmv_)"),
    ("cv @ g", "but got mat2 is on cuda:0, different from other tensors on cpu (when checking "
               "argument in method wrapper_CUDA_mm)"),
    ("ops.bmm(g[None], c[None])", "but got mat2 is on cpu, different from other tensors on "
                                  "cuda:0 (when checking argument in method wrapper_CUDA_bmm)"),
    ("ops.cat([c, g])", "but got tensors is on cuda:0, different from other tensors on cpu "
                        "(when checking argument in method wrapper_CUDA_cat)"),
    ("ops.stack([g, c])", "but got tensors is on cpu, different from other tensors on cuda:0 "
                          "(when checking argument in method wrapper_CUDA_cat)"),
    ("ops.nll_loss(g, ops.tensor([0, 1]))",
     "but got target is on cpu, different from other tensors on cuda:0 (when checking "
     "argument in method wrapper_CUDA_nll_loss_forward)"),
])
def test_mixed_device_errors(cuda_mode: str, expression: str, message: str) -> None:
    g = ops.ones(2, 2).cuda()
    c = ops.ones(2, 2)
    gv, cv = ops.ones(2).cuda(), ops.ones(2)
    kind, got = error_of(lambda: eval(expression, {"ops": ops, "g": g, "c": c, "gv": gv,
                                                   "cv": cv}))
    assert kind == "RuntimeError"
    if message != MIXED:
        message = "Expected all tensors to be on the same device, " + message
    assert got == message


def test_other_device_errors(cuda_mode: str) -> None:
    g, c = ops.ones(3).cuda(), ops.ones(3)
    assert error_of(lambda: c[ops.tensor([0, 1]).cuda()]) == (
        "IndexError", "indices should be either on cpu or on the same device as the indexed "
                      "tensor (cpu)")
    assert g[ops.tensor([0, 2])].device == "cuda:0"  # CPU indices may index a cuda tensor
    assert g[[0, 2]].device == "cuda:0"
    assert error_of(lambda: ops.masked_fill(g, c > 0, 0.0)) == (
        "RuntimeError", "expected self and mask to be on the same device, but got mask on cpu "
                        "and self on cuda:0")
    assert error_of(lambda: g.numpy()) == (
        "TypeError", "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy "
                     "the tensor to host memory first.")
    leaf = ops.zeros(3, requires_grad=True)
    with pytest.raises(TorchError, match="assigned grad has data located on a different device"):
        leaf.grad = g
    assert error_of(lambda: ops.ones(2, device="cuda:1"))[1] == (
        "gradsh has one CUDA device, cuda:0; got cuda:1")


def test_seeded_random_numbers_are_the_same_on_every_device(cuda_mode: str) -> None:
    # Drawn on the host from the CPU generator, then copied (PyTorch's CUDA generator differs;
    # gradsh follows the CPU stream so that a seeded script reads the same everywhere).
    def draws(device: str) -> list[Any]:
        ops.manual_seed(7)
        return [ops.rand(4, device=device), ops.randn(2, 3, device=device),
                ops.randint(0, 9, (5,), device=device),
                ops.rand_like(ops.zeros(3, device=device))]

    for on_cpu, on_cuda in zip(draws("cpu"), draws("cuda"), strict=True):
        assert on_cuda.device == "cuda:0"
        assert ops.equal(on_cuda.cpu(), on_cpu)


def test_the_default_device(cuda_mode: str) -> None:
    with default_device("cuda:0"):
        made = [ops.zeros(2), ops.tensor([1.0]), ops.arange(3), ops.eye(2), ops.rand(2),
                ops.full((2,), 1.5), ops.linspace(0, 1, 3)]
        assert {t.device for t in made} == {"cuda:0"}
        assert ops.zeros(2, device="cpu").device == "cpu"
        assert ops.zeros_like(ops.ones(2, device="cpu")).device == "cpu"  # like its input


# ---------------------------------------------------------------------------------------------
# The op table on cuda:0 through the CuPy path: the stand-in in CI, the real CuPy on a GPU
# ---------------------------------------------------------------------------------------------


def _run(case: Case, device: str, dtype: Any) -> tuple[Any, list[Tensor]]:
    """The case's forward and backward at `device` from the table's inputs."""
    with default_device(device):
        leaves = [ops.tensor(a.tolist(), dtype=dtype, requires_grad=True) for a in _inputs(case)]
        out = case.f(ops, *leaves)
        first = _first(out)
        weights = np.random.default_rng(0).standard_normal(first.shape)
        first.backward(ops.tensor(weights.tolist(), dtype=first.dtype))
    return out, leaves


def _outputs(value: Any) -> list[Tensor]:
    return list(value) if isinstance(value, tuple) else [value]


def _host(t: Tensor) -> np.ndarray:
    return backend.to_host(t._data)


def _tolerances(module: Any, dtype: Any) -> tuple[float, float]:
    if module is fake_cupy.module:  # NumPy underneath: only summation orders differ
        return (1e-10, 1e-12) if dtype is ops.float64 else (1e-6, 1e-6)
    return (1e-9, 1e-11) if dtype is ops.float64 else (1e-4, 1e-5)  # a GPU's own kernels


@pytest.mark.parametrize("dtype", [ops.float64, ops.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", OP_TABLE, ids=str)
def test_op_table_on_cuda_matches_cpu(case: Case, dtype: Any, cuda_arrays: Any) -> None:
    rtol, atol = _tolerances(cuda_arrays, dtype)
    copies = backend.implicit_copies()
    cpu_out, cpu_leaves = _run(case, "cpu", dtype)
    cuda_out, cuda_leaves = _run(case, "cuda:0", dtype)
    for expected, got in zip(_outputs(cpu_out), _outputs(cuda_out), strict=True):
        assert got.device == "cuda:0"
        assert isinstance(got._data, cuda_arrays.ndarray), type(got._data)
        assert got.dtype is expected.dtype and got.shape == expected.shape
        assert graph_signature(got.grad_fn) == graph_signature(expected.grad_fn)
        np.testing.assert_allclose(_host(got), _host(expected), rtol=rtol, atol=atol)
    for i, (expected, got) in enumerate(zip(cpu_leaves, cuda_leaves, strict=True)):
        if expected.grad is None:
            assert got.grad is None
            continue
        assert got.grad.device == "cuda:0" and isinstance(got.grad._data, cuda_arrays.ndarray)
        np.testing.assert_allclose(_host(got.grad), _host(expected.grad), rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {i}")
    assert backend.implicit_copies() == copies, "an op computed on the wrong side of the bus"


def _through_cuda(f: Callable[..., Any]) -> Callable[..., Tensor]:
    """`f` computed on cuda:0 from CPU leaves: the gradient crosses .cuda() and .cpu()."""

    def on_cuda(*leaves: Tensor) -> Tensor:
        with default_device("cuda:0"):
            out = _first(f(ops, *[leaf.cuda() for leaf in leaves]))
        return out.cpu()

    return on_cuda


@pytest.mark.parametrize("case", [c for c in OP_TABLE if c.fd], ids=str)
def test_op_table_gradients_on_cuda_by_finite_differences(case: Case, cuda_arrays: Any) -> None:
    check_grads(_through_cuda(case.f), *_inputs(case))


@pytest.mark.parametrize("name, f, x", SECOND_ORDER + SECOND_ORDER_LINALG,
                         ids=[name for name, _, _ in SECOND_ORDER + SECOND_ORDER_LINALG])
def test_second_order_on_cuda_matches_cpu(name: str, f: Callable[..., Any], x: np.ndarray,
                                          cuda_arrays: Any) -> None:
    rtol, atol = _tolerances(cuda_arrays, ops.float32)
    results = {}
    for device in ("cpu", "cuda:0"):
        with default_device(device):
            t = ops.tensor(x.tolist(), requires_grad=True)
            y = f(ops, t)
            (g,) = ops.grad(y.sum() if y.dim() else y, t, create_graph=True)
            if g.requires_grad:  # not for a constant first derivative (x * 3)
                g.sum().backward()
        results[device] = (g, t.grad)
    (g_cpu, gg_cpu), (g_cuda, gg_cuda) = results["cpu"], results["cuda:0"]
    assert isinstance(g_cuda._data, cuda_arrays.ndarray)
    assert graph_signature(g_cuda.grad_fn) == graph_signature(g_cpu.grad_fn)
    np.testing.assert_allclose(_host(g_cuda), _host(g_cpu), rtol=rtol, atol=atol)
    if gg_cpu is None:
        assert gg_cuda is None
        return
    np.testing.assert_allclose(_host(gg_cuda), _host(gg_cpu), rtol=rtol, atol=atol)


SINGULAR = [[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]]  # one singular, one not
NOT_POSITIVE = [[[4.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 3.0]]]  # minor 2 fails first


LINALG_ON_CUDA: dict[str, Callable[..., Any]] = {
    "inv_ex": lambda m, a: tuple(m.inv_ex(a)),
    "solve_ex": lambda m, a: tuple(m.solve_ex(a, a.sum(-1))),
    "cholesky_ex": lambda m, a: tuple(m.cholesky_ex(a * m.tensor([[1.0, 1.0], [1.0, 0.5]]))),
    "det_singular": lambda m, a: m.det(a),
    "slogdet_singular": lambda m, a: tuple(m.linalg_slogdet(a)),
    "pinv_hermitian": lambda m, a: m.pinv(a, hermitian=True),
}


@pytest.mark.parametrize("name", LINALG_ON_CUDA)
def test_linalg_infos_and_singular_matrices_on_cuda(name: str, cuda_arrays: Any) -> None:
    """The ex variants' info tensors, singular and failed factorizations: on cuda:0 what they
    are on cpu, with gradients (det's at a singular matrix goes through the perturbed LU)."""
    values = NOT_POSITIVE if name == "cholesky_ex" else SINGULAR
    results = {}
    copies = backend.implicit_copies()
    for device in ("cpu", "cuda:0"):
        with default_device(device):
            a = ops.tensor(values, requires_grad=True)
            outputs = _outputs(LINALG_ON_CUDA[name](ops, a))
            floats = [t for t in outputs if t.dtype.is_floating_point]
            ops.stack([t.sum() for t in floats]).sum().backward()
        results[device] = (outputs, a.grad)
    (cpu_out, cpu_grad), (cuda_out, cuda_grad) = results["cpu"], results["cuda:0"]
    for expected, got in zip(cpu_out, cuda_out, strict=True):
        assert got.device == "cuda:0" and isinstance(got._data, cuda_arrays.ndarray)
        assert got.dtype is expected.dtype
        assert graph_signature(got.grad_fn) == graph_signature(expected.grad_fn)
        np.testing.assert_allclose(_host(got), _host(expected), rtol=1e-6, atol=1e-6)
    assert isinstance(cuda_grad._data, cuda_arrays.ndarray)
    np.testing.assert_allclose(_host(cuda_grad), _host(cpu_grad), rtol=1e-6, atol=1e-6)
    assert backend.implicit_copies() == copies


@pytest.mark.parametrize("expression", [
    "ops.linalg_inv(a)", "ops.linalg_solve(a, a)", "ops.linalg_cholesky(a - 3)",
    "ops.cholesky_ex(a - 3, check_errors=True)", "ops.inv_ex(a, check_errors=True)",
])
def test_linalg_errors_on_cuda_are_the_cpus(expression: str, cuda_arrays: Any) -> None:
    errors = {}
    for device in ("cpu", "cuda:0"):
        with default_device(device):
            a = ops.tensor(SINGULAR)
            errors[device] = error_of(lambda: eval(expression, {"ops": ops, "a": a}))
    assert errors["cuda:0"] == errors["cpu"]
    assert "(Batch element 0)" in errors["cpu"][1]


def test_only_explicit_copies_cross(fake_cuda: Any) -> None:
    """The stand-in counts its transfers: a forward and backward on cuda:0 copy nothing."""
    x = ops.rand(1000, device="cuda", requires_grad=True)
    w = ops.rand(1000, 10, device="cuda", requires_grad=True)
    before = dict(fake_cuda.transfers)
    loss = ((x.sin() * 2 + 1) @ w).relu().mean()
    loss.backward()
    assert fake_cuda.transfers == before
    assert isinstance(x.grad._data, fake_cuda.ndarray)


def test_the_fake_refuses_what_cupy_refuses(fake_cuda: Any) -> None:
    device_array = fake_cuda.asarray(np.ones(3))
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(device_array)
    with pytest.raises(TypeError, match="Unsupported type"):
        fake_cuda.add(device_array, np.ones(3))
    with pytest.raises(TypeError, match="Unsupported type"):
        device_array + np.ones(3)
    assert isinstance(np.exp(device_array), fake_cuda.ndarray)  # NumPy dispatches to CuPy
    assert isinstance(device_array.sum(), fake_cuda.ndarray)  # 0-d arrays, not NumPy scalars
    assert not hasattr(fake_cuda, "errstate")


# ---------------------------------------------------------------------------------------------
# Scripts: the simulated goldens read the same through the CuPy path
# ---------------------------------------------------------------------------------------------

CUDA_SCRIPTS = sorted(p for p in (ROOT / "scripts").glob("*.grad")
                      if "--sim-cuda" in p.read_text().splitlines()[0])


def test_there_are_device_walkthroughs() -> None:
    assert {p.name for p in CUDA_SCRIPTS} >= {"seed002_is_leaf_cuda.grad", "devices.grad"}


@pytest.mark.parametrize("script", CUDA_SCRIPTS, ids=lambda p: p.name)
def test_device_scripts_read_the_same_on_the_cupy_path(script: Path, cuda_arrays: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from gradsh import golden

    # the header still asks for --sim-cuda (and the notice is printed), but nothing simulates
    monkeypatch.setattr(backend, "enable_sim_cuda", lambda: None)
    output, _ = golden.run_script(script)
    assert output == golden.read_golden(golden.golden_path(script))


# ---------------------------------------------------------------------------------------------
# The benchmark runs everywhere: "no GPU" rows without one
# ---------------------------------------------------------------------------------------------


def _benchmark() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_devices",
                                                  ROOT / "benchmarks" / "devices.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_says_no_gpu_without_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)
    backend.reset()
    try:
        rows = _benchmark().run(size=1000, matmul=8, repeat=1)
    finally:
        backend.reset()
    assert [(r["case"], r["device"]) for r in rows] == [
        ("elementwise chain", "cpu"), ("elementwise chain", "cuda"), ("matmul", "cpu"),
        ("matmul", "cuda")]
    assert all(r["forward_ms"] > 0 and r["backward_ms"] > 0 for r in rows[::2])
    assert all(r["note"] == "no GPU (CuPy is not installed)" for r in rows[1::2])


def test_the_benchmark_times_cuda_where_there_is_one(cuda_arrays: Any,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bench = _benchmark()
    rows = bench.run(size=1000, matmul=8, repeat=1)
    assert all(r["speedup"] is not None and r["note"] == "" for r in rows[1::2])
    assert bench.main(["--size", "100", "--matmul", "4", "--repeat", "1"]) == 0
    assert "elementwise chain  cuda" in capsys.readouterr().out


def test_cuda_stream_and_event_classes_on_a_cpu_build(torch: Any) -> None:
    """torch.cuda.Stream and Event exist without CUDA (annotations name them), and making one
    fails as on PyTorch's CPU build."""
    import gradsh.torch as gt

    if gt.cuda.is_available():
        pytest.skip("a CUDA device (or --sim-cuda) is on here")

    def outcome(lib: Any) -> list[str]:
        seen = [repr(lib.cuda.Stream), repr(lib.cuda.Event)]
        for make in (lib.cuda.Stream, lib.cuda.Event):
            with pytest.raises(RuntimeError) as caught:
                make()
            seen.append(str(caught.value))
        return seen

    assert outcome(gt) == outcome(torch)
