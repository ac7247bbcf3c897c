"""`gradsh kernel install`: register the gradsh Jupyter kernel; `gradsh kernel launch -f FILE`
is what Jupyter runs to start it (see gradsh.kernel).

Exit codes: 0 done; 2 a usage error, or Jupyter (ipykernel, jupyter_client) is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence

KERNEL_NAME = "gradsh"
NEEDS_JUPYTER = "gradsh: error: the gradsh kernel needs Jupyter: pip install 'gradsh[jupyter]'\n"


def build_parser() -> argparse.ArgumentParser:
    from gradsh.cli import _Parser

    parser = _Parser(prog="gradsh kernel", description="The gradsh Jupyter kernel, for "
                     "notebooks written in the gradsh language.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_Parser)
    install = commands.add_parser("install", help="register the kernel with Jupyter")
    where = install.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true",
                       help="for the current user (~/.local/share/jupyter/kernels)")
    where.add_argument("--sys-prefix", action="store_true",
                       help="in this Python environment (sys.prefix/share/jupyter/kernels)")
    where.add_argument("--prefix", metavar="DIR", help="under DIR/share/jupyter/kernels")
    install.add_argument("--name", default=KERNEL_NAME, help="the kernel's name (default: gradsh)")
    launch = commands.add_parser("launch", help="start the kernel (Jupyter runs this)")
    launch.add_argument("-f", dest="connection_file", required=True, metavar="FILE",
                        help="the connection file Jupyter gives")
    return parser


def kernel_spec() -> dict[str, object]:
    """kernel.json: Jupyter starts the kernel with this Python, so the kernel runs the gradsh
    installed where `gradsh kernel install` ran."""
    return {
        "argv": [sys.executable, "-m", "gradsh", "kernel", "launch", "-f", "{connection_file}"],
        "display_name": "gradsh",
        "language": "gradsh",
        "interrupt_mode": "signal",
    }


def install(user: bool, prefix: str | None, name: str = KERNEL_NAME) -> str:
    """Write the kernel spec where Jupyter looks for it; the directory it went to."""
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as f:
            json.dump(kernel_spec(), f, indent=2)
        return str(KernelSpecManager().install_kernel_spec(folder, name, user=user,
                                                           prefix=prefix))


def cli_main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    try:
        import ipykernel  # noqa: F401  (the kernel's machinery)
        import jupyter_client  # noqa: F401
    except ImportError:
        sys.stderr.write(NEEDS_JUPYTER)
        return 2
    if args.command == "launch":
        from ipykernel.kernelapp import IPKernelApp

        from gradsh.kernel import GradshKernel

        IPKernelApp.launch_instance(argv=["-f", args.connection_file], kernel_class=GradshKernel)
        return 0
    prefix = sys.prefix if args.sys_prefix else args.prefix
    try:
        path = install(args.user, prefix, args.name)
    except OSError as err:
        sys.stderr.write(f"gradsh: error: cannot install the kernel: {err}\n"
                         "(--user installs it for you alone, without special permissions)\n")
        return 2
    print(f"installed the gradsh kernel '{args.name}' in {path}")
    return 0
