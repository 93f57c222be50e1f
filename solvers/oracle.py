"""The truth oracle: how many solutions a puzzle has (0, 1, 2+) and which.

The harness's cross-check and the generator's uniqueness checks ask this
module rather than a named solver, so the fastest complete solver installed
answers them: ``fast`` (numba) when available, else ``dlx``.  With ``fast``,
`solve_many` and `truth_stream` solve whole batches in one compiled call.  A
puzzle with constraints goes to a complete solver of `VARIANT_PREFERRED` that
takes them (``cpsat``), whether or not ``fast`` takes them too: the variant
generator builds on the oracle's first solution, so the choice must not hang
on an optional extra, and ``fast``'s variant answers meet an independent truth
(the others of `PREFERRED` only when CP-SAT is missing).

    >>> from solvers import Grid
    >>> puzzles = [Grid.parse("1... 3..2 ...3 ..2.")]
    >>> [(count, str(solution)) for _, count, solution in truth_stream(puzzles)]
    [(1, '1234341221434321')]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from solvers.base import SolveResult, UnsupportedPuzzle
from solvers.grid import Grid
from solvers.registry import get, solver_class

PREFERRED = ("fast", "dlx")
# Tried first for a puzzle with constraints (CP-SAT propagates sums, which dlx cannot), then
# PREFERRED.
VARIANT_PREFERRED = ("cpsat",)
FALLBACKS = ("dlx", "cpsat")  # asked, in order, for a truth the oracle could not give
ENV = "SUDOKU_BENCH_ORACLE"
T = TypeVar("T")


def oracle_name(puzzle: Grid | None = None) -> str:
    """The complete solver the oracle uses on this installation (for `puzzle`, when given).

    The environment variable ``SUDOKU_BENCH_ORACLE`` names another installed
    complete solver (say ``dlx``, to measure what ``fast`` gains).  A puzzle
    with constraints goes to the first installed solver of `VARIANT_PREFERRED`
    that takes them (`Solver.handles`); `UnsupportedPuzzle` when none does.
    """
    chosen = os.environ.get(ENV, "").strip()
    if chosen:
        cls = solver_class(chosen)
        if not cls.complete or not cls.supported():
            raise ValueError(f"{ENV}={chosen}: the oracle must be an installed complete solver")
        if puzzle is None or cls.handles(puzzle):
            return chosen
    if puzzle is not None and puzzle.constraints:
        return _variant_oracle(puzzle)
    for name in PREFERRED:
        try:
            if solver_class(name).supported():
                return name
        except KeyError:
            continue
    return "dlx"


def _variant_oracle(puzzle: Grid) -> str:
    for name in VARIANT_PREFERRED + PREFERRED:
        try:
            cls = solver_class(name)
        except KeyError:
            continue
        if cls.complete and cls.supported() and cls.handles(puzzle):
            return name
    kinds = ", ".join(sorted({c.kind for c in puzzle.constraints}))
    raise UnsupportedPuzzle(f"no installed complete solver takes {kinds} constraints")


def oracle_chain(first: str | None = None) -> list[str]:
    """The complete solvers asked for a puzzle's truth, in order: the oracle (`first`,
    or `oracle_name`), then each installed fall-back, so one solver's failure (a
    crash, a memory error, a time limit) leaves the truth to another."""
    chain = [first or oracle_name()]
    for name in FALLBACKS:
        try:
            usable = solver_class(name).supported()
        except KeyError:
            continue
        if usable and name not in chain:
            chain.append(name)
    return chain


def solve_many(puzzles: Iterable[Grid], *, limit: int = 2) -> list[SolveResult]:
    """Solve each puzzle looking for up to `limit` solutions (2 proves uniqueness)."""
    puzzles = list(puzzles)
    if any(p.constraints for p in puzzles):
        return [get(oracle_name(p)).solve(p, limit=limit) for p in puzzles]
    solver = get(oracle_name())
    batch = getattr(solver, "solve_batch", None)
    if batch is not None:
        return batch(puzzles, limit=limit)
    return [solver.solve(p, limit=limit) for p in puzzles]


def count_solutions(puzzle: Grid, *, limit: int = 2) -> int:
    """0, 1, or `limit` (meaning: at least that many)."""
    return len(solve_many([puzzle], limit=limit)[0].solutions)


def truth_stream(
    puzzles: Iterable[T], *, chunk: int = 20_000
) -> Iterator[tuple[T, int, Grid | None]]:
    """Each puzzle (a `Grid` or a record with ``.grid``) with its solution count
    (0, 1, or 2 for two or more) and a solution, streamed with flat memory.

    With ``fast``, `chunk` puzzles at a time go through one compiled call
    (on every core); else ``dlx`` solves them one by one.  Conflicting
    givens count as no solution.
    """
    name = oracle_name()
    for block in _blocks(puzzles, chunk):
        if name == "fast" and not any(grid.constraints for _, grid in block):
            from solvers.fast import truth_stream as compiled

            yield from compiled([item for item, _ in block], chunk=chunk)
            continue
        for item, grid in block:
            result = get(oracle_name(grid) if grid.constraints else name).solve(grid, limit=2)
            yield item, len(result.solutions), result.solution


def _blocks(puzzles: Iterable[T], size: int) -> Iterator[list[tuple[T, Grid]]]:
    """The puzzles `size` at a time, each with its grid."""
    block: list[tuple[T, Grid]] = []
    for item in puzzles:
        grid: Any = item if isinstance(item, Grid) else getattr(item, "grid", None)
        if not isinstance(grid, Grid):
            raise TypeError(
                f"expected Grid puzzles (or records with .grid), not {type(item).__name__}"
            )
        block.append((item, grid))
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block
