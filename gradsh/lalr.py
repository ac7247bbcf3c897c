"""lark's lexer and LALR(1) tables, run by tighter loops than lark's own (same tokens, same parse).

lark's `ParserState.feed_token` looks each reduction's rule up in a dict of callbacks (hashing the
rule, comparing its symbols) and calls a callback even for the unit rules of the precedence
ladder (`?arith: term` returns its one child unchanged), about fifteen of which run for every
operand. `Tables` flattens lark's parse table once: a shift is the next state (an int), a
reduction a tuple of its length, its nonterminal and its callback, with no callback where the
rule passes its child through. `run` then parses a token stream with the same states, the same
callbacks in the same order, and the same result as lark.

`Lexer` is lark's basic lexer (its compiled terminals, ignored and newline terminals, keyword
callbacks) as one loop that makes each token directly, with the same type, value and positions.

Errors are left to lark: when no terminal matches or a token has no action, SyntaxMismatch is
raised and the caller parses the text again with lark's own lexer and loop, which raise lark's
UnexpectedCharacters or UnexpectedToken with the state error messages read (the expected
tokens, the interactive parser).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from lark import Lark, Token
from lark.lexer import UnlessCallback
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

__all__ = ["Lexer", "SyntaxMismatch", "Tables", "lexer_of", "tables_of"]

# A reduction: (number of symbols, the nonterminal's name, its callback or None to pass the one
# child through).
Reduce = tuple[int, str, Callable[[list[Any]], Any] | None]


class SyntaxMismatch(Exception):
    """A token the tables have no action for: the input is not in the language."""


class Lexer:
    """lark's BasicLexer as one loop (see the module docstring)."""

    def __init__(self, match: Callable[[str, int], Any], ignore: frozenset[str],
                 newline: frozenset[str], keywords: dict[str, UnlessCallback],
                 callbacks: dict[str, Callable[[Token], Token]]) -> None:
        self._match = match
        self._ignore = ignore
        self._newline = newline
        self._keywords = keywords  # terminal -> the keywords its matches may be (NAME: `and`...)
        self._keyword_of: dict[str, str | None] = {}  # a matched NAME -> its keyword, if any
        self._callbacks = callbacks

    def tokens(self, text: str) -> Iterator[Token]:
        match, ignore, newline = self._match, self._ignore, self._newline
        keywords, callbacks = self._keywords, self._callbacks
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            found = match(text, pos)
            if found is None:
                raise SyntaxMismatch(f"no terminal at {pos}")
            value, kind = found.group(0), found.lastgroup
            first_line, column = line, pos - line_start + 1
            after = pos + len(value)
            if kind in newline:
                count = value.count("\n")
                if count:
                    line += count
                    line_start = pos + value.rindex("\n") + 1
            if kind not in ignore:
                token = _token(self._keyword(kind, value) if kind in keywords else kind, value,
                               pos, first_line, column, line, after - line_start + 1, after)
                yield callbacks[kind](token) if kind in callbacks else token
            pos = after

    def _keyword(self, kind: str, value: str) -> str:
        """The terminal a match of `kind` is: a keyword it spells (`and` is AND), else `kind`."""
        keyword = self._keyword_of.get(value)
        if keyword is None and value not in self._keyword_of:
            if len(self._keyword_of) >= 4096:  # names a program uses: a few; never unbounded
                self._keyword_of.clear()
            keyword = self._keyword_of[value] = self._keywords[kind].scanner.fullmatch(value)
        return keyword or kind


def _token(kind: str, value: str, start: int, line: int, column: int, end_line: int,
           end_column: int, end: int) -> Token:
    """Token(kind, value, start, line, column, end_line, end_column, end), made without the
    checks of lark's constructor (its keyword arguments), which cost as much as the lexing."""
    token = _new_str(Token, value)
    token.type, token.value, token.start_pos, token.end_pos = kind, value, start, end
    token.line, token.column, token.end_line, token.end_column = line, column, end_line, end_column
    return token


_new_str = str.__new__


