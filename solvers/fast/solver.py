"""The registered ``fast`` solver: the compiled kernels behind the `Solver` contract.

This module imports neither numba nor NumPy; they load on the first solve, so
the registry can list ``fast`` (as unavailable, with its install command)
where the ``fast`` extra is missing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from solvers.base import (
    Limits,
    Param,
    Solver,
    SolveResult,
    Staged,
    UnsupportedPuzzle,
    extra_hint,
)
from solvers.grid import Grid, easy_grid
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
        "intersections (tdoku's triads), branching on a digit's band permutations (9x9) or on "
        "the fewest-candidates cell; region, neighbour, parity and killer variants; batch API"
    )
    source = (
        "bitmask candidate propagation with tdoku's triad rule and band branching "
        "(t-dillon/tdoku, docs/sudoku.md) and minimum-remaining-values branching; "
        "compiled with numba"
    )
    sizes = tuple(range(2, MAX_SIDE + 1))
    # compiled by `variant_tables` and `variant_kernels`
    constraint_kinds = frozenset(
        {
            "jigsaw",
            "extra-region",
            "disjoint-groups",
            "diagonal",
            "anti-knight",
            "anti-king",
            "non-consecutive",
            "parity",
            "killer",
        }
    )
    native_time_limit = True
    counts = True
    requires = ("numba", "numpy")
    install_hint = extra_hint("fast")
    parameters = {
        "locked": Param(True, "apply locked candidates (pointing, claiming) before guessing"),
        "intersections": Param(
            "auto",
            "each box/line intersection holds as many digits as cells, and bivalue cells are "
            "chosen by reach (auto: on from 16x16, bands at 9x9); bands: at 9x9 the rule and "
            "branching on a digit's two placements in a band or stack (tdoku's method)",
            ("auto", "on", "off", "bands"),
        ),
        "threads": Param(0, "threads for batch solving (0 = every core numba may use)"),
    }

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        from solvers.fast.single import solve_one

        return solve_one(puzzle, limit, limits, self.options["locked"], self._intersections())

    def _intersections(self) -> bool | str | None:
        """The `intersections` option as `tables.rules` takes it."""
        choice = self.options["intersections"]
        return {"auto": None, "on": True, "off": False}.get(choice, choice)

    def _stage(
        self, puzzle: Grid, limit: int, time_limit: float | None, budget: int | None, trace: bool
    ) -> Staged:
        from solvers.fast.single import staged

        return staged(
            puzzle, limit, time_limit, budget, self.options["locked"], self._intersections()
        )

    def warm_up(self) -> None:
        """Compile the kernels, or load them from numba's cache: the 9x9 one, the
        generic one (4x4 stands for every shape) and the batch kernels."""
        for box in ((3, 3), (2, 2)):
            puzzle = easy_grid(*box)
            self.solve(puzzle, limit=2)
            self.solve_batch([puzzle], limit=2)

    def solve_batch(
        self, puzzles: Sequence[Grid], *, limit: int = 2, budget: int | None = None
    ) -> list[SolveResult]:
        """Solve many puzzles in compiled batches (one per box shape), in input order;
        puzzles with constraints are solved one by one within the same call.

        The answers equal ``[self.solve(p, limit=limit, budget=budget) for p in
        puzzles]``, at a fraction of the cost; there is no time limit.  Counting
        beyond `BATCH_LIMIT` solutions goes puzzle by puzzle (every solution is
        returned, and a batch would store `limit` grids per puzzle).
        """
        staged = self.stage_batch(puzzles, limit=limit, budget=budget)
        return staged.finish(staged.run())  # type: ignore[no-any-return]

    batches = True

    def stage_batch(
        self, puzzles: Sequence[Grid], *, limit: int = 2, budget: int | None = None
    ) -> Staged:
        """`solve_batch` split as `Solver.stage` splits `solve`: ``run`` is the compiled
        calls alone, ``finish`` returns the list of `SolveResult`s."""
        from solvers.fast.batch import prepare_many

        puzzles = list(puzzles)
        if limit > BATCH_LIMIT:
            stages = [self.stage(p, limit=limit, budget=budget) for p in puzzles]
            return Staged(
                lambda: [stage.run() for stage in stages],
                lambda raws: [stage.finish(raw) for stage, raw in zip(stages, raws, strict=True)],
            )
        by_shape: dict[tuple[int, int], list[int]] = defaultdict(list)
        alone: dict[int, Staged] = {}  # puzzles with constraints: one by one
        for i, p in enumerate(puzzles):
            if not isinstance(p, Grid):
                raise TypeError(f"solve_batch() takes Grids, not {type(p).__name__}")
            support = self.handles(p)
            if not support:
                raise UnsupportedPuzzle(support.reason)
            if p.constraints:
                alone[i] = self.stage(p, limit=limit, budget=budget)
            else:
                by_shape[(p.box_rows, p.box_cols)].append(i)
        threads = self.options["threads"] or None
        locked = self.options["locked"]
        jobs = [
            (
                indices,
                prepare_many(
                    [puzzles[i] for i in indices],
                    limit,
                    limit,
                    budget,
                    threads,
                    locked,
                    self._intersections(),
                    None,
                ),
            )
            for indices in by_shape.values()
        ]

        def finish(raws: dict[int, object]) -> list[SolveResult]:
            results: list[SolveResult | None] = [None] * len(puzzles)
            for i, stage in alone.items():
                results[i] = stage.finish(raws[i])
            for indices, job in jobs:
                batch = job.answers()
                for k, i in enumerate(indices):
                    results[i] = batch.result(k, puzzles[i])
            return results  # type: ignore[return-value]

        def run() -> dict[int, object]:
            for _, job in jobs:
                job.run()
            return {i: stage.run() for i, stage in alone.items()}

        return Staged(run, finish)
