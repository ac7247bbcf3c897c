"""`gradsh run --quiet` and `--final` compile a Python program whole (pywhole.compile_whole), or
where it does not compile so, its consecutive statements together (pyrun._compile_batch): each
statement still runs once, in order, with its own origin (the hints' lines), its errors, exits
and `--keep-going` as when each is compiled alone (the table mode, which shows every statement,
is the reference)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gradsh import pyrun, pywhole

ROOT = Path(__file__).resolve().parent.parent


def run(tmp_path: Path, source: str, *options: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(source))
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "gradsh", "run", *options, path.name],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(line in rest for line in part)


# each program's stdout and stderr under --quiet must equal the table mode's printed lines
PROGRAMS = {
    "error mid-batch": """
        import torch
        print("one")
        x = torch.ones(2)
        y = x[5]
        print("not reached")
    """,
    "saved then modified in place: both lines in the hint": """
        import torch
        a = torch.ones(3, requires_grad=True)
        b = a * 2
        c = b.sigmoid()
        d = c * 3
        c.add_(1)
        e = d.sum()
        print("before backward")
        e.backward()
    """,
    "freed by a backward": """
        import torch
        x = torch.ones(3, requires_grad=True)
        y = x.exp()
        z = y.sum()
        z.backward()
        z.backward()
    """,
    "sys.exit in the middle": """
        import sys
        print(1)
        sys.exit(3)
        print(2)
    """,
    "compile-time error in a later statement": """
        print("first")
        x = 1
        return x
    """,
    "two statements on a line, the second raising; decorators and a multi-line call": """
        import functools
        import torch
        @functools.lru_cache
        def twice(v):
            return v * 2
        x = torch.ones(2, requires_grad=True); y = (x * 3).sin()
        print(twice(3),
              y.shape)
        y.add_(1); z = y[7]
        print("after")
    """,
    "a docstring is the module's, as when each statement runs alone": """
        \"\"\"The program's docstring.\"\"\"
        print(__doc__)
    """,
    "future import": """
        from __future__ import annotations
        def f(x: Undefined) -> Undefined:
            return x
        print(f(2), f.__annotations__)
        a = 1; b = a + 1; print(a, b)
    """,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("keep_going", [False, True])
def test_batched_runs_do_what_single_statements_do(tmp_path: Path, name: str,
                                                   keep_going: bool) -> None:
    source = PROGRAMS[name]
    more = ["--keep-going"] if keep_going else []
    quiet = run(tmp_path, source, "--quiet", *more)
    final = run(tmp_path, source, "--final", *more)
    table = run(tmp_path, source, *more)  # one statement at a time, a table after each
    assert quiet.returncode == final.returncode == table.returncode
    assert quiet.stderr == final.stderr == table.stderr
    assert subsequence(quiet.stdout.splitlines(), table.stdout.splitlines())
    assert final.stdout.startswith(quiet.stdout)
    if "hint" in name or "freed" in name:
        assert "hint: " in quiet.stderr and " at line " in quiet.stderr


def test_keep_going_resumes_after_the_failing_statement(tmp_path: Path) -> None:
    source = "print('a')\nraise ValueError('x')\nprint('b')\nraise KeyError('y')\nprint('c')\n"
    done = run(tmp_path, source, "--quiet", "--keep-going")
    assert done.stdout.splitlines() == ["a", "b", "c"]
    assert done.stderr.count("Traceback") == 2
    assert "line 2" in done.stderr and "line 4" in done.stderr
    assert done.returncode == 1


def test_long_programs_run_every_statement_once_in_order(tmp_path: Path) -> None:
    n = 3 * pyrun._BATCH + 5  # several batches and a partial one
    source = "log = []\n" + "".join(f"log.append({k})\n" for k in range(n)) + \
        "assert log == list(range(%d)), log\nprint(len(log))\n" % n
    done = run(tmp_path, source, "--quiet")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, str(n), "")


def test_a_long_program_compiled_in_pieces_runs_as_python_runs_it(tmp_path: Path) -> None:
    # Lines at the margin inside strings, before `else` and after decorators: a split there
    # would not compile, so the pieces are cut at statements only; the error's line and the
    # output are CPython's own.
    block = textwrap.dedent('''\
        log.append({k})
        text = """
        at the margin {k}
        """
        if {k} % 3:
            log.append(-{k})
        else:
            log.append(len(text))
        @staticmethod
        def f{k}():
            return {k}
        ''')
    source = "log = []\n" + "".join(block.format(k=k) for k in range(300)) + \
        "print(sum(log), f299.__func__.__code__.co_firstlineno)\n" + "x = [1][2]\n"
    path = tmp_path / "prog.py"
    path.write_text(source)
    program = pyrun.PythonProgram(source, str(path))
    pieces = pywhole.compile_pieces(program)
    assert pieces is not None and len(pieces) > 5
    python = subprocess.run([sys.executable, path.name], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    done = run(tmp_path, source, "--quiet")
    assert done.stdout == python.stdout and done.returncode == 1
    assert done.stderr.splitlines()[-3:] == python.stderr.splitlines()[-3:]


@pytest.mark.parametrize("tail", ['"""A string first: a docstring alone."""\n',
                                  "x: int = 1\n", "from __future__ import annotations\n"])
def test_pieces_that_would_differ_from_the_whole_are_not_used(tail: str) -> None:
    source = "a = 1\n" * (2 * pywhole._PIECE_LINES) + tail + "b = 2\n" * pywhole._PIECE_LINES
    source *= 64 * pywhole._PIECE_LINES // len(source) + 1
    assert pywhole.compile_pieces(pyrun.PythonProgram(source, "<test>")) is None
