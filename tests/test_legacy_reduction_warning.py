"""The size_average/reduce deprecation warning points at the program's line, whichever loss."""

from __future__ import annotations

import warnings

import pytest

import gradsh.torch as gtorch


@pytest.mark.parametrize("loss", ["MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss"])
def test_warning_is_attributed_to_the_caller(loss: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = getattr(gtorch.nn, loss)(size_average=False)
    assert module.reduction == "sum"
    assert [str(w.message) for w in caught] == [
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."]
    assert caught[0].filename == __file__
