"""Documentation generated from the builtin table (docs/builtins.md): one source of truth.

Regenerate with `python -m gradsh.docs > docs/builtins.md`; a test fails when it is stale.
"""

from __future__ import annotations

from gradsh.builtins import BUILTINS, Builtin

_SECTIONS = (
    ("Statements", lambda b: b.kind == "statement"),
    ("Functions and methods", lambda b: b.kind in ("function", "method")),
    ("torch.nn modules", lambda b: b.kind == "class"),
    ("Attributes", lambda b: b.kind == "attribute"),
    ("Members of nn modules and optimizers", lambda b: b.kind == "member"),
)


def _row(b: Builtin) -> str:
    forms = []
    if b.function:
        forms.append("function")
    if b.method:
        forms.append("method")
    kind = " + ".join(forms) if forms and b.kind != "class" else b.kind
    if b.owners:
        kind = " + ".join(b.owners)
    cells = [f"`{b.signature}`", kind, b.doc, b.autograd, f"`{b.example}`" if b.example else ""]
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def builtins_markdown() -> str:
    lines = [
        "# gradsh builtins",
        "",
        "Generated from `gradsh/builtins.py` by `python -m gradsh.docs`; do not edit by hand.",
        "Every function also accepts the `torch.`, `torch.nn.functional.`, `F.` and",
        "`torch.autograd.` prefixes.",
    ]
    for title, keep in _SECTIONS:
        lines += ["", f"## {title}", "", "| signature | kind | does | autograd | example |",
                  "|---|---|---|---|---|"]
        lines += [_row(b) for b in BUILTINS if keep(b)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(builtins_markdown(), end="")
