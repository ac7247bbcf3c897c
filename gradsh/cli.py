"""The command line: argv, exit codes, stdout/stderr — nothing else.

    gradsh                      the interactive shell (stdin read as a script when piped)
    gradsh FILE.grad            run a script (same as `gradsh run FILE.grad`)
    gradsh -c 'CODE'            run code given on the command line
    gradsh run [options] FILE   --json | --final | --quiet, --keep-going, --seed N, ...
    gradsh kernel install       the Jupyter kernel for notebooks in the gradsh language
    gradsh test|export|check|graph ...   in their own modules (DELEGATED)

Exit codes: 0 success; 1 a runtime error in the script; 2 a syntax error, a usage error or a
file that cannot be read.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gradsh import __version__

if TYPE_CHECKING:  # the runner (and the engine behind it) loads only when something runs
    from gradsh.runner import RunOptions

SUBCOMMANDS = ("run",)
# Subcommands that live in their own module: `gradsh NAME ARGS...` calls module.cli_main(ARGS).
DELEGATED = {"export": "gradsh.export", "check": "gradsh.check", "test": "gradsh.golden",
             "graph": "gradsh.graphcmd", "kernel": "gradsh.kernelcmd"}


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message (it already does) and never tracebacks."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"gradsh: error: {message}\n")
        raise SystemExit(2)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true",
                      help="machine-readable trace: one JSON object per statement")
    mode.add_argument("--final", action="store_true",
                      help="only explicit output and the table after the last step")
    mode.add_argument("--quiet", action="store_true", help="only explicit output")
    parser.add_argument("--keep-going", action="store_true",
                        help="continue after an error, as the shell does")
    parser.add_argument("--seed", type=int, metavar="N", help="torch.manual_seed(N) first")
    parser.add_argument("--device", choices=("cpu", "cuda"), help="default device")
    parser.add_argument("--sim-cuda", action="store_true",
                        help="simulate cuda:0 on the CPU (also GRADSH_SIM_CUDA=1)")
    parser.add_argument("--no-color", action="store_true", help="plain output on a terminal too")
    parser.add_argument("--width", type=_width, metavar="N",
                        help="output width (default: the terminal's, 100 when piped)")
    parser.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                        help="stop a run that takes longer (exit 1)")
    parser.add_argument("--max-memory", type=_size, metavar="SIZE",
                        help="the memory the run may take beyond gradsh's own, e.g. 2G "
                        "(default: half the memory available; also GRADSH_MAX_MEMORY)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--changed-only", action="store_true",
                       help="after each step, only the variables it changed (table and JSON; "
                       "the default beyond 50 variables)")
    shown.add_argument("--full", action="store_true",
                       help="after each step, every variable, and every JSON value in full "
                       "(output grows with steps x variables)")
    parser.add_argument("--lang", choices=("en", "zh"),
                        help="language of `explain` (default: GRADSH_LANG or en)")


MIN_WIDTH, MAX_WIDTH = 20, 100_000
MAX_TIMEOUT = 365 * 24 * 3600.0  # a year: setitimer's range, and surely a mistake beyond


def _width(text: str) -> int:
    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid width: {text!r} (a whole number)") from None
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(
            f"--width must be between {MIN_WIDTH} and {MAX_WIDTH} columns, not {width}")
    return width


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time: {text!r} (seconds)") from None
    if not 0 < seconds <= MAX_TIMEOUT:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"--timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds, not {text}")
    return seconds


def _size(text: str) -> int:
    from gradsh.engine.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# What `gradsh --help` lists under the options: every subcommand, one line each.
SUBCOMMAND_HELP = (
    ("run FILE", "run a .grad script or a Python program (the same as `gradsh FILE`)"),
    ("test [PATH...]", "golden-output tests: each x.grad (and x.py) against its x.out; "
                       "--update rewrites them"),
    ("export FILE", "the equivalent PyTorch program, on stdout"),
    ("check FILE", "run FILE and its PyTorch export side by side, report every difference "
                   "(needs torch)"),
    ("graph FILE VAR -o OUT", "VAR's backward graph as .dot, .svg or .png (pictures need "
                              "Graphviz's dot)"),
    ("kernel install", "a Jupyter kernel running .grad cells (Python notebooks: %load_ext "
                       "gradsh)"),
)


def _subcommand_epilog() -> str:
    import textwrap

    width = max(len(usage) for usage, _ in SUBCOMMAND_HELP) + 2
    indent = " " * (len("  gradsh ") + width)
    lines = ["subcommands (gradsh SUBCOMMAND --help for each):"]
    for usage, text in SUBCOMMAND_HELP:
        lines += textwrap.wrap(text, 79, initial_indent=f"  gradsh {usage.ljust(width)}",
                               subsequent_indent=indent)
    lines.append("")
    lines.append("With no FILE and no -c, gradsh starts the interactive shell (type help there).")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gradsh",
        usage="gradsh [options] [FILE [ARGS...] | -c CODE]\n       gradsh {run,test,export,check,graph,kernel} ...",
        description="A shell for a small tensor language whose autograd behaves exactly like\n"
        "PyTorch's. Run a .grad script or a Python program, or start the shell with no\n"
        "arguments.",
        epilog=_subcommand_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gradsh {__version__}")
    parser.add_argument("-c", dest="code", metavar="CODE", help="run CODE")
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a .grad script or a .py program to run (what follows a .py "
                             "program is its own arguments)")
    _add_run_options(parser)
    return parser


def build_run_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gradsh run", description="Run a .grad script.")
    parser.add_argument("file", help="a .grad script")
    _add_run_options(parser)
    return parser


def _options(args: argparse.Namespace, out_is_terminal: bool) -> RunOptions:
    from gradsh.runner import RunOptions

    mode = "json" if args.json else "final" if args.final else "quiet" if args.quiet else "table"
    color = (out_is_terminal and not args.no_color and "NO_COLOR" not in os.environ
             and mode != "json")
    return RunOptions(
        mode=mode,
        keep_going=args.keep_going,
        seed=args.seed,
        device=args.device,
        sim_cuda=args.sim_cuda or os.environ.get("GRADSH_SIM_CUDA") == "1",
        color=color,
        width=args.width,
        lang=args.lang or os.environ.get("GRADSH_LANG", "en"),
        timeout=args.timeout,
        max_memory=args.max_memory,
        argv=tuple(getattr(args, "program_argv", ())),
        vars_shown="changed" if args.changed_only else "full" if args.full else "auto",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The `gradsh` command. Run as the process (no `argv`: its own arguments), it watches the
    process's memory too (limits.watch); called with arguments (tests) it leaves that alone."""
    import gc

    # Start-up's imports make thousands of objects and no garbage: the collector, paused until
    # tune_process sets it for the run, would spend 60-80 ms of a 0.35 s start scanning them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _watched(argv)
    finally:
        (gc.enable if collecting else gc.disable)()  # as the caller had it (tests call main)


