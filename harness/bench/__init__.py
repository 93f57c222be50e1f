"""The benchmark programs: each prints figures and ratios, none asserts a time.

- `harness.bench.timing`: per-puzzle timing of solvers in one process (``sudoku-bench bench``);
- `harness.bench.cp`: the CP backends (``python -m harness.bench.cp --help``);
- `harness.bench.fast`: the compiled fast path (``python -m harness.bench.fast --help``).
"""
