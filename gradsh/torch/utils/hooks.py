"""torch.utils.hooks: the handle a `register_*_hook` method returns."""

from __future__ import annotations

import weakref
from typing import Any

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """Removes one hook from the dict it was registered in (keyed by the handle's id), and from
    the extra dicts given, as PyTorch's handle does; also a context manager."""

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self.extra_dict_ref: tuple[Any, ...] = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            hooks = ref()
            if hooks is not None and self.id in hooks:
                del hooks[self.id]

    def __getstate__(self) -> Any:
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state: Any) -> None:
        self.hooks_dict_ref = weakref.ref(state[0] if state[0] is not None else {})
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in state[2] if d is not None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()
