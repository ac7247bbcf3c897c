"""The interactive shell, driven through a real prompt_toolkit PromptSession (pipe input, dummy
output) and, end to end, as the installed `gradsh` command in a pseudo-terminal."""

from __future__ import annotations

import _thread
import io
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gradsh import builtins as table
from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.interpreter import Interpreter
from gradsh.parser import parse
from gradsh.repl import commands
from gradsh.repl import help as helptext
from gradsh.repl.completer import GradshCompleter
from gradsh.repl.history import history_path, open_history
from gradsh.repl.source import is_complete, join_lines
from gradsh.runner import RunOptions
from gradsh.shell import Session, interact, make_prompt

# ---------------------------------------------------------------------------------------------
# Driving a real PromptSession
# ---------------------------------------------------------------------------------------------

ENTER = "\r"
TAB = "\t"
CTRL_C = "\x03"
CTRL_D = "\x04"
CTRL_R = "\x12"
UP = "\x1b[A"


@dataclass
class Until:
    """A step that waits until the prompt's buffer satisfies `test` (completion is async: the
    next keys must not overtake it)."""

    test: Callable[[Any], bool]
    buffer: bool = False  # test the prompt's Buffer (its completion state), not its text


@dataclass
class Run:
    out: str
    session: Session
    code: int

    @property
    def env(self) -> dict[str, Any]:
        return self.session.interp.env


def drive(*steps: str | Until, session: Session | None = None,
          history: History | None = None, options: RunOptions | None = None) -> Run:
    """Type `steps` into the shell; the input ends (EOF) after the last one."""
    out = io.StringIO()
    if session is None:
        session = Session(options or RunOptions(width=100), out, out)
    else:
        session.renderer.out.file = out
        session.renderer.err.file = out
    failures: list[str] = []
    with create_pipe_input() as pipe:
        prompt = make_prompt(session, history=history or InMemoryHistory(), input=pipe,
                             output=DummyOutput())

        def feed() -> None:
            for step in steps:
                if isinstance(step, str):
                    pipe.send_text(step)
                    continue
                deadline = time.monotonic() + 10
                buffer = prompt.default_buffer
                while not step.test(buffer if step.buffer else buffer.text):
                    if time.monotonic() > deadline:
                        failures.append(f"buffer never satisfied the test: "
                                        f"{prompt.default_buffer.text!r}")
                        break
                    time.sleep(0.005)
            pipe.close()

        feeder = threading.Thread(target=feed)
        feeder.start()
        code = interact(session, prompt)
        feeder.join()
    assert not failures, failures
    return Run(out.getvalue(), session, code)


def value(run: Run, name: str) -> Any:
    v = run.env[name]
    return ops.tolist(v) if isinstance(v, Tensor) else v


# ---------------------------------------------------------------------------------------------
# Statements: output, warnings, echo, the table, errors
# ---------------------------------------------------------------------------------------------


def test_a_statement_shows_its_table_with_changed_cells_marked() -> None:
    run = drive("a = tensor(2.0, grad)" + ENTER, "c = a * a * 5" + ENTER)
    assert value(run, "c") == 20.0
    tables = run.out.split("name ")[1:]
    assert len(tables) == 2
    # a new variable is marked once, on its name
    assert re.search(r"^a\* +2\. +\[\] ", tables[0], re.M)
    assert re.search(r"^c\* +20\. +\[\] .* MulBackward0 +None$", tables[1], re.M)
    assert re.search(r"^a +2\. +\[\] ", tables[1], re.M)  # unchanged: no mark


def test_a_statement_that_changes_nothing_shows_no_table() -> None:
    run = drive("a = tensor(1.); b = a * 2" + ENTER, "b" + ENTER, "print(a)" + ENTER,
                "del b" + ENTER, "b = a * 3" + ENTER)
    after = run.out.split("tensor(2.)\n", 1)[1]  # the echo of `b`: no table after it
    assert after.startswith("tensor(1.)\nname ")  # nor after print: the next is del's
    tables = after.split("name ")[1:]
    assert len(tables) == 2
    assert not re.search(r"^b", tables[0], re.M)  # del: the table without b
    assert re.search(r"^b\* +3\. ", tables[1], re.M)  # made again: new, marked once


