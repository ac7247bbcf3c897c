"""`help` and `help NAME`, written from the builtin table (gradsh/builtins.py) and the command
table (gradsh/repl/commands.py): the interpreter, completion and docs/builtins.md read the same
tables, so help cannot drift from what the shell accepts."""

from __future__ import annotations

import textwrap

from gradsh import builtins as table
from gradsh.repl import commands

__all__ = ["KEYS", "overview", "topic", "topic_hint"]

KEYS = (
    ("Enter", "run the input, or start a new line while it is incomplete (an open { ( [ or a "
              "dangling operator)"),
    ("Esc Enter", "run the input as it is, even incomplete (to see what is missing)"),
    ("Tab", "complete a statement word, builtin, variable or, after `x.`, what x offers"),
    ("Up / Down", "previous / next input from the history"),
    ("Ctrl-R", "search the history"),
    ("Ctrl-C", "cancel the input; while a statement runs, interrupt it"),
    ("Ctrl-D", "leave the shell (on an empty line)"),
    ("Esc", "close the completion menu"),
)


def overview(width: int = 100) -> list[str]:
    """Every statement, builtin, session command and key, by kind."""
    statements = [b.name for b in table.BUILTINS if b.kind == "statement"] + ["with"]
    functions = [b.name for b in table.BUILTINS if b.function and b.kind != "class"]
    classes = [b.name for b in table.BUILTINS if b.kind == "class"]
    methods = [b.name for b in table.BUILTINS if b.method]
    attributes = [b.name for b in table.BUILTINS if b.kind == "attribute"]
    members = [b.name for b in table.BUILTINS if b.kind == "member"]
    lines = [
        *textwrap.wrap("Type a statement; after it the table shows every tensor: value, "
                       "requires_grad, is_leaf, grad_fn, grad. PyTorch's Python works too "
                       "(import torch).", max(40, width)),
        *textwrap.wrap("`help NAME` shows one builtin: its signature, what it does to "
                       "is_leaf / grad_fn / grad, an example.", max(40, width)),
        "",
        "Start here, one line at a time:",
        "    a = tensor(2.0, grad)    c = a * a * 5    c.backward()    a.grad    explain c    "
        "graph c",
        "In a clone of the repository, :load scripts/tour.grad runs the README's tour here.",
        "",
    ]
    lines += _names("Statements", statements, width)
    lines += _names("Functions   f(...), also torch.f, F.f", functions, width)
    lines += _names("Methods     x.f(...)", methods, width)
    lines += _names("Attributes  x.a", attributes, width)
    lines += _names("torch.nn    nn.Linear(3, 4), then model(x)", classes, width)
    lines += _names("Members of nn modules and optimizers  m.f(...), m.a", members, width)
    lines.append("Session commands (any unambiguous prefix works):")
    lines += _rows([(c.usage, c.doc) for c in commands.COMMANDS], width)
    lines.append("")
    lines.append("Keys:")
    lines += _rows(list(KEYS), width)
    return lines


def topic(name: str) -> list[str] | None:
    """Help on one builtin (every entry of that name: `grad` is a function and an attribute)
    or one session command; None when there is none. `torch.exp`, `F.relu`, `x.grad` and
    `:load` are understood."""
    if name.startswith(":"):
        try:
            command = commands.find(name[1:])
        except commands.CommandError:
            return None
        return [command.usage, f"    {command.doc}"]
    name = name.rsplit(".", 1)[-1]
    entries = [b for b in table.BUILTINS if b.name == name]
    if not entries:
        return None
    lines: list[str] = []
    for entry in entries:
        if lines:
            lines.append("")
        lines.append(f"{entry.signature}    ({_kind(entry)})")
        lines.append(f"    {entry.doc}")
        if entry.autograd:
            lines.append(f"    autograd: {entry.autograd}")
        if entry.example:
            lines.append(f"    example:  {entry.example}")
    return lines


def topic_hint(name: str) -> str | None:
    """`hint: did you mean 'tensor'?` for `help tensr`: the builtins and commands nearest."""
    from gradsh.suggest import did_you_mean

    if name.startswith(":"):
        return did_you_mean(name[1:], [c.name for c in commands.COMMANDS], form="':{}'")
    return did_you_mean(name.rsplit(".", 1)[-1], {b.name for b in table.BUILTINS})


def _kind(entry: table.Builtin) -> str:
    forms = [form for form, yes in (("function", entry.function), ("method", entry.method)) if yes]
    if entry.owners:
        return "member of " + " and ".join(entry.owners)
    if entry.kind == "class":
        return "torch.nn class"
    return " and ".join(forms) if forms else entry.kind


def _names(title: str, names: list[str], width: int) -> list[str]:
    body = textwrap.wrap(" ".join(names), width=max(40, width - 4), break_on_hyphens=False)
    return [f"{title}:"] + [f"    {line}" for line in body] + [""]


def _rows(rows: list[tuple[str, str]], width: int) -> list[str]:
    column = max(len(left) for left, _ in rows) + 2
    lines: list[str] = []
    for left, right in rows:
        body = textwrap.wrap(right, width=max(30, width - 4 - column)) or [""]
        lines.append(f"    {left.ljust(column)}{body[0]}")
        lines += [f"    {' ' * column}{more}" for more in body[1:]]
    return lines
