"""The wheel ships every package of the source tree (pyproject lists them one by one)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "gradsh").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    missing = on_disk - listed
    assert not missing, f"add these packages to pyproject.toml: {sorted(missing)}"
