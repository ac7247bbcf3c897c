"""Source text -> gradsh.ast.Program, with friendly SyntaxErrors.

The language lives in grammar/gradsh.lark. lark's LALR(1) tables run it (through gradsh.lalr's
faster loops over lark's lexer and tables; lark's own on errors) with the basic lexer and
gradsh.postlexer's `_PostLexer`, which does what a context-free grammar cannot say simply:
newlines inside brackets, statement words that are keywords only at the start of a statement,
bracket balance and depth.
`_Builder` is an inline lark transformer: each rule becomes a frozen gradsh.ast node the moment
it is reduced, so no lark Tree is built, nothing recurses, and the interpreter never sees lark.

The LALR tables are compiled once and cached in $GRADSH_CACHE_DIR, else $XDG_CACHE_HOME/gradsh,
else ~/.cache/gradsh (about 10 ms to load instead of about 100 ms to compile).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
import threading
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, cast

import lark
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from gradsh import lalr
from gradsh.ast import (
    Assert,
    Assign,
    Attribute,
    AugAssign,
    Backward,
    BinOp,
    Bool,
    BoolOp,
    Call,
    Compare,
    Del,
    DetectAnomaly,
    Device,
    DeviceLit,
    Dtype,
    Ellipsis_,
    Explain,
    Expr,
    ExprStmt,
    GradMode,
    Graph,
    Index,
    Keyword,
    Lambda,
    ListLit,
    Name,
    NoneLit,
    Number,
    Print,
    Program,
    Repeat,
    Seed,
    Show,
    Slice,
    Stmt,
    String,
    TupleLit,
    UnaryOp,
)
from gradsh.errors import GradshError, Pos
from gradsh.postlexer import (
    _CHAR,
    _CLOSER_OF,
    _STATEMENT_END,
    MAX_NESTING,
    _offsets,
    _PostLexer,
    _syntax_error,
    _token_pos,
    _TokenStream,
    _where,
)

__all__ = ["MAX_DEPTH", "MAX_NESTING", "IncompleteInput", "parse"]

# Bracket nesting is capped as CPython's tokenizer caps it (postlexer.MAX_NESTING); gradsh's trees
# are walked recursively by the interpreter and the exporter, so the tree depth is capped too,
# well inside Python's own limit.
MAX_DEPTH = 200


class IncompleteInput(GradshError):
    """A SyntaxError at the end of the input: an open `{`, `(` or `[`, or a dangling operator.

    The interactive shell catches it to ask for a continuation line; everyone else can treat it
    as the SyntaxError it is (its kind is "SyntaxError").
    """


def parse(source: str, path: str = "<input>") -> Program:
    """Parse gradsh source into a Program, or raise GradshError(kind="SyntaxError").

    A leading BOM is dropped and CRLF / CR line endings become LF first; `Program.source` is that
    normalised text, which every `pos` refers to. IncompleteInput (a GradshError) is raised
    instead when the input merely ends too early.
    """
    text = normalise(source)
    lark_parser = _get_parser()
    with _PARSE_LOCK:
        _BUILDER.start_text(text)
        try:
            body = cast("tuple[Stmt, ...]", _run(lark_parser, text))
        except UnexpectedInput as err:
            raise _friendly_error(err, _POSTLEXER.stream, text) from None
    _check_depth(body)
    return Program(body=body, source=text, path=path)


def _run(lark_parser: Lark, text: str) -> Any:
    """lark's tables run by gradsh.lalr; on a syntax error, lark's own parse of the text raises
    the error its messages are made from (the builder's callbacks are the same either way)."""
    if _TABLES is None or _LEXER is None:
        return lark_parser.parse(text)
    try:
        return _TABLES.run(_POSTLEXER.process(_LEXER.tokens(text)))
    except lalr.SyntaxMismatch:
        return lark_parser.parse(text)


def normalise(source: str) -> str:
    """The text positions refer to: no BOM, LF line endings."""
    if source.startswith("\ufeff"):
        source = source[1:]
    return source.replace("\r\n", "\n").replace("\r", "\n")


# ---------------------------------------------------------------------------------------------
# Building the lark parser once, with its LALR tables cached on disk
# ---------------------------------------------------------------------------------------------

_PARSER: Lark | None = None
# its lexer and tables as gradsh.lalr runs them
_LEXER: lalr.Lexer | None = None
_TABLES: lalr.Tables | None = None
# One parse at a time: the builder and the post-lexer hold the state of the parse in progress.
_PARSE_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()


def _grammar_text() -> str:
    """The grammar: package data when installed, grammar/ beside the package in a checkout
    (where `python -m pytest` imports gradsh from the source tree)."""
    try:
        return (resources.files("gradsh.grammar") / "gradsh.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        checkout = Path(__file__).resolve().parent.parent / "grammar" / "gradsh.lark"
        return checkout.read_text("utf-8")


def _get_parser() -> Lark:
    global _PARSER, _LEXER, _TABLES
    with _BUILD_LOCK:
        if _PARSER is None:
            grammar = _grammar_text()
            _PARSER = Lark(
                grammar,
                parser="lalr",
                lexer="basic",
                postlex=_POSTLEXER,
                transformer=_BUILDER,
                maybe_placeholders=True,
                cache=_cache_file(grammar),
            )
            _LEXER, _TABLES = lalr.lexer_of(_PARSER), lalr.tables_of(_PARSER)
        return _PARSER


def _cache_file(grammar: str) -> str | bool:
    """Where lark keeps the compiled LALR tables, or False to compile them on every start.

    A per-user directory rather than lark's default file in the shared temp directory: the cache
    is a pickle, and nobody else should be able to plant one. When no directory can be created
    the parser still works, only slower to start; an existing but read-only cache is still read
    (lark silently skips a failed write).
    """
    key = f"{grammar}\0{lark.__version__}\0{sys.version_info[:2]}"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    candidates = [os.environ.get("GRADSH_CACHE_DIR", "")]
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    candidates.append(os.path.join(xdg, "gradsh") if xdg else "")
    candidates.append(os.path.join(os.path.expanduser("~"), ".cache", "gradsh"))
    for directory in candidates:
        if not directory or directory.startswith("~"):
            continue
        path = os.path.join(directory, f"grammar-{digest}.lark-cache")
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError:
            continue
        if os.path.isfile(path) or os.access(directory, os.W_OK):
            return path
    return False


# ---------------------------------------------------------------------------------------------
# Builder: lark rules -> gradsh.ast nodes, as each rule is reduced
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Block:
    """A `{ ... }` body on its way into GradMode or Repeat."""

    body: tuple[Stmt, ...]
    pos: Pos


_Item = Token | Expr | Stmt | Keyword | _Block

_GRAD_MODES = ("no_grad", "enable_grad", "set_grad_enabled", "detect_anomaly")
_TORCH_PREFIXES = (("torch",), ("torch", "autograd"), ("torch", "autograd", "grad_mode"))
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}
_ESCAPE = re.compile(r"\\(.)")


class _Builder:
    """Callbacks named after the grammar's rules and aliases; each returns an AST node.

    Only rules that end up in the tree have a callback: lark builds its own Tree for the others
    (`_line`, `_sep`), which it inlines into their parents at once. Validation that the grammar
    leaves open (assignment targets, grad-mode heads, lambda parameters) raises GradshError here,
    in source order. lark's error recovery (`accepts`) runs without callbacks, so raising is safe.
    """

    def __init__(self) -> None:
        self._text = ""
        self._line_starts = [0]

    def start_text(self, text: str) -> None:
        self._text = text
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def _source(self, pos: Pos) -> str:
        start = self._line_starts[pos.line - 1] + pos.column - 1
        end = self._line_starts[pos.end_line - 1] + pos.end_column
        return self._text[start:end]

    def _statement(self, cls: type[Stmt], first: _Item, last: _Item, **fields: Any) -> Stmt:
        pos = _span(first, last)
        return cls(pos=pos, source=self._source(pos), **fields)

    # --- program and blocks ------------------------------------------------------------------

    def start(self, children: list[Stmt]) -> tuple[Stmt, ...]:
        return tuple(children)

    def block(self, children: list[Any]) -> _Block:
        return _Block(tuple(children[1:-1]), _span(children[0], children[-1]))

    # --- statements --------------------------------------------------------------------------

    def expr_stmt(self, children: list[Any]) -> Stmt:
        (expr,) = children
        return self._statement(ExprStmt, expr, expr, expr=expr)

    def assign(self, children: list[Any]) -> Stmt:
        target, value = children
        _check_target(target)
        return self._statement(Assign, target, value, target=target, value=value)

    def aug_assign(self, children: list[Any]) -> Stmt:
        target, op, value = children
        _check_target(target, augmented=True)
        return self._statement(
            AugAssign, target, value, target=target, op=op.value[:-1], value=value
        )

    def block_stmt(self, children: list[Any]) -> Stmt:
        head, block = children
        return self._grad_mode(head, head, block)

    def with_stmt(self, children: list[Any]) -> Stmt:
        keyword, head, block = children
        return self._grad_mode(keyword, head, block)

    def _grad_mode(self, first: _Item, head: Expr, block: _Block) -> Stmt:
        kind, arg = _grad_mode_head(head)
        if kind == "detect_anomaly":
            return self._statement(DetectAnomaly, first, block, check_nan=arg, body=block.body)
        return self._statement(GradMode, first, block, kind=kind, arg=arg, body=block.body)

    def repeat_stmt(self, children: list[Any]) -> Stmt:
        keyword, count, block = children
        return self._statement(Repeat, keyword, block, count=count, body=block.body)

    def print_stmt(self, children: list[Any]) -> Stmt:
        keyword, args = children
        args = args or []
        return self._statement(Print, keyword, args[-1] if args else keyword, args=tuple(args))

    def print_call(self, children: list[Any]) -> Stmt:
        keyword, _lpar, args, rpar = children
        return self._statement(Print, keyword, rpar, args=tuple(args or ()))

    def print_args(self, children: list[Any]) -> list[Expr]:
        return _without_commas(children)

    def show_stmt(self, children: list[Any]) -> Stmt:
        keyword, names = children
        if names is None:
            return self._statement(Show, keyword, keyword, names=())
        return self._statement(Show, keyword, names, names=_names(names, "show"))

    def graph_stmt(self, children: list[Any]) -> Stmt:
        keyword, target, _flag, output = children
        last = output if output is not None else target
        return self._statement(Graph, keyword, last, target=target, output=output)

    def explain_stmt(self, children: list[Any]) -> Stmt:
        keyword, target = children
        return self._statement(Explain, keyword, target, target=target)

    def assert_stmt(self, children: list[Any]) -> Stmt:
        keyword, test, message = children
        last = message if message is not None else test
        return self._statement(Assert, keyword, last, test=test, message=message)

    def backward_stmt(self, children: list[Any]) -> Stmt:
        keyword, target, *flags = children
        retain = create = False
        for flag in flags:
            if flag.value in ("retain", "retain_graph"):
                retain = True
            elif flag.value == "create_graph":
                create = True
            else:
                raise _syntax_error(
                    f"unexpected '{flag.value}', expected 'retain' or 'create_graph'",
                    _token_pos(flag),
                )
        last = flags[-1] if flags else target
        return self._statement(
            Backward, keyword, last, target=target, retain_graph=retain, create_graph=create
        )

    def seed_stmt(self, children: list[Any]) -> Stmt:
        keyword, value = children
        return self._statement(Seed, keyword, value, value=value)

    def device_stmt(self, children: list[Any]) -> Stmt:
        keyword, value = children
        return self._statement(Device, keyword, value, value=value)

    def dtype_stmt(self, children: list[Any]) -> Stmt:
        keyword, value = children
        return self._statement(Dtype, keyword, value, value=value)

    def del_stmt(self, children: list[Any]) -> Stmt:
        keyword, names = children
        return self._statement(Del, keyword, names, names=_names(names, "del"))

    # --- expressions -------------------------------------------------------------------------

    def bare_tuple(self, children: list[Any]) -> Expr:
        items = _without_commas(children)
        return TupleLit(_span(items[0], items[-1]), tuple(items))

    def arrow_lambda(self, children: list[Any]) -> Expr:
        params, body = children
        if isinstance(params, Token):
            names: list[Token | Expr] = [params]
        elif isinstance(params, TupleLit):
            names = list(params.items)
        else:
            names = [params]
        return Lambda(_span(params, body), _lambda_params(names), body)

    def python_lambda(self, children: list[Any]) -> Expr:
        keyword, params, body = children
        return Lambda(_span(keyword, body), _lambda_params(params or []), body)

    def lambda_params(self, children: list[Any]) -> list[Token]:
        return _without_commas(children)

    def or_test(self, children: list[Any]) -> Expr:
        return _bool_chain("or", children)

    def and_test(self, children: list[Any]) -> Expr:
        return _bool_chain("and", children)

    def not_op(self, children: list[Any]) -> Expr:
        keyword, operand = children
        return UnaryOp(_span(keyword, operand), "not", operand)

    def comparison(self, children: list[Any]) -> Expr:
        # a < b < c is Python's `a < b and b < c`: pairwise Compares joined by `and`.
        result: Expr | None = None
        for i in range(1, len(children), 2):
            left, op, right = children[i - 1], children[i], children[i + 1]
            compare = Compare(_span(left, right), op, left, right)
            result = (
                compare
                if result is None
                else BoolOp(_span(result, compare), "and", result, compare)
            )
        assert result is not None
        return result

    def comp_op(self, children: list[Any]) -> str:
        # `not in` and `is not` are two tokens; Compare.op holds them as one string.
        return " ".join(tok.value for tok in children)

    def bitor(self, children: list[Any]) -> Expr:
        return _binary_chain(children)

    def bitxor(self, children: list[Any]) -> Expr:
        return _binary_chain(children)

    def bitand(self, children: list[Any]) -> Expr:
        return _binary_chain(children)

    def arith(self, children: list[Any]) -> Expr:
        return _binary_chain(children)

    def term(self, children: list[Any]) -> Expr:
        return _binary_chain(children)

    def unary(self, children: list[Any]) -> Expr:
        op, operand = children
        return UnaryOp(_span(op, operand), op.value, operand)

    def pow(self, children: list[Any]) -> Expr:
        base, exponent = children
        return BinOp(_span(base, exponent), "**", base, exponent)

    def attribute(self, children: list[Any]) -> Expr:
        obj, name = children
        return Attribute(_span(obj, name), obj, name.value)

    def call(self, children: list[Any]) -> Expr:
        func, _lpar, arguments, rpar = children
        args: list[Expr] = []
        kwargs: list[Keyword] = []
        for argument in arguments or ():
            if isinstance(argument, Keyword):
                if any(k.name == argument.name for k in kwargs):
                    raise _syntax_error(f"keyword argument repeated: {argument.name}", argument.pos)
                kwargs.append(argument)
            elif kwargs:
                raise _syntax_error("positional argument follows keyword argument", argument.pos)
            else:
                args.append(argument)
        return Call(_span(func, rpar), func, tuple(args), tuple(kwargs))

    def arguments(self, children: list[Any]) -> list[Expr | Keyword]:
        return _without_commas(children)

    def keyword(self, children: list[Any]) -> Keyword:
        name, value = children
        return Keyword(name.value, value, _span(name, value))

    def index(self, children: list[Any]) -> Expr:
        obj, _lsqb, items, rsqb = children
        return Index(_span(obj, rsqb), obj, tuple(items))

    def subscripts(self, children: list[Any]) -> list[Expr]:
        return _without_commas(children)

    def slice(self, children: list[Any]) -> Expr:
        start, _colon, stop, _second_colon, step = children
        present = [c for c in children if c is not None]
        return Slice(_span(present[0], present[-1]), start, stop, step)

    def ellipsis(self, children: list[Any]) -> Expr:
        (tok,) = children
        return Ellipsis_(_token_pos(tok))

    def name(self, children: list[Any]) -> Expr:
        (tok,) = children
        return Name(_token_pos(tok), tok.value)

    def number(self, children: list[Any]) -> Expr:
        (tok,) = children
        return Number(_token_pos(tok), _number_value(tok), tok.value)

    def string(self, children: list[Any]) -> Expr:
        (tok,) = children
        body = tok.value[1:-1]
        value = _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)
        return String(_token_pos(tok), value)

    def device_lit(self, children: list[Any]) -> Expr:
        (tok,) = children
        return DeviceLit(_token_pos(tok), tok.value)

    def constant(self, children: list[Any]) -> Expr:
        (tok,) = children
        if tok.type == "NONE":
            return NoneLit(_token_pos(tok))
        return Bool(_token_pos(tok), tok.type in ("TRUE", "TRUE_LOWER"))

    def list_display(self, children: list[Any]) -> Expr:
        return ListLit(_span(children[0], children[-1]), tuple(_without_commas(children[1:-1])))

    def paren_tuple(self, children: list[Any]) -> Expr:
        return TupleLit(_span(children[0], children[-1]), tuple(_without_commas(children[1:-1])))

    def paren_expr(self, children: list[Any]) -> Expr:
        # `(e)` is e, spanning its parentheses so that `(a + b).sum()` starts at the `(`.
        lpar, expr, rpar = children
        return dataclasses.replace(expr, pos=_span(lpar, rpar))


