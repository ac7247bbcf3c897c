"""`explain` in English and Simplified Chinese, how the language is chosen, the paragraph wrapping
(Chinese included), and the hint lines under errors about saved tensors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from rich.cells import cell_len

from gradsh import explainer as explain
from gradsh.engine.tensor import SECOND_BACKWARD_MESSAGE
from gradsh.interpreter import Interpreter
from gradsh.parser import parse
from gradsh.render import wrap_text
from gradsh.runner import RunOptions, run_source


def quiet(source: str, lang: str = "en", path: str = "t.grad") -> str:
    out = io.StringIO()
    run_source(source, path, RunOptions(mode="quiet", lang=lang), out, out)
    return out.getvalue()


BASICS = """\
a = tensor(2.0, requires_grad=True)
b = tensor(3.0)
m = a * b
n = tensor([1, 2])
explain a
explain b
explain m
explain n
m.backward()
explain m
explain a
"""


def test_english() -> None:
    assert quiet(BASICS) == """\
a is a leaf: it requires grad because you asked for it (requires_grad=True), not because an
  operation produced it, so its grad_fn is None.
The next backward that reaches a will store its gradient in a.grad (None now).
No other variable shares its storage.
b is a leaf because it does not require grad (requires_grad=False): autograd records nothing about
  it.
No backward will fill b.grad. To get a gradient for b, make it require grad before computing with
  it: b.requires_grad_().
No other variable shares its storage.
b is saved for backward by MulBackward0 (m) at line 3, and has not been modified since (version 0).
m is not a leaf: it is the result of an operation on tensors that require grad (a), so autograd
  recorded how it was made: its grad_fn is MulBackward0.
The next backward will pass gradients through m without keeping them: m.grad stays None (and reading
  it warns). To keep it, call m.retain_grad() before backward; to make m the leaf of a new graph
  instead, use m.detach().requires_grad_().
Its graph can be backpropagated: the tensor its nodes saved for backward is still there (a backward
  frees it unless you pass retain_graph=True).
No other variable shares its storage.
n is a leaf that can never require grad: it is torch.int64, and only floating point tensors can
  require gradients.
So no backward will fill n.grad; for a gradient, start from a float copy:
  n.float().requires_grad_().
No other variable shares its storage.
m is not a leaf: it is the result of an operation on tensors that require grad (a), so autograd
  recorded how it was made: its grad_fn is MulBackward0.
The next backward will pass gradients through m without keeping them: m.grad stays None (and reading
  it warns). To keep it, call m.retain_grad() before backward; to make m the leaf of a new graph
  instead, use m.detach().requires_grad_().
Its graph can no longer be backpropagated: the backward at line 9 freed the tensors saved by
  MulBackward0 (m), and a backward through them raises an error. To backpropagate twice, the first
  backward must keep them: .backward(retain_graph=True), or `backward ... retain`.
No other variable shares its storage.
a is a leaf: it requires grad because you asked for it (requires_grad=True), not because an
  operation produced it, so its grad_fn is None.
The next backward that reaches a will add its gradient to a.grad, which already holds 3.: gradients
  accumulate, so reset them between steps (opt.zero_grad(), or a.grad = None).
No other variable shares its storage.
"""


def test_chinese() -> None:
    assert quiet(BASICS, "zh") == """\
a 是叶子节点：它需要梯度是因为你自己设置了 requires_grad=True，而不是由某个运算产生的，所以它的
  grad_fn 是 None。
下一次到达 a 的反向传播会把梯度存进 a.grad（现在是 None）。
没有其他变量与它共享存储。
b 是叶子节点，因为它不需要梯度（requires_grad=False）：autograd 不记录它的任何信息。
反向传播不会填充 b.grad。想得到 b 的梯度，要在用它计算之前让它需要梯度：b.requires_grad_()。
没有其他变量与它共享存储。
b 在第 3 行被 MulBackward0 (m) 保存用于反向传播，之后没有被修改过（版本号 0）。
m 不是叶子节点：它是对需要梯度的张量（a）做运算的结果，所以 autograd 记录了它是怎么算出来的：它的
  grad_fn 是 MulBackward0。