def test_expression_statements_echo_their_value_as_python_does() -> None:
    run = drive(":table off" + ENTER, "a = tensor([1., 2.], grad)" + ENTER, "a * 2" + ENTER,
                "a.shape" + ENTER, "a.grad" + ENTER, '"text"' + ENTER, "a.is_leaf" + ENTER)
    assert run.out.splitlines()[1:] == [
        "tensor([2., 4.], grad_fn=<MulBackward0>)",
        "torch.Size([2])",
        # a.grad is None: nothing
        "'text'",
        "True",
    ]


def test_output_and_warnings_in_the_order_they_happened_then_the_table() -> None:
    run = drive("a = tensor(2.0, grad); b = a * 3" + ENTER, ":table changed" + ENTER,
                "print(b.grad); c = b + 1" + ENTER)
    out = run.out[run.out.index("table: changed"):].splitlines()
    # Two statements on one input: each is echoed, and its output and table follow it. Reading
    # b.grad warns before print prints, as in PyTorch.
    assert out[1] == ">>> print(b.grad)"
    assert out[2].startswith("UserWarning: The .grad attribute of a Tensor that is not a leaf")
    assert out[3:5] == ["None", ">>> c = b + 1"]
    assert out[5].startswith("name ") and out[7].startswith("c* ") and len(out) == 8


def test_an_error_shows_a_caret_and_keeps_every_variable() -> None:
    run = drive("a = tensor([1., 2.])" + ENTER, "b = a + a.nope" + ENTER,
                "c = a + 1" + ENTER, "oops(" + CTRL_C, "x = )" + ENTER, "d = c * 2" + ENTER)
    assert ("<shell>:1:9: AttributeError: 'Tensor' object has no attribute 'nope'\n"
            "    b = a + a.nope\n"
            "            ^^^^^^\n") in run.out
    assert "<shell>:1:5: SyntaxError: unmatched ')'" in run.out
    assert value(run, "d") == [4.0, 6.0] and "b" not in run.env
    assert run.session.statements == ["a = tensor([1., 2.])", "c = a + 1", "d = c * 2"]


def test_the_rest_of_an_input_stops_at_its_first_error() -> None:
    run = drive("a = tensor(1.); b = nope; c = 2" + ENTER)
    assert "NameError: name 'nope' is not defined" in run.out
    assert "a" in run.env and "c" not in run.env


def test_table_settings() -> None:
    run = drive(":table" + ENTER, ":table changed" + ENTER, "a = tensor(1.)" + ENTER,
                "b = tensor(2.)" + ENTER, "b += 1" + ENTER, "a" + ENTER,
                ":table off" + ENTER, "c = tensor(3.)" + ENTER, ":table all" + ENTER,
                "d = tensor(4.)" + ENTER, ":table sideways" + ENTER)
    lines = run.out.splitlines()
    assert lines[0] == "table: all" and lines[1] == "table: changed"
    chunks = run.out.split("name ")
    # changed: a's table has a only, b's has b only, `b += 1` shows b, `a` changes nothing.
    assert [len(re.findall(r"^[abcd]\*? ", chunk, re.M)) for chunk in chunks[1:]] == [1, 1, 1, 4]
    # c was made while the table was off: it is not marked as changed by `d = ...`.
    assert "c* " not in chunks[4] and re.search(r"^c +3\. ", chunks[4], re.M)
    assert "UsageError: ':table sideways': the table is one of off, changed, all" in run.out


# ---------------------------------------------------------------------------------------------
# Multi-line input, decided by the parser
# ---------------------------------------------------------------------------------------------


def test_an_open_bracket_continues_on_the_next_line() -> None:
    run = drive("a = tensor([1.,", ENTER, "2.])" + ENTER,
                "repeat 2 {" + ENTER, "a = a * 2", ENTER, "}" + ENTER)
    assert value(run, "a") == [4.0, 8.0]
    assert run.session.statements == ["a = tensor([1.,\n2.])", "repeat 2 {\n    a = a * 2\n}"]