def _pos(item: _Item) -> Pos:
    return _token_pos(item) if isinstance(item, Token) else item.pos


def _span(first: _Item, last: _Item) -> Pos:
    start, end = _pos(first), _pos(last)
    return Pos(start.line, start.column, end.end_line, end.end_column)


def _without_commas(children: Iterable[Any]) -> list[Any]:
    # lark keeps a named COMMA in some rules and not in others (shared `(COMMA x)*` helpers).
    return [c for c in children if not (isinstance(c, Token) and c.type == "COMMA")]


def _binary_chain(children: list[Any]) -> Expr:
    """[a, op, b, op, c] -> ((a op b) op c), left-associative like Python."""
    result: Expr = children[0]
    for i in range(1, len(children), 2):
        op, right = children[i], children[i + 1]
        result = BinOp(_span(result, right), op.value, result, right)
    return result


def _bool_chain(op: str, operands: list[Expr]) -> Expr:
    result = operands[0]
    for right in operands[1:]:
        result = BoolOp(_span(result, right), op, result, right)
    return result


def _number_value(tok: Token) -> int | float:
    text = tok.value.replace("_", "")
    if "." in text or "e" in text or "E" in text:
        return float(text)
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        raise _syntax_error("integer literal too large", _token_pos(tok)) from None


