"""Which float32 kernel makes a corpus program drift: run it under gradsh with some of gradsh's
float32 kernels replaced by real PyTorch's, and see whether it then prints the recording.

    python tests/programs/oracle.py NAME [NAME ...] --with matmul,sin      # one substitution
    python tests/programs/oracle.py NAME --with "matmul;sin;matmul,sin"   # several, one by one

`matmul` replaces NumPy's float32 matmul (forward and backward products) and addmm (PyTorch
folds the bias into MKL's blocked sum); `exp`, `log`, `sin`, `cos`, `tan`, `tanh`, `sqrt`,
`sigmoid`, `erf`, `log2`, `log10` replace the element-wise kernel of that name; `dot` replaces
torch.dot's float32 product (ATen's BLAS sdot). A program that
passes with a substitution drifts because of that kernel: the reason EXPECTED_FAILURES.txt
gives. Needs torch 2.13 (the oracle); never used by the test suite.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402  (the folder is put on sys.path just above)

UNARY = ("exp", "log", "sin", "cos", "tan", "tanh", "sqrt", "sigmoid", "erf", "log2", "log10")


def _substitute(names: set[str]) -> None:
    """In this process: gradsh's kernels named in `names` replaced by PyTorch's."""
    import numpy as np
    import torch

    from gradsh.engine.functions import linalg, pointwise
    from gradsh.engine.node import ArrayOps

    torch.set_num_threads(1)

    def torch_unary(name: str):  # type: ignore[no-untyped-def]
        function = getattr(torch, name)
        return lambda x: function(torch.from_numpy(np.ascontiguousarray(x))).numpy()

    for name in names & set(UNARY):
        pointwise.UNARY[name] = (torch_unary(name), pointwise.UNARY[name][1])
    if "dot" in names:
        gradsh_dot = linalg.DotBackward0.forward

        def dot(self, a, b):  # type: ignore[no-untyped-def]
            out = gradsh_dot(self, a, b)
            if a._data.dtype == np.float32 and b._data.dtype == np.float32:
                return torch.dot(torch.from_numpy(np.ascontiguousarray(a._data)),
                                 torch.from_numpy(np.ascontiguousarray(b._data))).numpy()
            return out

        linalg.DotBackward0.forward = dot
    if "matmul" not in names:
        return
    numpy_matmul = np.matmul

    def matmul(a, b, *args, **kwargs):  # type: ignore[no-untyped-def]
        if (type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == np.float32
                and b.dtype == np.float32 and not args and not kwargs):
            return torch.matmul(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        return numpy_matmul(a, b, *args, **kwargs)

    np.matmul = matmul
    linalg.product = matmul  # the nodes' forward products (MKL's orders, vecmath/sgemm.py)
    ArrayOps.mm = ArrayOps.mv = ArrayOps.bmm = staticmethod(matmul)
    gradsh_addmm = linalg.AddmmBackward0.forward

    def addmm(self, bias, mat1, mat2, beta, alpha):  # type: ignore[no-untyped-def]
        out = gradsh_addmm(self, bias, mat1, mat2, beta, alpha)
        if mat1._data.dtype == np.float32 and bias._data.dtype == np.float32:
            return torch.addmm(torch.from_numpy(np.ascontiguousarray(bias._data)),
                               torch.from_numpy(mat1._data), torch.from_numpy(mat2._data),
                               beta=beta, alpha=alpha).numpy()
        return out

    linalg.AddmmBackward0.forward = addmm


def _child(program: str, names: str) -> int:
    _substitute(set(filter(None, names.split(","))))
    from gradsh.cli import main

    return main(["run", "--quiet", program])


def check(name: str, names: str) -> tuple[bool, int]:
    """Whether NAME prints its recording with the kernels in `names` (comma-separated)
    substituted, and how many lines of the diff remain."""
    cmd = [sys.executable, str(Path(__file__)), "--child", names, f"{name}.py"]
    proc = subprocess.run(cmd, cwd=corpus.HERE, env=corpus.program_env(str(corpus.ROOT)),
                          capture_output=True, text=True, encoding="utf-8",
                          timeout=corpus.GRADSH_TIMEOUT_S * 5)
    expected = corpus.recording(name).read_text(encoding="utf-8")
    out = corpus.mask(proc.stdout)
    lines = [line for line in corpus.diff(expected, out, "torch", "gradsh", 10_000).splitlines()
             if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return out == expected and proc.returncode == 0, len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", help="program file stems")
    parser.add_argument("--with", dest="kernels", default="matmul",
                        help="kernels to substitute, comma-separated; ';' separates tries")
    args = parser.parse_args(argv)
    for name in args.names:
        for kernels in args.kernels.split(";"):
            ok, lines = check(name, kernels)
            print(f"{name:36s} with {kernels:28s} " + ("PASS" if ok else f"FAIL ({lines} lines)"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        sys.exit(_child(sys.argv[3], sys.argv[2]))
    sys.exit(main())
