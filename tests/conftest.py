"""Shared fixtures: PyTorch as the oracle, required in CI and optional elsewhere."""

from __future__ import annotations

import os

import pytest


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
