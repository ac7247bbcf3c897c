"""Golden-output tests: run each `x.grad` afresh and compare what the user sees with `x.out`.

The golden is the plain, fixed-width (100) text `gradsh run x.grad 2>&1` shows when piped:
stdout and stderr interleaved in the order they were written. Two things make it independent of
where and when it runs:

- errors name the script by its file name (`x.grad:4:5: RuntimeError: ...`), as `gradsh run`
  does when started in the script's folder, so the golden does not depend on the current folder;
- object addresses (`<MulBackward0 object at 0x7f...>`) read `0x...`, since they change each run.

Every script runs in this process, starting from the state a new `gradsh` process has (see
`fresh_state`), with `seed 0` before its first statement unless its `# gradsh:` header gives
`--seed`: a test must never depend on unseeded random numbers. Only the header counts, not the
environment (GRADSH_SIM_CUDA), so a golden depends on its script alone. Goldens are rewritten
only by an explicit `--update`. `gradsh test` and the pytest plugin (gradsh.pytest_plugin)
share `run_case`.

A test tree may be untrusted (a pull request), so scripts and goldens are read and written only
inside it: a symbolic link is followed only to a file within the folder being tested (the
script's own folder when a file is named), only regular files are read (a FIFO or a device
could hang or flood the run, a directory is no golden), and `--update` writes each golden to a
temporary file beside it and renames it over the old one, so a failed write (a full disk)
leaves the reviewed golden whole. Any of these problems fails that script alone, with one line
saying why; the others still run.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import re
import secrets
import stat
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gradsh.errors import GradshError

SCRIPT_SUFFIX = ".grad"
PYTHON_SUFFIX = ".py"
GOLDEN_SUFFIX = ".out"
DEFAULT_SEED = 0  # the seed `gradsh check` uses too, so both see the same numbers
WIDTH = 100

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
_SKIPPED_FOLDERS = ("__pycache__",)

# Statuses of a case. PASSED/FAILED/MISSING come from a test run; UNCHANGED/UPDATED/CREATED
# from --update.
PASSED, FAILED, MISSING = "passed", "failed", "missing"
UNCHANGED, UPDATED, CREATED = "unchanged", "updated", "created"


# ---------------------------------------------------------------------------------------------
# Finding the scripts
# ---------------------------------------------------------------------------------------------


class UsageError(Exception):
    """A path given on the command line that names no script (exit 2)."""


class GoldenError(Exception):
    """A script or golden that cannot be read or written safely: that script's failure."""


def golden_path(script: Path) -> Path:
    return script.with_suffix(GOLDEN_SUFFIX)


def find_scripts(paths: Sequence[str | Path], python: bool = False) -> list[Path]:
    """Every `.grad` named or found (recursively, in name order) under `paths`, each once.

    A file must be a `.grad` script or a Python program (`.py`); a folder contributes every
    `.grad` below it, skipping hidden folders, and with `python` every `.py` that has a golden
    (a Python program is the user's own code, run unsandboxed: only when asked). A path that
    does not exist raises UsageError.
    """
    return [script for script, _ in find_cases(paths, python)]


def find_cases(paths: Sequence[str | Path],
               python: bool = False) -> list[tuple[Path, Path]]:
    """find_scripts, each script with its tree: the folder named, or a named file's folder."""
    found: list[tuple[Path, Path]] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise UsageError(f"no such file or folder: {given}")
        if path.is_dir():
            candidates: Iterable[Path] = _walk(path, python)
            root = path
        elif path.suffix in (SCRIPT_SUFFIX, PYTHON_SUFFIX):
            candidates = [path]
            root = path.parent
        else:
            raise UsageError(f"{given} is not a {SCRIPT_SUFFIX} script or a "
                             f"{PYTHON_SUFFIX} program")
        for script in candidates:
            key = script.resolve()
            if key not in seen:
                seen.add(key)
                found.append((script, root))
    return found


def _walk(folder: Path, python: bool = False) -> list[Path]:
    scripts: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.startswith("."):
                continue
            if name.endswith(SCRIPT_SUFFIX) or (python and is_python_case(Path(root, name))):
                scripts.append(Path(root, name))
    return scripts


def is_python_case(path: Path) -> bool:
    """A Python program with a golden beside it (other .py files are not tests)."""
    return path.suffix == PYTHON_SUFFIX and golden_path(path).exists()


def in_golden_folder(script: Path) -> bool:
    """Whether `script` has a golden, or sits beside scripts that do.

    The pytest plugin walks whole trees, where a folder of plain scripts (no golden at all) is
    not a test suite; in a folder of goldens, a script without one is reported as missing.
    """
    if golden_path(script).exists():
        return True
    return any(golden.with_suffix(SCRIPT_SUFFIX).exists()
               for golden in script.parent.glob("*" + GOLDEN_SUFFIX))


