"""Notebooks run in real Jupyter kernels (nbclient), and their outputs read back: the variable
tables parsed out of the HTML, SVG pictures, streams and errors.

`python tests/nbrun.py NOTEBOOK...` executes notebooks in place, outputs and all (how
examples/autograd_tour.ipynb is refreshed after a change to what gradsh shows).
"""

from __future__ import annotations

import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import gradsh

ROOT = Path(__file__).resolve().parent.parent
TOUR = ROOT / "examples" / "autograd_tour.ipynb"


def kernel_env() -> dict[str, str]:
    """The kernel imports the gradsh these tests import (a work tree's, not an installed one)."""
    source = str(Path(gradsh.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    env.pop("GRADSH_SIM_CUDA", None)  # a notebook says what it simulates
    return env


def code_notebook(*cells: str | tuple[str, list[str]], kernel: str = "python3") -> Any:
    """A notebook of code cells; a cell given as (source, tags) gets those tags."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    for cell in cells:
        source, tags = (cell, []) if isinstance(cell, str) else cell
        nb.cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": tags}))
    if kernel != "python3":
        nb.metadata["kernelspec"] = {"name": kernel, "display_name": kernel, "language": kernel}
    return nb


def execute(nb: Any, kernel: str = "python3", allow_errors: bool = True,
            timeout: int = 120) -> Any:
    """Run every cell of `nb` in a fresh kernel, outputs stored in the cells."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, allow_errors=allow_errors,
                            record_timing=False,
                            resources={"metadata": {"path": str(ROOT)}})
    client.execute(env=kernel_env())
    return nb


# ---------------------------------------------------------------------------------------------
# Reading outputs
# ---------------------------------------------------------------------------------------------


def data(cell: Any, mime: str) -> list[str]:
    """Every output of `mime` a cell displayed, in order."""
    found = []
    for output in cell.outputs:
        value = output.get("data", {}).get(mime)
        if value is not None:
            found.append(value if isinstance(value, str) else "".join(value))
    return found


def stream(cell: Any, name: str = "stdout") -> str:
    return "".join(o.text for o in cell.outputs
                   if o.output_type == "stream" and o.name == name)


def error(cell: Any) -> Any | None:
    errors = [o for o in cell.outputs if o.output_type == "error"]
    return errors[0] if errors else None


class Table:
    """A gradsh HTML table: rows by name, each cell's text, and which cells are marked."""

    def __init__(self, columns: list[str], rows: list[list[tuple[str, bool]]]):
        self.columns = columns
        self.rows = {row[0][0]: {c: text for c, (text, _) in zip(columns, row, strict=True)}
                     for row in rows}
        self.changed = {(row[0][0], c) for row in rows
                        for c, (_, marked) in zip(columns, row, strict=True) if marked}

    def __repr__(self) -> str:
        return f"Table({self.rows}, changed={sorted(self.changed)})"


class _TableParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.columns: list[str] = []
        self.rows: list[list[tuple[str, bool]]] = []
        self._cell: list[str] | None = None
        self._marked = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
            self._marked = "gradsh-changed" in (dict(attrs).get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell)
            if tag == "th":
                self.columns.append(text)
            else:
                self.rows[-1].append((text, self._marked))
            self._cell = None

    def handle_data(self, text: str) -> None:
        if self._cell is not None:
            self._cell.append(text)


def parse_table(html: str) -> Table:
    parser = _TableParser()
    parser.feed(html)
    return Table(parser.columns, [row for row in parser.rows if row])


def tables(cell: Any) -> list[Table]:
    """The gradsh tables a cell displayed, in order."""
    return [parse_table(h) for h in data(cell, "text/html") if 'class="gradsh-table"' in h]


def normalised(nb: Any) -> list[list[Any]]:
    """A notebook's outputs, for comparing two runs: addresses (`0x7f...`) and kernel file
    names blanked, pictures reduced to their text (Graphviz versions lay them out apart)."""
    result = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            if output.output_type == "stream":
                # ipykernel flushes a stream on a timer: under load one print may arrive in two
                # pieces ('tensor(4800.)', then its newline); a front end shows them as one
                if outputs and outputs[-1][0] == output.name:
                    outputs[-1] = (output.name, outputs[-1][1] + _blank(output.text))
                else:
                    outputs.append((output.name, _blank(output.text)))
            elif output.output_type == "error":
                outputs.append(("error", output.ename, _blank("\n".join(output.traceback))))
            else:
                bundle = output.get("data", {})
                for mime in sorted(bundle):
                    value = bundle[mime]
                    text = value if isinstance(value, str) else "".join(value)
                    if mime == "image/svg+xml":
                        text = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", text))
                    outputs.append((mime, _blank(text)))
        result.append(outputs)
    return result


def _blank(text: str) -> str:
    text = re.sub(r"0x[0-9a-f]+", "0x…", text)
    return re.sub(r"/tmp/ipykernel_\d+/\d+\.py", "<cell>", text)


if __name__ == "__main__":  # refresh notebooks in place
    import nbformat

    for path in sys.argv[1:] or [str(TOUR)]:
        notebook = nbformat.read(path, as_version=4)
        for code_cell in notebook.cells:
            if code_cell.cell_type == "code":
                code_cell.outputs, code_cell.execution_count = [], None
        execute(notebook, notebook.metadata.get("kernelspec", {}).get("name", "python3"),
                allow_errors=False)
        nbformat.write(notebook, path)
        print(f"executed {path}")