下一次反向传播会让梯度流过 m，但不会保留：m.grad 仍为 None（读取时会有警告）。想保留它，要在反向传播
  之前调用 m.retain_grad()；想让 m 成为新计算图的叶子节点，用 m.detach().requires_grad_()。
它的计算图可以反向传播：为反向传播保存的 1 个张量还在（反向传播会释放它，除非传入
  retain_graph=True）。
没有其他变量与它共享存储。
n 是叶子节点，而且永远不能需要梯度：它的类型是 torch.int64，只有浮点张量才能需要梯度。
所以反向传播永远不会填充 n.grad；需要梯度的话，从浮点副本开始：n.float().requires_grad_()。
没有其他变量与它共享存储。
m 不是叶子节点：它是对需要梯度的张量（a）做运算的结果，所以 autograd 记录了它是怎么算出来的：它的
  grad_fn 是 MulBackward0。
下一次反向传播会让梯度流过 m，但不会保留：m.grad 仍为 None（读取时会有警告）。想保留它，要在反向传播
  之前调用 m.retain_grad()；想让 m 成为新计算图的叶子节点，用 m.detach().requires_grad_()。
它的计算图已经不能再反向传播了：在第 9 行执行的反向传播释放了 MulBackward0 (m) 保存的张量，再经过它
  们反向传播会报错。要反向传播两次，第一次反向传播就得保留它们：.backward(retain_graph=True)，或
  `backward ... retain`。
没有其他变量与它共享存储。
a 是叶子节点：它需要梯度是因为你自己设置了 requires_grad=True，而不是由某个运算产生的，所以它的
  grad_fn 是 None。
下一次到达 a 的反向传播会把梯度加到 a.grad 上，它现在已经是 3.：梯度会累加，所以每一步之间要清零
  （opt.zero_grad() 或 a.grad = None）。
没有其他变量与它共享存储。
"""


STORAGE = """\
w = tensor([1., 2., 3.], requires_grad=True)
y = w.exp()
y.retain_grad()
loss = (y * w).sum()
d = y.detach()
r = y.data
v = w[0:2]
d.add_(1)
explain y
explain v
explain d
"""


def test_storage_sharing_and_changes_since_saved() -> None:
    assert quiet(STORAGE) == """\
tensor([ 3.7183,  8.3891, 21.0855])
y is not a leaf: it is the result of an operation on tensors that require grad (w), so autograd
  recorded how it was made: its grad_fn is ExpBackward0.
retain_grad() was called on y, so the next backward will store its gradient in y.grad as well (None
  now).
Backward through it will fail: y was saved by ExpBackward0 at line 2 and modified in place at line 8
  (version 1, saved at version 0). Compute with a copy (y.clone()), or change it in place only after
  backward.
y shares its storage with d (detach(): the same version counter) and r (.data: its own version
  counter): an in-place change through any of them changes y too.
Changes made through .data are invisible to autograd (the version does not go up): a backward would
  silently use the changed values.
y was saved for backward by MulBackward0 at line 4, and modified in place after that at line 8
  (version 1, saved at version 0): backward through MulBackward0 will fail.
v is not a leaf: it is the result of an operation on tensors that require grad (w), so autograd
  recorded how it was made: its grad_fn is SliceBackward0.
The next backward will pass gradients through v without keeping them: v.grad stays None (and reading
  it warns). To keep it, call v.retain_grad() before backward; to make v the leaf of a new graph
  instead, use v.detach().requires_grad_().
Its graph saves no tensors, so backward can run through it again and again, even without
  retain_graph=True.
v shares its storage with w (v is a view of it): an in-place change through any of them changes v
  too.