def _describe(expr: Expr) -> str:
    """What `expr` is, for "cannot assign to ..." messages."""
    if isinstance(expr, Call):
        return "a function call"
    if isinstance(expr, (Number, String, Bool, NoneLit, DeviceLit, Ellipsis_)):
        return "a literal"
    if isinstance(expr, (Compare, BoolOp)):
        return "a comparison" if isinstance(expr, Compare) else "an 'and'/'or' expression"
    if isinstance(expr, Lambda):
        return "a lambda"
    if isinstance(expr, ListLit):
        return "a list"
    if isinstance(expr, TupleLit):
        return "a tuple"
    return "an expression"


def _check_target(target: Expr, augmented: bool = False) -> None:
    """Assignment targets: names, attributes, indexing, and (plain `=` only) tuples of them."""
    pending = [target]
    while pending:
        expr = pending.pop()
        if isinstance(expr, (Name, Attribute, Index)):
            continue
        if isinstance(expr, TupleLit) and not augmented and expr.items:
            pending.extend(expr.items)
            continue
        what = "augmented assignment" if augmented else "assignment"
        raise _syntax_error(f"cannot use {_describe(expr)} as the target of an {what}", expr.pos)


def _names(expr: Expr, statement: str) -> tuple[Name, ...]:
    """The variables of `show a, c` / `del x, y` (also written `show(a, c)`)."""
    items = expr.items if isinstance(expr, TupleLit) else (expr,)
    for item in items:
        if not isinstance(item, Name):
            raise _syntax_error(f"{statement} takes variable names", item.pos)
    return tuple(item for item in items if isinstance(item, Name))


