"""`gradsh test` and the pytest plugin: goldens pass, fail with a diff, go missing, get updated."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from gradsh import golden

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

SIMPLE = """\
a = tensor(2.0, requires_grad=True)
b = a * a
b.backward()
print(a.grad)
"""


def write(folder: Path, name: str, source: str, out: str | None = None) -> Path:
    script = folder / name
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(source)
    if out is not None:
        script.with_suffix(".out").write_text(out)
    return script


def output_of(script: Path) -> str:
    return golden.run_script(script)[0]


def gradsh_test(*args: str | Path) -> tuple[int, str]:
    """`gradsh test ARGS` in this process: exit code and stdout + stderr."""
    buffer = io.StringIO()
    stderr = sys.stderr
    sys.stderr = buffer
    try:
        with redirect_stdout(buffer):
            code = golden.cli_main([str(a) for a in args])
    except SystemExit as exit_:  # argparse's usage errors; gradsh.cli.main turns them into codes
        code = int(exit_.code or 0)
    finally:
        sys.stderr = stderr
    return code, buffer.getvalue()


# -- what a golden holds --------------------------------------------------------------------------


def test_golden_is_what_gradsh_run_shows_piped(tmp_path: Path) -> None:
    script = write(tmp_path, "s.grad", SIMPLE + "c = tensor([1, 2], requires_grad=True)\n")
    run = subprocess.run(
        [sys.executable, "-m", "gradsh", "run", "--seed", "0", "s.grad"], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={k: v for k, v in os.environ.items() if k != "GRADSH_SIM_CUDA"},
    )
    text, code = golden.run_script(script)
    assert text == run.stdout
    assert code == run.returncode == 1
    # stdout and stderr interleaved: the table of step 3 comes before the error of the last step
    assert text.index("tensor(4.)") < text.index("s.grad:5:5: RuntimeError: Only Tensors")
    assert "\x1b[" not in text and max(len(line) for line in text.splitlines()) <= 100


def test_addresses_are_made_constant(tmp_path: Path) -> None:
    script = write(tmp_path, "s.grad", "x = tensor(1., grad)\ny = x * 2\nprint(y.grad_fn)\n")
    assert "<MulBackward0 object at 0x...>" in output_of(script)


def test_header_options_are_honoured(tmp_path: Path) -> None:
    source = ("# gradsh: --sim-cuda --keep-going\n"
              "x = rand(2).cuda()\nprint(x.device)\nboom\nprint(1)\n")
    text = output_of(write(tmp_path, "s.grad", source))
    assert text.startswith("gradsh: simulating cuda:0")
    assert "cuda:0" in text and "NameError" in text
    assert ">>> print(1)\n1\n" in text  # --keep-going: the script went on after the error


def test_bad_header_is_reported_in_the_output(tmp_path: Path) -> None:
    text, code = golden.run_script(write(tmp_path, "s.grad", "# gradsh: --json\nx = 1\n"))
    assert code == 2 and "unsupported option in the script header: --json" in text


def test_unseeded_random_numbers_are_seeded_with_0(tmp_path: Path) -> None:
    unseeded = output_of(write(tmp_path, "a.grad", "x = rand(3)\nprint(x)\n"))
    seeded = output_of(write(tmp_path, "b.grad", "seed 0\nx = rand(3)\nprint(x)\n"))
    assert "tensor([0.4963, 0.7682, 0.0885])" in unseeded  # torch.manual_seed(0); torch.rand(3)
    assert unseeded.split("\n", 1)[0] == ">>> x = rand(3)"
    assert "tensor([0.4963, 0.7682, 0.0885])" in seeded


def test_a_header_seed_or_a_seed_statement_wins(tmp_path: Path) -> None:
    header = output_of(write(tmp_path, "a.grad", "# gradsh: --seed 1\nprint(rand(2))\n"))
    statement = output_of(write(tmp_path, "b.grad", "seed 1\nprint(rand(2))\n"))
    assert "tensor([0.7576, 0.2793])" in header  # torch.manual_seed(1); torch.rand(2)
    assert "tensor([0.7576, 0.2793])" in statement


def test_each_script_starts_from_a_fresh_state(tmp_path: Path) -> None:
    """Default dtype, default device, sim-cuda, RNG and warn-once memory never leak."""
    write(tmp_path, "1.grad", "# gradsh: --sim-cuda\ndtype float64\ndevice cuda\n"
          "x = rand(100)\ny = x.sum()\nprint(y.grad)\nx.sum().backward(create_graph=True)\n")
    after = write(tmp_path, "2.grad", "x = tensor(1.)\nprint(x.dtype, x.device, rand(1))\n"
                  "w = tensor(1., grad)\n(w * 1.).backward(create_graph=True)\nz = x.cuda()\n")
    alone = output_of(after)
    code, _ = gradsh_test("--update", tmp_path)
    assert code == 0
    together = after.with_suffix(".out").read_text()
    assert together == alone
    assert "torch.float32 cpu tensor([0.4963])" in together
    assert "UserWarning: Using backward() with create_graph=True" in together  # warned again
    assert "CUDA is not available" in together  # sim-cuda was switched off again


def test_state_is_restored_after_a_script(tmp_path: Path) -> None:
    from gradsh.engine import backend, dtypes, ops

    output_of(write(tmp_path, "s.grad", "# gradsh: --sim-cuda\ndtype float64\ndevice cuda\n"))
    assert not backend.sim_cuda_enabled()
    assert dtypes.default_float() is dtypes.float32 and ops.DefaultDevice.value == "cpu"


# -- gradsh test ----------------------------------------------------------------------------------


def test_passing_goldens_exit_0(tmp_path: Path) -> None:
    for script in (write(tmp_path, "a.grad", SIMPLE), write(tmp_path, "sub/b.grad", "print(1)\n")):
        script.with_suffix(".out").write_text(output_of(script))
    code, text = gradsh_test(tmp_path)
    assert code == 0
    assert text.splitlines()[-1].startswith("2 passed, 0 failed")


def test_a_mismatch_shows_the_diff_and_the_first_differing_line(tmp_path: Path) -> None:
    script = write(tmp_path, "a.grad", SIMPLE)
    good = output_of(script)
    script.with_suffix(".out").write_text(good.replace("tensor(4.)", "tensor(5.)"))
    code, text = gradsh_test(script)
    assert code == 1
    line = good.splitlines().index("tensor(4.)") + 1
    assert f"{script}: output differs from {script.with_suffix('.out')}" in text
    assert f"first difference at line {line}:" in text
    assert "  golden: 'tensor(5.)'\n  now:    'tensor(4.)'" in text
    assert "\n-tensor(5.)\n+tensor(4.)\n" in text and "@@ " in text
    assert "\x1b[" not in text  # not a terminal: no colour
    assert text.splitlines()[-1].startswith("0 passed, 1 failed")


def test_a_diff_is_coloured_on_a_terminal(tmp_path: Path) -> None:
    script = write(tmp_path, "a.grad", SIMPLE, "something else\n")
    case = golden.run_case(script)
    assert "\x1b[31m-something else\x1b[0m" in case.report(color=True)
    assert "\x1b[" not in case.report(color=False)


def test_a_shorter_output_names_the_missing_line(tmp_path: Path) -> None:
    script = write(tmp_path, "a.grad", "print(1)\n")
    script.with_suffix(".out").write_text(output_of(script) + "extra line\n")
    first = golden.run_case(script).first_difference()
    assert first is not None and first[1:] == ("extra line", None)


def test_a_script_without_golden_is_missing_not_skipped(tmp_path: Path) -> None:
    write(tmp_path, "a.grad", SIMPLE)
    code, text = gradsh_test(tmp_path)
    assert code == 1
    assert f"{tmp_path / 'a.grad'}: missing golden {tmp_path / 'a.out'}" in text
    assert text.splitlines()[-1].startswith("0 passed, 1 failed (1 missing)")
    assert not (tmp_path / "a.out").exists()  # never written without --update


def test_update_creates_and_rewrites_and_says_which(tmp_path: Path) -> None:
    new = write(tmp_path, "new.grad", SIMPLE)
    stale = write(tmp_path, "stale.grad", SIMPLE, "old\n")
    same = write(tmp_path, "same.grad", "print(2)\n")
    same.with_suffix(".out").write_text(output_of(same))
    code, text = gradsh_test("--update", tmp_path)
    assert code == 0
    assert f"created {new.with_suffix('.out')}" in text
    assert f"updated {stale.with_suffix('.out')}" in text
    assert str(same.with_suffix(".out")) not in text
    assert text.splitlines()[-1].startswith("1 updated, 1 created, 1 unchanged")
    assert new.with_suffix(".out").read_text() == stale.with_suffix(".out").read_text()
    assert gradsh_test(tmp_path)[0] == 0


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    code, text = gradsh_test(tmp_path / "nope")
    assert code == 2 and "no such file or folder" in text
    (tmp_path / "notes.txt").write_text("")
    assert gradsh_test(tmp_path / "notes.txt")[0] == 2
    assert gradsh_test(tmp_path)[0] == 2  # no scripts at all
    assert gradsh_test("--frobnicate")[0] == 2


def test_default_path_is_the_current_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "a.grad", "print(1)\n")
    monkeypatch.chdir(tmp_path)
    code, text = gradsh_test("--update")
    assert code == 0 and "created a.out" in text
    assert gradsh_test()[0] == 0


def test_default_path_runs_the_folders_with_goldens_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A repository's root: scripts/ has goldens, tests/parity/ holds scripts that are not
    # golden tests, scripts/python/ Python programs that run only with --python.
    write(tmp_path / "scripts", "a.grad", "print(1)\n", "")
    write(tmp_path / "tests" / "parity", "p.grad", "print(2)\n")
    write(tmp_path / "scripts" / "python", "q.py", "print(3)\n", "")
    monkeypatch.chdir(tmp_path)
    assert gradsh_test("--update", "scripts")[0] == 0
    code, text = gradsh_test()
    assert code == 0
    assert text.splitlines()[:3] == [
        "ran 1 script in scripts/",
        "skipped 1 script in tests/parity/: no goldens there",
        "not run: 1 Python program in scripts/python/ with goldens; add --python to run them "
        "(unsandboxed, as python runs them)",
    ]
    assert text.splitlines()[3].startswith("1 passed, 0 failed")
    assert not (tmp_path / "tests" / "parity" / "p.out").exists()


def test_the_command_line_routes_to_gradsh_test(tmp_path: Path) -> None:
    write(tmp_path, "a.grad", "print(1)\n")
    env = {k: v for k, v in os.environ.items() if k != "GRADSH_SIM_CUDA"}
    run = subprocess.run([sys.executable, "-m", "gradsh", "test", str(tmp_path)],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 1 and "0 passed, 1 failed (1 missing)" in run.stdout
    run = subprocess.run([sys.executable, "-m", "gradsh", "test", str(tmp_path / "x")],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 2 and "Traceback" not in run.stderr


# -- an untrusted tree: nothing outside it is read or written -------------------------------------


def outside_file(tmp_path: Path, text: str = "precious\n") -> Path:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "file"
    target.write_text(text)
    return target


def test_update_never_writes_through_a_symlink_out_of_the_tree(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    target = outside_file(tmp_path)
    script = write(tree, "a.grad", SIMPLE)
    (tree / "a.out").symlink_to(target)
    later = write(tree, "b.grad", "print(1)\n")
    code, text = gradsh_test("--update", tree)
    assert code == 1
    assert text.splitlines()[0] == (
        f"{script}: {tree / 'a.out'} leads through a symbolic link to {target}, outside "
        f"{tree}: refusing to follow it")
    assert target.read_text() == "precious\n" and (tree / "a.out").is_symlink()
    assert later.with_suffix(".out").is_file()  # the rest of the tree was still updated
    assert text.splitlines()[-1].startswith("0 updated, 1 created, 0 unchanged, 1 failed")
    # Comparing does not read it either (its text would show in the diff, e.g. in a CI log).
    code, text = gradsh_test(tree)
    assert code == 1 and "precious" not in text
    assert text.splitlines()[-1].startswith("1 passed, 1 failed")


def test_a_symlinked_script_out_of_the_tree_is_not_read(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    target = outside_file(tmp_path, "secret = 1 +\n")
    write(tree, "ok.grad", "print(1)\n")
    (tree / "leak.grad").symlink_to(target)
    assert gradsh_test("--update", tree)[0] == 1
    code, text = gradsh_test(tree)
    assert code == 1 and "secret" not in text
    assert "leak.grad leads through a symbolic link to" in text
    assert text.splitlines()[-1].startswith("1 passed, 1 failed")


def test_a_symlink_inside_the_tree_is_followed_and_kept(tmp_path: Path) -> None:
    script = write(tmp_path, "sub/a.grad", SIMPLE)
    shared = tmp_path / "shared.out"
    shared.write_text("old\n")
    (tmp_path / "sub" / "a.out").symlink_to(Path("..") / "shared.out")
    code, text = gradsh_test("--update", tmp_path)
    assert code == 0, text
    assert (tmp_path / "sub" / "a.out").is_symlink()
    assert shared.read_text() == output_of(script)
    assert gradsh_test(tmp_path)[0] == 0
    # Named as a file, the script's tree is its own folder: ../shared.out lies outside.
    assert "refusing to follow it" in gradsh_test(script)[1]


def test_a_golden_that_is_a_directory_fails_that_script_only(tmp_path: Path) -> None:
    (tmp_path / "a.out").mkdir()
    write(tmp_path, "a.grad", SIMPLE)
    b = write(tmp_path, "b.grad", "print(1)\n")
    b.with_suffix(".out").write_text(output_of(b))
    code, text = gradsh_test(tmp_path)
    assert code == 1
    assert text.splitlines()[0] == f"{tmp_path / 'a.grad'}: {tmp_path / 'a.out'} is a " \
        "directory, not a file"
    assert text.splitlines()[-1].startswith("1 passed, 1 failed")
    assert "internal error" not in text
    code, text = gradsh_test("--update", tmp_path)
    assert code == 1 and "a.out is a directory, not a file" in text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_golden_that_is_a_fifo_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, "a.grad", SIMPLE)
    os.mkfifo(tmp_path / "a.out")  # opening it to read would wait for a writer forever
    code, text = gradsh_test(tmp_path)
    assert code == 1 and f"{tmp_path / 'a.out'} is not a regular file" in text


def test_a_golden_that_is_not_utf8_fails_that_script(tmp_path: Path) -> None:
    write(tmp_path, "a.grad", "print(1)\n")
    (tmp_path / "a.out").write_bytes(b"\xff\xfe")
    code, text = gradsh_test(tmp_path)
    assert code == 1 and "a.out is not valid UTF-8 (at byte 0)" in text


def test_update_replaces_a_golden_atomically_keeping_its_mode(tmp_path: Path) -> None:
    script = write(tmp_path, "a.grad", SIMPLE, "old\n")
    golden_file = script.with_suffix(".out")
    golden_file.chmod(0o640)
    inode = golden_file.stat().st_ino
    assert gradsh_test("--update", tmp_path)[0] == 0
    assert golden_file.read_text() == output_of(script)
    assert golden_file.stat().st_mode & 0o777 == 0o640
    assert golden_file.stat().st_ino != inode  # a new file renamed over the old one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.grad", "a.out"]  # no temp file


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_a_rewrite_that_fails_midway_keeps_the_old_golden(tmp_path: Path) -> None:
    """A file size limit makes the write fail after 64 bytes, as a full disk would."""
    import resource
    import signal

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # then the write fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    stale = write(tmp_path, "a.grad", SIMPLE, "the reviewed golden\n")
    later = write(tmp_path, "b.grad", "print(1)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "gradsh", "test", "--update", str(tmp_path)],
                         capture_output=True, text=True, env=env, preexec_fn=limit, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert stale.with_suffix(".out").read_text() == "the reviewed golden\n"
    assert f"{stale}: cannot write {stale.with_suffix('.out')}: File too large" in run.stdout
    assert "internal error" not in run.stdout + run.stderr and "Traceback" not in run.stderr
    # The next script (whose golden fits in 64 bytes) was still run and written; no temp files.
    assert later.with_suffix(".out").read_text() == output_of(later)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.grad", "a.out", "b.grad", "b.out"]
    assert run.stdout.splitlines()[-1].startswith("0 updated, 1 created, 0 unchanged, 1 failed")


def test_the_scripts_library_has_a_golden_for_each_script() -> None:
    """The walkthroughs in scripts/: at least 20, each beside its golden (the plugin runs them)."""
    scripts = golden.find_scripts([SCRIPTS])
    assert len(scripts) >= 20
    assert [s for s in scripts if not golden.golden_path(s).is_file()] == []


def test_the_project_suite_collects_the_scripts_goldens() -> None:
    """`python -m pytest` from the checkout runs scripts/ through the plugin (pyproject's
    testpaths); the plain scripts of tests/parity (no goldens) are not golden tests."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "scripts", "tests/parity"], cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    items = [line for line in run.stdout.splitlines() if "::" in line]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "scripts/hooks.grad::golden" in items
    assert "scripts/python/seed004_retain_grad.py::golden" in items
    assert len(items) == len(golden.find_scripts([SCRIPTS], python=True))
    assert len(golden.find_scripts([SCRIPTS])) < len(items)  # .py only when asked


