"""The plain table: cells are text, never rich markup."""

from __future__ import annotations

import io

from gradsh.runner import RunOptions, run_source


def test_non_finite_values_show_in_the_plain_table() -> None:
    # `[nan, 1.]` in a str cell was rich markup to rich, and vanished from the table
    out = io.StringIO()
    code = run_source("a = tensor([nan, 1.])\nb = tensor([[nan, 1.], [2., inf]])\n", "<t>",
                      RunOptions(), out, io.StringIO())
    assert code == 0
    last_table = out.getvalue().splitlines()[-3:-1]
    assert [line.split()[:3] for line in last_table] == [["a", "[nan,", "1.]"],
                                                         ["b*", "[[nan,", "1.],"]]