def _lambda_params(params: list[Token | Expr]) -> tuple[str, ...]:
    names: list[str] = []
    for param in params:
        if isinstance(param, Token):
            name = param.value
        elif isinstance(param, Name):
            name = param.id
        else:
            raise _syntax_error("lambda parameters must be names", param.pos)
        if name in names:
            raise _syntax_error(f"duplicate parameter '{name}' in lambda", _pos(param))
        names.append(name)
    return tuple(names)


def _dotted(expr: Expr) -> tuple[str, ...] | None:
    """`torch.autograd.no_grad` -> ("torch", "autograd", "no_grad"); None if not that shape."""
    parts: list[str] = []
    while isinstance(expr, Attribute):
        parts.append(expr.name)
        expr = expr.obj
    if not isinstance(expr, Name):
        return None
    parts.append(expr.id)
    return tuple(reversed(parts))


def _grad_mode_head(head: Expr) -> tuple[str, Expr | None]:
    """The (kind, arg) of a block's head: `no_grad`, `torch.no_grad()`, `set_grad_enabled(e)`,
    `detect_anomaly(check_nan=e)`."""
    func = head.func if isinstance(head, Call) else head
    dotted = _dotted(func)
    if (
        dotted is None
        or dotted[-1] not in _GRAD_MODES
        or (len(dotted) > 1 and dotted[:-1] not in _TORCH_PREFIXES)
    ):
        raise _syntax_error(
            "only no_grad, enable_grad, set_grad_enabled(...), detect_anomaly and repeat N can "
            "open a block",
            head.pos,
        )
    kind = dotted[-1]
    args: list[Expr] = []
    if isinstance(head, Call):
        args = list(head.args)
        for kwarg in head.kwargs:
            if (kind, kwarg.name) not in (("set_grad_enabled", "mode"),
                                          ("detect_anomaly", "check_nan")):
                raise _syntax_error(f"unexpected keyword argument '{kwarg.name}'", kwarg.pos)
            args.append(kwarg.value)
    if kind == "set_grad_enabled":
        if len(args) != 1:
            raise _syntax_error(
                "set_grad_enabled takes one argument: set_grad_enabled(false) { ... }", head.pos
            )
        return kind, args[0]
    if kind == "detect_anomaly" and len(args) <= 1:
        return kind, args[0] if args else None
    if args:
        raise _syntax_error(f"{kind}() takes no arguments" if kind != "detect_anomaly" else
                            "detect_anomaly takes one argument, check_nan", head.pos)
    return kind, None