class Tables:
    """One lark parser's LALR tables in the form `run` reads."""

    def __init__(self, states: dict[int, dict[str, int | Reduce]], start: int, end: int) -> None:
        self.states = states
        self.start = start
        self.end = end
        # (state below, state on top, lookahead) -> the state after the unit rules it reduces
        # in a row: an operand climbs a dozen of them (atom, primary ... arith, test) per token
        self._through_units: dict[tuple[int, int, str], int] = {}

    def run(self, tokens: Iterable[Token]) -> Any:
        """Parse the tokens (lark's lexer and post-lexer output) to the start rule's value."""
        states, end = self.states, self.end
        state_stack = [self.start]
        value_stack: list[Any] = []
        for token in _ended(tokens):
            kind = token.type
            while True:  # reduce as the lookahead asks, then shift it
                action = states[state_stack[-1]].get(kind)
                if action is None:
                    raise SyntaxMismatch(kind)
                if action.__class__ is int:
                    state_stack.append(action)  # type: ignore[arg-type]
                    value_stack.append(token)
                    break
                size, origin, callback = action  # type: ignore[misc]
                if callback is None:  # unit rules passing their child on: only the state changes
                    key = (state_stack[-2], state_stack[-1], kind)
                    state = self._through_units.get(key)  # type: ignore[assignment]
                    if state is None:
                        state = self._through_units[key] = self._units(*key)
                    state_stack[-1] = state
                else:
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(callback(children))
                    state = states[state_stack[-1]][origin]  # type: ignore[assignment]
                    state_stack.append(state)  # type: ignore[arg-type]
                if state == end:  # (reached only on $END: the start rule is complete)
                    return value_stack[-1]
        raise SyntaxMismatch("$END")  # not reached: $END completes the parse or has no action


    def _units(self, below: int, top: int, kind: str) -> int:
        """The state on top once every unit rule `kind` asks for in a row is reduced."""
        action = self.states[top].get(kind)
        while action.__class__ is tuple and action[2] is None:  # type: ignore[index]
            top = self.states[below][action[1]]  # type: ignore[index,assignment]
            action = self.states[top].get(kind)
        return top


def _ended(tokens: Iterable[Token]) -> Iterator[Token]:
    """The tokens, then lark's $END token (at the last token's position)."""
    last = None
    for last in tokens:
        yield last
    yield Token.new_borrow_pos("$END", "", last) if last is not None else Token(
        "$END", "", 0, 1, 1)


def lexer_of(parser: Lark) -> Lexer | None:
    """The basic lexer of a lark parser as a `Lexer`, or None where this version of lark keeps
    its parts elsewhere or uses callbacks `Lexer` does not reproduce."""
    try:
        basic = parser.parser.lexer.lexer  # Lark -> frontend -> PostLexConnector -> BasicLexer
        scanner = basic.scanner
        expressions, ignore, newline = scanner._mres, basic.ignore_types, basic.newline_types
        callbacks = dict(basic.callback)
    except AttributeError:
        return None
    if len(expressions) != 1 or any(kind in ignore for kind in callbacks):
        return None
    keywords = {kind: callbacks.pop(kind) for kind in list(callbacks)
                if isinstance(callbacks[kind], UnlessCallback)}
    return Lexer(expressions[0].match, ignore, newline, keywords, callbacks)


def tables_of(parser: Lark) -> Tables | None:
    """The tables of a lark LALR parser built with a basic lexer, or None where this version of
    lark keeps them elsewhere (the caller then parses with lark's own loop)."""
    try:
        inner = parser.parser.parser.parser  # Lark -> frontend -> LALR_Parser -> _Parser
        table, callbacks = inner.parse_table, inner.callbacks
        start, end = table.start_states["start"], table.end_states["start"]
        raw_states = table.states
    except (AttributeError, KeyError):
        return None
    if any(isinstance(name, str) for name in callbacks):
        return None  # terminal callbacks, which `run` does not call
    states: dict[int, dict[str, int | Reduce]] = {}
    for state, actions in raw_states.items():
        row: dict[str, int | Reduce] = {}
        for kind, (action, arg) in actions.items():
            if action is Shift:
                row[kind] = arg
                continue
            callback = callbacks[arg]
            passes_through = isinstance(callback, ExpandSingleChild) and len(arg.expansion) == 1
            row[kind] = (len(arg.expansion), arg.origin.name, None if passes_through else callback)
        states[state] = row
    return Tables(states, start, end)
