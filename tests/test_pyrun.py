"""Python programs on gradsh: `gradsh FILE.py` as a user runs it, against `python FILE.py` with
real PyTorch where torch is installed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
ADDRESS = re.compile(r"0x[0-9a-f]+")


def write(tmp_path: Path, source: str, name: str = "prog.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def gradsh(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gradsh", "run", *options, path.name],
                          capture_output=True, text=True, cwd=path.parent, env=ENV, timeout=120)


def python(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, path.name], capture_output=True, text=True,
                          cwd=path.parent, env=ENV, timeout=120)


def same_stdout(a: str, b: str) -> None:
    assert ADDRESS.sub("0x…", a) == ADDRESS.sub("0x…", b)


AUTOGRAD_BASICS = """
    import torch
    import numpy as np

    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0)
    c = a * a * 5
    d = c * c * b
    c.retain_grad()
    d.backward(retain_graph=True)
    print(a.grad, c.grad, d.grad_fn, a.is_leaf, c.is_leaf)
    print(f"d = {d.item():.4f}, {d:.2f}, shape {d.shape}, {d.dtype}, {d.device!r}")
    for step in range(2):
        d.backward(retain_graph=True)
        print(step, a.grad)
    with torch.no_grad():
        e = a * 2
    print(e.requires_grad, e.grad_fn, torch.is_grad_enabled())
    x = torch.from_numpy(np.arange(3.0))
    x.numpy()[0] = 7
    print(x, x.shape[0], len(x), x.tolist())
    try:
        a.numpy()
    except RuntimeError as err:
        print(type(err).__name__, err)
    try:
        d.backward()
        d.backward()
    except RuntimeError as err:
        print("second backward:", str(err)[:40])
    torch.manual_seed(0)
    print(torch.rand(3), torch.randn(2, dtype=torch.float64))
"""


def test_quiet_output_is_pytorchs(tmp_path: Path, torch: object) -> None:
    path = write(tmp_path, AUTOGRAD_BASICS)
    ran, expected = gradsh(path, "--quiet"), python(path)
    assert expected.returncode == 0, expected.stderr
    assert ran.returncode == 0, ran.stderr
    same_stdout(ran.stdout, expected.stdout)


def test_version_is_an_int_counting_in_place_changes(tmp_path: Path, torch: object) -> None:
    path = write(tmp_path, """
        import torch
        x = torch.ones(3, requires_grad=True)
        print(x._version, type(x._version).__name__)
        y = x * 2
        z = y[1:]
        z.mul_(3)
        print(x._version, y._version, z._version, y.detach()._version, y.data._version)
        with torch.no_grad():
            x.add_(1)
            x.zero_()
        print(x._version, f"{z._version:>3}", z._version + 1)
    """)
    ran, expected = gradsh(path, "--quiet"), python(path)
    assert expected.returncode == 0, expected.stderr
    assert ran.returncode == 0, ran.stderr
    same_stdout(ran.stdout, expected.stdout)


def test_classes_print_pytorchs_names(tmp_path: Path, torch: object) -> None:
    """type(...) of gradsh's torch objects reads as PyTorch's, and a model pickled by
    torch.save under those names loads back, under gradsh run and in library mode."""
    path = write(tmp_path, """
        import io, pickle
        import torch
        from torch import nn, optim
        from torch.utils.data import DataLoader, TensorDataset
        model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        opt = optim.SGD(model.parameters(), lr=0.1)
        ds = TensorDataset(torch.ones(4, 2))
        for obj in (model, model[0].weight, opt, ds, DataLoader(ds), torch.ones(2).shape,
                    torch.float32, torch.device("cpu"), torch.no_grad(), torch.ones(1)):
            print(type(obj))
        buffer = io.BytesIO()
        torch.save(model, buffer)
        if "gradsh" in torch.__file__:
            open("model.pt", "wb").write(buffer.getvalue())
        buffer.seek(0)
        print(type(torch.load(buffer, weights_only=False)[0]))
        print(type(pickle.loads(pickle.dumps(model))), type(pickle.loads(pickle.dumps(torch.Size([2])))))
    """)
    ran, expected = gradsh(path, "--quiet"), python(path)
    assert expected.returncode == 0, expected.stderr
    assert ran.returncode == 0, ran.stderr
    same_stdout(ran.stdout, expected.stdout)
    import gradsh.torch as gtorch

    gtorch.nn.Linear(1, 1)  # library mode keeps gradsh's module names (pickle next to torch)
    assert gtorch.nn.Linear.__module__ == "gradsh.torch.nn.modules.linear"
    loaded = gtorch.load(str(tmp_path / "model.pt"), weights_only=False)
    assert isinstance(loaded[0], gtorch.nn.Linear)


def test_import_torch_is_gradsh_even_with_torch_installed(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch, torch.nn.functional as F
        from torch import autograd
        print(torch.__file__.split("/")[-2], F.__spec__.name, autograd.__spec__.name)
        print(F.__name__, autograd.__name__)
        print(torch.__version__)
    """)
    ran = gradsh(path, "--quiet")
    assert ran.returncode == 0, ran.stderr
    first, names, version = ran.stdout.splitlines()
    assert first == "torch gradsh.torch.nn.functional gradsh.torch.autograd"
    assert names == "torch.nn.functional torch.autograd"  # PyTorch's __name__, as programs see
    assert version == "2.13.0+cpu"  # PyTorch's CPU wheel's, as programs print it


