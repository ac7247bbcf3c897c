"""gradsh export: every statement form as PyTorch code, and exported programs that run in torch."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gradsh import export
from gradsh.export import ExportOptions, export_source

PARITY = Path(__file__).parent / "parity"


def steps(source: str) -> list[str]:
    """The Python code of each top-level statement."""
    return [step.code for step in export_source(source, "t.grad").steps]


def code(source: str) -> str:
    return "\n".join(steps(source))


# -- statements -------------------------------------------------------------------------------


def test_one_chunk_per_top_level_statement() -> None:
    assert steps("a = tensor(2.0, grad)\nb = tensor(3.0); c = a * b") == [
        "a = torch.tensor(2.0, requires_grad=True)",
        "b = torch.tensor(3.0)",
        "c = a * b",
    ]


def test_gradsh_statements_as_their_pytorch_meaning() -> None:
    assert steps(
        "seed 20200910\ndevice cuda\ndevice cuda:0\ndevice cpu\n"
        "dtype float64\ndtype torch.float32\n"
        "d = tensor(1., grad) * 2\nbackward d\nbackward d retain\nbackward d retain create_graph\n"
        "backward d.sum() create_graph\nprint d, d.grad\nprint(d)\nprint\ndel d\n"
    ) == [
        "torch.manual_seed(20200910)",
        'torch.set_default_device("cuda")',
        'torch.set_default_device("cuda:0")',
        'torch.set_default_device("cpu")',
        "torch.set_default_dtype(torch.float64)",
        "torch.set_default_dtype(torch.float32)",
        "d = torch.tensor(1., requires_grad=True) * 2",
        "d.backward()",
        "d.backward(retain_graph=True)",
        "d.backward(retain_graph=True, create_graph=True)",
        "d.sum().backward(create_graph=True)",
        "print(d, d.grad)",
        "print(d)",
        "print()",
        "del d",
    ]


def test_blocks_become_with_and_for() -> None:
    assert code(
        "w = tensor([1.], grad)\n"
        "no_grad { a = w * 2; w -= 1 }\n"
        "enable_grad { b = w * 2 }\n"
        "set_grad_enabled(false) {\n  c = w * 2\n  no_grad { }\n}\n"
        "with torch.no_grad() { d = w }\n"
        "repeat 3 { loss = (w * 2).sum(); loss.backward() }\n"
    ) == textwrap.dedent("""\
        w = torch.tensor([1.], requires_grad=True)
        with torch.no_grad():
            a = w * 2
            w -= 1
        with torch.enable_grad():
            b = w * 2
        with torch.set_grad_enabled(False):
            c = w * 2
            with torch.no_grad():
                pass
        with torch.no_grad():
            d = w
        for _ in range(3):
            loss = (w * 2).sum()
            loss.backward()""")


def test_displays_become_comments() -> None:
    assert steps("x = tensor(1.)\nshow\nshow x\ngraph x\ngraph x -o \"x.svg\"\nexplain x") == [
        "x = torch.tensor(1.)", "# show", "# show x", "# graph x", '# graph x -o "x.svg"',
        "# explain x",
    ]
    assert code("x = tensor(1.)\nrepeat 2 { show }") == (
        "x = torch.tensor(1.)\nfor _ in range(2):\n    # show\n    pass")


def test_assert_keeps_gradsh_meaning() -> None:
    exported = export_source(
        'a = tensor(2.)\nassert a == 2\nassert a != 3\nassert a.is_leaf\nassert a == 2, "bad"\n'
        'assert a != 2, a\nassert a > 1, "small"', "t.grad")
    assert [s.code for s in exported.steps][1:] == [
        '_assert_equal(a, 2, "a == 2")',
        '_assert_equal(a, 3, "a != 3", equal=False)',
        'assert _true(a.is_leaf), "a.is_leaf is false"',
        'assert _close(a, 2), "bad"',
        "assert not _close(a, 2), a",
        'assert _true(a > 1), "small"',
    ]
    for helper in ("def _true(", "def _close(", "def _assert_equal("):
        assert helper in exported.header
    assert "def _close(" not in export_source("x = 1", "t.grad").header


def test_builtins_get_their_pytorch_spelling() -> None:
    assert steps(
        "x = tensor([1., 2.], grad)\ny = relu(x)\nl = mse_loss(x, y)\ng = grad(l, x)[0]\n"
        "t = Tensor([1, 2])\nu = Tensor([1, 2], grad)\nz = F.relu(x)\nf = F.mse_loss(x, y)\n"
        "s = torch.nn.functional.softmax(x, dim=0)\nh = torch.autograd.grad(l, x)\n"
        "opt = sgd([x], lr=0.1)\nopt2 = torch.optim.SGD([x], lr=0.1)\nbackward(l)\n"
        "r = rand(2, 3, grad)\nq = randn(2, requires_grad=True)\ntorch.manual_seed(1)\n"
        "k = tensor(2.).exp()"
    ) == [
        "x = torch.tensor([1., 2.], requires_grad=True)",
        "y = torch.nn.functional.relu(x)",
        "l = torch.nn.functional.mse_loss(x, y)",
        "g = torch.autograd.grad(l, x)[0]",
        "t = torch.Tensor([1, 2])",
        "u = torch.Tensor([1, 2]).requires_grad_()",
        "z = torch.nn.functional.relu(x)",
        "f = torch.nn.functional.mse_loss(x, y)",
        "s = torch.nn.functional.softmax(x, dim=0)",
        "h = torch.autograd.grad(l, x)",
        "opt = torch.optim.SGD([x], lr=0.1)",
        "opt2 = torch.optim.SGD([x], lr=0.1)",
        "torch.autograd.backward(l)",
        "r = torch.rand(2, 3, requires_grad=True)",
        "q = torch.randn(2, requires_grad=True)",
        "torch.manual_seed(1)",
        "k = torch.tensor(2.).exp()",
    ]


def test_literals() -> None:
    assert steps(
        'x = tensor([1, 2], dtype=float64, device=cpu)\ny = x.to(cuda:0)\nz = x.to("cuda")\n'
        "print float32, torch.int64, bool, cuda, cpu\nb = [true, false, None, True]\n"
        "t = (1,)\ne = ()\nn = 1e-3 + 2. + .5\nv = x[..., 0:1, None, ::2, :]\n"
        "s = \"say \\\"hi\\\"\"\n"
    ) == [
        'x = torch.tensor([1, 2], dtype=torch.float64, device="cpu")',
        'y = x.to("cuda:0")',
        'z = x.to("cuda")',
        'print(torch.float32, torch.int64, torch.bool, "cuda", "cpu")',
        "b = [True, False, None, True]",
        "t = (1,)",
        "e = ()",
        "n = 1e-3 + 2. + .5",
        "v = x[..., 0:1, None, ::2, :]",
        's = "say \\"hi\\""',
    ]


def test_operators_keep_their_meaning_with_minimal_parentheses() -> None:
    assert steps(
        "a = tensor(2.)\nb = -a**2 + (a - 1) * 3 / (2 ** -1)\nc = (-a) ** 2\nd = a - (a - a)\n"
        "e = (a * a) * a\nf = a * (a * a)\ng = 2 ** 3 ** 2\nh = (2 ** 3) ** 2\ni = 1 < 2 < 3\n"
        "j = (1 < 2) == true\nk = not a > 1 and (true or false)\nm = (a + 1).exp()\n"
        "n = -(a + 1)\no = a @ a.t()\n"
    )[1:] == [
        "b = -a ** 2 + (a - 1) * 3 / 2 ** -1",
        "c = (-a) ** 2",
        "d = a - (a - a)",
        "e = a * a * a",
        "f = a * (a * a)",
        "g = 2 ** 3 ** 2",
        "h = (2 ** 3) ** 2",
        "i = 1 < 2 and 2 < 3",
        "j = (1 < 2) == True",
        "k = not a > 1 and (True or False)",
        "m = (a + 1).exp()",
        "n = -(a + 1)",
        "o = a @ a.t()",
    ]


def test_lambdas_and_hooks() -> None:
    assert steps(
        "x = tensor([1.], grad)\nh = x.register_hook(g -> g * 2)\nx.register_hook(print)\n"
        "f = (a, b) -> a + b\nk = lambda: 1\nx.register_hook(x -> x + 1)\n"
    )[1:] == [
        "h = x.register_hook(lambda g: g * 2)",
        "x.register_hook(print)",
        "f = lambda a, b: a + b",
        "k = lambda: 1",
        "x.register_hook(lambda x: x + 1)",
    ]


def test_assignment_forms() -> None:
    assert steps(
        "x = tensor([1., 2.], grad)\nx.grad = None\nx.requires_grad = false\nx.data = x * 2\n"
        "x[0] = 5\nv, i = x.max(dim=0)\n(a, b) = (1, 2)\nx += 1\nx.data -= 1\nx[1] *= 2\n"
    )[1:] == [
        "x.grad = None",
        "x.requires_grad = False",
        "x.data = x * 2",
        "x[0] = 5",
        "v, i = x.max(dim=0)",
        "a, b = (1, 2)",
        "x += 1",
        "x.data -= 1",
        "x[1] *= 2",
    ]


def test_names_python_or_the_export_reserve_are_renamed() -> None:
    exported = export_source(
        "from = 3\ntorch = tensor(1.)\nprint from, torch\nF = 2\nF_ = 3\nprint F, F_\n"
        "y = relu(torch)\nrange = 4\nrepeat 2 { }\n", "t.grad")
    assert [s.code for s in exported.steps] == [
        "from_ = 3",
        "torch_ = torch.tensor(1.)",
        "print(from_, torch_)",
        "F__ = 2",
        "F_ = 3",
        "print(F__, F_)",
        "y = torch.nn.functional.relu(torch_)",
        "range_ = 4",
        "for _ in range(2):\n    pass",
    ]
    assert exported.names == {"from": "from_", "torch": "torch_", "F": "F__", "F_": "F_",
                              "y": "y", "range": "range_"}


def test_a_variable_shadows_a_builtin_from_its_assignment_on() -> None:
    assert steps("x = relu(tensor(1.))\nrelu = x -> x\ny = relu(x)\ndel relu\nz = relu(x)") == [
        "x = torch.nn.functional.relu(torch.tensor(1.))",
        "relu = lambda x: x",
        "y = relu(x)",
        "del relu",
        "z = torch.nn.functional.relu(x)",
    ]


def test_grad_is_a_flag_only_in_creation_calls() -> None:
    assert steps(
        "a = tensor(2., grad)\nb = ones(2, grad, dtype=float64)\n"
        "c = tensor(2., grad, requires_grad=False)\ng = grad(a * 2, a)\n"
    ) == [
        "a = torch.tensor(2., requires_grad=True)",
        "b = torch.ones(2, dtype=torch.float64, requires_grad=True)",
        "c = torch.tensor(2., requires_grad=False)",
        "g = torch.autograd.grad(a * 2, a)",
    ]


def test_options_become_a_prelude() -> None:
    exported = export_source("x = rand(2)", "t.grad", ExportOptions(seed=7, device="cuda"))
    assert exported.prelude == 'torch.manual_seed(7)\ntorch.set_default_device("cuda")'
    assert exported.source() == textwrap.dedent("""\
        # PyTorch program exported by gradsh from t.grad.
        import torch

        torch.manual_seed(7)
        torch.set_default_device("cuda")

        x = torch.rand(2)
        """)


def test_every_chunk_is_valid_python() -> None:
    for path in sorted(PARITY.glob("*.grad")):
        exported = export_source(path.read_text(), str(path))
        compile(exported.source(), str(path), "exec")
        for step in exported.steps:
            compile(step.code, str(path), "exec")


# -- the command --------------------------------------------------------------------------------


def test_cli_prints_the_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.grad"
    script.write_text("# gradsh: --seed 3\na = tensor(2.0, grad)\nprint a * 2\n")
    assert export.cli_main([str(script)]) == 0
    assert capsys.readouterr().out == textwrap.dedent(f"""\
        # PyTorch program exported by gradsh from {script}.
        import torch

        torch.manual_seed(3)

        a = torch.tensor(2.0, requires_grad=True)
        print(a * 2)
        """)
    out = tmp_path / "s.py"
    assert export.cli_main([str(script), "--seed", "5", "-o", str(out)]) == 0
    assert "torch.manual_seed(5)" in out.read_text()


def test_cli_bad_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert export.cli_main([str(tmp_path / "missing.grad")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.grad"
    bad.write_text("x = 1 +* 2\n")
    assert export.cli_main([str(bad)]) == 2
    assert "SyntaxError" in capsys.readouterr().err


def test_cli_through_gradsh_command(tmp_path: Path) -> None:
    script = tmp_path / "s.grad"
    script.write_text("x = tensor(1.)\n")
    result = subprocess.run([sys.executable, "-m", "gradsh", "export", str(script)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("x = torch.tensor(1.)\n")


# -- exported programs run in PyTorch ---------------------------------------------------------


COMMENTED = """\
# gradsh: --seed 3
# A script with comments.
a = tensor(2.0, grad)  # a leaf

