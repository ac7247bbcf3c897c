"""Tab completion: statement words, builtins, variables, and what follows `x.` for x's kind.

Completion never runs anything. The object before a dot is resolved only when it is a variable
or a chain of attribute reads that have no effect (`x.grad_fn.`, `torch.nn.functional.`):
`.grad` is peeked without the non-leaf warning, `.T` and `.data` are known to be tensors without
being computed, and a call or an index (`f(x).`, `t[0].`) completes nothing. What a kind offers
comes from the tables the interpreter itself uses, so completion offers nothing it would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from pygments.token import Comment, String

from gradsh import builtins as table
from gradsh.engine.dtypes import DType
from gradsh.engine.tensor import Node, Tensor
from gradsh.interp_names import _ALIASES as MODULE_ALIASES
from gradsh.interp_names import public_members
from gradsh.repl import commands
from gradsh.repl.lexer import GradshLexer
from gradsh.values import BuiltinFunction, Device, Module, Size, kind_of

__all__ = ["GradshCompleter"]

STATEMENT_WORDS = tuple(sorted({*table.STATEMENTS, "with"}))
RESERVED_WORDS = ("and", "or", "not", "lambda", "None", "True", "False", "true", "false")
TENSOR_MEMBERS = tuple(sorted(table.METHODS | table.ATTRIBUTES | table.OPERATOR_METHODS))
NODE_MEMBERS = ("metadata", "name", "next_functions")

_NAME = r"[^\W\d]\w*"
# `a.b.c.pre`: a chain of names before the last dot; not after `)`, `]`, a digit or another dot.
_DOTTED = re.compile(rf"(?<![\w.)\]])((?:{_NAME}\.)*{_NAME})\.(\w*)$")
_WORD = re.compile(r"(?<![\w.])(\w*)$")
_STATEMENT_START = re.compile(r"(?:^|[;{}\n])[ \t]*$")
_HELP = re.compile(r"^\s*:?help\s+([\w.:]*)$")
_CLOSED_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")


class _AnyTensor:
    """A tensor whose value completion does not need (`x.T`, `x.data`): only its kind counts."""


_ANY_TENSOR = _AnyTensor()


class GradshCompleter(Completer):
    """Completions for the gradsh shell.

    `get_variables` returns the session's variables, `get_globals` the interpreter's builtin
    names (functions, dtypes, devices, modules); both are read afresh at every completion.
    """

    def __init__(self, get_variables: Callable[[], Mapping[str, Any]],
                 get_globals: Callable[[], Mapping[str, Any]]) -> None:
        self.get_variables = get_variables
        self.get_globals = get_globals
        self._paths = PathCompleter(expanduser=True)
        self._lexer = GradshLexer(stripnl=False, ensurenl=False)

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterator[Completion]:
        before = document.text_before_cursor
        command = re.match(r"^\s*:", before)
        if command:
            yield from self._command_completions(before[command.end():], complete_event)
            return
        help_topic = _HELP.match(before)
        if help_topic:
            yield from _matching(help_topic.group(1), _help_topics(), _help_meta)
            return
        if self._in_string_or_comment(document.current_line_before_cursor):
            return
        dotted = _DOTTED.search(before)
        if dotted:
            owner = self._resolve(dotted.group(1).split("."))
            if owner is not None:
                yield from _matching(dotted.group(2), *_members(owner, self.get_globals()))
            return
        word = _WORD.search(before)
        if word is None or (not word.group(1) and not complete_event.completion_requested):
            return
        at_start = bool(_STATEMENT_START.search(before[: word.start(1)]))
        yield from _matching(word.group(1), *self._names(at_start))

    # -- plain names ----------------------------------------------------------------------------

    def _names(self, at_statement_start: bool) -> tuple[list[str], Callable[[str], str]]:
        variables = self.get_variables()
        names = list(variables)
        if at_statement_start:
            names += STATEMENT_WORDS
        names += RESERVED_WORDS
        names += sorted(self.get_globals())
        unique = list(dict.fromkeys(names))  # a variable shadows a builtin of its name

        def meta(name: str) -> str:
            if name in variables:
                return _describe(variables[name])
            return _builtin_meta(name)

        return unique, meta

    # -- after a dot ----------------------------------------------------------------------------

    def _resolve(self, chain: list[str]) -> Any:
        """The object a chain of attribute reads names, or None when it cannot be known safely."""
        variables, globals_ = self.get_variables(), self.get_globals()
        head = chain[0]
        if head in variables:
            obj = variables[head]
        elif head in globals_:
            obj = globals_[head]
        else:
            return None
        for name in chain[1:]:
            obj = _read_attribute(obj, name, globals_)
            if obj is None:
                return None
        return obj

    # -- session commands -----------------------------------------------------------------------

    def _command_completions(self, text: str, event: CompleteEvent) -> Iterator[Completion]:
        name, space, argument = text.partition(" ")
        if not space:
            by_name = {c.name: c for c in commands.COMMANDS}
            yield from _matching(name, list(by_name), lambda n: by_name[n].doc)
            return
        try:
            command = commands.find(name)
        except commands.CommandError:
            return
        argument = argument.lstrip()
        if command.argument == "mode":
            yield from _matching(argument, list(commands.TABLE_MODES), lambda m: "")
        elif command.argument == "topic":
            yield from _matching(argument, _help_topics(), _help_meta)
        elif command.argument == "file":
            yield from self._paths.get_completions(Document(argument), event)

    def _in_string_or_comment(self, line: str) -> bool:
        tokens = list(self._lexer.get_tokens(line))
        if not tokens:
            return False
        kind, text = tokens[-1]
        if kind in Comment:
            return True
        # The lexer takes an unfinished string ("abc) as a string; a finished one is closed.
        return kind in String and not _CLOSED_STRING.fullmatch(text)


def _matching(prefix: str, names: Iterable[str],
              meta: Callable[[str], str]) -> Iterator[Completion]:
    for name in names:
        if name.startswith(prefix):
            yield Completion(name, start_position=-len(prefix), display_meta=meta(name))


def _read_attribute(obj: Any, name: str, globals_: Mapping[str, Any]) -> Any:
    """obj.name when reading it has no effect and its kind matters for completion, else None."""
    if isinstance(obj, Module):
        full = f"{obj.name}.{name}"
        if full in table.MODULES:
            return Module(full, table.MODULES[full])
        value = globals_.get(MODULE_ALIASES.get(name, name))
        return None if isinstance(value, Module) else value
    if isinstance(obj, _AnyTensor):
        return _ANY_TENSOR if name in ("data", "T", "grad") else None
    if isinstance(obj, Tensor):
        if name == "grad":
            return obj.peek_grad()  # no warning: completion is not a read by the user
        if name == "grad_fn":
            return obj.peek_grad_fn()
        if name in ("data", "T", "_base"):
            return _ANY_TENSOR
        if name == "shape":
            return Size(obj.shape)
        if name == "dtype":
            return obj.dtype
        if name == "device":
            return Device(obj.device)
        return None
    if isinstance(obj, Node):
        if name == "variable":
            return getattr(obj, "variable", None)
        if name.startswith("_saved_"):
            return _ANY_TENSOR
        return None
    return None


def _members(obj: Any, globals_: Mapping[str, Any]) -> tuple[list[str], Callable[[str], str]]:
    """The attribute and method names valid after `obj.`, and a description of each."""
    if isinstance(obj, (Tensor, _AnyTensor)):
        return list(TENSOR_MEMBERS), _tensor_member_meta
    if isinstance(obj, Node):
        names = list(NODE_MEMBERS)
        names += sorted(f"_saved_{key}" for key in obj.saved_records if key.isidentifier())
        if hasattr(obj, "variable"):
            names.append("variable")
        return sorted(names), lambda n: "grad_fn"
    if isinstance(obj, Module):
        names = list(obj.children) + sorted(
            n for n, v in globals_.items() if not isinstance(v, Module)
            and not (isinstance(v, BuiltinFunction) and v.python)  # print, len: not torch's
        ) + sorted(a for a, target in MODULE_ALIASES.items()
                   if a not in globals_ and target in globals_)
        return names, lambda n: "module" if n in obj.children else _builtin_meta(n)
    if isinstance(obj, DType):
        return ["is_floating_point", "itemsize"], lambda n: "dtype"
    if isinstance(obj, Device):
        return ["index", "type"], lambda n: "device"
    if isinstance(obj, Size):
        return ["numel"], lambda n: "torch.Size"
    if isinstance(obj, tuple) and hasattr(type(obj), "__match_args__"):  # (return_types too)
        return list(type(obj).__match_args__), lambda n: ""
    public = public_members(obj)
    if public is not None:
        kind = kind_of(obj)
        return sorted(public), lambda n: kind
    return [], lambda n: ""


def _tensor_member_meta(name: str) -> str:
    entries = [b for b in table.BUILTINS if b.name == name and (b.method or b.kind == "attribute")]
    return entries[0].signature if entries else "comparison"


def _builtin_meta(name: str) -> str:
    entry = table.FUNCTIONS.get(name)
    if entry is not None:
        return entry.signature
    entry = table.BY_NAME.get(name)
    if entry is not None and entry.kind == "statement":
        return entry.signature
    if name in RESERVED_WORDS:
        return "keyword"
    if name == "with":
        return "with no_grad() { ... }"
    if name in table.DTYPE_NAMES:
        return "dtype"
    if name in table.DEVICE_NAMES:
        return "device"
    if name in table.MODULES or name in table.MODULE_ALIASES:
        return "module"
    return ""


def _help_topics() -> list[str]:
    names = dict.fromkeys(b.name for b in table.BUILTINS)
    return sorted(names, key=str.lower) + [f":{c.name}" for c in commands.COMMANDS]


def _help_meta(name: str) -> str:
    if name.startswith(":"):
        return commands.find(name[1:]).doc
    return table.BY_NAME[name].signature


def _describe(value: Any) -> str:
    if isinstance(value, Tensor):
        shape = "[" + ", ".join(str(n) for n in value.shape) + "]"
        return f"tensor {shape} {value.dtype.name}"
    return kind_of(value)
