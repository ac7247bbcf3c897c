"""The snippets in tests/snippets: what a learner types, each of which once printed something
else under gradsh than under PyTorch. `gradsh run --quiet NAME.py` must print (stdout, then
stderr) exactly NAME.torch.out, real torch's output recorded by
`python tests/snippets/compare.py --record`; a slow test checks the recordings are still torch's.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from gradsh.engine.vecmath import blas

_HERE = Path(__file__).resolve().parent / "snippets"
_spec = importlib.util.spec_from_file_location("gradsh_test_snippets_compare",
                                               _HERE / "compare.py")
assert _spec is not None and _spec.loader is not None
compare = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = compare
_spec.loader.exec_module(compare)

SNIPPETS = compare.snippets([str(_HERE)])


def test_every_snippet_has_a_recording() -> None:
    assert len(SNIPPETS) >= 6
    for path in SNIPPETS:
        assert path.with_suffix(".torch.out").exists(), f"{path.name}: run compare.py --record"


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: p.stem)
def test_snippet_prints_what_torch_prints(path: Path) -> None:
    """The recording, or where torch on this machine prints something else (the recordings
    were made on an Intel CPU, and MKL's results differ by vendor), what it prints here."""
    expected = path.with_suffix(".torch.out").read_text(encoding="utf-8")
    ours = compare.under_gradsh(path)
    if ours != expected and importlib.util.find_spec("torch") is not None:
        expected = compare.under_torch(path)
    assert ours == expected


@pytest.mark.slow
@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: p.stem)
def test_recording_is_torchs(torch: Any, path: Path) -> None:
    here = compare.under_torch(path)
    if here != path.with_suffix(".torch.out").read_text(encoding="utf-8"):
        if not blas.genuine_intel():
            pytest.skip("recorded on an Intel CPU; MKL gives other bits on this one (the "
                        "test above compares gradsh with torch here)")
        pytest.fail(f"torch's output changed: re-record {path.name} (compare.py --record)")
