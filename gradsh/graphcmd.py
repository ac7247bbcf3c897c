"""`gradsh graph FILE VAR [-o OUT]`: run a script, then write VAR's backward graph.

OUT ending in .dot (or .gv) gets the DOT text; .svg and .png get a picture made by Graphviz's
`dot` program. Without -o the DOT text goes to stdout, ready for `| dot -Tpng > g.png`. The
script runs quietly (its prints and tables are not shown; warnings and errors go to stderr).

Exit codes: 0 written; 1 the script failed, or a picture could not be made (without `dot`
the DOT text is written next to OUT and the message says how to install Graphviz); 2 a usage
error: a bad option, an unreadable or malformed script, a VAR the script does not define.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gradsh.errors import GradshError, format_error


def build_parser() -> argparse.ArgumentParser:
    from gradsh.cli import _Parser

    parser = _Parser(prog="gradsh graph",
                     description="Run a .grad script, then write the backward graph of one of "
                     "its variables as Graphviz DOT, SVG or PNG.")
    parser.add_argument("file", help="a .grad script")
    parser.add_argument("var", help="the variable whose graph to write")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="a .dot, .svg or .png file (default: DOT on stdout)")
    parser.add_argument("--seed", type=int, metavar="N", help="torch.manual_seed(N) first")
    parser.add_argument("--device", choices=("cpu", "cuda"), help="default device")
    parser.add_argument("--sim-cuda", action="store_true",
                        help="simulate cuda:0 on the CPU (also GRADSH_SIM_CUDA=1)")
    parser.add_argument("--keep-going", action="store_true",
                        help="run past errors in the script and write the graph anyway")
    return parser


def cli_main(argv: Sequence[str]) -> int:
    import os

    from gradsh import dot, snapshot
    from gradsh.interpreter import Interpreter
    from gradsh.parser import normalise, parse
    from gradsh.runner import (
        EXIT_OK,
        EXIT_RUNTIME,
        EXIT_USAGE,
        RunOptions,
        prepare,
        read_with_header,
    )

    parser = build_parser()
    args, source = read_with_header(parser, argv, parser.parse_args(list(argv)))
    if source is None:
        return EXIT_USAGE
    if args.output is not None and not _known_format(args.output):
        sys.stderr.write(f"gradsh: error: cannot write {args.output}: name a .dot, .svg or "
                         ".png file\n")
        return EXIT_USAGE

    source = normalise(source)
    try:
        program = parse(source, args.file)
    except GradshError as err:
        sys.stderr.write(format_error(err, source, args.file) + "\n")
        return EXIT_USAGE
    interp = Interpreter(args.file, source)
    options = RunOptions(mode="quiet", seed=args.seed, device=args.device,
                         sim_cuda=args.sim_cuda or os.environ.get("GRADSH_SIM_CUDA") == "1")
    try:
        prepare(interp, options)
    except Exception as err:  # noqa: BLE001  (a bad --device: a usage problem)
        sys.stderr.write(f"gradsh: error: {getattr(err, 'message', err)}\n")
        return EXIT_USAGE

    failed = False
    for outcome in interp.run(program):
        for text in outcome.warnings:
            sys.stderr.write(text + "\n")
        if outcome.error is not None:
            failed = True
            sys.stderr.write(format_error(outcome.error, source, args.file) + "\n")
            if not args.keep_going:
                return EXIT_RUNTIME

    tensors = snapshot.tensor_env(interp.env)  # `model.0.weight` names a parameter too
    if args.var not in interp.env and args.var not in tensors:
        sys.stderr.write(f"gradsh: error: {args.file} defines no variable '{args.var}'\n")
        return EXIT_USAGE
    target = interp.env[args.var] if args.var in interp.env else tensors[args.var]
    try:
        if args.output is None:
            sys.stdout.write(dot.dot_source(target, args.var, tensors, interp.path))
        else:
            dot.write_graph(target, args.var, tensors, args.output, interp.path)
            sys.stdout.write(f"wrote the graph of {args.var} to {args.output}\n")
    except GradshError as err:
        sys.stderr.write(format_error(err, None, "gradsh graph") + "\n")
        return EXIT_USAGE if err.kind == "TypeError" else EXIT_RUNTIME
    return EXIT_RUNTIME if failed else EXIT_OK


def _known_format(output: str) -> bool:
    from pathlib import Path

    from gradsh.dot import FORMATS

    return Path(output).suffix.lower() in FORMATS
