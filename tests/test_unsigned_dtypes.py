"""PyTorch 2.13's barebones unsigned dtypes (torch.uint16, uint32, uint64): creation, printing,
conversions, iinfo, promotion (only with a float dtype) and the kernels PyTorch has not built
for them (`"add_stub" not implemented for 'UInt16'`: gradsh/engine/ops/unsigned_kernels.py).
tests/snippets/unsigned_dtypes.py runs a program over them under both.

Run as a script, this file rewrites that table from the installed torch:
`python tests/test_unsigned_dtypes.py`."""

from __future__ import annotations

import re
import sys
import warnings
from typing import Any

import pytest

import gradsh.torch as gtorch
from gradsh.engine.ops.guard import _UNGUARDED
from gradsh.engine.ops.methods import _OPERATORS

_REFUSED = re.compile(r"^\"(\w+)\" not implemented for '(\w+)'$")
# calls whose refusal is another op's inside PyTorch's composite (einsum's ge, where(x)'s
# nonzero): gradsh does not refuse them by name
_COMPOSITES = frozenset({"einsum", "where", "to_sparse", "to_sparse_coo"})


def _guard_name(name: str) -> str:
    """The name the argument guard of a method has (`radd` for `__radd__`)."""
    return name[2:-2] if name.startswith("__") else name


def harvest(torch: Any) -> dict[str, str]:
    """op name (as gradsh's guards name them: `add`, `radd` for `__radd__`) -> the kernel
    PyTorch names refusing uint16, uint32 and uint64 tensors alike (the first call form that
    reaches a kernel: f(x), f(x, x), f(x, 1) and the method's)."""
    names = sorted({f.__name__ for f in _UNGUARDED} | {n for n in dir(torch.Tensor)
                                                      if not n.startswith("_")}
                   | _OPERATORS | {"__neg__", "__abs__", "__invert__"})
    found: dict[str, dict[Any, str]] = {}
    warnings.simplefilter("ignore")
    for dtype in (torch.uint16, torch.uint32, torch.uint64):
        u = torch.tensor([[1, 2], [3, 4]], dtype=dtype)
        for name in names:
            for form in ("function", "method"):
                try:
                    fn = getattr(torch if form == "function" else u, name, None)
                except Exception:  # noqa: BLE001, S112  (x.imag on a real tensor)
                    continue
                if not callable(fn) or (form == "function" and name.startswith("__")):
                    continue
                for args in ((u,), (u, u), (u, 1)) if form == "function" else ((), (u,), (1,)):
                    try:
                        fn(*args)
                    except NotImplementedError as error:
                        match = _REFUSED.match(str(error))
                        if match:
                            found.setdefault(_guard_name(name), {}).setdefault(
                                dtype, match.group(1))
                        break
                    except Exception:  # noqa: BLE001, S112  (not this call form)
                        continue
                    break
                if dtype in found.get(_guard_name(name), {}):
                    break
    return {name: kernels[torch.uint16] for name, kernels in sorted(found.items())
            if len(kernels) == 3 and len(set(kernels.values())) == 1 and name not in _COMPOSITES}


def write_table(torch: Any, path: str) -> None:
    import textwrap

    table = harvest(torch)
    by_kernel: dict[str, list[str]] = {}
    for name, kernel in table.items():
        by_kernel.setdefault(kernel, []).append(name)
    lines = ['"""The ops PyTorch 2.13 has no CPU kernel of for uint16, uint32 and uint64 tensors,',
             "and the kernel its NotImplementedError names (`\"add_stub\" not implemented for",
             "'UInt16'`). Data only, harvested from torch by tests/test_unsigned_dtypes.py (run as a",
             'script to rewrite it), which checks it; read by ops/guard.py."""', "",
             "from __future__ import annotations", "",
             "# kernel -> the ops (as gradsh's argument guards name them)",
             "_BY_KERNEL: dict[str, str] = {"]
    for kernel, names in sorted(by_kernel.items()):
        text = textwrap.fill(" ".join(names), 86)
        lines.append(f'    "{kernel}": """')
        lines += text.splitlines()
        lines[-1] += '""",'
    lines += ["}", "", "# op -> kernel",
              "UNSIGNED_KERNELS: dict[str, str] = {name: kernel for kernel, names in "
              "_BY_KERNEL.items()", "                                    for name in names.split()}"]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def test_table_is_torchs(torch: Any) -> None:
    from gradsh.engine.ops.unsigned_kernels import UNSIGNED_KERNELS

    assert harvest(torch) == UNSIGNED_KERNELS


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_dtype_attributes(torch: Any, name: str) -> None:
    ours, theirs = getattr(gtorch, name), getattr(torch, name)
    for attribute in ("itemsize", "is_signed", "is_floating_point", "is_complex"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert repr(ours) == repr(theirs)
    assert repr(gtorch.iinfo(ours)) == repr(torch.iinfo(theirs))
    assert gtorch.iinfo(ours).max == torch.iinfo(theirs).max


if __name__ == "__main__":
    import torch as real_torch

    write_table(real_torch, sys.argv[1] if len(sys.argv) > 1 else
                "gradsh/engine/ops/unsigned_kernels.py")