def test_table_after_each_top_level_statement(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch
        w = torch.ones(2, requires_grad=True)
        for i in range(3):
            loss = (w * i).sum()
            loss.backward()
        print(w.grad)
    """)
    ran = gradsh(path)
    assert ran.returncode == 0, ran.stderr
    out = ran.stdout
    assert ">>> for i in range(3):\n...     loss = (w * i).sum()\n...     loss.backward()\n" in out
    table = out.split(">>> for i in range(3):")[1].split(">>> print(w.grad)")[0]
    assert re.search(r"^w +\[1\., 1\.\] +\[2\] .* None +\[3\., 3\.\]\*$", table, re.M)
    assert re.search(r"^loss\* +4\. .*SumBackward0 +None$", table, re.M)  # new: marked once
    last = out.split(">>> print(w.grad)\n")[1]
    assert last.startswith("tensor([3., 3.])\n")
    assert "*" not in last  # printing changed nothing


def test_json_trace_has_one_step_per_statement(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x ** 2).sum()
        y.backward()
        print("grad", x.grad)
        print(y.grad)
    """)
    ran = gradsh(path, "--json")
    steps = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [s["step"] for s in steps] == [1, 2, 3, 4, 5, 6]
    assert steps[3]["vars"]["x"]["grad"] == [2.0, 4.0]
    assert steps[3]["vars"]["y"]["grad_fn"] == "SumBackward0"
    assert steps[4]["printed"] == ["grad tensor([2., 4.])"]
    assert steps[5]["printed"] == ["None"]
    assert steps[5]["warnings"][0].startswith("UserWarning: The .grad attribute of a Tensor "
                                              "that is not a leaf")


def test_error_shows_the_users_frames_and_the_hint(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch

        def step(t):
            t.backward()

        a = torch.tensor(2.0, requires_grad=True)
        d = a * a
        step(d)
        step(d)
        print("not reached")
    """)
    ran = gradsh(path, "--quiet")
    assert ran.returncode == 1
    assert "not reached" not in ran.stdout
    err = ran.stderr
    assert err.startswith("Traceback (most recent call last):\n")
    assert f'File "{path}", line 10, in <module>' in err
    assert f'File "{path}", line 5, in step' in err
    assert "gradsh" not in err.split("RuntimeError:")[0]  # no frame of gradsh's own
    assert "\nRuntimeError: Trying to backward through the graph a second time" in err
    assert "hint: MulBackward0 (d) saved its tensors at line 8" in err


def test_keep_going_runs_the_next_statement(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch
        x = torch.ones(2) @ 2
        print("after")
    """)
    stopped, going = gradsh(path, "--quiet"), gradsh(path, "--quiet", "--keep-going")
    assert stopped.returncode == going.returncode == 1
    assert stopped.stdout == "" and going.stdout == "after\n"