# -- the pytest plugin ----------------------------------------------------------------------------


@pytest.fixture
def goldens(pytester: pytest.Pytester) -> pytest.Pytester:
    """A folder with a passing golden, a failing one and a script whose golden is missing."""
    good = pytester.path / "good.grad"
    good.write_text(SIMPLE)
    good.with_suffix(".out").write_text(output_of(good))
    bad = pytester.path / "bad.grad"
    bad.write_text(SIMPLE)
    bad.with_suffix(".out").write_text(output_of(bad).replace("tensor(4.)", "tensor(5.)"))
    (pytester.path / "missing.grad").write_text("print(1)\n")
    plain = pytester.path / "plain"  # a folder of scripts without goldens is not a test suite
    plain.mkdir()
    (plain / "other.grad").write_text("print(1)\n")
    return pytester


def test_plugin_collects_each_golden_as_one_item(goldens: pytest.Pytester) -> None:
    result = goldens.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["bad.grad::golden", "good.grad::golden",
                                 "missing.grad::golden", "*3 tests collected*"])
    assert "other.grad" not in result.stdout.str()


def test_plugin_reports_the_diff_and_the_missing_golden(goldens: pytest.Pytester) -> None:
    result = goldens.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*bad.grad: output differs from*bad.out",
        "first difference at line *:",
        "  golden: 'tensor(5.)'",
        "  now:    'tensor(4.)'",
        "-tensor(5.)",
        "+tensor(4.)",
    ])
    result.stdout.fnmatch_lines(["*missing.grad: missing golden*missing.out*"])
    assert "Traceback" not in result.stdout.str()


def test_plugin_collects_a_script_named_on_the_command_line(goldens: pytest.Pytester) -> None:
    result = goldens.runpytest("plain/other.grad")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*other.grad: missing golden*"])


def test_plugin_update_rewrites_the_goldens(goldens: pytest.Pytester) -> None:
    result = goldens.runpytest("--gradsh-update")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*gradsh goldens*", "updated *bad.out", "created *missing.out"])
    assert (goldens.path / "missing.out").read_text() == output_of(goldens.path / "missing.grad")
    goldens.runpytest().assert_outcomes(passed=3)