def test_a_dangling_operator_continues_the_expression() -> None:
    run = drive("a = 1 +" + ENTER, "2" + ENTER, "repeat 1 { b = a *" + ENTER, "3 }" + ENTER)
    assert value(run, "a") == 3 and value(run, "b") == 9
    # The saved statement joins the lines with gradsh's own continuation.
    assert run.session.statements[0] == "a = 1 + \\\n2"
    assert [parse(s).body[0].source for s in run.session.statements] == run.session.statements


def test_enter_on_an_empty_line_after_a_dangling_operator_ends_the_input() -> None:
    # As Python does after a `\`: the input ends and the error says what is missing, quoting
    # the line as typed (not with the shell's own ` \` continuation).
    run = drive("x = 1 +" + ENTER, ENTER, "y = 2" + ENTER)
    assert "<shell>:1:8: SyntaxError: unexpected end of input" in run.out
    assert "    x = 1 +\n           ^\n" in run.out
    assert "x" not in run.env and value(run, "y") == 2
    # Inside brackets and braces an empty line is only a line.
    run = drive("x = (1 +" + ENTER, ENTER, "2)" + ENTER, "repeat 2 {" + ENTER, ENTER,
                "x = x * 2" + ENTER, "}" + ENTER)
    assert value(run, "x") == 12


@pytest.mark.parametrize("closing", ["}", ")", "]"])
def test_a_closing_bracket_at_a_line_start_steps_back(closing: str) -> None:
    opening = {"}": "repeat 1 {", ")": "x = f(", "]": "x = ["}[closing]
    session = Session(RunOptions(width=100), io.StringIO(), io.StringIO())
    with create_pipe_input() as pipe:
        prompt = make_prompt(session, input=pipe, output=DummyOutput())
        pipe.send_text(opening + ENTER + "1" + ENTER + closing + "\x1b" + ENTER)
        text = prompt.prompt()
    assert text == f"{opening}\n    1\n{closing}"


def test_escape_closes_the_completion_menu() -> None:
    run = drive("abc = 1; abd = 2" + ENTER, "ab" + TAB,
                Until(lambda buffer: buffer.complete_state is not None, buffer=True), "\x1b",
                Until(lambda buffer: buffer.complete_state is None, buffer=True),
                "c" + ENTER)
    assert list(run.env) == ["abc", "abd"] and run.out.rstrip().endswith("1")


def test_escape_enter_runs_incomplete_input_to_show_the_error() -> None:
    run = drive("a = (1 +", "\x1b" + ENTER)
    assert "SyntaxError: unexpected end of input" in run.out


@pytest.mark.parametrize("text, complete", [
    ("a = 1", True), ("a = (1 +", False), ("a = (1 +\n2)", True), ("a = 1 +", False),
    ("a = 1 +\n2", True), ("repeat 2 {", False), ("repeat 2 {\n  a = f(1,\n  2)", False),
    ("repeat 2 {\n  a = f(1,\n  2)\n}", True), ("repeat 3", False), ("x.", False),
    ("x = 1 + \\", False), ("a = )", True), ('s = "abc', True), ("", True),
])
def test_is_complete_asks_the_parser(text: str, complete: bool) -> None:
    assert is_complete(text) == complete


def test_lines_are_joined_where_a_newline_would_end_the_statement() -> None:
    assert join_lines("a = 1 +\n2") == "a = 1 + \\\n2"
    assert join_lines("f(a,\nb)") == "f(a,\nb)"
    assert join_lines("repeat 2 {\n  b = a *\n  3\n  c = 1\n}") == (
        "repeat 2 {\n  b = a * \\\n  3\n  c = 1\n}")
    assert join_lines("repeat 3\n{ a = 1 }") == "repeat 3 \\\n{ a = 1 }"
    assert join_lines("a = 1\nb = 2") == "a = 1\nb = 2"


# ---------------------------------------------------------------------------------------------
# Ctrl-C, Ctrl-D
# ---------------------------------------------------------------------------------------------


