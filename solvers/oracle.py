"""The truth oracle: how many solutions a puzzle has (0, 1, 2+) and which.

The harness's cross-check and the generator's uniqueness checks ask this
module rather than a named solver, so the fastest complete solver installed
answers them: ``fast`` (numba) when available, else ``dlx``.
"""

from __future__ import annotations

from collections.abc import Iterable

from solvers.base import SolveResult
from solvers.grid import Grid
from solvers.registry import get, solver_class

PREFERRED = ("fast", "dlx")


def oracle_name() -> str:
    """The complete solver the oracle uses on this installation."""
    for name in PREFERRED:
        try:
            if solver_class(name).supported():
                return name
        except KeyError:
            continue
    return "dlx"


def solve_many(puzzles: Iterable[Grid], *, limit: int = 2) -> list[SolveResult]:
    """Solve each puzzle looking for up to `limit` solutions (2 proves uniqueness)."""
    solver = get(oracle_name())
    batch = getattr(solver, "solve_batch", None)
    if batch is not None:
        return batch(list(puzzles), limit=limit)
    return [solver.solve(p, limit=limit) for p in puzzles]


def count_solutions(puzzle: Grid, *, limit: int = 2) -> int:
    """0, 1, or `limit` (meaning: at least that many)."""
    return len(solve_many([puzzle], limit=limit)[0].solutions)
