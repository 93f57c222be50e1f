"""The registered ``fast`` solver: the compiled kernels behind the `Solver` contract.

This module imports neither numba nor NumPy; they load on the first solve, so
the registry can list ``fast`` (as unavailable, with its install command)
where the ``fast`` extra is missing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from solvers.base import Limits, Param, Solver, SolveResult, UnsupportedPuzzle
from solvers.grid import Grid
from solvers.registry import register

MAX_SIDE = 25  # candidate sets are 32-bit masks; kept in step with tables.MAX_SIZE
BATCH_LIMIT = 16  # solve_batch stores every solution it is asked for, up to this many


@register
class FastSolver(Solver):
    name = "fast"
    family = "search"
    complete = True
    summary = (
        "numba-compiled bitmask search: naked and hidden singles, locked candidates, "
        "intersections (tdoku's triads), fewest-candidates branching; batch API"
    )
    source = (
        "bitmask candidate propagation with minimum-remaining-values branching, "
        "as in fast native solvers (e.g. tdoku's benchmarks); compiled with numba"
    )
    sizes = tuple(range(2, MAX_SIDE + 1))
    native_time_limit = True
    counts = True
    requires = ("numba", "numpy")
    install_hint = "pip install 'sudoku-bench[fast]'"
    parameters = {
        "locked": Param(True, "apply locked candidates (pointing, claiming) before guessing"),
        "intersections": Param(
            "auto",
            "each box/line intersection holds as many digits as cells, and bivalue cells are "
            "chosen by reach (auto: on from 16x16)",
            ("auto", "on", "off"),
        ),
        "threads": Param(0, "threads for batch solving (0 = every core numba may use)"),
    }

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        from solvers.fast.single import solve_one

        return solve_one(puzzle, limit, limits, self.options["locked"], self._intersections())

    def _intersections(self) -> bool | None:
        """The `intersections` option as `tables.rules` takes it."""
        return {"auto": None, "on": True, "off": False}[self.options["intersections"]]

    def solve_batch(
        self, puzzles: Sequence[Grid], *, limit: int = 2, budget: int | None = None
    ) -> list[SolveResult]:
        """Solve many puzzles in compiled batches (one per box shape), in input order.

        The answers equal ``[self.solve(p, limit=limit, budget=budget) for p in
        puzzles]``, at a fraction of the cost; there is no time limit.  Counting
        beyond `BATCH_LIMIT` solutions goes puzzle by puzzle (every solution is
        returned, and a batch would store `limit` grids per puzzle).
        """
        from solvers.fast.batch import solve_many

        puzzles = list(puzzles)
        if limit > BATCH_LIMIT:
            return [self.solve(p, limit=limit, budget=budget) for p in puzzles]
        by_shape: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, p in enumerate(puzzles):
            if not isinstance(p, Grid):
                raise TypeError(f"solve_batch() takes Grids, not {type(p).__name__}")
            if not self.handles(p.size):
                raise UnsupportedPuzzle(
                    f"{self.name} does not solve {p.size}x{p.size} grids (sizes up to {MAX_SIDE})"
                )
            by_shape[(p.box_rows, p.box_cols)].append(i)
        results: list[SolveResult | None] = [None] * len(puzzles)
        threads = self.options["threads"] or None
        for indices in by_shape.values():
            group = [puzzles[i] for i in indices]
            batch = solve_many(
                group,
                limit=limit,
                keep=limit,
                budget=budget,
                threads=threads,
                locked=self.options["locked"],
                intersections=self._intersections(),
            )
            for k, i in enumerate(indices):
                results[i] = batch.result(k, group[k])
        return results  # type: ignore[return-value]