# ---------------------------------------------------------------------------------------------
# Tree depth: a last check so that no later recursive walk can overflow the stack
# ---------------------------------------------------------------------------------------------


def _check_depth(body: tuple[Stmt, ...]) -> None:
    # Each level below a statement's own expression has a token of its own (an operator, a
    # bracket, a name), so a statement is at most two levels deeper than it has characters:
    # only long ones need the walk.
    pending: list[tuple[Any, int]] = [(stmt, 1) for stmt in body
                                      if len(stmt.source) + 2 >= MAX_DEPTH]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise _syntax_error(
                f"too deeply nested (more than {MAX_DEPTH} levels)",
                Pos.at(node.pos.line, node.pos.column),
            )
        for name in node.__dataclass_fields__:
            value = getattr(node, name)
            if isinstance(value, tuple):
                pending.extend((item, depth + 1) for item in value if _is_node(item))
            elif _is_node(value):
                pending.append((value, depth + 1))


def _is_node(value: object) -> bool:
    return isinstance(value, (Expr, Stmt, Keyword))


# ---------------------------------------------------------------------------------------------
# Friendly syntax errors
# ---------------------------------------------------------------------------------------------

# What the argument of a statement keyword is called in "expected ..." messages.
_ARGUMENT_NOUN = {
    "REPEAT": "a repeat count",
    "SEED": "a seed",
    "DEVICE": "a device",
    "DTYPE": "a dtype",
    "GRAPH_OUTPUT": "a file name",
    "DEL": "a name",
    "SHOW": "a name",
}