def _watched(argv: Sequence[str] | None) -> int:
    from gradsh.engine import limits

    watch = limits.watch() if argv is None else contextlib.nullcontext()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        with watch:  # the memory limit holds for the whole process
            return _main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    except KeyboardInterrupt:
        sys.stderr.write("gradsh: interrupted\n")
        return 130
    except BrokenPipeError:  # the reader went away (`gradsh x.grad | head`): exit 1 quietly,
        _silence_stdout()  # in every output mode, as Python's documentation advises
        return 1
    except MemoryError as err:  # past the memory limit while showing a step, or NumPy's own
        _flush_stdout()
        sys.stderr.write(f"gradsh: MemoryError: {err or 'out of memory'}\n")
        return 1
    except OSError as err:
        if err.errno in _OUTPUT_ERRORS:  # a full disk, a closed or broken output
            _silence_stdout()
            sys.stderr.write(f"gradsh: error: cannot write the output: "
                             f"{err.strerror or err}\n")
            return 1
        if os.environ.get("GRADSH_DEBUG"):
            raise
        sys.stderr.write(f"gradsh: internal error: {type(err).__name__}: {err}\n")
        return 1
    except Exception as err:  # noqa: BLE001  (never a traceback; GRADSH_DEBUG=1 shows it)
        if os.environ.get("GRADSH_DEBUG"):
            raise
        sys.stderr.write(f"gradsh: internal error: {type(err).__name__}: {err}\n")
        return 1
    except BaseException as stop:  # --timeout's stop where no statement was running
        from gradsh.runner import ScriptTimeout

        if not isinstance(stop, ScriptTimeout):
            raise
        _flush_stdout()
        sys.stderr.write("gradsh: TimeoutError: the run went past --timeout\n")
        return 1


_OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EBADF, errno.EPIPE, errno.EDQUOT,
                            errno.EFBIG})


def _flush_stdout() -> None:
    """Write out what is buffered for stdout, if it still can be (before a last error line)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so Python's final flush of what could not be written raises
    nothing more at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _mistyped_subcommand(word: str) -> bool:
    """`gradsh tset`: no such file, and a name near a subcommand's; say so (True) rather than
    only that the file is missing."""
    if os.path.exists(word) or any(ch in word for ch in "./\\"):
        return False
    from gradsh.suggest import did_you_mean

    hint = did_you_mean(word, [*SUBCOMMANDS, *DELEGATED], form="`gradsh {}`")
    if hint is None:
        return False
    sys.stderr.write(f"gradsh: error: no such file or subcommand: {word}\n{hint}\n")
    return True


def _read_stdin() -> str | None:
    """The script piped in, read as a script file is (at most max_script_bytes, UTF-8); None
    after saying on stderr why it cannot be run."""
    from gradsh.runner import max_script_bytes

    limit = max_script_bytes()
    try:
        raw = sys.stdin.buffer.read(limit + 1)
    except (OSError, ValueError, AttributeError) as err:
        sys.stderr.write(f"gradsh: error: cannot read standard input: {err}\n")
        return None
    if len(raw) > limit:
        sys.stderr.write(f"gradsh: error: standard input is larger than {limit:,} bytes: not a "
                         "script gradsh reads (GRADSH_MAX_SCRIPT_BYTES sets the limit)\n")
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        sys.stderr.write(f"gradsh: error: standard input is not valid UTF-8 (byte {err.start}: "
                         f"{raw[err.start]:#04x})\n")
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _tune_gc() -> None:
    """Python's cyclic garbage collector, set for a process that builds autograd graphs.

    A graph is many small objects that live long (a node, its edges, saved tensors) and form
    no cycles, so reference counting frees them; the collector would only scan them again
    and again: at its default thresholds it costs half the time of a deep chain's forward
    pass (9.2 against 5.0 µs per node). Young objects are still collected about ten times
    less often, the whole heap about a hundred times less; what gradsh imported at start-up
    is never scanned again (gc.freeze).
    """
    import gc

    gc.freeze()
    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(max(gen0, 10_000), gen1, max(gen2, 100))
    gc.enable()  # (main pauses it while gradsh imports itself)


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def _tune_malloc() -> None:
    """glibc's malloc, set to keep freed memory for the next arrays instead of giving it back.

    By default an array of a few megabytes is mapped fresh from the system and unmapped when
    freed, so every training step touches new pages (1,500 page faults a step for the MLP of
    1,024 x 512: on a virtual machine they can cost more than its arithmetic). Blocks up to
    4 MiB now come from the heap, which keeps up to 64 MiB free before trimming. (Higher limits
    would keep the big tables of a deep graph's backward in the heap too, where they fragment
    it: a 200,000-step chain then peaks 9% higher, against 2% with these.) Elsewhere (another C
    library, another system) nothing changes.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, 4 << 20)
    mallopt(_M_TRIM_THRESHOLD, 64 << 20)


