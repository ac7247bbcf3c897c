"""The interactive shell's pieces, split as ptpython splits its own: lexer, completer, key
bindings, input completeness, session commands, help and history. Each piece receives callables
(`get_variables`, `is_complete`) rather than the whole shell; gradsh/shell.py wires them up.

Only lexer.py is imported outside the shell (by the renderer and by Pygments, as a plugin), so
it imports Pygments and the builtin table only, never prompt_toolkit.
"""
