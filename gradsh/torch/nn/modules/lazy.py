"""LazyModuleMixin: a module whose parameters get their shapes from its first input.

As PyTorch's: the constructor leaves Uninitialized parameters and registers a forward
pre-hook; the first call materializes them (initialize_parameters), runs reset_parameters (the
same random draws as the eager module built with those shapes), removes the hook and turns the
module into `cls_to_become` (LazyLinear becomes Linear).
"""

from __future__ import annotations

import itertools
from typing import Any

from gradsh.torch.nn.parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(  # type: ignore[attr-defined]
            self._infer_parameters, with_kwargs=True)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        stores = itertools.chain(self._parameters.values(),  # type: ignore[attr-defined]
                                 self._buffers.values())  # type: ignore[attr-defined]
        return any(is_lazy(t) for t in stores)

    def _infer_parameters(self, module: Any, args: Any, kwargs: Any = None) -> None:
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully "  # type: ignore[attr-defined]
                               "initialized")
        module._initialize_hook.remove()
        delattr(module, "_initialize_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _save_to_state_dict(self, destination: dict[str, Any], prefix: str,
                            keep_vars: bool) -> None:
        """As Module's, but an uninitialized parameter or buffer is saved itself (it prints
        as <UninitializedParameter>), not detached."""
        for store, skipped in ((self._parameters, ()),  # type: ignore[attr-defined]
                               (self._buffers,  # type: ignore[attr-defined]
                                self._non_persistent_buffers_set)):  # type: ignore[attr-defined]
            for name, value in store.items():
                if value is not None and name not in skipped:
                    keep = is_lazy(value) or keep_vars
                    destination[prefix + name] = value if keep else value.detach()

    def _replicate_for_data_parallel(self) -> Any:
        raise RuntimeError("Modules with uninitialized parameters can't be used with "
                           "`DataParallel`. Run a dummy forward pass to correctly initialize "
                           "the modules")
