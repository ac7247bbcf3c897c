"""The post-lexer between lark's lexer and its LALR parser: newlines inside brackets, statement
words that are keywords only at the start of a statement, `model.0` and device literals split,
bracket balance and nesting (gradsh.parser drives it; its token stream is kept for error
messages), and the token position helpers both use."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import cast

from lark import Token

from gradsh.errors import GradshError, Pos

# CPython's tokenizer allows 200 nested brackets.
MAX_NESTING = 200

# ---------------------------------------------------------------------------------------------
# Post-lexer: newlines in brackets, soft keywords, bracket balance
# ---------------------------------------------------------------------------------------------

# Words that start a statement form (see the keyword rule in grammar/gradsh.lark).
_ALWAYS_KEYWORDS = frozenset({"repeat", "assert", "del", "with"})
_SOFT_KEYWORDS = frozenset(
    {"print", "show", "graph", "explain", "backward", "seed", "device", "dtype"}
)
_OPTIONAL_ARGUMENT = frozenset({"print", "show"})

# Tokens that can begin an expression.
_EXPRESSION_START = frozenset(
    {
        "NAME", "NUMBER", "STRING", "DEVICE_LIT", "LPAR", "LSQB", "MINUS", "PLUS", "TILDE", "NOT",
        "LAMBDA", "NONE", "TRUE", "FALSE", "TRUE_LOWER", "FALSE_LOWER",
    }
)  # fmt: skip
_STATEMENT_END = frozenset({"$END", "_NL", "SEMICOLON", "RBRACE"})
_STATEMENT_START_AFTER = frozenset({"_NL", "SEMICOLON", "LBRACE", "RBRACE"})

_OPENER_OF = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE"}
_CLOSER_OF = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
_CHAR = {"LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "LBRACE": "{", "RBRACE": "}"}
# A `[` after one of these indexes something; elsewhere it opens a list.
_ENDS_PRIMARY = frozenset({"NAME", "RPAR", "RSQB", "STRING"})


class _TokenStream:
    """The post-lexer's state for one parse, kept after an error for the error message."""

    def __init__(self) -> None:
        self.brackets: list[Token] = []  # open brackets, innermost last
        self.index_bracket: list[bool] = []  # per open bracket: is it an index `x[...]`?
        self.previous: Token | None = None  # the token before the last one the parser got
        self.last: Token | None = None  # the last token the parser got
        self.statement_keyword: str | None = None  # keyword of the statement being read

    def run(self, tokens: Iterator[Token]) -> Iterator[Token]:
        return self._keywords(_Lookahead(self._balance(tokens)))

    def _balance(self, tokens: Iterator[Token]) -> Iterator[Token]:
        """Drop newlines inside () and [], check brackets, hold back a final newline.

        A newline is passed on only once the next token shows it is not the last thing in the
        input, so `a = 1 +` followed by a newline still ends as "unexpected end of input".
        """
        pending_newline: Token | None = None
        previous_type = ""
        previous: Token | None = None
        for tok in tokens:
            kind = tok.type
            if kind == "_NL":
                if self.brackets and self.brackets[-1].type != "LBRACE":
                    continue
                pending_newline = pending_newline or tok
                continue
            if pending_newline is not None:
                yield pending_newline
                pending_newline = None
                previous_type = "_NL"
            if kind in _CLOSER_OF:  # an opening bracket
                if len(self.brackets) >= MAX_NESTING:
                    raise _syntax_error("too many nested parentheses", _token_pos(tok))
                self.brackets.append(tok)
                self.index_bracket.append(kind == "LSQB" and previous_type in _ENDS_PRIMARY)
            elif kind in _OPENER_OF:
                self._close(tok)
            elif kind == "DEVICE_LIT" and self.index_bracket and self.index_bracket[-1]:
                # `x[cuda:0]` slices with a variable named cuda; only there is it not a device.
                yield from _split_device(tok)
                previous_type = "NUMBER"
                continue
            elif kind == "NAME" and not tok.value.isascii():
                # Python's identifiers are NFKC-normalised: `ｘ` and `x` are one name.
                tok = tok.update(value=unicodedata.normalize("NFKC", tok.value))
            elif (kind == "NUMBER" and _MODULE_INDEX.fullmatch(tok.value)
                  and _ends_primary(previous, previous_type) and _adjacent(previous, tok)):
                # `model.0.weight`: the attribute `0` (a Sequential's first module), as the
                # table names parameters; `model .0` stays a syntax error.
                yield from _split_attribute(tok)
                previous, previous_type = tok, "NAME"
                continue
            yield tok
            previous, previous_type = tok, kind

    def _close(self, tok: Token) -> None:
        if not self.brackets:
            raise _syntax_error(f"unmatched '{tok.value}'", _token_pos(tok))
        opener = self.brackets[-1]
        if opener.type != _OPENER_OF[tok.type]:
            raise _syntax_error(
                f"closing '{tok.value}' does not match '{opener.value}'",
                _token_pos(tok),
                hint=f"the '{opener.value}' is at line {opener.line}, column {opener.column}",
            )
        self.brackets.pop()
        self.index_bracket.pop()

    def _keywords(self, tokens: _Lookahead) -> Iterator[Token]:
        """Turn statement words at the start of a statement into keywords; mark `print(`, `-o`."""
        at_start = True
        while (tok := tokens.next()) is not None:
            kind = tok.type
            if at_start and kind not in _STATEMENT_START_AFTER:
                self.statement_keyword = None
                if kind == "NAME" and _is_keyword(tok.value, tokens.peek()):
                    kind = tok.value.upper()
                    tok = Token.new_borrow_pos(kind, tok.value, tok)
                    self.statement_keyword = kind
                    following = tokens.peek()
                    if kind == "PRINT" and following is not None and following.type == "LPAR":
                        tokens.replace(Token.new_borrow_pos("PRINT_LPAR", "(", following))
            elif kind == "MINUS" and self.statement_keyword == "GRAPH":
                tok = self._graph_output(tok, tokens)
            at_start = kind in _STATEMENT_START_AFTER
            self.previous, self.last = self.last, tok
            yield tok

    def _graph_output(self, minus: Token, tokens: _Lookahead) -> Token:
        """`graph d -o "d.svg"`: a `-o` written as one word, outside brackets, is the flag."""
        following = tokens.peek()
        if (
            following is not None
            and following.type == "NAME"
            and following.value == "o"
            and _offsets(following)[0] == _offsets(minus)[1]
            and self.last is not None
            and _offsets(self.last)[1] < _offsets(minus)[0]
            and (not self.brackets or self.brackets[-1].type == "LBRACE")
        ):
            tokens.next()
            return Token(
                "GRAPH_OUTPUT", "-o", minus.start_pos, minus.line, minus.column,
                following.end_line, following.end_column, following.end_pos,
            )  # fmt: skip
        return minus


