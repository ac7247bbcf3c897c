"""The interpreter in process: statements, values, printing, errors and their positions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gradsh.engine.tensor import Tensor
from gradsh.interpreter import Interpreter, StepOutcome
from gradsh.parser import parse


def run(source: str) -> tuple[Interpreter, list[StepOutcome]]:
    interp = Interpreter("t.grad", source)
    outcomes = list(interp.run(parse(source, "t.grad")))
    return interp, outcomes


def printed(source: str) -> list[str]:
    _, outcomes = run(source)
    for outcome in outcomes:
        assert outcome.error is None, outcome.error and outcome.error.message
    return [line for o in outcomes for line in o.printed]


def error_of(source: str) -> tuple[str, str, int, int]:
    _, outcomes = run(source)
    failed = [o for o in outcomes if o.error is not None]
    assert failed, "expected an error"
    err = failed[0].error
    assert err is not None and err.pos is not None
    return err.kind, err.message, err.pos.line, err.pos.column


def test_grad_flag_is_requires_grad() -> None:
    interp, _ = run("a = tensor(2.0, grad)\nb = tensor(2.0, requires_grad=True)\nc = rand(3, grad)")
    for name in "abc":
        assert interp.env[name].requires_grad and interp.env[name].is_leaf


def test_print_shows_what_python_prints_for_pytorch_objects() -> None:
    lines = printed(
        "a = tensor(2.0, grad)\n"
        "c = a * 2\n"
        "print a.is_leaf, None, a.item() * 3, a.shape, tensor([[1, 2, 3], [4, 5, 6]]).shape\n"
        "print a.dtype, a.device, tensor([1., 2.], dtype=float64)\n"
        "print c.grad_fn\n"
        "print c\n"
        "print [a.requires_grad], 'text', (1, 2)\n"
        "print(c.grad_fn.next_functions)\n"
    )
    assert lines[0] == "True None 6.0 torch.Size([]) torch.Size([2, 3])"
    assert lines[1] == "torch.float32 cpu tensor([1., 2.], dtype=torch.float64)"
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", lines[2])
    assert lines[3] == "tensor(4., grad_fn=<MulBackward0>)"
    assert lines[4] == "[True] text (1, 2)"
    assert re.fullmatch(
        r"\(\(<AccumulateGrad object at 0x[0-9a-f]+>, 0\), \(None, 0\)\)", lines[5]
    )


def test_the_article_example_2400_4800() -> None:
    lines = printed(
        "a = tensor(2.0, requires_grad=True)\nb = tensor(3.0)\nc = a*a*5\nd = c*c*b\n"
        "c.retain_grad()\nd.retain_grad()\nd.backward(retain_graph=True)\n"
        "print(a.grad)\nprint(c.grad)\nprint(d.grad)\nd.backward()\n"
        "print(a.grad)\nprint(c.grad)\nprint(d.grad)\n"
    )
    assert lines == ["tensor(2400.)", "tensor(120.)", "tensor(1.)",
                     "tensor(4800.)", "tensor(240.)", "tensor(2.)"]


def test_second_backward_error_and_graph_without_saved_tensors() -> None:
    kind, message, line, column = error_of(
        "a = tensor(2.0, grad)\nd = a * 5\nd.backward()\nd.backward()\n"
    )
    assert kind == "RuntimeError"
    assert message.startswith("Trying to backward through the graph a second time")
    assert (line, column) == (4, 1)
    assert printed("a = tensor(2.0, grad)\ny = a + 1\ny.backward()\ny.backward()\nprint a.grad") \
        == ["tensor(2.)"]


def test_backward_statement_flags() -> None:
    lines = printed(
        "x = tensor(3.0, grad)\ny = x ** 3\nbackward y retain\nbackward y\nprint x.grad\n"
    )
    assert lines == ["tensor(54.)"]


def test_no_grad_blocks_and_nesting() -> None:
    interp, outcomes = run(
        "x = tensor(1.0, grad)\n"
        "no_grad { a = x * 2; enable_grad { b = x * 2 } }\n"
        "set_grad_enabled(false) { c = x * 2 }\n"
        "set_grad_enabled(true) { d = x * 2 }\n"
    )
    assert all(o.ok for o in outcomes)
    env = interp.env
    assert not env["a"].requires_grad and env["a"].grad_fn is None
    assert env["b"].grad_fn.name() == "MulBackward0"
    assert not env["c"].requires_grad
    assert env["d"].requires_grad


def test_repeat_accumulates_gradients() -> None:
    lines = printed(
        "w = tensor(1.0, grad)\nx = tensor(3.0)\n"
        "repeat 3 { loss = (w * x).sum(); loss.backward() }\nprint w.grad\n"
    )
    assert lines == ["tensor(9.)"]


def test_assert_uses_allclose_and_fails_with_a_message() -> None:
    assert printed("a = tensor([1., 2.])\nassert a * 1.0000001 == tensor([1., 2.])\nprint 1") \
        == ["1"]
    kind, message, line, column = error_of("a = tensor(2.)\nassert a == 3\n")
    assert kind == "AssertionError"
    assert message == "a == 3 is false: left is tensor(2.), right is 3"
    assert (line, column) == (2, 8)
    kind, message, _, _ = error_of('assert 1 > 2, "custom"')
    assert (kind, message) == ("AssertionError", "custom")


def test_hooks_with_lambdas_and_print() -> None:
    lines = printed(
        "x = tensor(2.0, grad)\n"
        "y = x * 3\n"
        "y.register_hook(print)\n"
        "x.register_hook(g -> g * 10)\n"
        "y.backward()\n"
        "print x.grad\n"
    )
    assert lines == ["tensor(1.)", "tensor(30.)"]


def test_attribute_assignment() -> None:
    interp, outcomes = run(
        "x = tensor([1., 2.], grad)\n"
        "y = (x * x).sum()\n"
        "y.backward()\n"
        "x.grad = None\n"
        "x.requires_grad = false\n"
        "z = tensor([5., 6.])\n"
        "z2 = tensor([7., 8.])\n"
        "z.data = z2\n"
    )
    assert all(o.ok for o in outcomes), [o.error for o in outcomes]
    x = interp.env["x"]
    assert x.peek_grad() is None and not x.requires_grad
    assert interp.env["z"]._data is interp.env["z2"]._data


def test_augmented_assignment_is_in_place() -> None:
    interp, outcomes = run("x = tensor([1., 2.])\ny = x\ny += 1\nprint x\n")
    assert outcomes[-1].printed == ["tensor([2., 3.])"]
    assert interp.env["x"]._version == 1
    kind, message, _, _ = error_of("w = tensor([1., 2.], grad)\nw -= 1\n")
    assert (kind, message) == (
        "RuntimeError",
        "a leaf Variable that requires grad is being used in an in-place operation.",
    )
    assert printed(
        "w = tensor([1., 2.], grad)\nl = (w * w).sum()\nl.backward()\n"
        "no_grad { w -= 0.5 * w.grad }\nprint w\n"
    ) == ["tensor([0., 0.], requires_grad=True)"]


def test_torch_prefixes_are_accepted() -> None:
    lines = printed(
        "torch.manual_seed(0)\n"
        "x = torch.tensor([1., -1.], requires_grad=True)\n"
        "y = F.relu(x)\n"
        "z = torch.nn.functional.relu(x)\n"
        "g = torch.autograd.grad(y.sum(), x)[0]\n"
        "print y, g, torch.float64, x.dtype == torch.float32\n"
    )
    assert lines == ["tensor([1., 0.], grad_fn=<ReluBackward0>) tensor([1., 0.]) torch.float64 "
                     "True"]


def test_warnings_are_collected_once_per_statement() -> None:
    _, outcomes = run("x = tensor(1., grad)\ny = x * 2\nprint y.grad, y.grad\nprint y.grad\n")
    assert len(outcomes[2].warnings) == 1
    assert len(outcomes[3].warnings) == 1
    assert outcomes[2].warnings[0].startswith("UserWarning: The .grad attribute of a Tensor")


def test_errors_point_at_the_innermost_expression() -> None:
    assert error_of("a = tensor([1., 2.])\nb = a.exp() + undefined\n") == (
        "NameError", "name 'undefined' is not defined", 2, 15)
    kind, _, line, column = error_of("x = tensor([1, 2], grad)\n")
    assert (kind, line, column) == ("RuntimeError", 1, 5)
    kind, message, _, _ = error_of("x = tensor(1.)\nx.nope()\n")
    assert (kind, message) == ("AttributeError", "'Tensor' object has no attribute 'nope'")


def test_internals_are_not_reachable_from_the_language() -> None:
    for source in ("x = tensor(1.)\ny = x._data", "x = tensor(1.)\ny = x.__class__",
                   "x = tensor(1.)\ny = x._make"):
        kind, _, _, _ = error_of(source)
        assert kind == "AttributeError"


def test_del_and_definition_order() -> None:
    interp, _ = run("b = tensor(1.)\na = tensor(2.)\nb = tensor(3.)\ndel a\nc = tensor(4.)\n")
    assert [name for name, _ in interp.tensors()] == ["b", "c"]


def test_failing_statement_keeps_previous_state() -> None:
    interp, outcomes = run("x = tensor(1.)\nx = undefined\n")
    assert not outcomes[1].ok
    assert isinstance(interp.env["x"], Tensor) and interp.env["x"].item() == 1.0


@pytest.mark.parametrize("source", ["1 / 0", "None + 1", "(1, 2)[5]", "tensor(1.)()"])
def test_python_level_errors_are_gradsh_errors(source: str) -> None:
    kind, _, line, column = error_of(source)
    assert kind in ("ZeroDivisionError", "TypeError", "IndexError")
    assert (line, column) == (1, 1)


def test_a_missing_key_is_pythons_key_error() -> None:
    """An optimizer's state before its first step has no momentum_buffer: Python's KeyError at
    the expression, not an internal error (found by tests/test_fuzz.py's mutated scripts)."""
    interp, outcomes = run('w = tensor([1., 2.], grad)\nopt = sgd([w], lr=0.1, momentum=0.9)\n'
                           'b = opt.state[w]["momentum_buffer"]\n')
    error = outcomes[2].error
    assert (error.kind, error.message) == ("KeyError", "'momentum_buffer'")


def test_a_failing_block_keeps_what_ran_before_the_error() -> None:
    # As Python and PyTorch: the block's first statement ran, its effects stay.
    interp, outcomes = run("no_grad { a = tensor(1.); b = undefined }\n")
    assert not outcomes[0].ok and not outcomes[0].rolled_back
    assert "a" in interp.env and "b" not in interp.env


def test_a_failing_backward_leaves_what_pytorch_leaves(torch: Any) -> None:
    # AccumulateGrad(a) runs before the ExpBackward0 node that finds its saved result modified:
    # PyTorch leaves a.grad filled, and the graph's buffers it had not reached unfreed.
    interp, outcomes = run(
        "a = tensor(1., grad)\nb = tensor(2., grad)\n"
        "z = b.exp()\nz.detach().zero_()\n"
        "w = z + a * 3\nw.backward()\n"
    )
    assert not outcomes[-1].ok and not outcomes[-1].rolled_back
    assert "modified by an inplace operation" in outcomes[-1].error.message
    ta = torch.tensor(1., requires_grad=True)
    tb = torch.tensor(2., requires_grad=True)
    tz = tb.exp()
    tz.detach().zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        (tz + ta * 3).backward()
    assert interp.env["a"].peek_grad().item() == ta.grad.item() == 3.0
    assert interp.env["b"].peek_grad() is None and tb.grad is None
    later = list(interp.run(parse("u = (a * 3).sum()\nu.backward()\nprint a.grad", "t.grad")))
    assert later[-1].printed == ["tensor(6.)"]


def test_a_failing_loop_keeps_its_passes_up_to_the_error() -> None:
    # The loop's second pass fails at w.grad.zero_() (w.grad is None by then).
    interp, outcomes = run(
        "x = tensor([1., 2.])\nw = tensor([1., 2.], grad)\n(w * w).sum().backward()\n"
        "repeat 2 { x.add_(1); w.grad.zero_(); w.grad = None; c = x * 2 }\n"
    )
    assert [o.ok for o in outcomes] == [True, True, True, False]
    x, w = interp.env["x"], interp.env["w"]
    assert x.tolist() == [3.0, 4.0] and x._version == 2
    assert w.peek_grad() is None
    assert interp.env["c"].tolist() == [4.0, 6.0]


def test_a_failing_block_keeps_its_random_draws() -> None:
    interp, outcomes = run(
        "seed 0\nx = tensor([1., 2.])\n"
        "no_grad { x.add_(1); r = rand(2); undefined }\n"
        "r2 = rand(2)\nseed 0\nr0 = rand(2)\n"
    )
    assert [o.ok for o in outcomes] == [True, True, False, True, True, True]
    env = interp.env
    assert env["x"].tolist() == [2.0, 3.0] and env["x"]._version == 1
    assert env["r"].tolist() == env["r0"].tolist()  # the block drew first after the seed
    assert env["r2"].tolist() != env["r0"].tolist()


def test_a_statement_over_the_memory_limit_is_undone_completely() -> None:
    """gradsh's own stop undoes everything the statement did: variables, list contents, an
    optimizer's dicts, hooks added and removed, optimizer state and options, in-place writes, the .grad
    of a leaf no variable names any more, the random stream."""
    from gradsh.engine import limits

    setup = (
        "seed 0\nw = tensor([1., 2.], grad)\nl = [1, 2]\n"
        "h = w.register_hook(print)\nopt = sgd([w], lr=0.1, momentum=0.9)\n"
        "u = tensor(3., grad)\nv = u * 2\nu = 0\n"
    )
    stopped = ("no_grad { w.mul_(2) }\nrepeat 1 { l[0] = 5; h.remove(); "
               "(w * w).sum().backward(); opt.step(); opt.param_groups[0]['lr'] = 1.; "
               "v.backward(); r = rand(2); big = zeros(10 ** 9) }\n")
    previous = limits.Limit.max_bytes
    limits.set_max_memory(10 ** 6)
    try:
        interp, outcomes = run(setup + stopped + "seed 0\nr0 = rand(2)\nr1 = rand(2)\n")
    finally:
        limits.set_max_memory(previous)
    stop = outcomes[-4]
    assert not stop.ok and stop.rolled_back and stop.error.rolled_back
    assert "refusing to allocate" in stop.error.message
    env = interp.env
    assert env["w"].tolist() == [2.0, 4.0]  # the statement before it is not undone
    assert env["w"].peek_grad() is None
    assert env["l"] == [1, 2]
    assert "r" not in env and "big" not in env
    opt = env["opt"]
    assert opt.param_groups[0]["lr"] == 0.1 and len(opt.state) == 0
    leaf = env["v"].grad_fn.next_functions[0][0].variable
    assert leaf.peek_grad() is None
    # the hook is still registered: a backward prints through it
    later = list(interp.run(parse("(w * 1).sum().backward()", "t.grad")))
    assert later[0].printed == ["tensor([1., 1.])"]


def test_a_second_ctrl_c_cannot_break_into_an_undo() -> None:
    import os
    import signal

    from gradsh.statement_undo import uninterrupted

    with uninterrupted():
        os.kill(os.getpid(), signal.SIGINT)  # delivered here, held until the undo is done
        finished = True
    assert finished


def test_an_unknown_attribute_suggests_the_near_name_or_the_builtin_list() -> None:
    from gradsh.parser import parse

    def error_of(source: str) -> Any:
        interp = Interpreter("<t>", source)
        outcomes = [interp.run_statement(stmt) for stmt in parse(source, "<t>").body]
        return outcomes[-1].error

    typo = error_of("x = rand(3)\ny = x.sofmax(0)")
    assert (typo.kind, typo.message) == ("AttributeError",
                                         "'Tensor' object has no attribute 'sofmax'")
    assert typo.hint == "hint: did you mean 'softmax'?"
    assert error_of("y = torch.softmx(rand(3), 0)").hint == "hint: did you mean 'softmax'?"
    missing = error_of("y = F.grid_sample(rand(3), 0.5)")
    assert missing.message == "module 'torch.nn.functional' has no attribute 'grid_sample'"
    assert "docs/builtins.md" in missing.hint


def test_pythons_builtins_and_the_names_they_share_with_torch() -> None:
    lines = printed(
        "x = tensor([1., 2.])\n"
        "print(len, int, sum(x), sum([1, 2]), torch.sum(x), max(1, 5), round(2.5), abs(-1))\n"
        "print(float(x[0]), float, int(3.9), bool([]), list(range(2)), x.to(float).dtype)\n"
        "a, b = x\n"
        "print(a.grad_fn is None, a is x, 1. in x, len(x), x.numpy()[1], x.numpy().dtype)\n"
    )
    assert lines == [
        "<built-in function len> torch.int32 tensor(3.) 3 tensor(3.) 5 2 1",
        "1.0 torch.float32 3 False [0, 1] torch.float32",
        "True False True 2 2.0 float32",
    ]
    assert error_of("s = torch.len([1])")[:2] == ("AttributeError",
                                                 "module 'torch' has no attribute 'len'")
    assert error_of("s = torch.sum([1, 2])")[0] == "TypeError"  # torch.sum is torch's only
    assert error_of("x = 1\nr = list(range(10 ** 15))") == (
        "MemoryError", error_of("x = 1\nr = list(range(10 ** 15))")[1], 2, 5)


def test_a_variable_named_like_a_conversion_is_called_as_the_variable() -> None:
    assert error_of("int = tensor(1.)\ny = int(2)")[:2] == ("TypeError",
                                                          "'Tensor' object is not callable")
def _error(source: str) -> Any:
    interp = Interpreter("<t>", source)
    outcomes = [interp.run_statement(stmt) for stmt in parse(source, "<t>").body]
    assert outcomes[-1].error is not None
    return outcomes[-1].error
@pytest.mark.parametrize("source, hint", [
    ("a = tensor(2., grad)\na.gard", "hint: did you mean 'grad'?"),  # an attribute
    ("a = tensor(2., grad)\na.backwrd()", "hint: did you mean 'backward'?"),  # a method
    ("x = tensr([1.])", "hint: did you mean 'tensor'?"),  # a function
    ("x = torch.tensr([1.])", "hint: did you mean 'tensor'?"),
    ("a = tensor(1.)\nprint(aa)", "hint: did you mean 'a'?"),  # a variable
    ("a = tensor(2., grad)\n(a * 2).backward(retain_grap=True)", "hint: did you mean retain_graph=?"),
    ("x = zeros(2, dtyp=float64)", "hint: did you mean dtype=?"),  # PyTorch's overload error
    ("x = zeros(2)\nx.sum(dimm=0)", "hint: did you mean dim=?"),
])
def test_a_typo_gets_the_name_meant(source: str, hint: str) -> None:
    assert _error(source).hint == hint
def test_a_called_typo_is_offered_only_what_can_be_called() -> None:
    # `a.gard` may be the attribute grad; `a.gard()` cannot be, and nothing callable is near.
    assert _error("a = tensor(2., grad)\na.gard()").hint.startswith("hint: tensors here have no")
    assert _error("x = tensor([1.])\ny = x.requires_grad_(retain=True)").hint == (
        "hint: requires_grad_() takes the keywords requires_grad")
def test_a_torch_nn_class_scripts_lack_is_named_as_such() -> None:
    # .grad scripts build the nn classes the builtin table lists; another is not a typo of one
    hint = _error("layer = nn.Transformer(2, 3)").hint
    assert "no torch.nn.Transformer" in hint and "gradsh FILE.py" in hint
    assert "did you mean 'Linear'" in _error("layer = nn.Linar(2, 3)").hint
    assert "did you mean 'CrossEntropyLoss'" in _error("loss = nn.CrossEntropyLos()").hint


def test_pythons_own_builtins_say_what_the_language_has_instead() -> None:
    assert "x.dtype" in _error("x = tensor([1.])\nn = type(x)").hint


def test_bare_expressions_echo_their_value_as_python_does() -> None:
    source = ("a = tensor(2., grad)\na.is_leaf\na * 3\na.backward()\nprint(a.grad)\n"
              "repeat 2 { a.grad }\na.grad.zero_()\n")
    _, outcomes = run(source)
    echoes = [[p for kind, p in o.events if kind == "echo"] for o in outcomes]
    assert echoes == [[], ["True"], ["tensor(6., grad_fn=<MulBackward0>)"], [], [], [],
                      ["tensor(0.)"]]  # None shows nothing; inside a block nothing either
    assert all(o.printed == [] for o in outcomes[:4])  # what the script printed: no echo


def test_the_undo_copies_only_storage_older_than_the_statement() -> None:
    """A loop that makes and changes a large tensor on each pass holds no copy of it (the undo
    would discard it anyway), while writes into older storage, through `.data` or a view, are
    still undone."""
    from gradsh.engine import limits, ops
    from gradsh.engine.tensor import undo_log

    with undo_log() as log:
        log.protected = set()
        fresh = ops.zeros(1000)
        fresh.add_(1)
        assert log._storage == {}
    previous = limits.Limit.max_bytes
    limits.set_max_memory(10 ** 6)
    try:
        interp, outcomes = run("x = tensor([1., 2.])\n"
                               "repeat 2 { d = x.data; d.add_(1); v = x[0:1]; v.mul_(10); "
                               "y = zeros(10); y.add_(1); z = zeros(10 ** 9) }\n")
    finally:
        limits.set_max_memory(previous)
    assert outcomes[-1].rolled_back
    assert interp.env["x"].tolist() == [1.0, 2.0] and interp.env["x"]._version == 0