def test_ctrl_c_cancels_the_input_and_ctrl_d_exits() -> None:
    run = drive("a = tensor(" + CTRL_C, "b = 1" + ENTER, "c = 1 +" + ENTER + CTRL_C,
                CTRL_D, "d = 2" + ENTER)
    assert list(run.env) == ["b"] and run.code == 0


def test_ctrl_c_interrupts_a_long_computation_and_undoes_it() -> None:
    # An interrupted statement is a failed one: it changes nothing, the session goes on.
    session = Session(RunOptions(width=100), io.StringIO(), io.StringIO())

    def interrupt_when_running() -> None:
        # Ctrl-C once the loop is well under way. Once, in a full run, a simulated SIGINT was
        # lost and the loop ran on (cause not found; a user would press Ctrl-C again): while
        # the loop still runs a second later, press again; stop once the statement is undone.
        deadline = time.monotonic() + 60
        pressed = 0.0
        while time.monotonic() < deadline:
            i = session.interp.env.get("i")
            count = i.item() if isinstance(i, Tensor) else 0
            if pressed and count == 0:
                return
            if count > 10 and time.monotonic() - pressed > 1.0:
                _thread.interrupt_main()
                pressed = time.monotonic()
            time.sleep(0.01)

    watcher = threading.Thread(target=interrupt_when_running)
    watcher.start()
    run = drive("i = tensor(0); w = tensor(1., grad)" + ENTER,
                "repeat 100000000 { i = i + 1 }" + ENTER, "j = i * 2" + ENTER, session=session)
    watcher.join()
    assert "<shell>:1:1: KeyboardInterrupt: interrupted" in run.out
    assert "    repeat 100000000 { i = i + 1 }\n    ^^^^" in run.out
    assert value(run, "i") == 0 and value(run, "j") == 0
    assert value(run, "w") == 1.0
    assert session.statements == ["i = tensor(0)", "w = tensor(1., grad)", "j = i * 2"]


@pytest.mark.parametrize("gap", [0.05, 0.15, 0.3])
def test_a_second_ctrl_c_soon_after_the_first_leaves_the_state_whole(gap: float) -> None:
    # Two presses in a row: each statement they stop is undone as a whole (never i back and n
    # not), and the session goes on. The next input keeps the shell busy for the second press.
    session = Session(RunOptions(width=100), io.StringIO(), io.StringIO())

    def press_twice() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            i = session.interp.env.get("i")
            if isinstance(i, Tensor) and i.item() > 50:
                _thread.interrupt_main()
                time.sleep(gap)
                _thread.interrupt_main()
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=press_twice)
    watcher.start()
    run = drive("i = tensor(0); n = tensor(0); k = tensor(0); m = tensor(0)" + ENTER,
                "repeat 100000000 { i = i + 1; n = n + 1 }" + ENTER,
                "repeat 100000000 { k = k + 1; m = m + 1 }" + ENTER, "j = 1" + ENTER,
                session=session)
    watcher.join()
    assert run.out.count("KeyboardInterrupt") == 2
    assert value(run, "i") == value(run, "n") == 0
    assert value(run, "k") == value(run, "m") == 0
    assert value(run, "j") == 1


# ---------------------------------------------------------------------------------------------
# Completion
# ---------------------------------------------------------------------------------------------


def completions(text: str, interp: Interpreter | None = None,
                requested: bool = True) -> list[str]:
    interp = interp or Interpreter()
    completer = GradshCompleter(lambda: interp.env, lambda: interp.globals)
    event = CompleteEvent(completion_requested=requested)
    return [c.text for c in completer.get_completions(Document(text), event)]


def session_with(source: str) -> Interpreter:
    interp = Interpreter()
    for stmt in parse(source).body:
        assert interp.run_statement(stmt).ok
    return interp


def test_tab_completes_a_variable_in_the_prompt() -> None:
    run = drive(":table off" + ENTER, "alpha_value = tensor(5.)" + ENTER, "alpha_v" + TAB,
                Until(lambda text: text == "alpha_value"), ENTER)
    assert run.out.splitlines()[-1] == "tensor(5.)"


