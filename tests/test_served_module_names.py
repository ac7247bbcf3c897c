"""While gradsh serves `import torch`, its public modules carry PyTorch's __name__ (d2l's
learning-rate chapter tells built-in schedulers from its own with `scheduler.__module__ ==
lr_scheduler.__name__`), imports and pickling keep working, and gradsh's names come back
after the program."""

from __future__ import annotations

import importlib
import pickle
from typing import Any

import gradsh.torch.optim.lr_scheduler as gradsh_lr_scheduler
from gradsh.pyserve import served_torch

MODULES = ["torch", "torch.nn", "torch.nn.functional", "torch.optim",
           "torch.optim.lr_scheduler", "torch.utils.data", "torch.distributions",
           "torch.autograd", "torch.nn.init", "torch.utils.checkpoint", "torch.func"]


def test_module_names_while_served(torch: Any) -> None:
    theirs = [importlib.import_module(name).__name__ for name in MODULES]
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    their_check = torch.optim.lr_scheduler.StepLR(opt, 1).__module__ \
        == torch.optim.lr_scheduler.__name__
    with served_torch():
        ours = [importlib.import_module(name).__name__ for name in MODULES]
        served = importlib.import_module("torch")
        lr_scheduler = importlib.import_module("torch.optim.lr_scheduler")
        opt = served.optim.SGD([served.zeros(1, requires_grad=True)], lr=0.1)
        scheduler = lr_scheduler.StepLR(opt, 1)
        our_check = scheduler.__module__ == lr_scheduler.__name__
        restored = pickle.loads(pickle.dumps(served.nn.Linear(2, 3)))
        assert type(restored).__module__ == "torch.nn.modules.linear"
        assert importlib.import_module("torch.optim.swa_utils").__name__ == \
            "torch.optim.swa_utils"
    assert ours == theirs
    assert our_check == their_check
    assert gradsh_lr_scheduler.__name__ == "gradsh.torch.optim.lr_scheduler"