# ---------------------------------------------------------------------------------------------
# Running one script
# ---------------------------------------------------------------------------------------------


def fresh_state() -> None:
    """Put back the process-wide state a new `gradsh` process starts with.

    `Interpreter()` resets the default dtype and device and TORCH_WARN_ONCE memory, and
    `runner.prepare` applies the options; what neither resets is reset here: the simulated
    cuda device, the memory limit, print options, and the grad mode, anomaly mode and
    scalar-overload flags (restored by their own `with` blocks, reset here too so that no
    earlier failure or `set_detect_anomaly(true)` can leak into a test).
    """
    from gradsh.engine import backend, dtypes, functions, limits, ops, tensor, tensor_str

    backend.disable_sim_cuda()
    limits.set_max_memory(None)  # (a script's header may have set its own)
    tensor._GradMode.enabled = True
    tensor.Anomaly.enabled, tensor.Anomaly.check_nan = False, True
    functions.ScalarOverloads.active = False
    tensor.reset_warn_once()
    tensor_str.set_printoptions(profile="default")
    dtypes.set_default_dtype(dtypes.float32)
    ops.DefaultDevice.value = "cpu"


def inside(path: Path, root: Path) -> Path:
    """The file `path` names once every symbolic link is followed, if that lies within `root`;
    otherwise GoldenError (a link out of the tree is never followed)."""
    target = path.resolve()
    if not target.is_relative_to(root.resolve()):
        raise GoldenError(f"{path} leads through a symbolic link to {target}, outside {root}: "
                          "refusing to follow it")
    return target