# then a block
repeat 2 {  # twice
    # inside
    b = a * 2   # double
    c = b + 1; d = c * 2  # two on a line
    # before the brace
}  # after the brace
no_grad { e = a * 2 }  # one-line block
x = tensor([1.,   # first
            2.])  # second
s = "a # not a comment"  # but this is
show  # look
# the end
"""


def test_comments_are_kept_beside_their_statements() -> None:
    exported = export_source(COMMENTED, "t.grad", ExportOptions(seed=3))
    body = exported.source().split("torch.manual_seed(3)\n\n", 1)[1]
    assert body == """\
# A script with comments.
a = torch.tensor(2.0, requires_grad=True)  # a leaf

# then a block
for _ in range(2):  # twice
    # inside
    b = a * 2  # double
    c = b + 1
    d = c * 2  # two on a line
    # before the brace
# after the brace
with torch.no_grad():  # one-line block
    e = a * 2
# first
x = torch.tensor([1., 2.])  # second
s = "a # not a comment"  # but this is
# show  # look
# the end
"""
    # each comment belongs to one step, the one it stands beside or before
    assert exported.steps[0].code.startswith("# A script with comments.\na = ")
    assert exported.trailer == "# the end"


def test_a_block_of_comments_only_is_still_a_block() -> None:
    exported = export_source("repeat 2 {\n    # nothing yet\n}\nprint(1)\n", "t.grad")
    assert exported.steps[0].code == "for _ in range(2):\n    # nothing yet\n    pass"
    compile(exported.source(), "exported.py", "exec")  # Python accepts it


def run_python(source: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    program = tmp_path / "exported.py"
    program.write_text(source)
    return subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)


def test_exported_program_runs_and_prints_pytorchs_answer(torch: object, tmp_path: Path) -> None:
    exported = export_source(textwrap.dedent("""\
        a = tensor(2.0, grad)
        b = tensor(3.0)
        c = a*a*5
        d = c*c*b
        c.retain_grad()
        backward d retain
        print a.grad, c.grad
        d.backward()
        print(a.grad, c.grad)
        assert a.grad == 4800
        assert a.grad != 4801
        assert a.is_leaf
        no_grad { e = a * 2 }
        repeat 2 { f = (a * 3).sum(); f.backward() }
        h = a.register_hook(g -> g * 2)
        (a * 1).backward()
        print a.grad, e.requires_grad
        show
        """), "t.grad")
    result = run_python(exported.source(), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "tensor(2400.) tensor(120.)", "tensor(4800.) tensor(240.)", "tensor(4808.) False"]


def test_exported_failing_assert_says_what_gradsh_says(torch: object, tmp_path: Path) -> None:
    result = run_python(export_source("a = tensor([1., 2.])\nassert a == 5\n", "t.grad").source(),
                        tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "AssertionError: a == 5 is false: left is tensor([1., 2.]), right is 5")


def test_cli_accepts_every_header_option(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.grad"
    script.write_text("# gradsh: --sim-cuda --keep-going --device cuda --seed 1\nx = rand(2)\n")
    assert export.cli_main([str(script)]) == 0
    out = capsys.readouterr().out
    assert ("# gradsh ran this script with --sim-cuda (cuda:0 simulated on the CPU);\n"
            "# PyTorch needs a real GPU for it.\n"
            "torch.manual_seed(1)\n"
            'torch.set_default_device("cuda")\n') in out