def _friendly_error(err: UnexpectedInput, stream: _TokenStream, text: str) -> GradshError:
    if isinstance(err, UnexpectedCharacters):
        return _unexpected_character(err, text)
    assert isinstance(err, UnexpectedToken), err
    return _unexpected_token(err, stream)


def _unexpected_character(err: UnexpectedCharacters, text: str) -> GradshError:
    index = cast(int, err.pos_in_stream)
    char = text[index]
    if char in "\"'":
        line_end = text.find("\n", index)
        length = (len(text) if line_end < 0 else line_end) - index
        pos = Pos(err.line, err.column, err.line, err.column + length - 1)
        return _syntax_error("unterminated string", pos)
    if char == "\\" and not text[index + 1 :].strip(" \t\f"):
        # A line continuation with nothing after it yet: the shell asks for the next line.
        pos = Pos.at(err.line, err.column)
        return IncompleteInput("SyntaxError", "unexpected end of input after '\\'", pos)
    shown = f"'{char}'" if char.isprintable() else repr(char)
    return _syntax_error(f"unexpected character {shown}", Pos.at(err.line, err.column))


def _unexpected_token(err: UnexpectedToken, stream: _TokenStream) -> GradshError:
    tok: Token = err.token
    at_end = tok.type == "$END"
    accepts = set(err.accepts or err.expected)
    # The token the parser took last, before the unexpected one.
    before = stream.previous if tok is stream.last else stream.last
    if at_end or tok.type == "_NL":
        # Point just past the last real token, where the missing piece belongs.
        pos = Pos.at(*_where(before)[2:]) if before else Pos.at(1, 1)
    else:
        pos = _token_pos(tok)

    innermost = stream.brackets[-1] if stream.brackets else None
    expected = _expected(accepts, before, stream.statement_keyword, innermost if at_end else None)
    message = f"unexpected {_describe_token(tok)}"
    if expected:
        message += f", expected {expected}"

    hint = None
    if tok.type == "COLON" and "LBRACE" in accepts:
        hint = "blocks use braces, not ':': no_grad { y = x * 2 }"
    elif innermost is not None and (
        at_end or (innermost.type != "LBRACE" and _where(tok)[0] > _where(innermost)[0])
    ):
        hint = f"the '{innermost.value}' at line {innermost.line}, column {innermost.column}"
        hint += " is never closed"
    if at_end:
        return IncompleteInput("SyntaxError", message, pos, hint)
    return _syntax_error(message, pos, hint)


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    if tok.type == "_NL":
        return "end of line"
    value = str(tok.value)
    if len(value) > 30:
        value = value[:27] + "..."
    if tok.type == "STRING":
        return f"string {value}"
    return f"'{value}'"


