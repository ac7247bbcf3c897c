"""Untrusted `.grad` scripts stay harmless: export writes only what it vouches for, check never
runs a script that does not export cleanly, and the PyTorch side runs behind a second wall.

One test per attack of issue 13 (and the ones an attacker would try next); each asserts both
the refusal and that nothing ran (no marker file appeared).
"""

from __future__ import annotations

import ast
import builtins
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gradsh import check, export, pysafe
from gradsh.errors import GradshError
from gradsh.export import ExportOptions, export_source

MARK = "PWNED"  # every attack tries to create this file in the current folder


def refusal(source: str) -> str:
    """The one-line head of the ExportError `source` gets (it must get one)."""
    with pytest.raises(GradshError) as info:
        export_source(source, "evil.grad")
    err = info.value
    assert err.kind == "ExportError", err.message
    assert err.pos is not None
    return f"evil.grad:{err.pos.line}:{err.pos.column}: {err.message}"


def run_gradsh(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-m", "gradsh", *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def python_names(program: str) -> set[str]:
    """Every identifier the Python program loads, stores or binds."""
    tree = ast.parse(program)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return names | {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}


# -- the attacks of the issue -----------------------------------------------------------------


def test_a_python_builtin_call_is_refused_and_check_runs_nothing(tmp_path: Path) -> None:
    script = tmp_path / "evil.grad"
    script.write_text(f'__import__("os").system("touch {MARK}")\n')
    for command in ("export", "check"):
        result = run_gradsh(command, "evil.grad", cwd=tmp_path)
        assert result.returncode == 2
        assert result.stderr.splitlines()[0] == (
            "evil.grad:1:1: ExportError: cannot export the name '__import__': it is neither a "
            "gradsh builtin nor a variable of this script")
        assert result.stdout == ""
        assert not (tmp_path / MARK).exists()


def test_a_module_path_outside_the_builtins_is_refused() -> None:
    assert refusal(f'y = torch.os.system("touch {MARK}")') == (
        "evil.grad:1:5: cannot export 'torch.os': not a gradsh builtin")
    assert refusal("y = F.os") == "evil.grad:1:5: cannot export 'torch.nn.functional.os': " \
        "not a gradsh builtin"
    assert refusal("y = torch.print") .startswith("evil.grad:1:5: cannot export 'torch.print'")


def test_check_does_not_start_the_torch_side_of_a_refused_script(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def never(*args: Any) -> None:
        raise AssertionError("the torch side was started")

    monkeypatch.setattr(check, "TorchSide", never)
    script = tmp_path / "evil.grad"
    script.write_text(f'x = tensor(1.)\ny = torch.os.system("touch {MARK}")\n')
    assert check.cli_main([str(script)]) == 2
    assert "ExportError: cannot export 'torch.os'" in capsys.readouterr().err


def test_a_file_name_with_a_line_break_stays_inside_the_comment(tmp_path: Path,
                                                                  torch: object) -> None:
    name = f'name\nopen("{MARK}","w").write("x")\n#.grad'
    (tmp_path / name).write_text("x = tensor(1.)\n")
    exported = run_gradsh("export", name, cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    tree = ast.parse(exported.stdout)
    assert [type(node).__name__ for node in tree.body] == ["Import", "Assign"]
    assert exported.stdout.splitlines()[0] == (
        "# PyTorch program exported by gradsh from "
        "'name\\nopen(\"PWNED\",\"w\").write(\"x\")\\n#.grad'.")
    # Run it as `gradsh export | python` would, and through check: nothing is written.
    ran = subprocess.run([sys.executable, "-"], input=exported.stdout, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    checked = run_gradsh("check", name, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not (tmp_path / MARK).exists()


def test_a_file_name_cannot_declare_the_source_encoding(tmp_path: Path, torch: object) -> None:
    """`coding:shift_jis` on line 1 would make Python read the UTF-8 program as Shift JIS,
    where the UTF-8 bytes of `Á` end in a lead byte that swallows the `\\` of an escaped `"`:
    the string would end there and the rest of it would run."""
    name = "coding:shift_jis x.grad"
    (tmp_path / name).write_text("s = \"\u00c1\\\"; open('PWNED', 'w') #\"\n", encoding="utf-8")
    exported = run_gradsh("export", name, "-o", "prog.py", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    program = (tmp_path / "prog.py").read_text(encoding="utf-8")
    assert program.splitlines()[0] == (
        "# PyTorch program exported by gradsh from 'coding\\x3ashift_jis x.grad'.")
    ran = subprocess.run([sys.executable, "prog.py"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert not (tmp_path / MARK).exists()
    gate = pysafe.Gate([], export.HELPERS)
    with pytest.raises(pysafe.Refused):
        gate.check_header("# -*- coding: latin-1 -*-\nimport torch")


def test_a_comment_the_export_keeps_cannot_end_early(tmp_path: Path, torch: object) -> None:
    """The export keeps the script's comments: whatever a comment holds (a character some
    reader takes for a line break, a bidirectional override), it stays one comment line. (A
    `\r` ends the line for gradsh too: what follows is code, which the export refuses.)"""
    breaks = ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\u202e", "\x00"]
    lines = []
    for brk in breaks:
        attack = f'{brk}open("{MARK}", "w").write("x")'
        lines += [f"# {attack}", f"x = tensor(1.)  # {attack}"]
    program = export_source("\n".join(lines) + "\n# the end\n", "evil.grad").source()
    assert [type(node).__name__ for node in ast.parse(program).body] == (
        ["Import"] + ["Assign"] * len(breaks))
    for line in program.splitlines():
        assert line.isprintable(), repr(line)  # escaped: no control or separator character
    assert program.count(f'open("{MARK}"') == 2 * len(breaks)  # kept, as text
    ran = subprocess.run([sys.executable, "-"], input=program, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert not (tmp_path / MARK).exists()


# -- what an attacker tries next --------------------------------------------------------------


@pytest.mark.parametrize("attribute", [
    "__class__", "__globals__", "__dict__", "__subclasses__", "__reduce_ex__", "__init__",
    "_saved___class__", "__builtins__", "system", "load", "save", "from_file", "storage",
    "untyped_storage", "format", "gi_frame", "f_globals", "mro",
])
def test_attributes_gradsh_does_not_serve_are_refused(attribute: str) -> None:
    message = refusal(f"x = tensor(1., grad)\ny = x.{attribute}")
    assert message == (f"evil.grad:2:5: cannot export the attribute '.{attribute}': gradsh "
                       "serves no such attribute")
    refusal(f"x = tensor(1., grad)\ny = (x * 2).grad_fn.{attribute}")
    refusal(f'y = "text".{attribute}')


@pytest.mark.parametrize("attribute", ["tofile", "dump", "dumps", "ctypes", "base",
                                       "__array_interface__", "setflags"])
def test_a_numpy_array_serves_no_attribute_in_a_script_or_its_export(attribute: str) -> None:
    # x.numpy() is a value a script may print and pass on; NumPy's own surface (writing files,
    # raw memory) is reachable neither in gradsh nor in the export.
    source = f'x = tensor([1., 2.])\na = x.numpy()\ny = a.{attribute}("{MARK}")'
    assert refusal(source).startswith(f"evil.grad:3:5: cannot export the attribute '.{attribute}'")
    from gradsh.interpreter import Interpreter
    from gradsh.parser import parse

    interp = Interpreter("evil.grad", source)
    outcomes = list(interp.run(parse(source, "evil.grad")))
    assert outcomes[-1].error is not None
    assert outcomes[-1].error.kind == "AttributeError"
    assert not Path(MARK).exists()


@pytest.mark.parametrize("name", [
    "open", "eval", "exec", "compile", "getattr", "setattr", "vars", "globals", "locals",
    "breakpoint", "input", "help", "type", "object", "memoryview", "__import__",
    "__builtins__", "__loader__", "__build_class__", "exit",
])
def test_pythons_builtins_are_refused(name: str) -> None:
    assert refusal(f'y = {name}("os")').startswith(f"evil.grad:1:5: cannot export the name "
                                                  f"'{name}'")


def test_a_variable_named_like_a_python_builtin_never_reaches_it() -> None:
    # Assigned, deleted, then read: unbound in Python, where `open` would be the builtin.
    exported = export_source("open = tensor(1.)\ndel open\ny = open", "t.grad")
    assert [s.code for s in exported.steps] == ["open_ = torch.tensor(1.)", "del open_",
                                                "y = open_"]
    assert exported.names["open"] == "open_"
    assert not python_names(exported.source()) & (set(dir(builtins)) - {"print", "range"})


def test_string_literals_come_out_as_the_same_value() -> None:
    tricky = r'"a\"b\\c\nd\te\'f\0 \"); __import__(\"os\").system(\"x\") #"'
    exported = export_source(f"s = {tricky}\nprint(s, {tricky})", "t.grad")
    strings = [node.value for node in ast.walk(ast.parse(exported.source()))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    value = 'a"b\\c\nd\te\'f\0 "); __import__("os").system("x") #'
    assert strings == [value, value]
    assert "__import__" not in python_names(exported.source())


def test_numbers_are_python_literals_of_the_same_value() -> None:
    # The grammar takes non-ASCII digits and leading zeros; Python source takes neither.
    code = export_source("x = 007 + ٣ + 1e999 + 00 + 2. + 1_000", "t.grad").steps[0].code
    assert code == "x = 7 + 3 + 1e999 + 00 + 2. + 1_000"
    compile(code, "<test>", "exec")


def test_a_device_or_dtype_string_is_a_literal_only() -> None:
    code = export_source('x = tensor(1.).to("cuda\\"); import os; #")\ndevice "cpu\\nimport os"\n'
                         'dtype "float32\\")"', "t.grad").source()
    tree = ast.parse(code)
    assert [type(node).__name__ for node in tree.body] == ["Import", "Assign", "Expr", "Expr"]
    assert {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)} == {
        1.0, 'cuda"); import os; #', "cpu\nimport os", 'float32")'}


def test_unicode_names_are_the_names_python_reads() -> None:
    # gradsh normalises identifiers as Python does (NFKC), so `ｏｐｅｎ` is `open`: refused as
    # any name the script never assigns, and `ｘ` is the variable x.
    assert refusal('ｏｐｅｎ("x", "w")') == (
        "evil.grad:1:1: cannot export the name 'open': it is neither a gradsh builtin nor a "
        "variable of this script")
    assert "cannot export the name 'eval'" in refusal("y = ℯval")
    assert export_source("ｘ = tensor(1.)\ny = x * 2", "t.grad").steps[0].code == \
        "x = torch.tensor(1.)"
    # A name Python keeps as it is exports as it is.
    assert export_source("α = tensor(1.)\nβ = α * 2", "t.grad").steps[1].code == "β = α * 2"


def test_keyword_argument_names_are_vetted() -> None:
    # (a keyword is an identifier too: gradsh reads `ｒequires_grad` as Python does)
    assert export_source("x = tensor(1., ｒequires_grad=True)", "t.grad").steps[0].code == \
        "x = torch.tensor(1., requires_grad=True)"
    assert "Python reserves dunder names" in refusal("x = tensor(1., __class__=True)")


def test_lambda_parameters_and_hook_bodies_are_vetted() -> None:
    assert "'__import__'" in refusal("x = tensor(1., grad)\nh = x.register_hook(__import__ -> 1)")
    assert "'open'" in refusal('x = tensor(1., grad)\nh = x.register_hook(g -> open("f", "w"))')
    assert "'torch.os'" in refusal("x = tensor(1., grad)\nh = x.register_hook(g -> torch.os)")
    assert "'.__globals__'" in refusal("x = tensor(1., grad)\nh = x.register_hook(g -> "
                                       "g.__globals__)")
    # A parameter named like a builtin is bound inside its lambda: renamed, still exported.
    code = export_source("x = tensor(1., grad)\nh = x.register_hook(open -> open * 2)",
                         "t.grad").steps[1].code
    assert code == "h = x.register_hook(lambda open_: open_ * 2)"


def test_print_arguments_are_vetted() -> None:
    assert "'open'" in refusal('print(open("f", "w"))')
    assert "'.__class__'" in refusal("print(print.__class__)")
    assert "'.__globals__'" in refusal("x = tensor(1., grad)\nprint x, (x * 2).grad_fn.__globals__")


def test_graph_output_is_a_comment_on_the_torch_side() -> None:
    exported = export_source('x = tensor(1., grad)\ny = x * 2\ngraph y -o "/tmp/PWNED.dot"\n'
                             'graph y -o "a\\nimport os"', "t.grad")
    assert [s.code for s in exported.steps[2:]] == ['# graph y -o "/tmp/PWNED.dot"',
                                                    '# graph y -o "a\\nimport os"']
    assert ast.parse(exported.steps[2].code).body == []
    # Bidirectional overrides in a display's comment are escaped, so it reads as Python reads it.
    shown = export_source('x = tensor(1.)\ngraph x -o "\u202egpj.dot"', "t.grad").steps[1].code
    assert shown == '# graph x -o "\\u202egpj.dot"'


def test_assignments_to_torch_are_refused() -> None:
    assert refusal("torch.relu = g -> g") == (
        "evil.grad:1:1: cannot export an assignment to a torch attribute")
    assert "torch attribute" in refusal("torch.pi += 1")
    assert "torch attribute" in refusal("Tensor.grad = None")
    assert "torch attribute" in refusal("torch.float64.is_floating_point = 1")
    # Through a variable the exporter cannot tell a class from a tensor: only tensor
    # attributes may be assigned, so no method of torch.Tensor can be replaced.
    assert refusal("T = Tensor\nT.add = print") == (
        "evil.grad:2:1: cannot export an assignment to '.add': not a tensor attribute")
    assert export_source("x = tensor(1., grad)\nx.grad = None\nx.is_leaf = true",
                         "t.grad").steps[2].code == "x.is_leaf = True"


def test_header_options_cannot_name_an_output_file(tmp_path: Path) -> None:
    script = tmp_path / "evil.grad"
    for header in ("-o evil.py", "--output evil.py", "--seed -oevil.py", "--seed=0 -o evil.py"):
        script.write_text(f"# gradsh: {header}\nx = tensor(1.)\n")
        result = run_gradsh("export", "evil.grad", cwd=tmp_path)
        assert result.returncode == 2, header
        assert not (tmp_path / "evil.py").exists()
    script.write_text("# gradsh: --seed 3 --device cpu\nx = tensor(1.)\n")
    result = run_gradsh("export", "evil.grad", cwd=tmp_path)
    assert "torch.manual_seed(3)\ntorch.set_default_device(\"cpu\")" in result.stdout


# -- the gate and the second wall -------------------------------------------------------------


@pytest.mark.parametrize("code", [
    'open("PWNED", "w")', "torch.os", "x.__class__", "import os", "from os import system",
    'f"{x}"', "x(**y)", "lambda *a: a", "def f(): pass", "class C: pass", "(y := 1)",
    "torch.nn.functional.os", "b'x'", "__builtins__", "getattr(x, 'y')", "x.append",
])
def test_the_gate_refuses_what_the_exporter_never_writes(code: str) -> None:
    gate = pysafe.Gate(["x", "y"], export.HELPERS)
    with pytest.raises(pysafe.Refused):
        gate.check_step(code)


def test_the_gate_passes_every_shipped_script() -> None:
    # export_source runs the gate on every chunk; tests/test_check.py runs these in PyTorch.
    root = Path(__file__).resolve().parent
    for path in sorted((root / "parity").glob("*.grad")) + sorted(
            (root.parent / "scripts").glob("*.grad")):
        export_source(path.read_text(), str(path), ExportOptions(seed=0, device="cpu"))


def test_the_gate_refuses_a_header_with_more_than_imports_and_helpers() -> None:
    gate = pysafe.Gate([], export.HELPERS)
    gate.check_header("import torch\nimport torch.nn.functional as F\n" + export.HELPERS["_true"])
    for extra in ("import os", "import torch as os", "x = 1",
                  export.HELPERS["_true"].replace("bool(value)", "open(value)")):
        with pytest.raises(pysafe.Refused):
            gate.check_header("import torch\n" + extra)


def test_the_torch_side_runs_with_few_builtins(torch: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from gradsh.torch_side import StepRunner

    monkeypatch.chdir(tmp_path)
    runner = StepRunner(torch, {"y": "y"}, sim_cuda=False)
    assert runner.run("import torch", "<header>")[0] is None
    for code in (f'open("{MARK}", "w")', 'eval("1")', 'getattr(torch, "os")', "exec"):
        error = runner.run(code, "<step>")[0]
        assert error is not None and error["type"] == "NameError", code
    # Its __import__ serves torch (whose C code imports through it) but loads nothing new.
    assert "gradsh_never_loaded" not in sys.modules
    error = runner.run('__import__("gradsh_never_loaded")', "<step>")[0]
    assert error == {"type": "ImportError",
                     "message": "the exported program may not import 'gradsh_never_loaded'"}
    assert runner.run("y = torch.tensor([1., 2.]).sum()", "<step>")[0] is None
    assert runner.snapshot()["y"]["value"] == 3.0
    assert not (tmp_path / MARK).exists()
