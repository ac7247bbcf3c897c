"""torch.func: composable function transforms (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap,
functional_call, functionalize) over gradsh's autograd; see gradsh/torch/_functorch for how each is run and
where its results can differ from PyTorch's."""

from __future__ import annotations

from gradsh.torch._functorch.eager_transforms import (
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from gradsh.torch._functorch.batch_norm_replacement import replace_all_batch_norm_modules_
from gradsh.torch._functorch.functional_call import functional_call, stack_module_state
from gradsh.torch._functorch.functionalize import functionalize
from gradsh.torch._functorch.vmap import vmap
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.func")

__all__ = ["functional_call", "functionalize", "grad", "grad_and_value", "hessian", "jacfwd",
           "jacrev", "jvp", "linearize", "replace_all_batch_norm_modules_", "stack_module_state",
           "vjp", "vmap"]