v shares the storage that MulBackward0 saved for backward at line 4 (as w), and it has not been
  modified since (version 0).
d is a leaf because it does not require grad (requires_grad=False): autograd records nothing about
  it.
No backward will fill d.grad. To get a gradient for d, make it require grad before computing with
  it: d.requires_grad_().
d shares its storage with y (detach(): the same version counter) and r (.data: its own version
  counter): an in-place change through any of them changes d too.
Changes made through .data are invisible to autograd (the version does not go up): a backward would
  silently use the changed values.
d shares the storage that MulBackward0 saved for backward at line 4 (as y), and it was modified in
  place after that at line 8 (version 1, saved at version 0): backward through MulBackward0 will
  fail.
"""


def test_storage_sharing_in_chinese() -> None:
    echo, *text = quiet(STORAGE, "zh").splitlines()  # d.add_(1) shows d, as in Python
    assert echo == "tensor([ 3.7183,  8.3891, 21.0855])"
    assert text[:9] == [
        "y 不是叶子节点：它是对需要梯度的张量（w）做运算的结果，所以 autograd "
        "记录了它是怎么算出来的：它的",
        "  grad_fn 是 ExpBackward0。",
        "y 调用过 retain_grad()，所以下一次反向传播也会把梯度存进 y.grad（现在是 None）。",
        "经过它的反向传播会失败：y 在第 2 行被 ExpBackward0 保存，之后在第 8 行"
        "被原地修改（版本号 1，保存时是",
        "  0）。改用副本计算（y.clone()），或者在反向传播之后再做原地修改。",
        "y 与 d（detach()：共用版本计数器）和 r（.data：版本计数器各自独立）"
        "共享存储：通过其中任何一个做原地",
        "  修改，y 也会跟着变。",
        "通过 .data 做的修改 autograd 看不到（版本号不变）：反向传播会悄悄使用改变后的值。",
        "y 在第 4 行被 MulBackward0 保存用于反向传播，之后在第 8 行被原地修改"
        "（版本号 1，保存时是 0）：经过",
    ]
    assert "v 与 w（v 是它的视图）共享存储：通过其中任何一个做原地修改，v 也会跟着变。" in text


def test_retained_grads_views_under_no_grad_and_non_tensors() -> None:
    source = ("x = tensor([1., 2.], grad)\nh = x * 2\nh.retain_grad()\nh.sum().backward()\n"
              "no_grad { nv = x.view(2) }\nk = 3\nexplain h\nexplain nv\nexplain k\n")
    lines = quiet(source).splitlines()
    assert lines[2:4] == [
        "retain_grad() was called on h, so the next backward will add its gradient to h.grad as "
        "well (it",
        "  holds [1., 1.]).",
    ]
    assert ("nv is a leaf (grad_fn is None) although requires_grad is True: it is a view, made "
            "under no_grad, of") in lines
    assert "No backward will fill nv.grad: no graph leads to it." in lines
    assert lines[-1] == "k is not a tensor (int): autograd only tracks tensors."


def test_a_graph_without_saved_tensors_can_be_backpropagated_again() -> None:
    lines = quiet("x = tensor(1., grad)\ny = x + 1\ny.backward()\nexplain y\n").splitlines()
    assert ("Its graph saves no tensors, so backward can run through it again and again, even "
            "without") in lines


def test_unknown_language_falls_back_to_english() -> None:
    assert quiet("x = tensor(1.)\nexplain x\n", "fr") == quiet("x = tensor(1.)\nexplain x\n")


# -- choosing the language ----------------------------------------------------------------------


def gradsh(*args: str, env: dict[str, str] | None = None) -> str:
    import os

    environment = {k: v for k, v in os.environ.items() if k != "GRADSH_LANG"}
    environment.update(env or {})
    run = subprocess.run([sys.executable, "-m", "gradsh", *args], capture_output=True,
                         text=True, env=environment)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_lang_option_and_environment() -> None:
    code = "x = tensor(1.); explain x"
    english = gradsh("--quiet", "-c", code)
    assert english.startswith("x is a leaf because it does not require grad")
    chinese = gradsh("--quiet", "--lang", "zh", "-c", code)
    assert chinese.startswith("x 是叶子节点，因为它不需要梯度")
    assert gradsh("--quiet", "-c", code, env={"GRADSH_LANG": "zh"}) == chinese
    assert gradsh("--quiet", "--lang", "en", "-c", code,
                  env={"GRADSH_LANG": "zh"}) == english  # the option wins


def test_json_trace_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADSH_LANG", "zh")
    out = io.StringIO()
    run_source("x = tensor(1.)\nexplain x\n", "t.grad", RunOptions(mode="json"), out, out)
    step = json.loads(out.getvalue().splitlines()[1])
    assert step["printed"][0].startswith("x 是叶子节点")


# -- wrapping -----------------------------------------------------------------------------------


def test_wrap_keeps_words_whole_and_indents_continuations() -> None:
    lines = wrap_text("backward() will pass gradients through m but not keep them: m.grad stays "
                      "None.", 30, indent=2)
    assert lines == ["backward() will pass gradients", "  through m but not keep them:",
                     "  m.grad stays None."]
    assert wrap_text("", 30) == [""]
    assert wrap_text("x" * 25, 10, indent=2) == ["x" * 10, "  " + "x" * 8, "  " + "x" * 7]


def test_wrap_keeps_tensor_values_on_one_line() -> None:
    lines = wrap_text("it already holds [ 5.4366, 22.1672, 80.3421]: gradients accumulate", 30)
    assert lines == ["it already holds", "[ 5.4366, 22.1672, 80.3421]:", "gradients accumulate"]


def test_wrap_chinese_by_cells_never_starting_with_closing_punctuation() -> None:
    text = ("它的计算图已经不能再反向传播了：在第 9 行执行的反向传播释放了 MulBackward0 (m) "
            "保存的张量，再经过它们反向传播会报错。")
    for width in range(12, 60):
        lines = wrap_text(text, width, indent=2)
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert not any(line.strip()[:1] in "，。：；）" for line in lines[1:]), (width, lines)
        assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")


# -- hints under errors -------------------------------------------------------------------------


def failure(source: str, path: str = "t.grad") -> Any:
    interp = Interpreter(path, source)
    for outcome in interp.run(parse(source, path)):
        if outcome.error is not None:
            return outcome.error
    raise AssertionError("no error")


def test_hint_names_the_variable_where_it_was_saved_and_changed() -> None:
    source = ("x = tensor([1., 2., 3.], requires_grad=True)\ny = x.sigmoid()\nz = y.detach()\n"
              "z.mul_(2)\ny.sum().backward()\n")
    error = failure(source)
    assert error.message.startswith("one of the variables needed for gradient computation has "
                                    "been modified by an inplace operation: [torch.FloatTensor "
                                    "[3]], which is output 0 of Sigmoid, is at version 1;")
    assert error.hint == ("hint: y was saved by SigmoidBackward0 at line 2 (y = x.sigmoid()) and "
                          "modified in place at line 4 (z.mul_(2)); version 1 now, 0 when saved")
    text = quiet(source)
    assert text.splitlines()[-1] == error.hint  # after PyTorch's message and the caret


def test_hint_for_a_leaf_changed_by_an_update_step() -> None:
    error = failure("w = tensor([0.5, -1.], requires_grad=True)\nloss = (w * w).sum()\n"
                    "no_grad { w -= 0.1 * w }\nloss.backward()\n")
    assert error.hint == ("hint: w was saved by MulBackward0 at line 2 (loss = (w * w).sum()) "
                          "and modified in place at line 3 (w -= 0.1 * w); version 1 now, 0 when "
                          "saved")


def test_hint_names_the_node_whose_buffers_were_freed_and_the_backward_that_freed_them() -> None:
    source = ("a = tensor(2.0, requires_grad=True)\nb = tensor(3.0)\nc = a*a*5\nd = c*c*b\n"
              "d.backward()\nprint(a.grad)\nd.backward()\n")
    error = failure(source)
    assert error.message == SECOND_BACKWARD_MESSAGE  # PyTorch's words, unchanged
    assert error.hint == ("hint: MulBackward0 (d) saved its tensors at line 4 (d = c*c*b); the "
                          "backward at line 5 (d.backward()) freed them. Pass retain_graph=True "
                          "to that backward to backpropagate through them again.")
    direct = failure("a = tensor(2.0, grad)\nc = a * a\nc.backward()\n"
                     "print(c.grad_fn._saved_self)\n")
    assert direct.hint == ("hint: MulBackward0 (c) saved its tensors at line 2 (c = a * a); the "
                           "backward at line 3 (c.backward()) freed them. Pass retain_graph=True "
                           "to that backward to backpropagate through them again.")


def test_hints_in_the_shell_quote_the_statements() -> None:
    error = failure("a = tensor(2.0, grad); c = a * a; c.backward(); c.backward()", "<shell>")
    assert error.hint == ("hint: MulBackward0 (c) saved its tensors in `c = a * a`; the backward "
                          "in `c.backward()` freed them. Pass retain_graph=True to that backward "
                          "to backpropagate through them again.")


def test_the_json_trace_keeps_pytorchs_message() -> None:
    out = io.StringIO()
    run_source("a = tensor(2.0, grad)\nc = a * a\nc.backward()\nc.backward()\n", "t.grad",
               RunOptions(mode="json"), out, out)
    error = json.loads(out.getvalue().splitlines()[-1])["error"]
    assert error["message"] == SECOND_BACKWARD_MESSAGE


def test_backward_on_a_non_scalar_says_how_to_get_a_scalar(torch: Any) -> None:
    err = failure("x = tensor([1., 2.], grad)\nx.backward()\n")
    with pytest.raises(RuntimeError) as real:
        torch.tensor([1., 2.], requires_grad=True).backward()
    assert err.message == str(real.value)  # PyTorch's text, then gradsh's way out
    assert err.hint == explain.NON_SCALAR_HINT
    assert "y.sum().backward()" in err.hint and "gradient=torch.ones_like(y)" in err.hint


def test_other_errors_get_no_hint() -> None:
    assert explain.error_hint(RuntimeError("boom"), {}) is None


def test_messages_match_pytorch(torch: Any) -> None:
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x.sigmoid()
    y.detach().mul_(2)
    with pytest.raises(RuntimeError) as version_error:
        y.sum().backward()
    a = torch.tensor(2.0, requires_grad=True)
    c = a * a
    c.backward()
    with pytest.raises(RuntimeError) as second_error:
        c.backward()
    ours = failure("x = tensor([1., 2., 3.], requires_grad=True)\ny = x.sigmoid()\n"
                   "y.detach().mul_(2)\ny.sum().backward()\n")
    assert ours.message == str(version_error.value)
    assert failure("a = tensor(2.0, grad)\nc = a * a\nc.backward()\nc.backward()\n").message \
        == str(second_error.value)


def test_the_engine_alone_records_no_origin_and_the_hint_says_less() -> None:
    from gradsh.engine import ops
    from gradsh.engine.exceptions import TorchError
    from gradsh.engine.tensor import set_origin

    set_origin(None)  # the engine used without the language: nothing says where
    x = ops.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    with ops.no_grad():
        y.add_(1)
    with pytest.raises(TorchError) as caught:
        y.sum().backward()
    assert explain.error_hint(caught.value, {"x": x, "y": y}) == (
        "hint: y was saved by ExpBackward0 and modified in place; version 1 now, 0 when saved")