def test_exit_codes_of_sys_exit_and_syntax_errors(tmp_path: Path) -> None:
    ran = gradsh(write(tmp_path, "import sys\nprint('a')\nsys.exit(3)\nprint('b')\n"), "--quiet")
    assert (ran.returncode, ran.stdout) == (3, "a\n")
    bad = gradsh(write(tmp_path, "x = = 2\n", "bad.py"))
    assert bad.returncode == 2
    assert bad.stderr.endswith("    x = = 2\n        ^\nSyntaxError: invalid syntax\n")


@pytest.mark.parametrize("late, message", [
    ("return 5", "'return' outside function"),
    ("from __future__ import annotations",
     "from __future__ imports must occur at the beginning of the file"),
])
def test_errors_the_compiler_finds_stop_the_program_before_it_runs(
        tmp_path: Path, late: str, message: str) -> None:
    """Python compiles the whole file first: nothing runs, as `python FILE` (the Chinese
    pytorch-book's notebook joined into one file has a late `from __future__` import)."""
    ran = gradsh(write(tmp_path, f"print('ran')\n{late}\n"), "--quiet")
    assert ran.returncode == 2 and ran.stdout == ""
    assert ran.stderr.endswith(f"    {late}\n    {'^' * len(late)}\nSyntaxError: {message}\n")