def _regular(path: Path, target: Path) -> None:
    """GoldenError unless `target` is a regular file (not a folder, FIFO or device)."""
    try:
        mode = target.stat().st_mode
    except OSError as err:
        raise GoldenError(f"cannot read {path}: {err.strerror}") from None
    if stat.S_ISDIR(mode):
        raise GoldenError(f"{path} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise GoldenError(f"{path} is not a regular file")


def run_script(script: Path) -> tuple[str, int]:
    """What `gradsh run SCRIPT 2>&1` shows, piped, from SCRIPT's folder; and its exit code."""
    from gradsh.cli import build_run_parser
    from gradsh.runner import RunOptions, header_args, read_script, run_source

    name = script.name
    output = io.StringIO()
    try:
        source = read_script(str(script))
        header = header_args(source)
    except GradshError as err:
        return f"gradsh: error: {err.message}\n", EXIT_USAGE
    try:
        with contextlib.redirect_stderr(output):  # argparse reports a bad header on stderr
            args = build_run_parser().parse_args([*header, name])
    except SystemExit as exit_:
        return output.getvalue(), exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    options = RunOptions(
        mode="table",
        keep_going=args.keep_going,
        seed=DEFAULT_SEED if args.seed is None else args.seed,
        device=args.device,
        sim_cuda=args.sim_cuda,
        color=False,
        width=WIDTH,
        timeout=args.timeout,
        max_memory=args.max_memory,
    )
    fresh_state()
    try:
        if options.sim_cuda:
            from gradsh.engine.backend import SIM_CUDA_NOTICE

            output.write(SIM_CUDA_NOTICE + "\n")
        code = run_source(source, name, options, output, output, str(script.parent))
    except Exception as err:  # noqa: BLE001  (as the cli: a gradsh bug is reported, not raised)
        output.write(f"gradsh: internal error: {type(err).__name__}: {err}\n")
        code = EXIT_FAILED
    finally:
        fresh_state()  # whoever runs next (another script, another test) starts clean
    return normalise(output.getvalue()), code


def normalise(text: str) -> str:
    """The output with what changes from run to run (object addresses) made constant."""
    return _ADDRESS.sub(" at 0x...>", text)


# ---------------------------------------------------------------------------------------------
# Comparing with the golden
# ---------------------------------------------------------------------------------------------


@dataclass
class Case:
    """One script's result: its status, the output it gave and the golden it was compared to."""

    script: Path
    status: str
    actual: str
    expected: str | None
    exit_code: int
    seconds: float
    problem: str | None = None  # why the script or its golden could not be read or written

    @property
    def golden(self) -> Path:
        return golden_path(self.script)

    @property
    def ok(self) -> bool:
        return self.status not in (FAILED, MISSING)

    def first_difference(self) -> tuple[int, str | None, str | None] | None:
        """The 1-based line number of the first difference, the golden's line and ours there."""
        if self.expected is None or self.expected == self.actual:
            return None
        expected, actual = self.expected.splitlines(), self.actual.splitlines()
        for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
            if want != got:
                return number, want, got
        number = min(len(expected), len(actual)) + 1
        if len(expected) == len(actual):  # only the final newline differs
            return len(expected), expected[-1] if expected else "", actual[-1] if actual else ""
        return (number, expected[number - 1] if number <= len(expected) else None,
                actual[number - 1] if number <= len(actual) else None)

    def diff(self) -> list[str]:
        """A unified diff from the golden to the current output, one line per item."""
        lines = difflib.unified_diff(
            (self.expected or "").splitlines(), self.actual.splitlines(),
            fromfile=f"{self.golden} (golden)", tofile=f"{self.script} (now)", lineterm="",
        )
        return list(lines)

    def report(self, color: bool = False) -> str:
        """Why the case failed: what a person needs to see to decide, in plain or ANSI text."""
        if self.problem is not None:
            return f"{self.script}: {self.problem}"
        if self.status == MISSING:
            return (f"{self.script}: missing golden {self.golden}; create it with "
                    f"`gradsh test --update {self.script}` and review it")
        if self.status != FAILED:
            return f"{self.script}: {self.status}"
        first = self.first_difference()
        lines = [_paint(f"{self.script}: output differs from {self.golden}", "1", color)]
        if first is not None:
            number, want, got = first
            lines.append(f"first difference at line {number}:")
            lines.append(f"  golden: {_shown(want)}")
            lines.append(f"  now:    {_shown(got)}")
        lines.extend(_colour_diff_line(line, color) for line in self.diff())
        return "\n".join(lines)


def _shown(line: str | None) -> str:
    return "(no line: the output ends before)" if line is None else repr(line)


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def _colour_diff_line(line: str, color: bool) -> str:
    if line.startswith(("---", "+++")):
        return _paint(line, "1", color)
    if line.startswith("@@"):
        return _paint(line, "36", color)
    if line.startswith("-"):
        return _paint(line, "31", color)
    if line.startswith("+"):
        return _paint(line, "32", color)
    return line


# Opening never follows a last symbolic link (`inside` resolved them all) and never blocks.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_CREATE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_BINARY", 0))


def read_golden(path: Path, root: Path | None = None) -> str | None:
    """The golden's text (None if there is none), read within `root` (default: its folder)."""
    target = inside(path, path.parent if root is None else root)
    if not os.path.lexists(target):
        return None
    _regular(path, target)
    try:
        fd = os.open(target, _READ_FLAGS)
        # universal newlines: a CRLF checkout compares
        with os.fdopen(fd, encoding="utf-8") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the check
                raise GoldenError(f"{path} is not a regular file")
            return f.read()
    except OSError as err:
        raise GoldenError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise GoldenError(f"{path} is not valid UTF-8 (at byte {err.start})") from None


def write_golden(path: Path, text: str, root: Path | None = None) -> None:
    """Replace the golden atomically: a temporary file beside it, renamed over it."""
    target = inside(path, path.parent if root is None else root)
    if os.path.lexists(target):
        _regular(path, target)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, _CREATE_FLAGS, 0o666)  # the umask applies, as for a new file
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            if os.path.lexists(target):
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as err:
        raise GoldenError(f"cannot write {path}: {err.strerror or err}") from None


