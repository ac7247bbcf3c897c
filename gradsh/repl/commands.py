"""The shell's session commands: a `:` prefix, which no gradsh statement can begin with, so a
command can never shadow a variable or be shadowed by one.

This module holds the table (name, usage, what it does) and reads a command line; the shell runs
each command with its method `command_<name>`. Any unambiguous prefix names a command (`:t off`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gradsh.errors import GradshError

__all__ = ["COMMANDS", "TABLE_MODES", "Command", "CommandError", "find", "help_request", "parse"]

TABLE_MODES = ("off", "changed", "all")


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    doc: str
    argument: str = ""  # "", "file", "mode" or "topic": what follows the name, for completion
    required: bool = False  # the argument must be given


COMMANDS: tuple[Command, ...] = (
    Command("help", ":help [NAME]", "statements, builtins, commands and keys; or one of them",
            "topic"),
    Command("vars", ":vars", "every variable: the tensor table, then the other values"),
    Command("table", ":table [off|changed|all]",
            "after each statement that changed something: no table, only the rows that "
            "changed, or every row (the default); alone, says which", "mode"),
    Command("load", ":load FILE", "run a .grad script into the session (its header options "
            "too); it stops at the first error", "file", required=True),
    Command("save", ":save FILE", "write the statements that succeeded as a .grad script that "
            "rebuilds the session (:save! FILE replaces a file that exists)", "file",
            required=True),
    Command("reset", ":reset", "forget every variable and start afresh (command-line options "
            "such as --seed apply again)"),
    Command("quit", ":quit", "leave the shell (also :exit or Ctrl-D)"),
)
_ALIASES = {"exit": "quit"}


class CommandError(GradshError):
    """A command line that names no command or lacks its argument."""

    def __init__(self, message: str) -> None:
        super().__init__("UsageError", message)


def find(name: str) -> Command:
    """The command `name` names, exactly or as an unambiguous prefix."""
    name = _ALIASES.get(name, name)
    exact = [c for c in COMMANDS if c.name == name]
    matches = exact or [c for c in COMMANDS if c.name.startswith(name)] if name else []
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(f":{c.name}" for c in COMMANDS)
    if matches:
        names = ", ".join(f":{c.name}" for c in matches)
        raise CommandError(f"':{name}' is ambiguous: {names}")
    raise CommandError(f"unknown command ':{name}' (commands: {known})")


# The commands that take `!` after their name: do it even where that replaces something.
FORCEABLE = frozenset({"save"})


def parse(line: str) -> tuple[Command, str, bool]:
    """`:name argument` -> the command, its argument (stripped; may be empty), and whether the
    name ended with `!` (`:save! FILE` replaces FILE)."""
    text = line.strip()
    assert text.startswith(":"), text
    name, _, argument = text[1:].partition(" ")
    name = name.strip()
    force = name.endswith("!") and len(name) > 1
    command = find(name[:-1] if force else name)
    if force and command.name not in FORCEABLE:
        raise CommandError(f"':{command.name}' takes no '!' (only :save! does)")
    argument = argument.strip()
    if command.required and not argument:
        raise CommandError(f"{command.usage}: {command.doc}")
    if command.argument == "" and argument:
        raise CommandError(f"{command.usage} takes no argument")
    return command, argument, force


_HELP_WORD = re.compile(r"^help(?:\s+(?P<topic>\S+)|\s*\(\s*(?P<call>[\w.:]*)\s*\))?\s*$")


def help_request(line: str, variables: set[str] | frozenset[str]) -> str | None:
    """The topic of `help`, `help NAME` or `help(NAME)` ("" for the overview), else None.

    `help NAME` cannot be a statement, so it is always help; `help` and `help(...)` are left to
    the interpreter when the session has a variable called help.
    """
    match = _HELP_WORD.match(line.strip())
    if match is None:
        return None
    if match.group("topic") is not None:
        return match.group("topic")
    if "help" in variables:
        return None
    return match.group("call") or ""
