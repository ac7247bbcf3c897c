"""Record every corpus program's stdout under real PyTorch into NAME.torch.out.

    python tests/programs/record.py              # all programs
    python tests/programs/record.py NAME ...     # only these (file stems)
    python tests/programs/record.py --check      # compare with the recordings, write nothing
    python tests/programs/record.py --cpu-variant NAME ...  # this CPU vendor's recording

Each program runs twice: once as a user runs it (`python NAME.py`, a fresh interpreter per
program, in parallel) and once through corpus.run_under_torch (the forking runner the test
suite uses). Both outputs must be identical, which checks at once that the program is
deterministic and that the runner sees what a user sees; a program that exits non-zero, or
differs between the two runs, is reported and not recorded. Needs torch 2.13 (the oracle).

MKL picks kernels by CPU vendor, so torch prints other last digits for some programs on Intel's
CPUs than on AMD's. --cpu-variant keeps such a program's output on this CPU in
NAME.torch.KIND.out (KIND: intel or amd) beside NAME.torch.out, which stays as it is; the
tests compare with the variant for the CPU they run on (corpus.recording_here).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402  (the folder is put on sys.path just above)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="program file stems (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    parser.add_argument("--cpu-variant", action="store_true",
                        help="write NAME.torch.KIND.out for this CPU's vendor where its output "
                             "differs from NAME.torch.out (and delete it where it does not)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)

    import torch

    if not torch.__version__.startswith("2.13"):
        print(f"warning: recording with torch {torch.__version__}, not 2.13", file=sys.stderr)
    names = args.names or corpus.program_names()
    unknown = sorted(set(names) - set(corpus.program_names()))
    if unknown:
        parser.error(f"no such program: {', '.join(unknown)}")

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        fresh = dict(zip(names, pool.map(corpus.run_fresh, names)))
    forked = corpus.run_under_torch(names, args.jobs)

    problems = 0
    for name in names:
        proc = fresh[name]
        code, out, err = forked[name]
        if proc.returncode != 0 or code != 0:
            problems += 1
            print(f"{name}: exit {proc.returncode} (fresh), {code} (runner)\n"
                  f"{(proc.stderr or err)[-2000:]}")
            continue
        if proc.stdout != out:
            problems += 1
            print(f"{name}: the two runs differ (nondeterministic?)\n"
                  + corpus.diff(proc.stdout, out, "fresh", "runner"))
            continue
        # --check compares with what the tests compare with on this CPU
        target = corpus.recording_here(name) if args.check else corpus.recording(name)
        if args.cpu_variant and not args.check:
            problems += _keep_variant(name, out, target)
            continue
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if args.check:
            if old != out:
                problems += 1
                print(f"{name}: differs from {target.name}\n"
                      + corpus.diff(old or "", out, target.name, "now"))
        elif old != out:
            target.write_text(out, encoding="utf-8")
            print(f"{name}: {'updated' if old is not None else 'recorded'}")
    verb = "checked" if args.check else "recorded"
    print(f"{len(names) - problems} {verb}, {problems} with problems")
    return 1 if problems else 0


def _keep_variant(name: str, out: str, target: Path) -> int:
    """Write or delete NAME.torch.KIND.out for --cpu-variant; 1 where that cannot be done."""
    kind = corpus.cpu_kind()
    if kind is None or not target.exists():
        print(f"{name}: {'no recording to differ from' if kind else 'unknown CPU vendor'}")
        return 1
    path = corpus.variant(name, kind)
    if out == target.read_text(encoding="utf-8"):
        if path.exists():
            path.unlink()
            print(f"{name}: {path.name} deleted (the output is {target.name})")
    elif not path.exists() or path.read_text(encoding="utf-8") != out:
        path.write_text(out, encoding="utf-8")
        print(f"{name}: {path.name} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
