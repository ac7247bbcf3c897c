"""torch.optim: the optimizers and the learning-rate schedulers."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.optim import lr_scheduler, swa_utils
from gradsh.torch.optim.adadelta import Adadelta
from gradsh.torch.optim.adafactor import Adafactor
from gradsh.torch.optim.adagrad import Adagrad
from gradsh.torch.optim.adam import Adam
from gradsh.torch.optim.adamax import Adamax
from gradsh.torch.optim.adamw import AdamW
from gradsh.torch.optim.asgd import ASGD
from gradsh.torch.optim.lbfgs import LBFGS
from gradsh.torch.optim.muon import Muon
from gradsh.torch.optim.nadam import NAdam
from gradsh.torch.optim.optimizer import Optimizer
from gradsh.torch.optim.radam import RAdam
from gradsh.torch.optim.rmsprop import RMSprop
from gradsh.torch.optim.rprop import Rprop
from gradsh.torch.optim.sgd import SGD
from gradsh.torch.optim.sparse_adam import SparseAdam

__getattr__ = module_getattr("torch.optim")

__all__ = ["ASGD", "Adafactor", "LBFGS", "SGD", "Adadelta", "Adagrad", "Adam", "AdamW",
           "Adamax", "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SparseAdam",
           "lr_scheduler", "swa_utils"]

# as in PyTorch, the submodules' names are not the package's attributes (`torch.optim.adam` is
# an AttributeError, dir() lists the optimizers), though `import torch.optim.adam` works
del adadelta, adafactor, adagrad, adam, adamax, adamw, asgd, lbfgs, muon, nadam  # noqa
del optimizer  # noqa: F821
del radam, rmsprop, rprop, sgd, sparse_adam, _cyclic, _flags, _fused, _kernels, annotations  # noqa
del module_getattr  # noqa: F821


def __dir__() -> list[str]:
    return sorted(name for name in globals()
                  if name not in ("__getattr__", "__dir__") and not name.startswith("@"))