def run_case(script: Path, update: bool = False, root: Path | None = None) -> Case:
    """Run `script` and compare with its golden; with `update`, rewrite the golden instead.

    `root` is the tree being tested (default: the script's folder): nothing outside it is read
    or written. A script or golden that cannot be is a FAILED case saying why.
    """
    root = script.parent if root is None else root
    start = time.perf_counter()
    golden = golden_path(script)
    try:
        _regular(script, inside(script, root))
        actual, code = run_script(script)
        expected = read_golden(golden, root)
        if update and expected != actual:
            write_golden(golden, actual, root)
    except GoldenError as err:
        return Case(script, FAILED, "", None, EXIT_FAILED, time.perf_counter() - start,
                    problem=str(err))
    seconds = time.perf_counter() - start
    if update:
        status = UNCHANGED if expected == actual else CREATED if expected is None else UPDATED
    elif expected is None:
        status = MISSING
    else:
        status = PASSED if expected == actual else FAILED
    return Case(script, status, actual, expected, code, seconds)


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from gradsh.cli import _Parser

    parser = _Parser(
        prog="gradsh test",
        description="Run every x.grad beside its golden x.out and compare what it shows (stdout "
        "and stderr, plain, width 100) with the golden. Scripts are seeded with 0 unless their "
        "header sets --seed.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help=".grad scripts or folders to search (default: the folders under "
                        "the current one that hold goldens)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the goldens from the current output instead of comparing")
    parser.add_argument("--python", action="store_true",
                        help="also run the Python programs (x.py beside x.out) found in folders; "
                        "they run as `python` would run them, unsandboxed: only in trees you "
                        "trust (a .py named on the command line always runs)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="name every script with its result and time")
    parser.add_argument("--no-color", action="store_true", help="plain output on a terminal too")
    return parser


def cli_main(argv: Sequence[str]) -> int:
    """`gradsh test [PATH...] [--update]`: exit 0 all pass, 1 any failure, 2 a bad path."""
    args = build_parser().parse_args(list(argv))
    out = sys.stdout
    color = out.isatty() and not args.no_color and "NO_COLOR" not in os.environ
    try:
        scripts = find_cases(args.paths or ["."], python=args.python)
    except UsageError as err:
        sys.stderr.write(f"gradsh test: error: {err}\n")
        return EXIT_USAGE
    notes: list[str] = []
    if not args.paths:  # the current folder: its test suites, not every script below it
        scripts, notes = _golden_suites(scripts, args.python)
    if not scripts:
        where = ", ".join(args.paths) if args.paths else "the current folder (none with a golden)"
        sys.stderr.write(f"gradsh test: error: no {SCRIPT_SUFFIX} scripts under {where}\n")
        return EXIT_USAGE

    start = time.perf_counter()
    cases: list[Case] = []
    for script, root in scripts:
        case = run_case(script, update=args.update, root=root)
        cases.append(case)
        if args.verbose:
            out.write(f"{case.status:<9} {script} ({case.seconds:.2f}s)\n")
        if args.update and case.status in (UPDATED, CREATED):
            out.write(f"{case.status} {case.golden}\n")
        elif not case.ok:
            diffed = case.status == FAILED and case.problem is None
            out.write(case.report(color) + ("\n\n" if diffed else "\n"))
        out.flush()
    elapsed = time.perf_counter() - start

    failed = [c for c in cases if not c.ok]
    if args.update:
        counts = {s: sum(c.status == s for c in cases) for s in (UPDATED, CREATED, UNCHANGED)}
        summary = (f"{counts[UPDATED]} updated, {counts[CREATED]} created, "
                   f"{counts[UNCHANGED]} unchanged")
        if failed:
            summary += f", {len(failed)} failed"
        out.write(f"{summary} in {elapsed:.2f}s\n")
        return EXIT_FAILED if failed else EXIT_OK
    missing = sum(c.status == MISSING for c in cases)
    summary = f"{len(cases) - len(failed)} passed, {len(failed)} failed"
    if missing:
        summary += f" ({missing} missing)"
    for note in notes:
        out.write(note + "\n")
    out.write(_paint(f"{summary} in {elapsed:.2f}s", "1;31" if failed else "1;32", color) + "\n")
    return EXIT_FAILED if failed else EXIT_OK


def _golden_suites(cases: list[tuple[Path, Path]],
                   python: bool) -> tuple[list[tuple[Path, Path]], list[str]]:
    """`gradsh test` with no path: the scripts in folders that hold goldens (a folder of plain
    scripts is no test suite; with no golden anywhere, every script, whose goldens `--update`
    then creates), and lines saying what ran and what did not."""
    kept = [(script, root) for script, root in cases if in_golden_folder(script)] or cases
    chosen = {script for script, _ in kept}
    skipped = Counter(script.parent for script, _ in cases if script not in chosen)
    ran = Counter(script.parent for script, _ in kept)
    notes = [f"ran {_count(ran)}"] if ran else []
    if skipped:
        notes.append(f"skipped {_count(skipped)}: no goldens there")
    if not python:
        programs = Counter(path.parent for path in _walk(Path("."), python=True)
                           if path.suffix == PYTHON_SUFFIX)
        if programs:
            notes.append(f"not run: {_count(programs, 'Python program')} with goldens; add "
                         "--python to run them (unsandboxed, as python runs them)")
    return kept, notes


def _count(folders: Counter[Path], noun: str = "script") -> str:
    """`28 scripts in scripts/`, or `31 scripts (28 in scripts/, 3 in demo/)`."""
    total = sum(folders.values())
    head = f"{total} {noun}{'s' if total != 1 else ''}"
    places = [(f"{folder.as_posix()}/", n) for folder, n in sorted(folders.items())]
    if len(places) == 1:
        return f"{head} in {places[0][0]}"
    return f"{head} ({', '.join(f'{n} in {place}' for place, n in places)})"