def test_tab_completes_a_method_in_the_prompt() -> None:
    run = drive("x = tensor(1., grad) * 2" + ENTER, "x.retain_gr" + TAB,
                Until(lambda text: text == "x.retain_grad"), "()" + ENTER)
    assert run.env["x"].retains_grad


def test_names_keywords_and_builtins() -> None:
    interp = session_with("weights = tensor(1.); wide = 2")
    assert completions("w", interp)[:2] == ["weights", "wide"]
    assert "where" in completions("w", interp)
    assert "repeat" in completions("re", interp)
    assert "repeat" not in completions("x = re", interp)  # a statement word only at the start
    assert "repeat" in completions("x = 1; re", interp)
    assert "no_grad" in completions("no", interp) and "not" in completions("no", interp)
    assert "float64" in completions("float6", interp)
    assert completions("tens", interp) == ["tensor"]
    assert completions("", interp, requested=False) == []


def test_after_a_dot_the_members_of_the_objects_kind() -> None:
    interp = session_with(
        "a = tensor([1., 2.], grad); c = (a * a).sum(); opt = sgd([a], lr=0.1)")
    tensor_members = completions("a.", interp)
    assert {"grad", "grad_fn", "is_leaf", "backward", "retain_grad", "register_hook",
            "detach", "requires_grad_", "T", "shape"} <= set(tensor_members)
    assert completions("a.retain", interp) == ["retain_grad", "retains_grad"]
    assert completions("c.grad_fn.", interp) == ["metadata", "name", "next_functions"]
    assert completions("(a * a).grad_fn.", interp) == []  # never evaluates an expression
    mul = session_with("a = tensor(2., grad); b = tensor(3., grad); m = a * b")
    assert completions("m.grad_fn._", mul) == ["_saved_other", "_saved_self"]
    assert set(completions("opt.", interp)) == {"defaults", "param_groups", "state", "step",
                                                "zero_grad"}
    assert completions("a.shape.", interp) == ["numel"]
    assert completions("a.dtype.", interp) == ["is_floating_point", "itemsize"]
    assert completions("a.T.sha", interp) == ["shape"]
    assert completions("a.T.sh", interp) == ["shape", "short"]


def test_module_namespaces_offer_every_builtin() -> None:
    offered = set(completions("torch."))
    assert {"nn", "autograd", "optim", "exp", "tensor", "float64", "cuda"} <= offered
    torch_functions = {b.name for b in table.FUNCTIONS.values() if b.python != "only"}
    assert torch_functions <= offered
    assert not {"len", "range", "zip", "print"} & offered  # Python's, not torch's
    assert completions("F.rel") == ["relu", "relu6"]
    assert completions("F.leaky") == ["leaky_relu"]
    assert "functional" in completions("torch.nn.")
    assert "relu" in completions("torch.nn.functional.re")
    assert "SGD" in completions("torch.optim.S")


def test_a_grad_is_peeked_without_the_non_leaf_warning() -> None:
    interp = session_with("a = tensor(2., grad); c = a * 3")
    warnings: list[str] = []
    from gradsh.engine.exceptions import set_warning_handler

    previous = set_warning_handler(lambda category, message: warnings.append(message))
    try:
        assert completions("c.grad.", interp) == []  # None: nothing to complete
        assert completions("a.grad.", interp) == []
    finally:
        set_warning_handler(previous)
    assert warnings == []
    after = session_with("a = tensor(2., grad); c = a * 3; c.backward()")
    assert "grad_fn" in completions("a.grad.", after)


def test_nothing_inside_strings_comments_or_after_calls() -> None:
    interp = session_with("a = tensor(1.)")
    assert completions('graph a -o "a.', interp) == []
    assert completions("b = 1  # a.", interp) == []
    assert completions("sum(a).", interp) == []
    assert completions("a[0].", interp) == []
    assert completions("1.", interp) == []


