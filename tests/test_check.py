"""gradsh check: the parity scripts against PyTorch, the diff logic, and life without torch.

Every tests/parity/*.grad must come out identical. A script that shows a known gradsh-vs-PyTorch
difference says so in a leading comment, `# xfail: <reason>`, and is a strict xfail: once gradsh
is fixed the test fails until the marker goes.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import sys
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from gradsh import check
from gradsh.builtins import BUILTINS, Builtin
from gradsh.check import Difference, compare_traces, compare_variable, focus, normalise_text

ROOT = Path(__file__).resolve().parent.parent
PARITY = Path(__file__).parent / "parity"
WALKTHROUGHS = Path(__file__).parent.parent / "scripts"
# Walkthroughs check cannot compare on a machine without a GPU: their PyTorch side simulates
# cuda:0 with CPU tensors, so PyTorch raises none of the mixed-device errors they teach.
NOT_COMPARABLE_WITHOUT_GPU = {
    "devices": "mixed-device errors: the PyTorch side has no real cuda:0 without a GPU",
}


def xfail_reason(path: Path) -> str | None:
    """The reason in a leading `# xfail: ...` comment, if any."""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        if stripped[1:].strip().startswith("xfail:"):
            return stripped[1:].strip()[len("xfail:"):].strip()
    return None


def parity_params() -> list[Any]:
    """Every parity script, and every walkthrough in scripts/ (their numbers must be
    PyTorch's too)."""
    params = []
    for folder in (PARITY, WALKTHROUGHS):
        for path in sorted(folder.glob("*.grad")):
            reason = xfail_reason(path)
            if folder is WALKTHROUGHS:
                reason = NOT_COMPARABLE_WITHOUT_GPU.get(path.stem)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            name = path.stem if folder is PARITY else f"scripts/{path.stem}"
            params.append(pytest.param(path, id=name, marks=marks))
    return params


@pytest.fixture(scope="module")
def one_torch_server() -> Iterator[check.TorchServer]:
    server = check.TorchServer()
    yield server
    server.stop()


@pytest.fixture
def torch_server(one_torch_server: check.TorchServer) -> Iterator[check.TorchServer]:
    """One PyTorch side for the checks of the module that ask for it: torch is imported once
    (about a second of CPU) instead of once for each of some 160 scripts; each check still
    runs in a process of its own, forked from that one."""
    with check.shared_torch_side(one_torch_server) as server:
        yield server


def sides(shared: bool) -> contextlib.AbstractContextManager[object]:
    return check.shared_torch_side() if shared else contextlib.nullcontext()


@pytest.mark.parametrize("path", parity_params())
def test_parity_script_is_identical(torch: object, torch_server: object, path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    status = check.cli_main([str(path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert ": identical, " in out


def test_parity_scripts_exist() -> None:
    scripts = list(PARITY.glob("*.grad"))
    assert len(scripts) >= 20
    assert sum(xfail_reason(p) is None for p in scripts) >= 20


# Builtins that no parity script needs to use, each with the reason ("kind name": reason).
# Empty: every function, method, attribute and statement of gradsh/builtins.py is exercised.
UNCOVERED_BUILTINS: dict[str, str] = {}


def script_code(path: Path) -> str:
    """A script's statements, without its comment lines (the leading description included)."""
    return "\n".join(line for line in path.read_text().splitlines()
                     if line.strip() and not line.strip().startswith("#"))


def builtin_is_used(builtin: Builtin, code: str) -> bool:
    """A textual test: a statement starts a line (or follows `;` / `{`), a function is called
    (and an nn class built) as `name(` or `x.name(`, a method as `.name(`, an attribute is read
    as `.name`, a member of an nn module or optimizer either way."""
    name = re.escape(builtin.name)
    patterns = {
        "statement": rf"(^|[;{{]\s*){name}\b",
        "function": rf"(?<![\w]){name}\s*\(",
        "class": rf"(?<![\w]){name}\s*\(",
        "method": rf"\.{name}\s*\(",
        "attribute": rf"\.{name}\b(?!\s*\()",
        "member": rf"\.{name}\b",
    }
    return re.search(patterns[builtin.kind], code, re.MULTILINE) is not None


def test_parity_corpus_has_80_scripts_using_every_builtin() -> None:
    scripts = sorted(PARITY.glob("*.grad"))
    assert len(scripts) >= 80
    # Only scripts that come out identical count: a use inside an xfail script proves nothing.
    code = "\n".join(script_code(p) for p in scripts if xfail_reason(p) is None)
    checked = [b for b in BUILTINS
               if b.kind in ("function", "method", "attribute", "statement", "member", "class")]
    assert len(checked) == len([b for b in BUILTINS if b.kind != "constant"])
    missing = [f"{b.kind} {b.name}" for b in checked
               if f"{b.kind} {b.name}" not in UNCOVERED_BUILTINS and not builtin_is_used(b, code)]
    assert missing == [], f"builtins used by no parity script: {missing}"
    stale = [key for key in UNCOVERED_BUILTINS
             if not any(f"{b.kind} {b.name}" == key for b in checked)]
    assert stale == [], f"exceptions naming no builtin: {stale}"


def test_the_coverage_check_sees_each_kind_of_use() -> None:
    by_kind = {(b.kind, b.name): b for b in BUILTINS}
    assert builtin_is_used(by_kind["statement", "backward"], "x = 1; backward y retain")
    assert not builtin_is_used(by_kind["statement", "backward"], "y.backward()")
    assert builtin_is_used(by_kind["function", "grad"], "g = torch.autograd.grad(y, x)")
    assert not builtin_is_used(by_kind["function", "grad"], "print x.grad")
    assert builtin_is_used(by_kind["attribute", "grad"], "print x.grad")
    assert builtin_is_used(by_kind["method", "view"], "y = x.view(2, 3)")
    assert not builtin_is_used(by_kind["method", "view"], "view = 1")
    assert builtin_is_used(by_kind["function", "relu"], "y = x.relu()")
    assert not builtin_is_used(by_kind["attribute", "T"], "x.T2")


# -- differences are reported ------------------------------------------------------------------


def test_a_different_run_is_reported_with_exit_1(torch: object, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.grad").write_text("a = tensor(2.0, grad)\nb = a * 3\nprint b\n")
    real = check.gradsh_trace

    def tampered(program: Any, options: check.CheckOptions) -> list[dict[str, Any]]:
        steps = real(program, options)
        steps[1]["vars"]["b"]["grad_fn"] = "AddBackward0"
        steps[2]["printed"] = ["tensor(7., grad_fn=<MulBackward0>)"]
        return steps

    monkeypatch.setattr(check, "gradsh_trace", tampered)
    assert check.cli_main(["s.grad", "--width", "120"]) == 1
    out = capsys.readouterr().out
    rows = table_rows(out)
    assert rows[0] == ["step", "line", "source", "variable", "field", "gradsh", "torch"]
    assert rows[1] == ["2", "2", "b = a * 3", "b", "grad_fn", "AddBackward0", "MulBackward0"]
    assert rows[2] == ["3", "3", "print b", "", "printed[0]", "tensor(7.,", "tensor(6.,"]
    assert rows[3][5:] == ["grad_fn=<MulBackward0>)"] * 2
    assert out.rstrip().endswith("s.grad: 2 differences in 3 steps")


def table_rows(out: str) -> list[list[str]]:
    """The cells of each line of a plain report table."""
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in out.splitlines() if line.startswith("| ")]


def trace(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    full = []
    for number, step in enumerate(steps, start=1):
        entry = {"step": number, "ok": True, "printed": [], "warnings": [], "error": None,
                 "vars": {}}
        entry.update(step)
        full.append(entry)
    return full


def tensor(value: Any, **fields: Any) -> dict[str, Any]:
    state = {"value": value, "shape": [] if not isinstance(value, list) else [len(value)],
             "dtype": "float32", "device": "cpu", "requires_grad": False, "is_leaf": True,
             "grad_fn": None, "grad": None, "retains_grad": False}
    state.update(fields)
    return state


STATEMENTS = [(1, "a = tensor(2.)"), (2, "b = a * 3"), (3, "print b"), (4, "c = 1")]


def test_identical_traces_have_no_differences() -> None:
    steps = trace({"vars": {"a": tensor(2.0)}}, {"printed": ["x"], "vars": {"a": tensor(2.0)}})
    assert compare_traces(steps, steps, STATEMENTS) == []


def test_every_field_is_compared() -> None:
    ours = trace({
        "printed": ["tensor(1.) <MulBackward0 object at 0x7f00>", "same"],
        "warnings": ["UserWarning: one"],
        "error": {"type": "RuntimeError", "message": "boom"},
        "vars": {"a": tensor([1.0, 2.0], grad=[1.0, 1.0], requires_grad=True),
                 "n": {"kind": "int", "repr": "3"}, "only_ours": tensor(1.0)},
    })
    theirs = trace({
        "printed": ["tensor(2.) <MulBackward0 object at 0x5555>", "same", "extra"],
        "warnings": [],
        "error": {"type": "ValueError", "message": "boom"},
        "vars": {"a": tensor([1.0, 2.5], grad=None, requires_grad=True, dtype="float64",
                             device="cuda:0", is_leaf=False, grad_fn="MulBackward0",
                             retains_grad=True),
                 "n": {"kind": "float", "repr": "3.0"}, "only_theirs": tensor(1.0)},
    })
    rows = {(d.variable, d.field): (d.gradsh, d.torch) for d in compare_traces(ours, theirs,
                                                                               STATEMENTS)}
    assert rows == {
        ("", "error"): ("RuntimeError: boom", "ValueError: boom"),
        ("", "printed[0]"): ("tensor(1.) <MulBackward0 object at 0x…>",
                             "tensor(2.) <MulBackward0 object at 0x…>"),
        ("", "printed[2]"): ("(nothing)", "extra"),
        ("", "warnings"): ("UserWarning: one", "(none)"),
        ("a", "value"): ("[1.0, 2.0]", "[1.0, 2.5]"),
        ("a", "dtype"): ("float32", "float64"),
        ("a", "device"): ("cpu", "cuda:0"),
        ("a", "is_leaf"): ("True", "False"),
        ("a", "grad_fn"): ("None", "MulBackward0"),
        ("a", "grad"): ("[1.0, 1.0]", "None"),
        ("a", "retains_grad"): ("False", "True"),
        ("n", "kind"): ("int", "float"),
        ("only_ours", "defined"): ("tensor 1.0", "(undefined)"),
        ("only_theirs", "defined"): ("(undefined)", "tensor 1.0"),
    }


def test_addresses_are_ignored_and_values_compared_with_tolerance() -> None:
    ours = trace({"printed": ["<function <lambda> at 0x7f1234>"],
                  "vars": {"a": tensor(1.0 + 1e-7), "g": {"kind": "grad_fn",
                                                           "repr": "<MulBackward0 object at 0x1>"},
                           "f": {"kind": "float", "repr": "0.30000001192092896"}}})
    theirs = trace({"printed": ["<function <lambda> at 0x5555>"],
                    "vars": {"a": tensor(1.0), "g": {"kind": "grad_fn",
                                                     "repr": "<MulBackward0 object at 0x2>"},
                             "f": {"kind": "float", "repr": "0.30000001192092893"}}})
    assert compare_traces(ours, theirs, STATEMENTS) == []
    assert compare_variable(tensor(1.0 + 1e-3), tensor(1.0)) == [("value", "1.001", "1.0")]
    assert compare_variable(tensor(1, dtype="int64"), tensor(2, dtype="int64")) == [
        ("value", "1", "2")]
    assert compare_variable(tensor(["nan", "inf"]), tensor(["nan", "inf"])) == []
    assert compare_variable(tensor([True]), tensor([False])) == [("value", "[true]", "[false]")]
    assert compare_variable(tensor([1.0], grad=[1.0]), tensor([1.0], grad=[[1.0]])) == [
        ("grad", "[1.0]", "[[1.0]]")]
    assert compare_variable(tensor([1.0, 2.0]), tensor([1.0]))[0][0] == "shape"


def test_a_persisting_difference_is_one_row_with_a_step_range() -> None:
    ours = trace(*[{"vars": {"a": tensor(1.0, grad_fn="X")}} for _ in range(3)],
                 {"vars": {"a": tensor(1.0, grad_fn="Y")}})
    theirs = trace(*[{"vars": {"a": tensor(1.0, grad_fn="Z")}} for _ in range(4)])
    differences = compare_traces(ours, theirs, STATEMENTS)
    assert [(d.steps, d.line, d.source, d.gradsh, d.torch) for d in differences] == [
        ("1-3", 1, "a = tensor(2.)", "X", "Z"), ("4", 4, "c = 1", "Y", "Z")]


def test_a_side_that_stopped_early_is_reported_once() -> None:
    ours = trace({}, {"error": {"type": "RuntimeError", "message": "stop"}})
    theirs = trace({}, {}, {}, {})
    differences = compare_traces(ours, theirs, STATEMENTS)
    assert [(d.step, d.field, d.gradsh, d.torch) for d in differences] == [
        (2, "error", "RuntimeError: stop", "(no error)"), (3, "step", "(not run)", "ran")]


def test_sim_cuda_compares_without_the_device_suffix() -> None:
    ours = trace({"printed": ["tensor([1., 2.], device='cuda:0', requires_grad=True)",
                              "cuda:0"],
                  "vars": {"a": tensor([1.0, 2.0], device="cuda:0")}})
    theirs = trace({"printed": ["tensor([1., 2.], requires_grad=True)", "cuda:0"],
                    "vars": {"a": tensor([1.0, 2.0], device="cpu")}})
    assert compare_traces(ours, theirs, STATEMENTS, sim_cuda=True) == []
    assert len(compare_traces(ours, theirs, STATEMENTS, sim_cuda=False)) == 2
    assert normalise_text("tensor([1.],\n       device='cuda:0')", sim_cuda=True) == (
        "tensor([1.])")


def test_long_texts_are_cut_around_the_first_difference() -> None:
    left, right = focus("x" * 100 + "abc" + "y" * 100, "x" * 100 + "abd" + "y" * 100)
    assert left.startswith("…") and left.endswith("…") and "abc" in left and "abd" in right
    assert focus("short", "other") == ("short", "other")


def test_report_table(capsys: pytest.CaptureFixture[str]) -> None:
    check.render_report([Difference(2, 2, "b = a * 3", "b", "grad_fn", "A", "B", 4)], "s.grad",
                        5, color=False, width=100)
    out = capsys.readouterr().out
    assert table_rows(out)[1] == ["2-4", "2", "b = a * 3", "b", "grad_fn", "A", "B"]
    assert out.rstrip().endswith("s.grad: 1 difference in 5 steps")
    check.render_report([], "s.grad", 1, color=False, width=80)
    assert capsys.readouterr().out == "s.grad: identical, 1 step\n"


# -- the command's other outcomes -------------------------------------------------------------


def test_without_torch_exit_2_with_the_install_hint(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "torch.py").write_text("raise ImportError('No module named torch')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(fake), *filter(None, [os.environ.get("PYTHONPATH")])]))
    script = tmp_path / "s.grad"
    script.write_text("a = tensor(1.)\n")
    assert check.cli_main([str(script)]) == 2
    err = capsys.readouterr().err
    assert "cannot import torch" in err and "pip install torch" in err


def test_unreadable_or_unparsable_files_exit_2(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert check.cli_main([str(tmp_path / "missing.grad")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.grad"
    bad.write_text("a = (1,\n")
    assert check.cli_main([str(bad)]) == 2
    assert "SyntaxError" in capsys.readouterr().err


@pytest.mark.parametrize("shared", [False, True])
def test_a_crashing_torch_side_is_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            shared: bool) -> None:
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "torch.py").write_text("import os\nos._exit(7)\n")  # dies as if it segfaulted
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(fake), str(ROOT)]))
    script = tmp_path / "s.grad"
    script.write_text("a = tensor(1.)\n")
    with sides(shared):
        assert check.cli_main([str(script)]) == 1
        out = capsys.readouterr().out
        assert "the torch side crashed" in out
        assert "(not run)" in out
        assert check.cli_main([str(script)]) == 1  # and again: a dead server is started anew


def test_the_shared_torch_side_forks_a_fresh_process_for_each_check(
        torch: object, torch_server: check.TorchServer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A warning PyTorch gives once per process comes in every check: nothing carries over.
    script = tmp_path / "s.grad"
    script.write_text("a = tensor(1., grad)\nb = a * 2\nprint(b.grad)\n")
    for _ in range(2):
        assert check.cli_main([str(script)]) == 0
        assert capsys.readouterr().out.strip().endswith("identical, 3 steps")
    crash = tmp_path / "t.grad"
    crash.write_text("a = tensor(1.)\n")
    assert check.cli_main([str(crash), "--timeout", "0.001"]) == 1  # stops the server
    assert "timed out" in capsys.readouterr().out
    assert check.cli_main([str(script)]) == 0  # the next check starts another


def test_keep_going_runs_both_sides_to_the_end(torch: object, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.grad"
    script.write_text("a = undefined\nb = tensor(1.)\nc = b @ b\nprint b\n")
    assert check.cli_main([str(script), "--keep-going"]) == 0
    assert capsys.readouterr().out.strip().endswith("identical, 4 steps")
    assert check.cli_main([str(script)]) == 0
    assert capsys.readouterr().out.strip().endswith("identical, 1 step")


def test_through_the_gradsh_command(torch: object) -> None:
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "gradsh", "check", str(PARITY / "retain_grad_accumulate.grad")],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith("identical, 12 steps\n")


@pytest.mark.parametrize("shared", [False, True])
def test_a_slow_torch_side_times_out(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     shared: bool) -> None:
    script = tmp_path / "s.grad"
    script.write_text("a = tensor(1.)\n")
    with sides(shared):
        assert check.cli_main([str(script), "--timeout", "0.001"]) == 1
    assert "the torch side timed out after 0.001 s" in capsys.readouterr().out


def test_an_unusable_device_option_exits_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("CuPy is installed: cuda may well be usable here")
    script = tmp_path / "s.grad"
    script.write_text("a = tensor(1.)\n")
    assert check.cli_main([str(script), "--device", "cuda"]) == 2
    assert "--sim-cuda" in capsys.readouterr().err
