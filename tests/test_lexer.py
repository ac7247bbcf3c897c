"""The Pygments lexer for gradsh: token types on a sample, every shipped script lexed cleanly, and
the plugin entry point that lets other tools find it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Token,
    Whitespace,
)

from gradsh.repl.lexer import GradshLexer

ROOT = Path(__file__).resolve().parent.parent


def tokens(source: str) -> list[tuple[Token, str]]:  # type: ignore[valid-type]
    """The tokens of `source`, whitespace left out."""
    lexer = GradshLexer(stripnl=False, ensurenl=False)
    return [(kind, text) for kind, text in lexer.get_tokens(source)
            if kind not in Whitespace and text.strip()]


SAMPLE = '''\
seed 20200910                      # torch.manual_seed
a = tensor([1., 2e-3], grad)
c.retain_grad()
backward d retain create_graph
print a.grad, c.grad
no_grad { w -= 0.1 * w.grad; show }
y = F.relu(x) if_ ** -1
h = x.register_hook(g -> g * 2)
graph d -o "d.svg"
with torch.no_grad() { e = not True and None }
b = rand(10).to(cuda:0)
z = x[..., 0:2]
'''


def test_sample_token_types() -> None:
    assert tokens(SAMPLE) == [
        (Keyword, "seed"), (Number.Integer, "20200910"), (Comment.Single, "# torch.manual_seed"),
        (Name, "a"), (Operator, "="), (Name.Builtin, "tensor"), (Punctuation, "("),
        (Punctuation, "["), (Number.Float, "1."), (Punctuation, ","), (Number.Float, "2e-3"),
        (Punctuation, "]"), (Punctuation, ","), (Name, "grad"), (Punctuation, ")"),
        (Name, "c"), (Punctuation, "."), (Name.Function, "retain_grad"), (Punctuation, "("),
        (Punctuation, ")"),
        (Keyword, "backward"), (Name, "d"), (Keyword.Pseudo, "retain"),
        (Keyword.Pseudo, "create_graph"),
        (Keyword, "print"), (Name, "a"), (Punctuation, "."), (Name.Attribute, "grad"),
        (Punctuation, ","), (Name, "c"), (Punctuation, "."), (Name.Attribute, "grad"),
        (Keyword, "no_grad"), (Punctuation, "{"), (Name, "w"), (Operator, "-="),
        (Number.Float, "0.1"), (Operator, "*"), (Name, "w"), (Punctuation, "."),
        (Name.Attribute, "grad"), (Punctuation, ";"), (Keyword, "show"), (Punctuation, "}"),
        (Name, "y"), (Operator, "="), (Name.Namespace, "F"), (Punctuation, "."),
        (Name.Function, "relu"), (Punctuation, "("), (Name, "x"), (Punctuation, ")"),
        (Name, "if_"), (Operator, "**"), (Operator, "-"), (Number.Integer, "1"),
        (Name, "h"), (Operator, "="), (Name, "x"), (Punctuation, "."),
        (Name.Function, "register_hook"), (Punctuation, "("), (Name, "g"), (Operator, "->"),
        (Name, "g"), (Operator, "*"), (Number.Integer, "2"), (Punctuation, ")"),
        (Keyword, "graph"), (Name, "d"), (Keyword.Pseudo, "-o"), (String.Double, '"d.svg"'),
        (Keyword, "with"), (Name.Namespace, "torch"), (Punctuation, "."), (Keyword, "no_grad"),
        (Punctuation, "("), (Punctuation, ")"), (Punctuation, "{"), (Name, "e"),
        (Operator, "="), (Operator.Word, "not"), (Keyword.Constant, "True"),
        (Operator.Word, "and"), (Keyword.Constant, "None"), (Punctuation, "}"),
        (Name, "b"), (Operator, "="), (Name.Builtin, "rand"), (Punctuation, "("),
        (Number.Integer, "10"), (Punctuation, ")"), (Punctuation, "."), (Name.Function, "to"),
        (Punctuation, "("), (Name.Constant, "cuda:0"), (Punctuation, ")"),
        (Name, "z"), (Operator, "="), (Name, "x"), (Punctuation, "["),
        (Keyword.Constant, "..."), (Punctuation, ","), (Number.Integer, "0"), (Punctuation, ":"),
        (Number.Integer, "2"), (Punctuation, "]"),
    ]


@pytest.mark.parametrize("source", [
    "device = cpu", "dtype = x.dtype", "seed * 2", "graph.x", "print and x", "seed -= 1",
    "backward(d)", "x.device", "tensor(1., device=cpu)", "y = show",
])
def test_statement_words_are_names_where_the_parser_says_so(source: str) -> None:
    first = tokens(source)[0]
    assert first[1] in ("device", "dtype", "seed", "graph", "print", "backward", "x",
                        "tensor", "y")
    assert first[0] not in Keyword, source
    assert all(kind not in Keyword or text in ("and",) for kind, text in tokens(source))


@pytest.mark.parametrize("source, keyword", [
    ("print", "print"), ("show", "show"), ("show a, c", "show"), ("print(a)", "print"),
    ("device cuda", "device"), ("dtype float64", "dtype"), ("seed -1", "seed"),
    ("explain c", "explain"), ("del a, b", "del"), ("repeat 3 { }", "repeat"),
    ("assert a == 1", "assert"), ("x = 1; print x", "print"), ("no_grad { print x }", "print"),
    ("set_grad_enabled(false) { }", "set_grad_enabled"), ("enable_grad {}", "enable_grad"),
])
def test_statement_words_are_keywords_at_a_statement_start(source: str, keyword: str) -> None:
    assert (Keyword, keyword) in tokens(source)


def test_newlines_inside_brackets_do_not_start_a_statement() -> None:
    # `print` on the second line is an argument of f, not the print statement.
    assert (Keyword, "print") not in tokens("f(a,\n  print)")
    assert (Keyword, "print") in tokens("f(a,\n  b)\nprint x")


def test_builtins_are_highlighted_where_called_only() -> None:
    assert tokens("t = sum(x)")[:3] == [(Name, "t"), (Operator, "="), (Name.Builtin, "sum")]


def test_an_unfinished_string_is_still_a_string() -> None:
    assert tokens('graph d -o "d.sv')[-1] == (String.Double, '"d.sv')


def test_line_continuation() -> None:
    kinds = [kind for kind, _ in GradshLexer().get_tokens("x = 1 + \\\n  2\n")]
    assert Text in kinds and Error not in kinds


SHIPPED = sorted([*ROOT.glob("scripts/*.grad"), *ROOT.glob("tests/**/*.grad")])


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_script_lexes_without_error_tokens(path: Path) -> None:
    text = path.read_text("utf-8")
    lexed = list(GradshLexer(stripnl=False, ensurenl=False).get_tokens(text))
    assert "".join(value for _, value in lexed) == text
    assert [value for kind, value in lexed if kind in Error] == []


def test_registered_as_a_pygments_plugin() -> None:
    from importlib.metadata import entry_points

    from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name

    points = [p for p in entry_points(group="pygments.lexers") if p.name == "gradsh"]
    assert [p.value for p in points] == ["gradsh.repl.lexer:GradshLexer"]
    assert type(get_lexer_by_name("gradsh")).__name__ == "GradshLexer"
    assert find_lexer_class_for_filename("walkthrough.grad").__name__ == "GradshLexer"


def test_the_renderer_highlights_statements_with_the_lexer() -> None:
    import io

    from gradsh.render import Renderer, highlight

    text = highlight("a = tensor(2.0, grad)  # a leaf")
    styles = {text.plain[span.start:span.end]: str(span.style) for span in text.spans}
    assert styles["tensor"] == "bright_cyan" and styles["2.0"] == "bright_blue"
    assert styles["# a leaf"] != "none"
    # Plain output (pipes, goldens) is unchanged.
    plain = io.StringIO()
    Renderer(plain, plain, False, 80).statement("a = tensor(2.0, grad)\nb = a")
    assert plain.getvalue() == ">>> a = tensor(2.0, grad)\n... b = a\n"