def _is_keyword(word: str, following: Token | None) -> bool:
    if word in _ALWAYS_KEYWORDS:
        return True
    if word not in _SOFT_KEYWORDS:
        return False
    kind = following.type if following is not None else "$END"
    if word == "backward" and kind == "LPAR":
        return False  # `backward(d)` is the call torch.autograd.backward(d)
    if kind in _EXPRESSION_START:
        return True
    return word in _OPTIONAL_ARGUMENT and kind in _STATEMENT_END


_MODULE_INDEX = re.compile(r"\.[0-9]+")


def _ends_primary(tok: Token | None, kind: str) -> bool:
    """Whether `tok` ends something `.name` can follow: a name (not a statement word), `)` or
    `]`."""
    if tok is None or kind not in ("NAME", "RPAR", "RSQB"):
        return False
    return kind != "NAME" or tok.value not in _SOFT_KEYWORDS | _ALWAYS_KEYWORDS


def _adjacent(first: Token | None, second: Token) -> bool:
    return first is not None and _offsets(first)[1] == _offsets(second)[0]


def _split_attribute(tok: Token) -> Iterator[Token]:
    """`.0` as the tokens `.` and the name `0`."""
    line, column, _, _ = _where(tok)
    start = _offsets(tok)[0]
    yield Token("DOT", ".", start, line, column, line, column + 1, start + 1)
    digits = tok.value[1:]
    yield Token("NAME", digits, start + 1, line, column + 1, line, column + 1 + len(digits),
                start + 1 + len(digits))


def _split_device(tok: Token) -> Iterator[Token]:
    name, _, digits = tok.value.partition(":")
    line, first_column, _, _ = _where(tok)
    first_offset = _offsets(tok)[0]
    parts = ((name, "NAME", 0), (":", "COLON", len(name)), (digits, "NUMBER", len(name) + 1))
    for value, kind, shift in parts:
        start, column = first_offset + shift, first_column + shift
        yield Token(kind, value, start, line, column, line, column + len(value), start + len(value))


class _Lookahead:
    """An iterator of tokens with one token of lookahead, pulled only when asked for."""

    def __init__(self, tokens: Iterator[Token]) -> None:
        self._tokens = tokens
        self._buffer: list[Token | None] = []

    def next(self) -> Token | None:
        if self._buffer:
            return self._buffer.pop()
        return next(self._tokens, None)

    def peek(self) -> Token | None:
        if not self._buffer:
            self._buffer.append(next(self._tokens, None))
        return self._buffer[0]

    def replace(self, tok: Token) -> None:
        """Replace the token that peek() returned."""
        self._buffer[0] = tok


class _PostLexer:
    """lark's post-lexer hook; one `_TokenStream` per parse, kept for error messages."""

    always_accept: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.stream = _TokenStream()

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        self.stream = _TokenStream()
        return self.stream.run(stream)


def _token_pos(tok: Token) -> Pos:
    line, column, end_line, end_column = _where(tok)
    # lark's end_column is one past the last character; Pos is inclusive.
    return Pos(line, column, end_line, end_column - 1)


def _where(tok: Token) -> tuple[int, int, int, int]:
    """A token's line, column, end_line, end_column: always set by lark's lexer, typed optional."""
    return (
        cast(int, tok.line),
        cast(int, tok.column),
        cast(int, tok.end_line),
        cast(int, tok.end_column),
    )


def _offsets(tok: Token) -> tuple[int, int]:
    return cast(int, tok.start_pos), cast(int, tok.end_pos)


def _syntax_error(message: str, pos: Pos, hint: str | None = None) -> GradshError:
    return GradshError("SyntaxError", message, pos, hint)
