"""The small value types PyTorch exposes besides tensors: torch.Size and torch.device."""

from __future__ import annotations

from typing import Any, SupportsIndex


class Size(tuple):  # type: ignore[type-arg]
    """A tuple of ints that prints as `torch.Size([2, 3])`; slicing, `+` and `*` stay Sizes,
    as in PyTorch."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(int(n)) for n in self)}])"

    __str__ = __repr__

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        result = tuple.__getitem__(self, key)
        return Size(result) if isinstance(key, slice) else result

    def __add__(self, other: Any) -> Size:  # type: ignore[override]
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n: SupportsIndex) -> Size:  # type: ignore[override]
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n

    def __reduce__(self) -> Any:
        return (_size, (tuple(self),))


# c10's device types, in the order its parse error lists them
_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


class Device(str):
    """torch.device: prints as `cpu` / `cuda:0`, repr `device(type='cuda', index=0)`.

    A str subclass, so the engine keeps comparing a tensor's device with "cpu"; every tensor's
    `device` is one of these (made once per name), so `x.device.type` and
    `x.device == torch.device("cpu")` work as in PyTorch.
    """

    def __new__(cls, type: Any, index: int | None = None) -> Device:  # noqa: A002
        if isinstance(type, Device) and index is None:
            return type
        if isinstance(type, int) and not isinstance(type, bool) and index is None:
            from gradsh.engine.ops.arguments import _accelerator  # an index on the accelerator

            type = _accelerator(type)  # noqa: A001
        name = str(type)
        kind = name.split(":")[0]
        if kind not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                               f"of device string: {kind}")
        if index is not None:
            if ":" in name:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {name}")
            name = f"{name}:{int(index)}"
        return super().__new__(cls, name)

    @property
    def name(self) -> str:
        return str.__str__(self)

    @property
    def type(self) -> str:
        return self.split(":")[0]

    @property
    def index(self) -> int | None:
        return int(self.split(":")[1]) if ":" in self else None

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __reduce__(self) -> Any:
        return (_device, (str.__str__(self),))

    def __enter__(self) -> Device:
        """`with torch.device(d):` factory calls without a device create on d (PyTorch's
        DeviceContext); nested contexts restore the outer default on exit."""
        from gradsh.engine.ops.arguments import DefaultDevice, _device_name

        _DEFAULT_STACK.append(DefaultDevice.value)
        DefaultDevice.value = _device_name(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        from gradsh.engine.ops.arguments import DefaultDevice

        DefaultDevice.value = _DEFAULT_STACK.pop()


_DEVICES: dict[str, Device] = {}
_DEFAULT_STACK: list[str] = []  # the defaults that open `with torch.device(...)` blocks replaced


def device_of(name: str) -> Device:
    """The one Device object for a device name (tensors share them)."""
    device = _DEVICES.get(name)
    if device is None:
        device = _DEVICES[name] = Device(name)
    return device


def _size(dims: tuple[int, ...]) -> Size:
    """How a pickled Size comes back (pickles name this function, not the class, which
    carries PyTorch's module name)."""
    return Size(dims)


def _device(name: str) -> Device:
    """How a pickled device comes back."""
    return Device(name)


# type(x.shape) and type(x.device) print as PyTorch's classes (<class 'torch.Size'>)
Size.__module__ = "torch"
Device.__module__, Device.__name__, Device.__qualname__ = "torch", "device", "device"
