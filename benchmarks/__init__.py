"""gradsh's benchmark suite: each row timed against its comparator in the same run.

Run it with `python -m benchmarks` (or `python benchmarks/run.py`); `--row NAME` runs one row,
`--list` names them, `--quick` runs tiny sizes (a smoke test, not a measurement).
"""
