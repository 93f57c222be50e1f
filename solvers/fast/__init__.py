"""The compiled fast path: the ``fast`` solver, batch solving and truth at scale.

Modules, one job each: `kernels` (the numba code: propagation and search),
`tables` (shape geometry as arrays), `single` (one puzzle, with time slices),
`batch` (`solve_many`: a whole batch in one compiled call), `truth`
(chunked solution counts for large corpora), `solver` (the registered
`Solver`) and `benchmark` (``python -m harness.bench.fast``).

numba and NumPy are an optional extra (``pip install 'sudoku-bench[fast]'``).
Importing this package never needs them: `solve_many`, `truth_stream`,
`truth_chunks`, `truth_file` and `read_chunks` load them on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from solvers.fast.solver import FastSolver

_LAZY = {
    "Batch": "solvers.fast.batch",
    "solve_many": "solvers.fast.batch",
    "truth_stream": "solvers.fast.truth",
    "truth_chunks": "solvers.fast.truth",
    "truth_file": "solvers.fast.truth",
    "read_chunks": "solvers.fast.truth",
}

__all__ = ["FastSolver", "available", *_LAZY]


def available() -> bool:
    """True when numba and NumPy are installed."""
    return FastSolver.supported()


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if not available():
        raise ImportError(f"solvers.fast.{name} needs numba and NumPy: {FastSolver.install_hint}")
    return getattr(importlib.import_module(_LAZY[name]), name)
