"""Public functions carry PyTorch's __name__ (programs print `act.__name__` when they compare
activations or log a config): an alias (torch.clip, torch.absolute, torch.divide ...) and a
wrapper (F.relu) are named as PyTorch names them, not after the gradsh function behind them."""

from __future__ import annotations

from typing import Any

import gradsh.torch as gtorch

# F.* functions whose names still differ from PyTorch's outside `gradsh run` (which names them
# as PyTorch's, gradsh/torch/_builtins.py; the C functions are PyTorch's names everywhere).
KNOWN = {"F.rrelu", "F.threshold"}


def _names(lib: Any) -> dict[str, str]:
    names = {}
    for prefix, module in (("torch", lib), ("F", lib.nn.functional)):
        for attr in dir(module):
            if attr.startswith("_"):
                continue
            try:
                value = getattr(module, attr)
            except Exception:  # noqa: BLE001, S112  (a lazily missing name)
                continue
            if callable(value) and not isinstance(value, type):
                names[f"{prefix}.{attr}"] = getattr(value, "__name__", None)
    return names


def test_common_function_names_are_torchs(torch: Any) -> None:
    for expression in ("F.relu", "torch.relu", "torch.clip", "torch.absolute", "torch.divide",
                       "torch.multiply", "torch.negative", "torch.arctan2", "torch.concat",
                       "torch.swapaxes", "torch.greater", "torch.fix", "torch.true_divide",
                       "torch.special.expit", "torch.special.psi", "torch.linalg.det",
                       "torch.linalg.vector_norm", "F.gelu", "F.silu", "F.leaky_relu"):
        ours = eval(expression, {"torch": gtorch, "F": gtorch.nn.functional})  # noqa: S307
        theirs = eval(expression, {"torch": torch, "F": torch.nn.functional})  # noqa: S307
        assert ours.__name__ == theirs.__name__, expression


def test_no_other_torch_or_functional_name_differs(torch: Any) -> None:
    ours, theirs = _names(gtorch), _names(torch)
    differ = {k for k in ours.keys() & theirs.keys() if ours[k] != theirs[k]}
    assert differ <= KNOWN, sorted(differ - KNOWN)
