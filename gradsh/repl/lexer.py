"""A Pygments lexer for the gradsh language, registered as the Pygments plugin `gradsh` (*.grad).

The shell highlights its input with it, the renderer echoes statements with it on a terminal, and
any Pygments user (`pygmentize x.grad`, editors, documentation builds) gets it through the
`pygments.lexers` entry point. It follows grammar/gradsh.lark's word rules: `and or not in is
lambda None True False` are reserved everywhere, while statement words (`print`, `device`,
`repeat`, ...) are keywords only at the start of a statement, and `print show graph explain
backward seed device dtype` only when an argument (or, for print and show, the end of the
statement) follows, so `device = cpu` and `x.device` stay names. Builtins are highlighted where they are called
(`tensor(`), because `t`, `grad` or `sum` are just as likely to be variables.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, default, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from gradsh import builtins as table

__all__ = ["GradshLexer"]

_ALWAYS_KEYWORDS = ("repeat", "assert", "del", "with")
# Keywords when an argument follows: a name, a number, a string, `(`, `[`, a sign. `and`/`or`
# cannot begin an expression, and `-=`/`+=` make an augmented assignment to a variable.
_SOFT_KEYWORDS = ("print", "show", "graph", "explain", "seed", "device", "dtype")
_ARGUMENT_FOLLOWS = r"(?=[ \t]*(?:(?!(?:and|or|in|is)\b)[^\W\d]|\d|\.\d|[\"'(\[~]|[-+](?!=)))"
_STATEMENT_ENDS = r"(?=[ \t]*(?:$|[;}#]))"
_GRAD_MODES = ("no_grad", "enable_grad", "set_grad_enabled", "detect_anomaly")
_MODULES = ("torch", "F", "nn")
_CALLABLE = tuple(sorted({*table.FUNCTIONS, "print"}))
_NUMBER_FLOAT = (
    r"(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?"
    r"|\d(?:_?\d)*[eE][+-]?\d(?:_?\d)*"
)
_NAME = r"[^\W\d]\w*"


class GradshLexer(RegexLexer):
    """Lexer for gradsh, the tensor language of the autograd shell."""

    name = "gradsh"
    aliases: ClassVar[list[str]] = ["gradsh", "grad"]
    filenames: ClassVar[list[str]] = ["*.grad"]
    mimetypes: ClassVar[list[str]] = ["text/x-gradsh"]
    version_added = ""

    # States: "root" and "block" are the start of a statement (at top level, inside `{ }`),
    # "statement" the rest of one, "paren" the inside of ( ) or [ ], where newlines are spaces.
    tokens: ClassVar[dict[str, list]] = {  # type: ignore[type-arg]
        "root": [
            (r"\}", Punctuation),  # unbalanced: the parser reports it
            include("statement-start"),
        ],
        "block": [
            (r"\}", Punctuation, "#pop"),
            include("statement-start"),
        ],
        "statement-start": [
            (r"[ \t\f]+|\n", Whitespace),
            (r"\\\n", Text),
            (r"#.*?$", Comment.Single),
            (r";", Punctuation),
            (words(_ALWAYS_KEYWORDS, suffix=r"\b"), Keyword, "statement"),
            (r"backward\b" + _ARGUMENT_FOLLOWS + r"(?![ \t]*\()", Keyword, "backward-statement"),
            (r"graph\b" + _ARGUMENT_FOLLOWS, Keyword, "graph-statement"),
            (words(_SOFT_KEYWORDS, suffix=r"\b" + _ARGUMENT_FOLLOWS), Keyword, "statement"),
            (words(("print", "show"), suffix=r"\b" + _STATEMENT_ENDS), Keyword, "statement"),
            (words(_GRAD_MODES, suffix=r"\b(?=[ \t]*[({])"), Keyword, "statement"),
            default("statement"),
        ],
        "statement": [
            (r"\n", Whitespace, "#pop"),
            (r";", Punctuation, "#pop"),
            (r"\{", Punctuation, "block"),
            (r"\}", Punctuation, "#pop:2"),  # ends this statement and the block around it
            (r"[(\[]", Punctuation, "paren"),
            (r"[)\]]", Punctuation),
            include("expression"),
        ],
        "backward-statement": [
            # `backward d retain create_graph`: the flags end the statement.
            (words(("retain", "create_graph"), suffix=r"\b(?![ \t]*[^\s;}#a-z_])"),
             Keyword.Pseudo),
            include("statement"),
        ],
        "graph-statement": [
            (r"(?<=[ \t])-o\b", Keyword.Pseudo),  # `graph d -o "d.svg"`
            include("statement"),
        ],
        "paren": [
            (r"\n", Whitespace),
            (r"[(\[]", Punctuation, "#push"),
            (r"[)\]]", Punctuation, "#pop"),
            (r"[{}]", Punctuation),
            include("expression"),
        ],
        "expression": [
            (r"[ \t\f]+", Whitespace),
            (r"\\\n", Text),
            (r"#.*?$", Comment.Single),
            # An unterminated string is still a string while it is being typed.
            (r'"(?:[^"\\\n]|\\.)*"?', String.Double),
            (r"'(?:[^'\\\n]|\\.)*'?", String.Single),
            (r"cuda:\d+\b", Name.Constant),
            (r"\.\.\.", Keyword.Constant),
            (_NUMBER_FLOAT, Number.Float),
            (r"\d(?:_?\d)*", Number.Integer),
            (r"(\.)(" + "|".join(_GRAD_MODES) + r")\b", bygroups(Punctuation, Keyword)),
            (r"(\.)(" + _NAME + r")(?=[ \t]*\()", bygroups(Punctuation, Name.Function)),
            (r"(\.)(" + _NAME + r")", bygroups(Punctuation, Name.Attribute)),
            (words(("and", "or", "not", "in", "is"), suffix=r"\b"), Operator.Word),
            (r"lambda\b", Keyword),
            (words(("None", "True", "False", "true", "false"), suffix=r"\b"), Keyword.Constant),
            (words(_MODULES, suffix=r"\b(?=[ \t]*\.)"), Name.Namespace),
            (words(_CALLABLE, suffix=r"\b(?=[ \t]*\()"), Name.Builtin),
            (words(table.DTYPE_NAMES, suffix=r"\b"), Keyword.Type),
            (words(table.DEVICE_NAMES, suffix=r"\b"), Name.Constant),
            (_NAME, Name),
            (r"->|\*\*|//|==|!=|<=|>=|[-+*/&|^]=|[-+*/%@<>=&|^~]", Operator),
            (r"[,:.]", Punctuation),
        ],
    }
