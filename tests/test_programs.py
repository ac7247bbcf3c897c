"""The corpus in tests/programs: PyTorch programs whose stdout under gradsh must equal torch's.

Each `tests/programs/NAME.py` has `NAME.torch.out`, its stdout under real PyTorch 2.13
(recorded by tests/programs/record.py; see tests/programs/corpus.py for the environment and
the masking of object addresses). Two checks:

* with torch installed, the recordings are still what torch prints (one test, marked slow:
  all programs run in one subprocess that imports torch once and forks per program);
* `python -m gradsh run --quiet NAME.py` prints exactly the recording. Programs gradsh does
  not pass yet are listed in tests/programs/EXPECTED_FAILURES.txt and are xfail(strict=True):
  when one starts passing, the suite fails until its line is removed.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from gradsh.engine.vecmath import blas, mkl, native

_PROGRAMS = Path(__file__).resolve().parent / "programs"


def _load(stem: str):
    """Import tests/programs/STEM.py (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"gradsh_test_corpus_{stem}",
                                                  _PROGRAMS / f"{stem}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


corpus = _load("corpus")

NAMES = corpus.program_names()
EXPECTED = corpus.expected_failures()
RECORDED = "torch 2.13 (recorded)"
# Programs whose float32 products are MKL's only through MKL itself (vecmath/blas.py) or the
# compiled kernels (vecmath/_native.c): the NumPy emulation's time bound leaves them to NumPy's
# matmul, so with neither they drift.
NEEDS_NATIVE_OR_MKL = {"ex_mnist_rnn", "tut_basics_optimization", "tut_two_layer_net_autograd",
                       "tut_two_layer_net_custom_function", "tut_two_layer_net_module"}
# convolutions over the NumPy emulation's bound (oneDNN's chains, vecmath/conv.py)
NEEDS_NATIVE = {"ex_mnist", "ex_mnist_2018"}


def test_corpus_is_complete() -> None:
    """Every program has a source header and a recording; the failure list names programs."""
    assert len(NAMES) >= 40
    for name in NAMES:
        head = (corpus.HERE / f"{name}.py").read_text(encoding="utf-8")[:2000]
        assert re.search(r"^# (Corpus program|Source)", head, re.M), f"{name}.py: no header"
        assert corpus.recording(name).exists(), f"{name}: run tests/programs/record.py"
    stale = sorted(set(EXPECTED) - set(NAMES))
    assert not stale, f"EXPECTED_FAILURES.txt names programs that do not exist: {stale}"
    orphans = sorted(p.name for p in corpus.HERE.glob("*.torch.out")
                     if p.name.removesuffix(".torch.out") not in NAMES)
    assert not orphans, f"recordings without a program: {orphans}"
    for path in corpus.HERE.glob("*.torch.*.out"):
        name, kind = path.name.removesuffix(".out").split(".torch.")
        assert name in NAMES and kind in ("intel", "amd"), f"{path.name}: not a CPU variant"
        assert path.read_bytes() != corpus.recording(name).read_bytes(), (
            f"{path.name} is {name}.torch.out: delete it")
    assert all(EXPECTED.values()), "every EXPECTED_FAILURES.txt line needs a reason"


def test_features_md_is_current() -> None:
    """FEATURES.md is what tests/programs/features.py generates from the programs today."""
    features = _load("features")
    while str(_PROGRAMS) in sys.path:  # features.py puts its folder on sys.path to import corpus
        sys.path.remove(str(_PROGRAMS))
    current = features.OUTPUT.read_text(encoding="utf-8")
    assert current == features.render(), "run python tests/programs/features.py"


@pytest.mark.slow
def test_recordings_match_torch(torch) -> None:
    """Each NAME.torch.out (or this CPU vendor's NAME.torch.KIND.out) is still exactly what
    real torch prints for NAME.py here. It checks the recordings rather than gradsh, and runs
    every program under torch (a few minutes of CPU): CI runs it with the slow tests."""
    results = corpus.run_under_torch(NAMES)
    problems = []
    for name in NAMES:
        code, out, err = results[name]
        kept = corpus.recording_here(name)
        expected = kept.read_text(encoding="utf-8")
        if code != 0:
            problems.append(f"{name}: exit {code} under torch\n{err[-1500:]}")
        elif out != expected and corpus.cpu_kind() is not None:  # (MKL's bits differ by
            # vendor: where there is no recording for this one, test_gradsh_matches_torch
            # compares with torch here)
            problems.append(f"{name}: torch's output is not {kept.name} (re-record with "
                            f"tests/programs/record.py {name}, or where it differs only on "
                            f"this CPU's vendor, record.py --cpu-variant {name})\n"
                            + corpus.diff(expected, out, RECORDED, "torch now"))
    assert not problems, "\n\n".join(problems)


# float32 sin / tanh / exp that torch computes in MKL's VML (vecmath/mkl.py), amplified by
# training into printed digits: these print the recording only where the `mkl` package (2024.2,
# the library PyTorch links) is loaded; the emulation's correctly rounded values differ.
# tut_polynomial_*: sin of the target; tut_dynamic_net: sin of the data; docs_optim_schedulers
# and mk_makemore_mlp: tanh in the model; tut_nn_tutorial: exp in a hand-written log_softmax;
# ex_vae: exp in reparameterize.
NEEDS_MKL = {"docs_optim_schedulers", "ex_vae", "mk_makemore_mlp", "tut_dynamic_net",
             "tut_nn_tutorial", "tut_polynomial_autograd", "tut_polynomial_custom_function",
             "tut_polynomial_nn", "tut_polynomial_optim", "tut_polynomial_tensor"}
# Without MKL, ex_vae still prints the recording when the compiled kernels are absent too: its
# products over the emulation's bound then take NumPy's order, which happens to agree.
PASSES_WITHOUT_NATIVE = {"ex_vae"}


def _gradsh_param(name: str):
    reasons = []
    if name in EXPECTED:
        reasons.append(f"EXPECTED_FAILURES.txt: {EXPECTED[name]}")
    if (name in NEEDS_MKL and not mkl.available()
            and not (name in PASSES_WITHOUT_NATIVE and native.kernels is None)):
        reasons.append(f"MKL's VML bits, and VML is not loaded ({mkl.reason()})")
    if name in NEEDS_NATIVE_OR_MKL and native.kernels is None and not blas.available():
        reasons.append("float32 products over the NumPy emulation's time bound: needs MKL (the "
                       "mkl package) or the compiled kernels (vecmath/_native.c)")
    if name in NEEDS_NATIVE and native.kernels is None:
        reasons.append("convolutions over the NumPy emulation's time bound: needs the compiled "
                       "kernels (vecmath/_native.c)")
    if reasons:
        mark = pytest.mark.xfail(strict=True, reason="; ".join(reasons))
        return pytest.param(name, marks=mark, id=name)
    return pytest.param(name, id=name)


def _torch_here(name: str, recorded: str) -> str | None:
    """What torch prints for the program on this machine where that is not the recording, or
    None (torch not installed, or it prints the recording). The recordings were made on one
    CPU; MKL picks kernels by vendor (vecmath/blas.py, genuine_intel), so on another vendor's
    CPU torch itself prints other last digits for some programs, and gradsh, which calls the
    same MKL, must print those."""
    if importlib.util.find_spec("torch") is None:
        return None
    code, out, _ = corpus.run_under_torch([name], jobs=1)[name]
    return out if code == 0 and out != recorded else None


@pytest.mark.parametrize("name", [_gradsh_param(n) for n in NAMES])
def test_gradsh_matches_torch(name: str) -> None:
    """gradsh's stdout for the program is exactly torch's: the recording, or where torch on
    this machine prints something else, what it prints."""
    expected = corpus.recording_here(name).read_text(encoding="utf-8")
    proc = corpus.run_gradsh(name)
    if proc.stdout == expected:
        return
    here = _torch_here(name, expected)
    if here is not None:
        expected = here
        if proc.stdout == expected:
            return
    stderr_tail = "\n".join((proc.stderr or "").strip().splitlines()[-8:])
    pytest.fail(f"`gradsh run --quiet {name}.py` (exit {proc.returncode}) differs from "
                f"{name}.torch.out:\n{corpus.diff(expected, proc.stdout, RECORDED, 'gradsh')}\n"
                f"--- gradsh stderr (last lines) ---\n{stderr_tail}", pytrace=False)