def test_what_gradsh_lacks_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch
        for expr in ("torch.nested", "torch.ones(1).stft", "torch.no_such_thing",
                     "torch.ones(1).no_such_method", "torch.special.airy_ai"):
            try:
                eval(expr)
            except AttributeError as err:
                print(type(err).__name__, err)
        try:
            import torch.nested
        except ModuleNotFoundError as err:
            print(err)
    """)
    ran = gradsh(path, "--quiet")
    assert ran.stdout.splitlines() == [
        "NotImplementedInGradsh gradsh does not implement torch.nested yet",
        "NotImplementedInGradsh gradsh does not implement torch.Tensor.stft yet",
        "AttributeError module 'torch' has no attribute 'no_such_thing'",
        "AttributeError 'Tensor' object has no attribute 'no_such_method'",
        "NotImplementedInGradsh gradsh does not implement torch.special.airy_ai yet",
        "gradsh does not implement torch.nested yet",
    ]


def test_show_explain_graph_inside_a_program(tmp_path: Path) -> None:
    path = write(tmp_path, """
        import torch
        import gradsh

        a = torch.tensor(2.0, requires_grad=True)
        c = a * a * 5
        c.retain_grad()
        c.backward()
        gradsh.show()
        gradsh.explain(c)
        gradsh.graph(c)
    """)
    ran = gradsh(path, "--quiet")
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].split() == ["name", "value", "shape", "dtype", "device", "requires_grad",
                                "is_leaf", "grad_fn", "retains_grad", "grad"]
    assert lines[2].split() == ["a", "2.", "[]", "float32", "cpu", "True", "True", "None",
                                "False", "20."]
    assert any(line.startswith("c is not a leaf") for line in lines)
    assert "c = MulBackward0" in ran.stdout and "AccumulateGrad  a" in ran.stdout


def test_gradsh_torch_as_a_library() -> None:
    code = ("import gradsh.torch as torch\n"
            "x = torch.tensor([1., 2.], requires_grad=True)\n"
            "(x * x).sum().backward()\n"
            "print(x.grad, isinstance(x, torch.Tensor), torch.Size([2]) == x.shape)\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                         timeout=60)
    assert ran.stdout == "tensor([2., 4.]) True True\n", ran.stderr


def test_python_in_the_shell_shares_variables_with_gradsh_statements() -> None:
    import io

    from gradsh.runner import RunOptions
    from gradsh.shell import Session

    out = io.StringIO()
    session = Session(RunOptions(), out, out)
    session.execute("import torch")
    session.execute("x = torch.ones(2, requires_grad=True)")  # valid gradsh: runs as gradsh
    session.execute("for i in range(2):\n    y = (x * i).sum()\n    y.backward()\n")
    session.execute("print x.grad")  # gradsh's print statement
    session.execute("x.grad.tolist()")  # a Python expression echoes its value
    text = out.getvalue()
    assert "tensor([1., 1.])" in text
    assert "[1.0, 1.0]" in text
    assert list(k for k in session.interp.env if not k.startswith("__")) == \
        ["torch", "x", "i", "y"]


def test_input_that_needs_python_runs_as_python_in_the_shell() -> None:
    import io

    from gradsh.runner import RunOptions
    from gradsh.shell import Session

    out = io.StringIO()
    session = Session(RunOptions(), out, out)
    session.execute("x = tensor([1., 2., 3.], grad)")  # gradsh
    session.execute("import torch.nn as nn")
    # Valid gradsh, but gradsh's nn has no Linear and a module made by Python is Python's:
    # each runs as Python instead of failing as gradsh.
    session.execute("lin = nn.Linear(3, 2)")
    session.execute("out = lin(x).sum()")
    session.execute("n = len(x)")
    session.execute("out.backward()")
    env = session.interp.env
    assert type(env["lin"]).__name__ == "Linear" and env["n"] == 3
    assert env["x"].grad is not None and env["lin"].weight.grad.shape == (2, 3)
    assert "Error" not in out.getvalue()
    session.execute("y = x.gard")  # gradsh and Python both lack it: gradsh's error and hint
    assert "hint: did you mean 'grad'?" in out.getvalue()


def test_shell_asks_for_more_lines_of_a_python_block() -> None:
    from gradsh.repl.source import is_complete

    assert not is_complete("for i in range(3):")
    assert not is_complete("for i in range(3):\n    print(i)")
    assert is_complete("for i in range(3):\n    print(i)\n    ")
    assert is_complete("import torch")
    assert is_complete("import torch\nx = torch.ones(2)")  # pasted lines
    assert not is_complete("x = (1 +")
    assert is_complete("x = = 2")  # an error: shown, not waited on


def test_check_compares_a_python_program_with_torch(tmp_path: Path, torch: object) -> None:
    same = write(tmp_path, """
        import torch
        a = torch.tensor([1., 2.], requires_grad=True)
        b = (a * a).sum()
        b.backward()
        print(a.grad)
    """)
    ran = subprocess.run([sys.executable, "-m", "gradsh", "check", same.name],
                         capture_output=True, text=True, cwd=tmp_path, env=ENV, timeout=300)
    assert (ran.returncode, ran.stdout) == (0, "prog.py: identical, 5 steps\n"), ran.stderr
    # a program whose gradsh side differs: gradsh has no mkldnn tensors
    other = write(tmp_path, """
        import torch
        a = torch.ones(2)
        print(a.to_mkldnn() is not None)
    """, "other.py")
    ran = subprocess.run([sys.executable, "-m", "gradsh", "check", "--keep-going", "--width",
                          "400", other.name], capture_output=True, text=True, cwd=tmp_path,
                         env=ENV, timeout=300)
    assert ran.returncode == 1
    assert "does not implement torch.Tensor.to_mkldnn" in ran.stdout
    assert ran.stdout.rstrip().endswith("other.py: 2 differences in 3 steps")


ARGPARSE_PROGRAM = """\
import argparse
import sys

import torch

parser = argparse.ArgumentParser(description="train")
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--quiet", action="store_true")
args = parser.parse_args()
print(sys.argv[1:], args.epochs, args.quiet)
w = torch.ones(2, requires_grad=True)
for _ in range(args.epochs):
    (w * w).sum().backward()
print(w.grad)
"""


def test_what_follows_a_program_is_its_own_arguments(tmp_path: Path) -> None:
    """As `python prog.py --epochs 3`: the arguments after a .py file are the program's."""
    path = write(tmp_path, ARGPARSE_PROGRAM)
    run = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(path),
                          "--epochs", "3", "--quiet"], capture_output=True, text=True,
                         env=ENV)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "['--epochs', '3', '--quiet'] 3 True\ntensor([6., 6.])\n"
    top = subprocess.run([sys.executable, "-m", "gradsh", "--quiet", str(path), "--epochs",
                          "2"], capture_output=True, text=True, env=ENV)
    assert top.stdout == "['--epochs', '2'] 2 False\ntensor([4., 4.])\n"
    usage = subprocess.run([sys.executable, "-m", "gradsh", "--quiet", str(path), "-h"],
                           capture_output=True, text=True, env=ENV)
    assert usage.returncode == 0 and usage.stdout.startswith("usage: prog.py [-h]")