def test_every_completed_member_is_accepted_by_the_interpreter() -> None:
    interp = session_with(
        "a = tensor([1., 2.], grad); b = tensor([3., 4.], grad); c = (a * b).sum();"
        "opt = sgd([a], lr=0.1)")
    refused = []
    for owner in ("a", "c.grad_fn", "opt", "torch", "F", "torch.nn", "a.shape", "a.dtype",
                  "a.device", "a.grad_fn"):
        for member in completions(f"{owner}.", interp):
            outcome = interp.run_statement(parse(f"_probe = {owner}.{member}").body[0])
            if outcome.error is not None and outcome.error.kind == "AttributeError":
                refused.append(f"{owner}.{member}: {outcome.error.message}")
    assert refused == []


def test_session_command_and_help_completion(tmp_path: Path) -> None:
    assert completions(":t") == ["table"]
    assert [c for c in completions(":")] == [c.name for c in commands.COMMANDS]
    assert completions(":table c") == ["changed"]
    (tmp_path / "walk.grad").write_text("a = 1\n")
    assert completions(f":load {tmp_path}/wa") == ["lk.grad"]
    assert completions("help reta") == ["retain_grad", "retains_grad"]
    assert ":load" in completions(":help :")


# ---------------------------------------------------------------------------------------------
# help and session commands
# ---------------------------------------------------------------------------------------------


def test_help_lists_statements_builtins_and_commands() -> None:
    run = drive("help" + ENTER)
    for entry in table.BUILTINS:
        assert re.search(rf"(?<![\w.]){re.escape(entry.name)}(?![\w])", run.out), entry.name
    for command in commands.COMMANDS:
        assert command.usage in run.out
    assert ":help [NAME]" in drive(":help" + ENTER).out


def test_help_name_shows_signature_autograd_effect_and_example() -> None:
    run = drive("help exp" + ENTER, "help(torch.sum)" + ENTER, ":help x.retain_grad" + ENTER,
                "help nothing_like_it" + ENTER)
    exp = table.BY_NAME["exp"]
    assert f"{exp.signature}    (function and method)\n    {exp.doc}\n" in run.out
    assert f"    autograd: {exp.autograd}\n    example:  {exp.example}\n" in run.out
    assert table.FUNCTIONS["sum"].autograd in run.out
    assert "the next backward fills x.grad" in run.out
    assert "NameError: no help on 'nothing_like_it'" in run.out


def test_help_on_a_typo_suggests_the_builtin_or_command_meant() -> None:
    run = drive("help tensr" + ENTER, ":help :lod" + ENTER, "help zzzzzz" + ENTER)
    assert "no help on 'tensr'" in run.out and "hint: did you mean 'tensor'?" in run.out
    assert "hint: did you mean ':load'?" in run.out
    assert run.out.count("hint:") == 2


def test_show_prints_one_table() -> None:
    run = drive("a = tensor(1.); b = a * 2" + ENTER, "show" + ENTER, "show a" + ENTER)
    after = run.out[run.out.index("\nname", run.out.index("b*")):]
    tables = after.split("\nname ")
    assert len(tables) == 3  # the last statement's table, then one for each show
    assert re.search(r"^a +1\. ", tables[2], re.M) and not re.search(r"^b ", tables[2], re.M)


def test_help_is_a_variable_when_the_session_has_one() -> None:
    assert commands.help_request("help", frozenset({"help"})) is None
    assert commands.help_request("help x", frozenset({"help"})) == "x"
    assert commands.help_request("help", frozenset()) == ""
    assert commands.help_request("help(relu)", frozenset()) == "relu"
    assert commands.help_request("helper", frozenset()) is None
    assert helptext.topic("grad") is not None and len(helptext.topic("grad") or []) > 4


