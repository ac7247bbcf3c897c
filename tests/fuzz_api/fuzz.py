"""Differential fuzzer of the Python torch API: random small programs (gen.py) run under
PyTorch and under gradsh, compared case by case; mismatches are shrunk to their fewest lines.

    python tests/fuzz_api/fuzz.py --seed 1 --cases 500            # in process, both sides
    python tests/fuzz_api/fuzz.py --seed 1 --cases 200 --via-run  # real `gradsh run` too
    python tests/fuzz_api/fuzz.py --seed 1 --cases 500 --only views,indexing -v

Exit status 1 when some case differs. See README.md here.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import gen  # noqa: E402
import gen2  # noqa: E402
import gen3  # noqa: E402
import gen4  # noqa: E402
import gen5  # noqa: E402

CASE_TIMEOUT_S = 10
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


class CaseTimeout(Exception):
    """A case ran past CASE_TIMEOUT_S."""


def _alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout(f"case ran past {CASE_TIMEOUT_S} s")


def wrap(seed: int, lines: list[str], module: str = "torch") -> str:
    """A case as a program fragment: reset state, run the lines, print any error's type and
    text (what a learner's `except Exception as e: print(...)` shows)."""
    body = "\n".join("    " + line for line in lines) or "    pass"
    return (f"{module}.manual_seed({seed})\n"
            f"{module}.set_printoptions(profile='default', sci_mode=None)\n"
            f"try:\n{body}\n"
            "except Exception as e:\n"
            "    print(f'{type(e).__name__}: {e}')\n")


def mask(text: str) -> str:
    return _ADDRESS.sub("0x?", text)


class Side:
    """One implementation of torch, run in this process."""

    def __init__(self, name: str, pin_threads: bool = True) -> None:
        """`pin_threads`: set one intra-op thread (a test pins both sides itself instead)."""
        self.name = name
        if name == "torch":
            import torch
            if pin_threads:
                torch.set_num_threads(1)
            self.module = torch
            self.context = contextlib.nullcontext
        else:
            from gradsh import pyrun
            from gradsh.engine import threads
            import gradsh.torch
            if pin_threads:
                threads.set_torch_threads(1)
            self.module = gradsh.torch
            self.context = pyrun.torch_engine

    def run(self, seed: int, lines: list[str]) -> str:
        """The case's stdout (masked)."""
        try:
            code = compile(wrap(seed, lines), f"<case {seed}>", "exec")
        except SyntaxError as error:  # a generator's slip: the same on both sides
            return f"!! SyntaxError: {error.msg}\n"
        out = io.StringIO()
        namespace = {"torch": self.module, "__name__": "__case__"}
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(CASE_TIMEOUT_S)
        try:
            with self.context(), contextlib.redirect_stdout(out), _quiet_warnings():
                exec(code, namespace)
        except BaseException as error:  # a timeout or a crash of the runner itself
            out.write(f"!! {type(error).__name__}: {error}\n")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        return mask(out.getvalue())


@contextlib.contextmanager
def _quiet_warnings():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@contextlib.contextmanager
def pinned_sides(torch_module: Any):
    """For the test files: PyTorch and gradsh run in this process, both at one thread (the
    tests' conftest pins PyTorch's threads and restores them after)."""
    from conftest import pinned_threads

    with pinned_threads(torch_module, 1):
        yield Side("torch", pin_threads=False), Side("gradsh", pin_threads=False)


def assert_same(sides: tuple[Side, Side], name: str, code: str) -> None:
    """A shrunk case (lines split on newlines) prints the same under both."""
    lines = code.split("\n")
    expected, actual = (side.run(0, lines) for side in sides)
    assert actual == expected, f"{name}:\n{code}\n--- torch\n{expected}--- gradsh\n{actual}"


def assert_batch(sides: tuple[Side, Side], seed: int, count: int, only: list[str] | None,
                 known: dict[int, str]) -> None:
    """A fixed seed's batch: the cases that differ are exactly the known ones (a strict list:
    one that starts to pass must leave it)."""
    differing = {}
    for k, (category, lines) in enumerate(gen.generate(seed, count, only)):
        expected, actual = (side.run(seed * 100_000 + k, lines) for side in sides)
        if expected != actual:
            differing[k] = (category, "\n".join(lines), expected, actual)
    unexpected = {k: v for k, v in differing.items() if k not in known}
    fixed = sorted(set(known) - set(differing))
    assert not unexpected, "\n\n".join(
        f"case {k} ({c}):\n{code}\n--- torch\n{e}--- gradsh\n{a}"
        for k, (c, code, e, a) in unexpected.items())
    assert not fixed, f"cases {fixed} pass now: remove them from KNOWN"


def test_parts(regressions: dict[str, str], seed: int, count: int, only: list[str] | None,
               known: dict[int, str]) -> tuple[Any, Any, Any]:
    """A test file's pytest parts: the `sides` fixture, test_fixed_case over `regressions`
    (name: shrunk case) and test_fixed_seed_batch over the batch of (seed, count, only) with
    its known differences. Bound at the test module's top level under these names."""
    import pytest

    @pytest.fixture(scope="module")
    def sides(torch):
        """PyTorch and gradsh, run in this process (both at one thread)."""
        with pinned_sides(torch) as pair:
            yield pair

    @pytest.mark.parametrize("name", sorted(regressions))
    def test_fixed_case(sides, name):
        assert_same(sides, name, regressions[name])

    def test_fixed_seed_batch(sides):
        assert_batch(sides, seed, count, only, known)

    return sides, test_fixed_case, test_fixed_seed_batch


def kind(expected: str, actual: str) -> str:
    """A mismatch's kind: an error on one side only, different error texts, different values."""
    def is_error(text: str) -> bool:
        last = text.strip().splitlines()[-1:] or [""]
        return bool(re.match(r"^[A-Za-z_.]*(Error|Exception|Warning|Timeout|Interrupt):", last[0]))
    e, a = is_error(expected), is_error(actual)
    if e and a:
        return "error text"
    if e or a:
        return "error on one side"
    return "value"


def shrink(torch_side: Side, ours: Side, seed: int, lines: list[str]) -> list[str]:
    """Drop lines, one at a time, while the two sides still differ."""
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            trial = lines[:i] + lines[i + 1:]
            if not trial:
                continue
            if torch_side.run(seed, trial) != ours.run(seed, trial):
                lines = trial
                changed = True
                break
    return lines


def compare_in_process(cases, seed0: int, shrink_them: bool = True):
    torch_side, ours = Side("torch"), Side("gradsh")
    found = []
    for k, (category, lines) in enumerate(cases):
        seed = seed0 + k
        expected, actual = torch_side.run(seed, lines), ours.run(seed, lines)
        if expected != actual:
            small = shrink(torch_side, ours, seed, lines) if shrink_them else lines
            found.append((k, category, small, torch_side.run(seed, small),
                          ours.run(seed, small)))
    return found


def batch_program(cases, seed0: int) -> str:
    parts = ["import torch", "torch.set_num_threads(1)"]
    for k, (_, lines) in enumerate(cases):
        parts.append(f"print('#### case {k}')")
        parts.append(wrap(seed0 + k, lines))
    return "\n".join(parts) + "\n"


def split_cases(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    current = None
    for line in text.splitlines(keepends=True):
        m = re.match(r"^#### case (\d+)$", line.rstrip("\n"))
        if m:
            current = int(m.group(1))
            out[current] = ""
        elif current is not None:
            out[current] += line
    return out


def compare_via_run(cases, seed0: int):
    """Both sides as separate processes: `python batch.py` and `gradsh run --quiet batch.py`."""
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0",
               PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "batch.py"
        path.write_text(batch_program(cases, seed0))
        ran = [subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True,
                              timeout=1800)
               for cmd in ([sys.executable, str(path)],
                           [sys.executable, "-m", "gradsh", "run", "--quiet", str(path)])]
    expected, actual = (split_cases(mask(r.stdout)) for r in ran)
    found = []
    for k, (category, lines) in enumerate(cases):
        if expected.get(k) != actual.get(k):
            found.append((k, category, lines, expected.get(k, "<missing>\n"),
                          actual.get(k, "<missing>\n" + ran[1].stderr[-2000:])))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--only", default="", help="comma-separated categories: "
                        + ", ".join(gen.CATEGORIES) + "; gen2's (or `new` for all of them): "
                        + ", ".join(gen2.AREAS) + "; gen3's (`gen3` for all): "
                        + ", ".join(gen3.AREAS) + "; gen4's (`gen4` for all): "
                        + ", ".join(gen4.AREAS) + "; gen5's (`gen5` for all): "
                        + ", ".join(gen5.AREAS))
    parser.add_argument("--via-run", action="store_true",
                        help="run both sides as processes (`gradsh run`), no shrinking")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every mismatch")
    args = parser.parse_args(argv)
    only = [c for c in args.only.split(",") if c] or None
    cases = gen.generate(args.seed, args.cases, only)
    seed0 = args.seed * 100_000
    if args.via_run:
        found = compare_via_run(cases, seed0)
    else:
        found = compare_in_process(cases, seed0, not args.no_shrink)
    tally = collections.Counter((category, kind(e, a)) for _, category, _, e, a in found)
    for k, category, lines, expected, actual in found:
        if args.verbose:
            print(f"=== case {k} ({category}, seed {seed0 + k}): {kind(expected, actual)}")
            print("\n".join(lines))
            print("--- torch\n" + expected + "--- gradsh\n" + actual)
    print(f"{len(cases)} cases, {len(found)} mismatches")
    for (category, what), n in sorted(tally.items()):
        print(f"  {category:14s} {what:18s} {n}")
    per_area = collections.Counter(category for category, _ in cases)
    missed = collections.Counter(category for _, category, _, _, _ in found)
    for category, n in sorted(per_area.items()):
        print(f"  {category:14s} {missed[category]:4d} / {n:4d} cases differ "
              f"({100 * missed[category] / n:.1f}%)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
