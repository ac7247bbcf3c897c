"""Plain sentences about one tensor, computed from its real state, for `explain`, in English or
Simplified Chinese; and the hint under an error about a saved tensor, saying where it happened.

`explain x` answers the learner's questions in order: is x a leaf, and why (created by the
user, produced by an operation, or requires_grad is False); will the next backward fill x.grad,
and if not what to do; can its graph still be backpropagated (which saved tensors a backward
freed, or which were modified in place); which other variables share its storage (views,
detach(), .data) and whether that storage changed after autograd saved it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.tensor import AccumulateGrad, Node, SavedTensor, Tensor
from gradsh.graphview import (
    FREED,
    MODIFIED,
    Names,
    saved_state,
    short_values,
    walk,
    where,
)
from gradsh.snapshot import to_host

LANGS = ("en", "zh")

# One entry per sentence: {placeholders} are filled with names and facts.
MESSAGES: dict[str, dict[str, str]] = {
    "not_tensor": {
        "en": "{x} is not a tensor ({type}): autograd only tracks tensors.",
        "zh": "{x} 不是张量（{type}）：autograd 只跟踪张量。",
    },
    "leaf_user": {
        "en": "{x} is a leaf: it requires grad because you asked for it (requires_grad=True), "
              "not because an operation produced it, so its grad_fn is None.",
        "zh": "{x} 是叶子节点：它需要梯度是因为你自己设置了 requires_grad=True，而不是由某个运算"
              "产生的，所以它的 grad_fn 是 None。",
    },
    "leaf_no_grad": {
        "en": "{x} is a leaf because it does not require grad (requires_grad=False): autograd "
              "records nothing about it.",
        "zh": "{x} 是叶子节点，因为它不需要梯度（requires_grad=False）：autograd 不记录它的任何"
              "信息。",
    },
    "leaf_integer": {
        "en": "{x} is a leaf that can never require grad: it is {dtype}, and only floating point "
              "tensors can require gradients.",
        "zh": "{x} 是叶子节点，而且永远不能需要梯度：它的类型是 {dtype}，只有浮点张量才能"
              "需要梯度。",
    },
    "leaf_no_grad_view": {
        "en": "{x} is a leaf (grad_fn is None) although requires_grad is True: it is a view, made "
              "under no_grad, of a tensor that requires grad, so no operation was recorded for "
              "it.",
        "zh": "{x} 是叶子节点（grad_fn 为 None），尽管 requires_grad 为 True：它是在 no_grad 下"
              "创建的视图，其基张量需要梯度，所以没有为它记录任何运算。",
    },
    "not_leaf": {
        "en": "{x} is not a leaf: it is the result of an operation on tensors that require grad "
              "({inputs}), so autograd recorded how it was made: its grad_fn is {node}.",
        "zh": "{x} 不是叶子节点：它是对需要梯度的张量（{inputs}）做运算的结果，所以 autograd 记录"
              "了它是怎么算出来的：它的 grad_fn 是 {node}。",
    },
    "grad_leaf_empty": {
        "en": "The next backward that reaches {x} will store its gradient in {x}.grad (None "
              "now).",
        "zh": "下一次到达 {x} 的反向传播会把梯度存进 {x}.grad（现在是 None）。",
    },
    "grad_leaf_full": {
        "en": "The next backward that reaches {x} will add its gradient to {x}.grad, which "
              "already holds {grad}: gradients accumulate, so reset them between steps "
              "(opt.zero_grad(), or {x}.grad = None).",
        "zh": "下一次到达 {x} 的反向传播会把梯度加到 {x}.grad 上，它现在已经是 {grad}：梯度会累加，"
              "所以每一步之间要清零（opt.zero_grad() 或 {x}.grad = None）。",
    },
    "grad_never": {
        "en": "No backward will fill {x}.grad. To get a gradient for {x}, make it require grad "
              "before computing with it: {x}.requires_grad_().",
        "zh": "反向传播不会填充 {x}.grad。想得到 {x} 的梯度，要在用它计算之前让它需要梯度："
              "{x}.requires_grad_()。",
    },
    "grad_never_integer": {
        "en": "So no backward will fill {x}.grad; for a gradient, start from a float copy: "
              "{x}.float().requires_grad_().",
        "zh": "所以反向传播永远不会填充 {x}.grad；需要梯度的话，从浮点副本开始："
              "{x}.float().requires_grad_()。",
    },
    "grad_no_graph": {
        "en": "No backward will fill {x}.grad: no graph leads to it.",
        "zh": "反向传播不会填充 {x}.grad：没有计算图通向它。",
    },
    "grad_retained_empty": {
        "en": "retain_grad() was called on {x}, so the next backward will store its gradient in "
              "{x}.grad as well (None now).",
        "zh": "{x} 调用过 retain_grad()，所以下一次反向传播也会把梯度存进 {x}.grad"
              "（现在是 None）。",
    },
    "grad_retained_full": {
        "en": "retain_grad() was called on {x}, so the next backward will add its gradient to "
              "{x}.grad as well (it holds {grad}).",
        "zh": "{x} 调用过 retain_grad()，所以下一次反向传播也会把梯度加到 {x}.grad 上（现在是 "
              "{grad}）。",
    },
    "grad_not_kept": {
        "en": "The next backward will pass gradients through {x} without keeping them: {x}.grad "
              "stays None (and reading it warns). To keep it, call {x}.retain_grad() before "
              "backward; to make {x} the leaf of a new graph instead, use "
              "{x}.detach().requires_grad_().",
        "zh": "下一次反向传播会让梯度流过 {x}，但不会保留：{x}.grad 仍为 None（读取时会有警告）。"
              "想保留它，要在反向传播之前调用 {x}.retain_grad()；想让 {x} 成为新计算图的叶子"
              "节点，用 {x}.detach().requires_grad_()。",
    },
    "graph_intact": {
        "en": "Its graph can be backpropagated: the {n} tensors its nodes saved for backward are "
              "all still there (a backward frees them unless you pass retain_graph=True).",
        "zh": "它的计算图可以反向传播：各节点为反向传播保存的 {n} 个张量都还在（反向传播会释放"
              "它们，除非传入 retain_graph=True）。",
    },
    "graph_intact_one": {
        "en": "Its graph can be backpropagated: the tensor its nodes saved for backward is still "
              "there (a backward frees it unless you pass retain_graph=True).",
        "zh": "它的计算图可以反向传播：为反向传播保存的 1 个张量还在（反向传播会释放它，除非传入"
              " retain_graph=True）。",
    },
    "graph_saves_nothing": {
        "en": "Its graph saves no tensors, so backward can run through it again and again, even "
              "without retain_graph=True.",
        "zh": "它的计算图没有保存任何张量，所以即使不传 retain_graph=True，也可以反复反向传播。",
    },
    "graph_freed": {
        "en": "Its graph can no longer be backpropagated: {backward} freed the tensors saved by "
              "{nodes}, and a backward through them raises an error. To backpropagate twice, the "
              "first backward must keep them: .backward(retain_graph=True), or `backward ... "
              "retain`.",
        "zh": "它的计算图已经不能再反向传播了：{backward}释放了 {nodes} 保存的张量，再经过它们"
              "反向传播会报错。要反向传播两次，第一次反向传播就得保留它们："
              ".backward(retain_graph=True)，或 `backward ... retain`。",
    },
    "graph_modified": {
        "en": "Backward through it will fail: {var} was saved by {node}{saved_at} and modified "
              "in place{changed_at} (version {version}, saved at version {saved}). Compute with "
              "a copy ({copy}.clone()), or change it in place only after backward.",
        "zh": "经过它的反向传播会失败：{var} {saved_at}被 {node} 保存，之后{changed_at}被原地修改"
              "（版本号 {version}，保存时是 {saved}）。改用副本计算（{copy}.clone()），或者在"
              "反向传播之后再做原地修改。",
    },
    "shares_nothing": {
        "en": "No other variable shares its storage.",
        "zh": "没有其他变量与它共享存储。",
    },
    "shares": {
        "en": "{x} shares its storage with {others}: an in-place change through any of them "
              "changes {x} too.",
        "zh": "{x} 与 {others} 共享存储：通过其中任何一个做原地修改，{x} 也会跟着变。",
    },
    "shares_data": {
        "en": "Changes made through .data are invisible to autograd (the version does not go "
              "up): a backward would silently use the changed values.",
        "zh": "通过 .data 做的修改 autograd 看不到（版本号不变）：反向传播会悄悄使用改变后的值。",
    },
    "saved_unchanged": {
        "en": "{x} is saved for backward by {nodes}{saved_at}, and has not been modified since "
              "(version {version}).",
        "zh": "{x} {saved_at}被 {nodes} 保存用于反向传播，之后没有被修改过（版本号 {version}）。",
    },
    "saved_unchanged_alias": {
        "en": "{x} shares the storage that {nodes} saved for backward{saved_at} (as {y}), and it "
              "has not been modified since (version {version}).",
        "zh": "{x} 与 {nodes} {saved_at}为反向传播保存的张量（{y}）共享存储，之后没有被修改过"
              "（版本号 {version}）。",
    },
    "saved_modified": {
        "en": "{x} was saved for backward by {node}{saved_at}, and modified in place after "
              "that{changed_at} (version {version}, saved at version {saved}): backward through "
              "{node} will fail.",
        "zh": "{x} {saved_at}被 {node} 保存用于反向传播，之后{changed_at}被原地修改"
              "（版本号 {version}，保存时是 {saved}）：经过 {node} 的反向传播会失败。",
    },
    "saved_modified_alias": {
        "en": "{x} shares the storage that {node} saved for backward{saved_at} (as {y}), and it "
              "was modified in place after that{changed_at} (version {version}, saved at "
              "version {saved}): backward through {node} will fail.",
        "zh": "{x} 与 {node} {saved_at}为反向传播保存的张量（{y}）共享存储，它之后{changed_at}"
              "被原地修改（版本号 {version}，保存时是 {saved}）：经过 {node} 的反向传播会失败。",
    },
}

# Small phrases inside sentences.
PHRASES: dict[str, dict[str, str]] = {
    "unnamed_leaf": {"en": "an unnamed leaf", "zh": "一个未命名的叶子节点"},
    "unnamed_result": {"en": "an unnamed result of {node}", "zh": "{node} 的一个未命名结果"},
    "a_backward": {"en": "a backward", "zh": "之前的反向传播"},
    "the_backward": {"en": "the backward {where}", "zh": "{where}执行的反向传播"},
    "and": {"en": " and ", "zh": " 和 "},
    "comma": {"en": ", ", "zh": "、"},
    "more": {"en": "{n} more", "zh": "另外 {n} 个"},
    "saved_as": {"en": "its saved `{name}`", "zh": "保存的 `{name}`"},
    "view_of": {"en": "{y} (a view of {x})", "zh": "{y}（{x} 的视图）"},
    "base_of": {"en": "{y} ({x} is a view of it)", "zh": "{y}（{x} 是它的视图）"},
    "sibling_view": {"en": "{y} (a view of the same tensor)", "zh": "{y}（同一个张量的视图）"},
    "detached": {"en": "{y} (detach(): the same version counter)",
                 "zh": "{y}（detach()：共用版本计数器）"},
    "data": {"en": "{y} (.data: its own version counter)",
             "zh": "{y}（.data：版本计数器各自独立）"},
}

_MAX_LISTED = 3  # nodes named in one sentence before "and N more"


class _Say:
    """Sentences and phrases in one language, with its way of listing things."""

    def __init__(self, lang: str, path: str):
        self.lang = lang if lang in LANGS else "en"
        self.path = path

    def __call__(self, key: str, **facts: Any) -> str:
        text = MESSAGES[key][self.lang].format(**facts)
        if self.lang == "zh":  # no space between a name and full-width brackets
            text = text.replace("） ", "）").replace(" （", "（")
        return text

    def phrase(self, key: str, **facts: Any) -> str:
        return PHRASES[key][self.lang].format(**facts)

    def join(self, items: list[str]) -> str:
        if len(items) > _MAX_LISTED + 1:
            items = items[:_MAX_LISTED] + [self.phrase("more", n=len(items) - _MAX_LISTED)]
        if len(items) <= 1:
            return "".join(items)
        return self.phrase("comma").join(items[:-1]) + self.phrase("and") + items[-1]

    def where(self, origin: Any) -> str:
        """" at line 3" in English, "在第 3 行" in Chinese; empty when unknown."""
        place = where(origin, self.path, self.lang)
        if place is None:
            return ""
        return place if self.lang == "zh" else " " + place


def explain(target: Any, name: str, env: dict[str, Any], lang: str = "en",
            path: str = "<input>") -> list[str]:
    """The sentences `explain name` shows."""
    say = _Say(lang, path)
    if not isinstance(target, Tensor):
        return [say("not_tensor", x=name, type=type(target).__name__)]
    names = Names(env)
    lines = _leaf_and_grad(target, name, names, say)
    mentioned: set[int] = set()  # saved tensors a sentence already talked about
    fn = target.grad_fn
    if fn is not None:
        lines.append(_graph_state(fn, names, say, mentioned))
    lines.extend(_storage(target, name, env, names, say, mentioned))
    return lines


def _leaf_and_grad(t: Tensor, x: str, names: Names, say: _Say) -> list[str]:
    fn = t.grad_fn
    grad = t.peek_grad()
    grad_text = short_values(to_host(grad._data), grad.dtype) if grad is not None else ""
    if fn is None:
        if not t.dtype.is_floating_point:
            return [say("leaf_integer", x=x, dtype=f"torch.{t.dtype.name}"),
                    say("grad_never_integer", x=x)]
        if t._requires_grad:
            return [say("leaf_user", x=x),
                    say("grad_leaf_full", x=x, grad=grad_text) if grad is not None
                    else say("grad_leaf_empty", x=x)]
        if t.requires_grad:
            return [say("leaf_no_grad_view", x=x), say("grad_no_graph", x=x)]
        return [say("leaf_no_grad", x=x), say("grad_never", x=x)]
    inputs: list[str] = []
    for child, _ in fn.next_functions:
        if child is None:
            continue
        if isinstance(child, AccumulateGrad):
            held = names.of_tensor(child.variable)
            described = held[0] if held else say.phrase("unnamed_leaf")
        else:
            held = names.of_node(child)
            described = held[0] if held else say.phrase("unnamed_result", node=child.node_name)
        if described not in inputs:
            inputs.append(described)
    lines = [say("not_leaf", x=x, node=fn.node_name, inputs=say.join(inputs))]
    if t.retains_grad:
        lines.append(say("grad_retained_full", x=x, grad=grad_text) if grad is not None
                     else say("grad_retained_empty", x=x))
    else:
        lines.append(say("grad_not_kept", x=x))
    return lines


def _node_ref(node: Node, names: Names, saved_as: list[str] | None = None) -> str:
    """`MulBackward0 (m)`: the node and the variables holding its output (unless they are the
    variables `saved_as`, its own output, which the sentence names already)."""
    held = names.of_node(node)
    if not held or held == saved_as:
        return node.node_name
    return f"{node.node_name} ({', '.join(held)})"


def _saved_name(node: Node, saved: SavedTensor) -> str:
    for key, value in node.saved_records.items():
        if value is saved:
            return key
    return "?"


def _graph_state(root: Node, names: Names, say: _Say, mentioned: set[int]) -> str:
    freed: list[Node] = []
    freed_at: list[Any] = []
    modified: list[tuple[Node, SavedTensor]] = []
    count = 0
    for node in walk([root]):
        node_freed = False
        for saved in node.saved_records.values():
            count += 1
            mentioned.add(id(saved))  # this sentence covers them: the storage one need not
            state = saved_state(saved)
            if state == FREED:
                node_freed = True
                origin = getattr(saved, "freed_origin", None)
                if origin is not None and origin not in freed_at:
                    freed_at.append(origin)
            elif state == MODIFIED:
                modified.append((node, saved))
        if node_freed:
            freed.append(node)
    if freed:
        if len(freed_at) == 1 and say.where(freed_at[0]):
            backward = say.phrase("the_backward", where=say.where(freed_at[0]).strip())
        else:
            backward = say.phrase("a_backward")
        return say("graph_freed", backward=backward,
                   nodes=say.join([_node_ref(n, names) for n in freed]))
    if modified:
        node, saved = modified[0]
        held = names.of_saved(saved)
        var = say.join(held) if held else say.phrase("saved_as", name=_saved_name(node, saved))
        return say("graph_modified", var=var, node=_node_ref(node, names, held),
                   saved_at=say.where(getattr(saved, "origin", None)),
                   changed_at=say.where(getattr(saved._counter, "origin", None)),
                   version=saved._counter.value, saved=saved.version,
                   copy=held[0] if held else "x")
    if count == 0:
        return say("graph_saves_nothing")
    return say("graph_intact_one") if count == 1 else say("graph_intact", n=count)


def _storage(t: Tensor, x: str, env: dict[str, Any], names: Names, say: _Say,
             mentioned: set[int]) -> list[str]:
    lines: list[str] = []
    others: list[str] = []
    through_data = False
    for other, value in env.items():
        if not isinstance(value, Tensor) or value is t or not _shares_memory(value, t):
            continue
        relation = _relation(t, value)
        through_data = through_data or relation == "data"
        others.append(say.phrase(relation, x=x, y=other))
    if others:
        lines.append(say("shares", x=x, others=say.join(others)))
        if through_data:
            lines.append(say("shares_data"))
    else:
        lines.append(say("shares_nothing"))

    # Whether autograd saved this storage, and whether it changed since: every graph any
    # variable leads to, since the node that saved x is a consumer of x, not part of x's graph.
    roots = [fn for v in env.values() if isinstance(v, Tensor)
             if (fn := v.peek_grad_fn()) is not None]
    unchanged: list[tuple[Node, SavedTensor]] = []
    changed: list[tuple[Node, SavedTensor]] = []
    for node in walk(roots):
        for saved in node.saved_records.values():
            if saved._counter is not t._version_counter or id(saved) in mentioned:
                continue
            state = saved_state(saved)
            if state == MODIFIED:
                changed.append((node, saved))
            elif state != FREED:
                unchanged.append((node, saved))
    if changed:
        node, saved = changed[0]
        held = names.of_saved(saved)
        key = "saved_modified" if x in held else "saved_modified_alias"
        lines.append(say(key, x=x, y=_saved_as(node, saved, held), node=_node_ref(node, names),
                         saved_at=say.where(getattr(saved, "origin", None)),
                         changed_at=say.where(getattr(saved._counter, "origin", None)),
                         version=saved._counter.value, saved=saved.version))
    elif unchanged:
        direct = [(n, s) for n, s in unchanged if x in names.of_saved(s)]
        group = direct or unchanged
        nodes: list[str] = []
        for node, _ in group:
            ref = _node_ref(node, names)
            if ref not in nodes:
                nodes.append(ref)
        origins = {id(getattr(s, "origin", None)) for _, s in group}
        first_node, first = group[0]
        lines.append(say("saved_unchanged" if direct else "saved_unchanged_alias", x=x,
                         y=_saved_as(first_node, first, names.of_saved(first)),
                         nodes=say.join(nodes),
                         saved_at=say.where(getattr(first, "origin", None))
                         if len(origins) == 1 else "",
                         version=t._version_value()))
    return lines


def _saved_as(node: Node, saved: SavedTensor, held: list[str]) -> str:
    return "/".join(held) if held else f"`{_saved_name(node, saved)}`"


def _relation(x: Tensor, y: Tensor) -> str:
    """How y came to share x's storage: a view, detach() (same version counter), or .data."""
    if y._version_counter is not x._version_counter:
        return "data"
    if y._base is x:
        return "view_of"
    if x._base is y:
        return "base_of"
    if x._base is not None and x._base is y._base:
        return "sibling_view"
    return "detached"


