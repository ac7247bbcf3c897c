"""The gradsh command as a user runs it: subprocesses on the installed command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GRADSH = shutil.which("gradsh")
COMMAND = [GRADSH] if GRADSH else [sys.executable, "-m", "gradsh"]


def gradsh(*args: str, stdin: str | None = None, cwd: Path | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.pop("GRADSH_SIM_CUDA", None)
    full_env.update(env or {})
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
        env=full_env, timeout=120,
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert "\x1b[" not in result.stdout + result.stderr  # piped output is plain


RETAIN = """\
a = tensor(2.0, requires_grad=True)
b = tensor(3.0)
c = a*a*5
d = c*c*b
c.retain_grad()
backward d retain
print a.grad, c.grad
d.backward()
print(a.grad, c.grad)
"""


@pytest.fixture
def script(tmp_path: Path):
    def write(text: str, name: str = "s.grad") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def test_run_prints_each_statement_and_the_table(script) -> None:
    path = script(RETAIN)
    result = gradsh(str(path))
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ">>> c = a*a*5" in out
    assert "tensor(2400.) tensor(120.)" in out
    assert "tensor(4800.) tensor(240.)" in out
    header = next(line for line in out.splitlines() if line.startswith("name "))
    for column in ("name", "value", "shape", "dtype", "device", "requires_grad", "is_leaf",
                   "grad_fn", "grad"):
        assert column in header
    # The row of c after `c = a*a*5` is new: its name is marked with `*`, once.
    step = out.split(">>> c = a*a*5")[1].split(">>>")[0]
    row_c = next(line for line in step.splitlines() if line.startswith("c*"))
    assert "MulBackward0" in row_c and row_c.count("*") == 1
    # `run FILE` is the same as `FILE`.
    assert gradsh("run", str(path)).stdout == out


def test_quiet_shows_only_explicit_output(script) -> None:
    result = gradsh("run", "--quiet", str(script(RETAIN)))
    assert result.returncode == 0
    assert result.stdout == "tensor(2400.) tensor(120.)\ntensor(4800.) tensor(240.)\n"


def test_final_shows_output_then_the_last_table(script) -> None:
    result = gradsh("run", "--final", str(script(RETAIN)))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["tensor(2400.) tensor(120.)", "tensor(4800.) tensor(240.)"]
    assert ">>>" not in result.stdout
    assert sum(line.startswith("name ") for line in lines) == 1
    assert any(line.startswith("a ") and "4800." in line for line in lines)


def test_json_trace_follows_the_spec(script) -> None:
    result = gradsh("run", "--json", str(script(RETAIN + "no_grad { e = a * 2; f = e + 1 }\n")))
    assert result.returncode == 0, result.stderr
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["step"] for s in steps] == list(range(1, 11))  # the block is one step
    first = steps[0]
    assert set(first) == {"step", "line", "source", "ok", "printed", "warnings", "error", "vars"}
    assert first["vars"]["a"] == {
        "value": 2.0, "shape": [], "dtype": "float32", "device": "cpu", "requires_grad": True,
        "is_leaf": True, "grad_fn": None, "grad": None, "retains_grad": False,
    }
    c_step = steps[2]
    assert c_step["source"] == "c = a*a*5" and c_step["line"] == 3
    assert c_step["vars"]["c"]["grad_fn"] == "MulBackward0"
    assert c_step["vars"]["c"]["is_leaf"] is False
    assert list(c_step["vars"]) == ["a", "b", "c"]  # definition order
    assert steps[6]["printed"] == ["tensor(2400.) tensor(120.)"]
    assert steps[8]["vars"]["a"]["grad"] == 4800.0
    assert steps[4]["vars"]["c"]["retains_grad"] is True
    block = steps[9]
    assert block["source"] == "no_grad { e = a * 2; f = e + 1 }"
    assert block["vars"]["e"]["requires_grad"] is False
    assert block["vars"]["f"]["grad_fn"] is None


def test_json_warnings_and_errors(script) -> None:
    text = "x = tensor([1., 2.], grad)\ny = x * 2\nprint y.grad\ny.backward()\n"
    result = gradsh("run", "--json", "--keep-going", str(script(text)))
    assert result.returncode == 1
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    assert steps[2]["printed"] == ["None"]
    assert len(steps[2]["warnings"]) == 1
    assert steps[2]["warnings"][0].startswith(
        "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."
    )
    assert "Triggered internally" not in steps[2]["warnings"][0]
    error = steps[3]["error"]
    assert steps[3]["ok"] is False
    from gradsh.explainer import NON_SCALAR_HINT

    assert error == {"type": "RuntimeError",
                     "message": "grad can be implicitly created only for scalar outputs",
                     "line": 4, "column": 1, "hint": NON_SCALAR_HINT}


def test_json_non_finite_and_bool_values(script) -> None:
    text = "x = tensor([1., 0., -1.]) / tensor(0.)\nm = x > 0\n"
    steps = [json.loads(line) for line in gradsh("run", "--json", str(script(text)))
             .stdout.splitlines()]
    assert steps[0]["vars"]["x"]["value"] == ["inf", "nan", "-inf"]
    assert steps[1]["vars"]["m"]["value"] == [True, False, False]
    assert steps[1]["vars"]["m"]["dtype"] == "bool"


def test_syntax_error_is_one_step_zero_object_and_nothing_runs(script) -> None:
    path = script("a = tensor(1.)\nc = a * * b\n")
    result = gradsh("run", "--json", str(path))
    assert result.returncode == 2
    [only] = [json.loads(line) for line in result.stdout.splitlines()]
    assert only["step"] == 0 and only["ok"] is False
    assert only["error"]["type"] == "SyntaxError"
    assert (only["error"]["line"], only["error"]["column"]) == (2, 9)
    plain = gradsh(str(path))
    assert plain.returncode == 2
    assert plain.stdout == ""  # nothing ran
    assert plain.stderr.splitlines() == [
        f"{path}:2:9: SyntaxError: unexpected '*', expected an expression",
        "    c = a * * b",
        "            ^",
    ]


def test_runtime_error_stops_with_location_and_caret(script) -> None:
    path = script("a = tensor([1., 2.])\nb = tensor([1., 2., 3.])\nc = a + b\nprint 1\n")
    result = gradsh(str(path))
    no_traceback(result)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{path}:3:5: RuntimeError: The size of tensor a (2) must match the size of tensor b (3) "
        "at non-singleton dimension 0",
        "    c = a + b",
        "        ^^^^^",
    ]
    assert ">>> print 1" not in result.stdout  # the script stopped


def test_keep_going_runs_the_rest(script) -> None:
    path = script("x = undefined_name\nprint 1\n")
    result = gradsh("run", "--quiet", "--keep-going", str(path))
    assert result.returncode == 1
    assert result.stdout == "1\n"
    assert "NameError: name 'undefined_name' is not defined" in result.stderr


def test_dash_c_and_stdin() -> None:
    c = gradsh("-c", "a = tensor(2.0, grad); c = a*a*5; c.backward(); print a.grad", "--quiet")
    assert c.returncode == 0 and c.stdout == "tensor(20.)\n"
    piped = gradsh("--quiet", stdin="a = tensor(1.)\nprint a + 1\n")
    assert piped.returncode == 0 and piped.stdout == "tensor(2.)\n"


def test_seed_option_is_manual_seed(script) -> None:
    path = script("a = rand(3)\nprint a\n")
    one = gradsh("run", "--quiet", "--seed", "20200910", str(path))
    two = gradsh("run", "--quiet", "--seed", "20200910", str(path))
    assert one.returncode == 0
    assert one.stdout == two.stdout == "tensor([0.9817, 0.9880, 0.8879])\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"\x00\x01\x02binary", "binary"),
        (b"a = tensor(1.)\n\xff\xfe\n", "not valid UTF-8"),
    ],
)
def test_unreadable_files_exit_2(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "x.grad"
    if content is not None:
        path.write_bytes(content)
    result = gradsh(str(path))
    no_traceback(result)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1  # one line


def test_directory_exits_2(tmp_path: Path) -> None:
    result = gradsh(str(tmp_path))
    assert result.returncode == 2 and "is a directory" in result.stderr


def test_bom_and_crlf_run(tmp_path: Path) -> None:
    path = tmp_path / "w.grad"
    path.write_bytes(b"\xef\xbb\xbfa = tensor(2.)\r\nprint a * 3\r\n")
    result = gradsh("run", "--quiet", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "tensor(6.)\n"


def test_usage_errors_exit_2() -> None:
    assert gradsh("run").returncode == 2
    assert gradsh("--no-such-option", "x.grad").returncode == 2
    assert gradsh("run", "--json", "--quiet", "x.grad").returncode == 2


def test_width_option(script) -> None:
    path = script("x = arange(12.)\n")
    narrow = gradsh("run", "--width", "80", str(path)).stdout.splitlines()
    wide = gradsh("run", "--width", "200", str(path)).stdout.splitlines()
    assert max(len(line) for line in narrow) <= 80
    assert len(narrow) > len(wide)  # the value wraps over more lines when narrower
    assert max(len(line) for line in wide) <= 200


def test_timeout_stops_a_long_run(script) -> None:
    path = script("x = tensor(1.)\nrepeat 100000000 { x = x + 1 }\nprint 2\n")
    result = gradsh("run", "--quiet", "--timeout", "1", str(path))
    no_traceback(result)
    assert result.returncode == 1
    assert "2:1: TimeoutError: the script ran longer than --timeout 1 seconds" in result.stderr
    assert result.stdout == ""


def test_a_tensor_over_the_memory_limit_is_refused_at_once(script) -> None:
    path = script("a = ones(1000, 1)\nb = a + ones(1, 1000)\nc = zeros(10**12)\nprint 1\n")
    result = gradsh("run", "--quiet", "--keep-going", "--max-memory", "1M", str(path))
    assert result.returncode == 1
    assert result.stdout == "1\n"
    lines = result.stderr.splitlines()
    assert lines[0].endswith(
        "2:5: RuntimeError: refusing to allocate 3.81 MiB for a tensor of shape [1000, 1000]: "
        "gradsh's memory limit is 1.00 MiB (set it with --max-memory or GRADSH_MAX_MEMORY)")
    assert "refusing to allocate 3.64 TiB for a tensor of shape [1000000000000]" in lines[4]
    # gradsh's own stop: the statement was undone, and the line after the error says so
    assert lines[3].startswith("gradsh undid this statement") and lines[7] == lines[3]
    steps = [json.loads(line) for line in gradsh(
        "run", "--json", "--keep-going", "--max-memory", "1M", str(path)).stdout.splitlines()]
    assert [step.get("rolled_back", False) for step in steps] == [False, True, True, False]
    assert gradsh("run", "--max-memory", "lots", str(path)).returncode == 2


ECHO = """\
a = tensor(2.0, requires_grad=True)
a.is_leaf
a * 3
a.retain_grad()
"""


def test_a_bare_expression_shows_its_value_in_every_mode(script, capsys) -> None:
    from gradsh.cli import main  # in this process: the modes, not the installed command

    def run(*args: str) -> str:
        assert main([*args, str(path)]) == 0
        return capsys.readouterr().out

    path = script(ECHO)
    table = run("run")
    assert ">>> a.is_leaf\nTrue\nname " in table
    assert ">>> a * 3\ntensor(6., grad_fn=<MulBackward0>)\nname " in table
    assert ">>> a.retain_grad()\nname " in table  # None shows nothing, as in Python's REPL
    assert run("run", "--quiet") == "True\ntensor(6., grad_fn=<MulBackward0>)\n"
    assert run("run", "--final").startswith("True\ntensor(6., grad_fn=<MulBackward0>)\nname ")
    steps = [json.loads(line) for line in run("run", "--json").splitlines()]
    assert [step["printed"] for step in steps] == [
        [], ["True"], ["tensor(6., grad_fn=<MulBackward0>)"], []]


def test_a_python_program_keeps_pythons_rule_no_echo(script) -> None:
    path = script("import torch\na = torch.tensor(2.0)\na * 3\na.is_leaf\n", "p.py")
    assert gradsh("run", "--quiet", str(path)).stdout == ""


def test_a_mistyped_subcommand_is_named(tmp_path: Path) -> None:
    result = gradsh("tset", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("gradsh: error: no such file or subcommand: tset\n"
                             "hint: did you mean `gradsh test`?\n")
    far = gradsh("nothing.grad", cwd=tmp_path)
    assert far.returncode == 2 and "hint" not in far.stderr


def test_help_lists_every_subcommand() -> None:
    from gradsh.cli import DELEGATED, SUBCOMMANDS

    out = gradsh("--help").stdout
    for name in (*SUBCOMMANDS, *DELEGATED):
        assert f"  gradsh {name} " in out, name
    assert max(len(line) for line in out.splitlines()) <= 80


def test_graph_writes_to_an_unquoted_path(script, tmp_path: Path) -> None:
    path = script("a = tensor(2., grad)\nc = a * a\ngraph c -o c.dot\ngraph c -o out-c.dot\n"
                  'name = "named.dot"\ngraph c -o name\n')
    result = gradsh("run", "--quiet", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["wrote the graph of c to c.dot",
                                          "wrote the graph of c to out-c.dot",
                                          "wrote the graph of c to named.dot"]
    for name in ("c.dot", "out-c.dot", "named.dot"):
        assert (tmp_path / name).read_text().startswith("digraph")


def test_the_collector_runs_as_tuned_once_gradsh_has_started(script) -> None:
    """main pauses Python's garbage collector while gradsh imports itself; the program then
    runs with it on, at the thresholds cli._tune_gc sets, and a caller's setting comes back."""
    import gc

    program = script("import gc\nprint(gc.isenabled(), gc.get_threshold()[0] >= 10_000)\n",
                     "p.py")
    result = gradsh("run", "--quiet", str(program))
    assert (result.returncode, result.stdout) == (0, "True True\n"), result.stderr
    from gradsh.cli import main

    thresholds = gc.get_threshold()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            assert main(["run", "--quiet", str(program)]) == 0
            assert gc.isenabled() is enabled
    finally:
        gc.enable()
        gc.set_threshold(*thresholds)
