"""torch.optim and torch.nn from .grad scripts: what the interpreter serves of them (the
builtin table's members, nothing else), their printed forms, warnings and the table's rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gradsh.interpreter import Interpreter, StepOutcome
from gradsh.parser import parse

ROOT = Path(__file__).resolve().parent.parent


def run(source: str) -> tuple[Interpreter, list[StepOutcome]]:
    interp = Interpreter("t.grad", source)
    return interp, list(interp.run(parse(source, "t.grad")))


def printed(source: str) -> list[str]:
    _, outcomes = run(source)
    for outcome in outcomes:
        assert outcome.error is None, outcome.error and outcome.error.message
    return [line for o in outcomes for line in o.printed]


def error_of(source: str) -> tuple[str, str]:
    _, outcomes = run(source)
    failed = [o.error for o in outcomes if o.error is not None]
    assert failed, "expected an error"
    return failed[0].kind, failed[0].message


# -- torch.optim ------------------------------------------------------------------------------


def test_sgd_is_torch_optim_sgd() -> None:
    from gradsh.torch.optim import SGD

    interp, _ = run("w = tensor([1., 2.], grad)\nopt = sgd([w], lr=0.1)\n"
                    "o2 = torch.optim.SGD([w], lr=0.2)")
    assert type(interp.env["opt"]) is SGD and type(interp.env["o2"]) is SGD


def test_param_groups_are_dicts_a_script_can_write() -> None:
    lines = printed(
        "w = tensor([1., 2.], grad)\n"
        "opt = sgd([w], lr=0.1)\n"
        'opt.param_groups[0]["lr"] = 0.5\n'
        "(w * w).sum().backward()\n"
        "opt.step()\n"
        'print(w, opt.param_groups[0]["lr"], opt.defaults["lr"])\n'
    )
    assert lines == ["tensor([0., 0.], requires_grad=True) 0.5 0.1"]


def test_print_of_an_optimizer_is_pytorchs_repr() -> None:
    lines = printed("w = tensor([1., 2.], grad)\nprint(sgd([w], lr=0.1, momentum=0.9))")
    assert lines == ["SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
                     "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
                     "    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)"]


def test_an_optimizers_python_warning_is_the_steps_warning() -> None:
    _, outcomes = run("w = tensor([1., 2.], grad)\nopt = sgd([w, w], lr=0.1)")
    assert outcomes[1].warnings == [
        "UserWarning: optimizer contains a parameter group with duplicate parameters; in "
        "future, this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
        "more information"]


def test_only_the_tables_members_of_an_optimizer_are_reachable() -> None:
    setup = "w = tensor([1., 2.], grad)\nopt = sgd([w], lr=0.1)\n"
    for expression in ("opt.__class__", "opt._optimizer_step_pre_hooks", "opt.__dict__",
                       "opt.register_step_pre_hook", "opt.step.__globals__",
                       "opt.param_groups[0].keys", "opt.state.__class__", "opt.__getstate__"):
        kind, _ = error_of(setup + f"y = {expression}")
        assert kind == "AttributeError", expression


def test_gradsh_torch_is_imported_only_when_a_script_uses_it() -> None:
    code = ("import sys\nfrom gradsh.interpreter import Interpreter\nfrom gradsh.parser import "
            "parse\ni = Interpreter()\nlist(i.run(parse('x = tensor(1., grad) * 2', 't')))\n"
            "print('gradsh.torch' in sys.modules)\n"
            "list(i.run(parse('o = sgd([tensor(1., grad)], lr=0.1)', 't')))\n"
            "print('gradsh.torch' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert result.stdout.split() == ["False", "True"]


# -- torch.nn ---------------------------------------------------------------------------------

MODEL = "seed 0\nmodel = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))\n"


def test_a_module_is_built_called_indexed_and_named_by_qualified_names() -> None:
    from gradsh import snapshot

    interp, outcomes = run(MODEL + "x = randn(2, 3)\ny = model(x)\nloss = nn.MSELoss()(y, "
                           "zeros(2, 1))\nloss.backward()\nfirst = model.0\nsame = model[0]\n"
                           "tail = model[1:]")
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes if o.error]
    env = interp.env
    assert env["first"] is env["same"] is env["model"][0]
    assert type(env["tail"]).__name__ == "Sequential" and len(env["tail"]) == 2
    assert env["y"].grad_fn.name() == "AddmmBackward0"
    rows = [s.name for s in snapshot.take(env)]
    assert rows[:4] == ["model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias"]
    assert "model.0.weight" in snapshot.tensor_env(env)


def test_graph_and_explain_name_parameters_by_qualified_name() -> None:
    from gradsh import explainer, graphview, snapshot

    interp, _ = run(MODEL + "loss = model(randn(2, 3)).sum()\nloss.backward()")
    env = snapshot.tensor_env(interp.env)
    tree, _ = graphview.build(interp.env["loss"], "loss", env, "t.grad")
    text = repr(tree)
    assert "model.0.weight" in text and "model.2.bias" in text and "unnamed" not in text
    lines = explainer.explain(env["model.0.weight"], "model.0.weight", env, path="t.grad")
    assert lines[0].startswith("model.0.weight is a leaf")


def test_eval_changes_layers_not_autograd() -> None:
    lines = printed("seed 0\nnet = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))\n"
                    "x = ones(1, 2)\nnet.eval()\ny = net(x)\n"
                    "print(net.training, net.1.training, y.requires_grad, y.grad_fn)\n"
                    "no_grad { z = net(x) }\nprint(z.requires_grad, (z == y).all())")
    assert lines[0].startswith("False False True <AddmmBackward0 object at 0x")
    assert lines[1] == "False tensor(True)"


def test_only_the_tables_members_of_a_module_are_reachable() -> None:
    for expression in ("model.__class__", "model._modules", "model._parameters",
                       "model.__dict__", "model.register_forward_hook", "model.apply",
                       "model.forward.__globals__", "model.0.__init__", "model[0]._buffers",
                       "model.parameters().gi_frame", "model.state_dict().__class__",
                       "model.__call__", "model._call_impl", "model.0._forward_hooks"):
        kind, _ = error_of(MODEL + f"y = {expression}")
        assert kind == "AttributeError", expression
    kind, message = error_of(MODEL + "y = model.wieght")
    assert (kind, message) == ("AttributeError", "'Sequential' object has no attribute 'wieght'")
    kind, message = error_of(MODEL + "y = model.7")
    assert (kind, message) == ("AttributeError", "'Sequential' object has no attribute '7'")


def test_the_exporter_writes_modules_as_pytorch_and_refuses_their_internals() -> None:
    from gradsh.errors import GradshError
    from gradsh.export import export_source

    exported = export_source(MODEL + "w = model.0.weight\ny = model[2](model.1(randn(1, 4)))")
    codes = [step.code for step in exported.steps]
    assert codes[1] == ("model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), "
                        "torch.nn.Linear(4, 1))")
    assert codes[2:] == ["w = model[0].weight", "y = model[2](model[1](torch.randn(1, 4)))"]
    for attribute in ("_modules", "register_forward_hook", "apply", "__class__", "007"):
        try:
            export_source(MODEL + f"y = model.{attribute}")
        except GradshError as err:
            assert err.kind == "ExportError", attribute
        else:
            raise AssertionError(f"model.{attribute} was exported")


# -- anomaly mode -----------------------------------------------------------------------------


def test_anomaly_mode_names_the_statement_of_the_forward_even_with_gradsh_torch_loaded() -> None:
    _, outcomes = run(
        "w = sgd([tensor(1., grad)], lr=0.1)\n"  # loads gradsh.torch, which records Python stacks
        "x = tensor([0., 1.], grad)\n"
        "set_detect_anomaly(true)\n"
        "y = (x / x).sum()\n"
        "y.backward()\n"
        "set_detect_anomaly(false)\n"
    )
    failed = outcomes[4]
    assert failed.error is not None and failed.error.message == (
        "Function 'DivBackward0' returned nan values in its 1th output.")
    assert failed.warnings == ["UserWarning: Error detected in DivBackward0. Traceback of forward "
                               "call that caused the error:\n  line 4: y = (x / x).sum()"]


def test_detect_anomaly_block_restores_the_mode_after_it() -> None:
    from gradsh.engine.tensor import Anomaly

    interp, outcomes = run("x = tensor([0., 1.], grad)\n"
                           "detect_anomaly(check_nan=false) { y = x.sqrt() }\n")
    assert outcomes[1].warnings == ["UserWarning: Anomaly Detection has been enabled. This mode "
                                    "will increase the runtime and should only be enabled for "
                                    "debugging."]
    assert not Anomaly.enabled and Anomaly.check_nan
    assert interp.env["y"].grad_fn.metadata["traceback_"].source == "y = x.sqrt()"
