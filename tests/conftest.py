"""Shared fixtures: PyTorch as the oracle, required in CI and optional elsewhere."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from gradsh.engine.vecmath import native

# Hypothesis profiles: "ci" (the default, bounded so the suite stays fast) and "long" for a
# deeper fuzzing run: `pytest -m fuzz --hypothesis-profile long`.
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("long", max_examples=5000, deadline=None, suppress_health_check=_QUIET)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def torch():
    """The torch module, for parity tests.

    On a user's machine without torch the test is skipped with a reason; in CI
    (GRADSH_REQUIRE_TORCH=1, set by .ci/run) a missing torch is a failure, so parity tests can
    never be skipped silently there.
    """
    try:
        import torch as torch_module
    except ImportError:
        if os.environ.get("GRADSH_REQUIRE_TORCH"):
            pytest.fail("GRADSH_REQUIRE_TORCH is set but torch cannot be imported")
        pytest.skip("PyTorch is not installed (pip install torch==2.13.0 to run parity tests)")
    return torch_module


@pytest.fixture(params=["c", "python"])
def engine_path(request: pytest.FixtureRequest) -> Iterator[str]:
    """The engine's per-operation path: the C fast path (gradsh/engine/_fastpath.c) and the
    Python code it stands for, which must behave the same (skipped where the C one is not
    built)."""
    from gradsh.engine import fastpath

    if request.param == "c" and fastpath.extension is None:
        pytest.skip("the C fast path is not built (or GRADSH_NATIVE=0)")
    before = fastpath.enable(request.param == "c")
    yield request.param
    fastpath.enable(before)


@contextlib.contextmanager
def pinned_threads(torch: Any, count: int) -> Iterator[None]:
    """PyTorch and gradsh both at `count` intra-op threads (MKL, oneDNN and ATen's loops split
    work among threads, which changes their bits), restored after."""
    from gradsh.engine import threads

    previous, ours = torch.get_num_threads(), threads.torch_threads()
    torch.set_num_threads(count)
    threads.set_torch_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
        threads.set_torch_threads(ours)


@pytest.fixture
def one_thread(torch: Any) -> Iterator[None]:
    """PyTorch and gradsh at one intra-op thread for the test."""
    with pinned_threads(torch, 1):
        yield


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def thread_count(torch: Any, request: Any) -> Iterator[int]:
    """Runs a test with PyTorch and gradsh both set to 1, then 2 intra-op threads (a test may
    parametrize `thread_count` indirectly with other counts)."""
    with pinned_threads(torch, request.param):
        yield request.param


def _required(variable: str, what: str, remedy: str) -> None:
    """Skip with a reason where `what` is missing; fail where CI (`variable`=1) requires it."""
    if os.environ.get(variable):
        pytest.fail(f"{variable} is set but {what} is missing")
    pytest.skip(f"{what} is not installed ({remedy})")


@pytest.fixture(scope="session")
def jupyter():
    """nbclient and nbformat, with ipykernel for the kernels, for notebook tests: skipped with
    a reason without them; a failure in CI (GRADSH_REQUIRE_JUPYTER=1, set by .ci/run)."""
    try:
        import ipykernel  # noqa: F401
        import nbclient  # noqa: F401
        import nbformat
    except ImportError:
        _required("GRADSH_REQUIRE_JUPYTER", "Jupyter (ipykernel, nbclient, nbformat)",
                  "pip install '.[test]' installs it")
    return nbformat


@pytest.fixture(scope="session")
def graphviz_dot() -> str:
    """The path of Graphviz's `dot`, for tests of SVG pictures: skipped with a reason without
    it; a failure in CI (GRADSH_REQUIRE_DOT=1, set by .ci/run, which installs Graphviz)."""
    import shutil

    path = shutil.which("dot")
    if path is None:
        _required("GRADSH_REQUIRE_DOT", "Graphviz's dot program",
                  "apt-get install graphviz, brew install graphviz")
    return str(path)


@pytest.fixture(scope="module")
def kernels() -> Iterator[object]:
    """The extension module; skipped where it was not built, a failure where CI requires it
    (GRADSH_REQUIRE_NATIVE=1: .ci/run sets it when a C compiler is present)."""
    if native.kernels is None:
        if os.environ.get("GRADSH_REQUIRE_NATIVE"):
            pytest.fail("GRADSH_REQUIRE_NATIVE is set but gradsh's _native extension is missing")
        pytest.skip("gradsh's compiled kernels are not built (a C compiler at install builds them)")
    level = native.kernels.level()
    yield native.kernels
    native.kernels.use(level)