def test_check_passes_the_programs_arguments_to_both_sides(tmp_path: Path,
                                                           torch: object) -> None:
    path = write(tmp_path, ARGPARSE_PROGRAM)
    run = subprocess.run([sys.executable, "-m", "gradsh", "check", str(path), "--epochs", "2"],
                         capture_output=True, text=True, env=ENV)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("identical, 11 steps")  # both saw --epochs 2


INFERENCE_MODE = """\
import torch
x = torch.ones(3, requires_grad=True)
n = torch.ones(3)
with torch.inference_mode():
    y = x * 2
    v = n[:2]
    n.add_(1)
    z = torch.zeros(2)
    print(y.is_inference(), v.is_inference(), z.is_inference(), n.is_inference(), n._version)
    y.add_(1)
for expr in ["y._version", "y.add_(1)", "(y * x).sum().backward()", "y.requires_grad_()", "y + 1", "(y + x).sum()", "torch.ones(3, requires_grad=True) * y", "y.clone().is_inference()", "v._version", "y.detach().is_inference()", "y.grad_fn", "y.sum().item()", "y.detach().add_(1)", "y.data.add_(1)"]:
    try:
        r = eval(expr); print(expr, '->', r if not isinstance(r, torch.Tensor) else (r.is_inference(), r.requires_grad, r.grad_fn))
    except Exception as e:
        print(expr, '!!', type(e).__name__, e)
for code in ["with torch.no_grad(): y.add_(1)", "y[0] = 5", "y.zero_()", "y.copy_(torch.zeros(3))", "y.requires_grad = True", "y.requires_grad_(False)"]:
    try:
        exec(code); print(code, 'ok')
    except Exception as e: print(code, '!!', str(e)[:70])
with torch.inference_mode():
    w = torch.ones(2, requires_grad=True)
    print('w', w.requires_grad, w.is_inference())
with torch.inference_mode(False):
    q = n * 2
    print('mode False', q.is_inference(), torch.is_inference_mode_enabled())
"""


def test_inference_tensors_are_pytorchs(tmp_path: Path, torch: object) -> None:
    """Tensors made under torch.inference_mode: is_inference(), no version counter, never saved
    for backward, in-place outside inference mode written and then refused (as PyTorch's
    kernel writes before the check), views of normal tensors normal, detach() an alias."""
    path = write(tmp_path, INFERENCE_MODE)
    ran, expected = gradsh(path, "--quiet"), python(path)
    assert expected.returncode == ran.returncode == 0, ran.stderr
    same_stdout(ran.stdout, expected.stdout)


@pytest.mark.parametrize("program", [
    "Cin = None\nprint(Cn)\n",  # a global
    "print(Cin)\n",  # a builtin ('bin')
    "def f(alpha):\n    return alhpa\nf(1)\n",  # a local
    "class A:\n    value = 1\nA().VALUE\n",  # a case change
    "class A:\n    value = 1\nA().xyzzy\n",  # nothing close
    "import math\nmath.sqr(2)\n",  # a module attribute
    "变量 = 1\nprint(变量2)\n",  # not ASCII
])
def test_name_and_attribute_errors_suggest_as_python(tmp_path: Path, program: str) -> None:
    """Python 3.11 prints "Did you mean: 'x'?" from its C excepthook, not from the traceback
    module gradsh formats with (the Chinese pytorch-book's chapter 6 ends on such an error)."""
    path = write(tmp_path, program)
    expected = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                              encoding="utf-8", cwd=tmp_path)
    ran = gradsh(path, "--quiet")
    assert ran.stderr.splitlines()[-1] == expected.stderr.splitlines()[-1]