def test_vars_save_reset_load(tmp_path: Path) -> None:
    saved = tmp_path / "session.grad"
    run = drive(":table off" + ENTER, "seed 0" + ENTER, "w = rand(2, grad)" + ENTER,
                "bad = nope" + ENTER, "loss = (w * 2).sum()" + ENTER,
                "loss.backward()" + ENTER, "opt = sgd([w], lr=0.5)" + ENTER, ":vars" + ENTER,
                f":save {saved}" + ENTER)
    # :vars: the tensors' table, then the other variables as Python shows them.
    assert re.search(r"^w +\[", run.out, re.M) and re.search(r"^loss ", run.out, re.M)
    assert "\nopt = SGD (\nParameter Group 0\n" in run.out
    assert f"saved 5 statements to {saved}" in run.out
    assert saved.read_text() == (
        "# A gradsh shell session, saved with :save.\n"
        "seed 0\nw = rand(2, grad)\nloss = (w * 2).sum()\nloss.backward()\n"
        "opt = sgd([w], lr=0.5)\n")
    grads = value(run, "w")
    rerun = drive(":reset" + ENTER, ":vars" + ENTER, f":load {saved}" + ENTER,
                  session=run.session)
    assert "session reset: no variables\nno variables\n" in rerun.out
    assert ">>> loss.backward()" in rerun.out
    assert value(rerun, "w") == grads and ops.tolist(rerun.env["w"].grad) == [2.0, 2.0]
    # What :load ran is part of the session, so saving again gives the same script.
    assert rerun.session.script() == saved.read_text()


def test_load_stops_at_the_first_error_and_applies_the_header(tmp_path: Path) -> None:
    script = tmp_path / "cuda.grad"
    script.write_text("# gradsh: --sim-cuda --seed 3\na = rand(2).cuda()\nb = a.nope\nc = 1\n")
    run = drive(f":load {script}" + ENTER, ":l /no/such/file.grad" + ENTER, ":lo" + ENTER,
                ":frob" + ENTER, ":re x" + ENTER)
    assert f"{script}:3:5: AttributeError:" in run.out
    assert "a" in run.env and "c" not in run.env
    assert run.env["a"].device == "cuda:0"
    assert run.session.header == ["--sim-cuda"]
    assert run.session.statements == ["seed 3", "a = rand(2).cuda()"]
    assert "OSError: no such file: /no/such/file.grad" in run.out
    assert "UsageError: :load FILE: run a .grad script" in run.out
    assert "UsageError: unknown command ':frob'" in run.out
    assert "UsageError: :reset takes no argument" in run.out


def test_quit() -> None:
    run = drive("a = 1" + ENTER, ":q" + ENTER, "b = 2" + ENTER)
    assert list(run.env) == ["a"] and run.code == 0


def test_every_command_has_a_method() -> None:
    for command in commands.COMMANDS:
        assert callable(getattr(Session, f"command_{command.name}", None)), command.name


# ---------------------------------------------------------------------------------------------
# History
# ---------------------------------------------------------------------------------------------


def test_history_location_follows_xdg() -> None:
    assert history_path({"XDG_STATE_HOME": "/s"}) == Path("/s/gradsh/history")
    home = Path(os.path.expanduser("~"))
    assert history_path({}) == home / ".local/state/gradsh/history"
    assert history_path({"XDG_STATE_HOME": "relative"}) == home / ".local/state/gradsh/history"


def test_history_persists_across_sessions_with_up_and_ctrl_r(tmp_path: Path) -> None:
    path = tmp_path / "state" / "gradsh" / "history"
    history, problem = open_history(path)
    assert problem is None and isinstance(history, FileHistory)
    drive("alpha = tensor(1.)" + ENTER, "beta = tensor(2.)" + ENTER, history=history)
    assert "+alpha = tensor(1.)" in path.read_text()
    again, _ = open_history(path)
    # Up recalls the last input; Ctrl-R finds an older one, Enter takes it, Enter runs it.
    session = Session(RunOptions(), io.StringIO(), io.StringIO())
    run = drive(UP + ENTER, Until(lambda _: "beta" in session.interp.env),
                CTRL_R + "alph" + ENTER, Until(lambda text: text.startswith("alpha")), ENTER,
                history=again, session=session)
    assert list(run.env) == ["beta", "alpha"]


def test_an_unwritable_history_falls_back_to_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    history, problem = open_history(blocker / "gradsh" / "history")
    assert isinstance(history, InMemoryHistory) and problem and "history is not saved" in problem


# ---------------------------------------------------------------------------------------------
# End to end: the installed command in a pseudo-terminal
# ---------------------------------------------------------------------------------------------