def _expected(
    accepts: set[str], before: Token | None, keyword: str | None, unclosed: Token | None
) -> str:
    """A short "expected ..." for the tokens the parser would have taken."""
    if unclosed is not None and _CLOSER_OF[unclosed.type] in accepts:
        return f"'{_CHAR[_CLOSER_OF[unclosed.type]]}'"
    closers = [f"'{_CHAR[c]}'" for c in ("RPAR", "RSQB") if c in accepts]
    if "NUMBER" in accepts:
        noun = _ARGUMENT_NOUN.get(before.type if before else "", "an expression")
        return _one_of([noun, *closers, *(["'}'"] if "RBRACE" in accepts else [])])
    if "NAME" in accepts and keyword == "BACKWARD":
        return "'retain', 'create_graph', a newline or ';'"
    if "NAME" in accepts:
        return _one_of(["a name", *closers, *(["':'"] if "COLON" in accepts else [])])
    if closers:
        return _one_of((["','"] if "COMMA" in accepts else []) + closers)
    if accepts & _STATEMENT_END:
        return _one_of(["a newline", "';'", *(["'}'"] if "RBRACE" in accepts else [])])
    if "LBRACE" in accepts:
        return "'{'"
    words = sorted(f"'{_TERMINAL_TEXT[t]}'" for t in accepts if t in _TERMINAL_TEXT)
    return _one_of(words[:6])


def _one_of(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


# Terminals with fixed text, for the rare "expected" list that is none of the cases above.
_TERMINAL_TEXT = {
    "COMMA": ",", "COLON": ":", "EQUAL": "=", "ARROW": "->", "DOT": ".", "LBRACE": "{",
    "GRAPH_OUTPUT": "-o", "ELLIPSIS": "...", "SEMICOLON": ";",
}  # fmt: skip


# The one post-lexer and builder, shared by every parse under _PARSE_LOCK.
_POSTLEXER = _PostLexer()
_BUILDER = _Builder()
