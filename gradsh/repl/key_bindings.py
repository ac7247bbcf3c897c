"""The shell's keys on top of prompt_toolkit's Emacs defaults (history, Ctrl-R, Ctrl-C, Ctrl-D).

Enter runs the input when `is_complete` says the parser has all of it, and otherwise starts a
new line, indented like the last one and one step more after an opening bracket (indentation is
cosmetic: the parser alone decides completeness), and a `}`, `)` or `]` typed there steps back.
Esc Enter runs the input as it stands; Esc alone closes the completion menu. Tab at the start of
a line indents; elsewhere it completes.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import Condition, has_completions, has_focus, has_selection
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

__all__ = ["INDENT", "load_key_bindings"]

INDENT = "    "


def load_key_bindings(is_complete: Callable[[str], bool]) -> KeyBindings:
    bindings = KeyBindings()
    editing = has_focus(DEFAULT_BUFFER) & ~has_selection

    @Condition
    def at_line_start() -> bool:
        from prompt_toolkit.application import get_app

        line = get_app().current_buffer.document.current_line_before_cursor
        return not line.strip()

    @bindings.add("enter", filter=editing)
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
            return
        if is_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            _new_line(buffer)

    @bindings.add("escape", "enter", filter=editing)
    def _run_as_is(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    @bindings.add("tab", filter=editing & at_line_start)
    def _indent(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text(INDENT)

    def close(bracket: str) -> None:
        @bindings.add(bracket, filter=editing & at_line_start)
        def _close(event: KeyPressEvent) -> None:
            buffer = event.current_buffer
            line = buffer.document.current_line_before_cursor
            buffer.delete_before_cursor(min(len(line), len(INDENT)))
            buffer.insert_text(bracket)

    for bracket in "})]":
        close(bracket)

    @bindings.add("escape", filter=has_focus(DEFAULT_BUFFER) & has_completions)
    def _close_menu(event: KeyPressEvent) -> None:
        event.current_buffer.cancel_completion()

    return bindings


def _new_line(buffer: Buffer) -> None:
    line = buffer.document.current_line_before_cursor
    indent = line[: len(line) - len(line.lstrip())]
    if line.rstrip().endswith(("{", "(", "[", ":")):
        indent += INDENT
    buffer.insert_text("\n" + indent)