GRADSH = Path(sys.executable).with_name("gradsh")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Terminal:
    """A child process on a pseudo-terminal: type into it, wait for what it prints."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        import pty

        pid, fd = pty.fork()
        if pid == 0:  # the child: a terminal 120 x 40, then gradsh
            try:
                import fcntl
                import struct
                import termios

                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.text = ""
        self.seen = 0

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def expect(self, pattern: str, timeout: float = 20) -> str:
        """Wait until `pattern` shows up in the output after the last match (ANSI removed)."""
        import select

        deadline = time.monotonic() + timeout
        while True:
            plain = _ANSI.sub("", self.text[self.seen:]).replace("\r", "")
            match = re.search(pattern, plain)
            if match:
                self.seen = len(self.text)
                return plain
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} not seen in:\n{plain[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.text += os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:  # the child has gone
                    raise AssertionError(f"{pattern!r} not seen before exit:\n{plain}") from None

    def wait(self, timeout: float = 20) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            try:  # keep draining, so the child never blocks on a full terminal
                import select

                if select.select([self.fd], [], [], 0.05)[0]:
                    self.text += os.read(self.fd, 65536).decode("utf-8", "replace")
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise AssertionError("gradsh did not exit")

    def kill(self) -> None:
        import signal

        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    if sys.platform == "win32" or not GRADSH.exists():
        pytest.skip("needs a POSIX pseudo-terminal and the installed gradsh command")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1", "LANG": "C.UTF-8"}
    for passed_on in ("GRADSH_CACHE_DIR", "PYTHONPATH"):  # the same gradsh as this test's
        if passed_on in os.environ:
            env[passed_on] = os.environ[passed_on]
    term = Terminal([str(GRADSH)], env)
    yield term
    term.kill()


def test_end_to_end_in_a_pseudo_terminal(terminal: Terminal, tmp_path: Path) -> None:
    prompt = r"[\s\S]*>>> "  # wait for the next prompt before typing: keys typed earlier
    # reach a terminal in cooked mode, where Ctrl-D is end-of-file rather than a key.
    terminal.expect(r"gradsh .*Type help, or Ctrl-D to leave" + prompt)
    terminal.send("alpha_value = tensor(2.0, grad); c = alpha_value * 3\r")
    terminal.expect(r"grad_fn.*\n.*\n.*alpha_value.*\n.*c +6\. +\[\] +float32.*MulBackward0"
                    + prompt)
    terminal.send("c.backward(); d = nope\r")
    terminal.expect(r"NameError: name 'nope' is not defined\n +c\.backward\(\); d = nope\n"
                    r" +\^\^\^\^" + prompt)
    terminal.send("alpha_v\t")
    terminal.expect(r"alpha_value")
    terminal.send(".grad\r")
    terminal.expect(r"tensor\(3\.\)" + prompt)
    terminal.send("i = tensor(0)\r")
    terminal.expect(r"i +0 +\[\] +int64" + prompt)
    terminal.send("repeat 100000000 { i = i + 1 }\r")
    time.sleep(1.0)
    terminal.send(CTRL_C)
    terminal.expect(r"KeyboardInterrupt: interrupted" + prompt)
    terminal.send("print(i, alpha_value.grad)\r")  # the interrupted loop was undone
    terminal.expect(r"tensor\(0\) tensor\(3\.\)" + prompt)
    # Keys typed while a statement runs wait for the next prompt, unechoed meanwhile; Ctrl-D
    # among them is a key, as at the prompt.
    terminal.send("repeat 20000 { i = i + 1 }\r")
    time.sleep(0.3)
    terminal.send("print(i * 2)\r" + CTRL_D)
    shown = terminal.expect(r"tensor\(40000\)\n")
    ran = shown[shown.index("repeat 20000"):shown.index(">>> print(i * 2)")]
    assert "print" not in ran  # not echoed into the table
    assert terminal.wait() == 0
    history = (tmp_path / "state" / "gradsh" / "history").read_text()
    assert "+repeat 100000000 { i = i + 1 }" in history