def tune_process() -> None:
    """The process settings of a gradsh run: the garbage collector's and malloc's, and large
    results reused from a pool (gradsh.engine.buffers)."""
    from gradsh.engine import buffers

    _tune_gc()
    _tune_malloc()
    buffers.enable()


# The options that take a value (the value never names the file).
_VALUE_OPTIONS = frozenset({"-c", "--seed", "--device", "--width", "--timeout", "--max-memory",
                            "--lang"})


def split_program_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(gradsh's arguments, the Python program's own): as with `python prog.py --epochs 3`,
    whatever follows a .py file is the program's (its sys.argv[1:]); a .grad script takes
    none, so gradsh's options may follow it."""
    from gradsh.runner import is_python_path

    skip = False
    for i, token in enumerate(argv):
        if skip:
            skip = False
        elif token in _VALUE_OPTIONS:
            skip = True
        elif token == "--" or not token.startswith("-"):
            file = i + 1 if token == "--" else i
            if file < len(argv) and is_python_path(argv[file]):
                return list(argv[:file + 1]), list(argv[file + 1:])
            break
    return list(argv), []


def _main(argv: list[str]) -> int:
    from gradsh.errors import GradshError
    from gradsh.runner import EXIT_USAGE, header_args, read_with_header, run_source

    tune_process()
    if sys.stdout is None or sys.stderr is None:  # started with `>&-` or `2>&-`
        if sys.stderr is not None:
            sys.stderr.write("gradsh: error: standard output is closed\n")
        return EXIT_USAGE

    if argv and argv[0] in DELEGATED:
        import importlib

        return int(importlib.import_module(DELEGATED[argv[0]]).cli_main(argv[1:]))
    if argv and argv[0] in SUBCOMMANDS:
        parser, argv = build_run_parser(), argv[1:]
    else:
        parser = build_parser()
    argv, program_argv = split_program_args(argv)
    args = parser.parse_args(argv)
    args.program_argv = program_argv
    source = None
    code = getattr(args, "code", None)
    if args.file is not None and code is None:
        if _mistyped_subcommand(args.file):
            return EXIT_USAGE
        args, source = read_with_header(parser, argv, args)
        if source is None:
            return EXIT_USAGE
    elif code is None and sys.stdin is not None and not sys.stdin.isatty():
        source = _read_stdin()
        if source is None:
            return EXIT_USAGE
    text = code if code is not None else source
    if text is not None and args.file is None:  # -c CODE and piped input have headers too
        try:
            header = header_args(text)
        except GradshError as err:
            sys.stderr.write(f"gradsh: error: {err.message}\n")
            return EXIT_USAGE
        if header:
            args = parser.parse_args([*header, *argv])
    options = _options(args, sys.stdout.isatty())
    if options.sim_cuda:
        from gradsh.engine.backend import SIM_CUDA_NOTICE

        sys.stderr.write(SIM_CUDA_NOTICE + "\n")

    if code is not None:
        if args.file is not None:
            sys.stderr.write("gradsh: error: give either -c CODE or a FILE, not both\n")
            return EXIT_USAGE
        return run_source(code, "<string>", options, sys.stdout, sys.stderr)
    if args.file is None:
        if sys.stdin is None:
            sys.stderr.write("gradsh: error: standard input is closed (give a FILE or -c CODE)\n")
            return EXIT_USAGE
        if sys.stdin.isatty():
            from gradsh.shell import run_shell

            return run_shell(options)
        assert source is not None
        return run_source(source, "<stdin>", options, sys.stdout, sys.stderr)
    assert source is not None
    return run_source(source, args.file, options, sys.stdout, sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