def _shares_memory(a: Tensor, b: Tensor) -> bool:
    try:
        return bool(np.may_share_memory(a._data, b._data))
    except TypeError:  # CuPy arrays: same device memory when the base pointers match
        return a._data.data.ptr == b._data.data.ptr if hasattr(a._data, "data") else False


# ---------------------------------------------------------------------------------------------
# Hints under errors
# ---------------------------------------------------------------------------------------------


NON_SCALAR = "grad can be implicitly created only for scalar outputs"
NON_SCALAR_HINT = ("hint: backward() starts from a gradient of 1, which only a one-element "
                   "output has; reduce the output first (y.sum().backward()), or give the "
                   "gradient of each element (y.backward(gradient=torch.ones_like(y)))")


def error_hint(error: Exception, env: dict[str, Any], path: str = "<input>") -> str | None:
    """One line naming the cause of an error about a saved tensor, or the way out of calling
    backward() on a non-scalar output; or None.

    For a saved tensor modified in place: the variable, where it was saved and where it was
    changed (PyTorch needs anomaly mode to say less). For one a backward freed: the node, and
    the backward that freed it. PyTorch's own message is left as it is.
    """
    if str(error).endswith(NON_SCALAR):
        return NON_SCALAR_HINT
    cause = getattr(error, "saved_cause", None)
    if cause is None:
        return None
    node, saved = cause
    names = Names(env)
    made = _hint_place(getattr(saved, "origin", None), path)
    if saved.released:
        freed = _hint_place(getattr(saved, "freed_origin", None), path)
        who = f"the backward{freed}" if freed else "a backward"
        return (f"hint: {_node_ref(node, names)} saved its tensors{made}; {who} freed them. "
                "Pass retain_graph=True to that backward to backpropagate through them again.")
    held = names.of_saved(saved)
    var = " / ".join(held) if held else f"`{_saved_name(node, saved)}` of {node.node_name}"
    by = f" by {_node_ref(node, names, held)}" if held else ""
    changed = _hint_place(getattr(saved._counter, "origin", None), path)
    return (f"hint: {var} was saved{by}{made} and modified in place{changed}; version "
            f"{saved._counter.value} now, {saved.version} when saved")


def _hint_place(origin: Any, path: str) -> str:
    """` at line 9 (z.add_(1))`: the line, and the statement when it is short."""
    place = where(origin, path)
    if place is None:
        return ""
    source = getattr(origin, "source", "")
    if path != "<shell>" and source and "\n" not in source and len(source) <= 40:
        return f" {place} ({source})"
    return f" {place}"
