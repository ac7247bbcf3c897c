"""torch.optim: the optimizers and the learning-rate schedulers."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.optim import lr_scheduler
from gradsh.torch.optim.adagrad import Adagrad
from gradsh.torch.optim.adam import Adam
from gradsh.torch.optim.adamw import AdamW
from gradsh.torch.optim.optimizer import Optimizer
from gradsh.torch.optim.rmsprop import RMSprop
from gradsh.torch.optim.sgd import SGD

__getattr__ = module_getattr("torch.optim")

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
