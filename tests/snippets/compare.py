"""Run Python snippets under real torch and under gradsh, and show where their output differs.

    python tests/snippets/compare.py [FILE_OR_FOLDER ...]   (default: this folder)

Each snippet runs as `python FILE` (the torch installed) and `python -m gradsh run --quiet
FILE`; stdout and stderr are compared, PyTorch's "(Triggered internally at ...)" tails and
object addresses masked. A snippet prints what a learner would look at, errors included (catch
them and print `type(e).__name__` and the message): tests/test_snippets.py keeps the snippets
that found a difference as tests, with their torch output recorded beside them
(`--record` writes NAME.torch.out).
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
_TRIGGERED = re.compile(r" \(Triggered internally at [^\n]*\)")
_ADDRESS = re.compile(r"0x[0-9a-f]{6,}")


def normalise(text: str, folder: Path) -> str:
    """Without the tails, addresses and the snippet's folder (warnings name the file by its
    absolute path), so that a recording holds wherever the repository is."""
    text = text.replace(f"{folder}{os.sep}", "")
    return _ADDRESS.sub("0x...", _TRIGGERED.sub("", text))


def run(command: list[str], path: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command + [path.name], capture_output=True, text=True, env=env,
                          cwd=path.parent, timeout=120)
    return normalise(done.stdout + done.stderr, path.resolve().parent)


def under_torch(path: Path) -> str:
    return run([sys.executable], path)


def under_gradsh(path: Path) -> str:
    return run([sys.executable, "-m", "gradsh", "run", "--quiet"], path)


def snippets(targets: list[str]) -> list[Path]:
    found: list[Path] = []
    for target in targets or [str(HERE)]:
        path = Path(target)
        found += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return [p for p in found if p.name not in ("compare.py", "__init__.py")]


def main(argv: list[str]) -> int:
    record = "--record" in argv
    differing = 0
    for path in snippets([a for a in argv if a != "--record"]):
        expected = under_torch(path)
        if record:
            path.with_suffix(".torch.out").write_text(expected, encoding="utf-8")
        actual = under_gradsh(path)
        if actual == expected:
            print(f"same  {path.name}")
            continue
        differing += 1
        print(f"DIFF  {path.name}")
        sys.stdout.writelines(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            "torch", "gradsh", n=1))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
