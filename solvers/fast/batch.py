"""Batch solving: many puzzles of one shape in one compiled call.

>>> import solvers
>>> from solvers.fast import solve_many
>>> batch = solve_many([solvers.Grid.parse("1... 3..2 ...3 ..2."), solvers.Grid.empty(2)])
>>> batch.counts.tolist()  # 0, 1 or 2 (= two or more) with limit=2
[1, 2]
>>> batch.grid(0).format()
'1234341221434321'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solvers.base import SolveResult, Status, UnsupportedPuzzle, counted_result
from solvers.fast import kernels
from solvers.fast.tables import rules, tables
from solvers.grid import Grid, box_shape_for
from solvers.verify import conflicts

PUZZLES_PER_CHUNK = 64
"""Smallest share of a batch a thread takes (smaller batches run on one thread)."""


@dataclass(frozen=True)
class Batch:
    """What `solve_many` returns: one row per puzzle, in input order.

    ``counts[i]`` is how many solutions were found (at most `limit`);
    ``solutions[i, k]`` holds the k-th as digits (k < ``keep``; rows past
    ``counts[i]`` are zeros); ``nodes``, ``guesses`` and ``backtracks`` are
    the search counters; ``exhausted[i]`` says the whole space was explored
    (so ``counts[i]`` is exact); ``invalid[i]`` marks conflicting givens and
    ``over_budget[i]`` a search stopped by `budget`.
    """

    box_rows: int
    box_cols: int
    limit: int
    counts: np.ndarray
    solutions: np.ndarray
    nodes: np.ndarray
    guesses: np.ndarray
    backtracks: np.ndarray
    exhausted: np.ndarray
    invalid: np.ndarray
    over_budget: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)

    @property
    def unique(self) -> np.ndarray:
        """True where exactly one solution exists and the search proved it."""
        return (self.counts == 1) & self.exhausted

    def grid(self, index: int, k: int = 0) -> Grid | None:
        """The k-th solution of puzzle `index` as a `Grid` (None if there is none)."""
        if k >= min(self.counts[index], self.solutions.shape[1]):
            return None
        return Grid(self.box_rows, self.box_cols, tuple(self.solutions[index, k].tolist()))

    def result(self, index: int, puzzle: Grid | None = None) -> SolveResult:
        """Puzzle `index` as a `SolveResult` (solutions take `puzzle`'s symbols)."""
        if self.invalid[index]:
            why = "; ".join(map(str, conflicts(puzzle))) if puzzle is not None else ""
            return SolveResult(Status.INVALID, exhausted=True, message=why or "givens conflict")
        stats = {
            "nodes": int(self.nodes[index]),
            "guesses": int(self.guesses[index]),
            "backtracks": int(self.backtracks[index]),
        }
        kept = min(int(self.counts[index]), self.solutions.shape[1])
        rows = self.solutions[index, :kept].tolist()
        if puzzle is not None:
            grids = [puzzle.replace(row) for row in rows]
        else:
            grids = [Grid(self.box_rows, self.box_cols, tuple(row)) for row in rows]
        stopped = Status.BUDGET if self.over_budget[index] else None
        return counted_result(grids, bool(self.exhausted[index]), stats, stopped)


def as_array(
    puzzles: Sequence[Grid] | np.ndarray, box: tuple[int, int] | None = None
) -> tuple[np.ndarray, tuple[int, int]]:
    """Puzzles as a C-contiguous int8 array (one row of digits per puzzle) and their box shape.

    A list of `Grid` must share one box shape; an array's shape is `box`, or
    the usual one for its row length.
    """
    if isinstance(puzzles, np.ndarray):
        array = puzzles
        if array.ndim == 1 and array.size:
            array = array.reshape(1, -1)
        if array.ndim != 2:
            raise ValueError(f"expected a 2-D array of puzzles (one per row), not {array.ndim}-D")
        side = int(round(array.shape[1] ** 0.5))
        if side * side != array.shape[1]:
            raise ValueError(f"a puzzle row has a square number of cells, not {array.shape[1]}")
        box = box or box_shape_for(side)
        if box[0] * box[1] != side:
            raise ValueError(f"box {box[0]}x{box[1]} does not fit rows of {array.shape[1]} cells")
        if array.size and (array.min() < 0 or array.max() > side):
            raise ValueError(f"cells must be 0 (empty) or digits 1..{side}")
        return np.ascontiguousarray(array, dtype=np.int8), box
    grids = list(puzzles)
    for g in grids:
        if not isinstance(g, Grid):
            raise TypeError(f"expected Grid puzzles or an array, not {type(g).__name__}")
        if g.constraints:  # the batch kernels know rows, columns and boxes only
            kinds = ", ".join(sorted({c.kind for c in g.constraints}))
            raise UnsupportedPuzzle(
                f"solve_many takes classic Sudoku only, not {kinds} constraints "
                "(the fast solver's solve and solve_batch take them one by one)"
            )
    if not grids:
        side = (box[0] * box[1]) if box else 9
        return np.zeros((0, side * side), dtype=np.int8), box or box_shape_for(side)
    shapes = {(g.box_rows, g.box_cols) for g in grids}
    if len(shapes) > 1:
        raise ValueError(
            "a batch holds one box shape; found "
            + ", ".join(f"{r}x{c}" for r, c in sorted(shapes))
            + " (group the puzzles by shape)"
        )
    found = shapes.pop()
    if box is not None and tuple(box) != found:
        raise ValueError(f"box {box[0]}x{box[1]} given, but the puzzles have {found[0]}x{found[1]}")
    return np.array([g.cells for g in grids], dtype=np.int8), found


def solve_many(
    puzzles: Sequence[Grid] | np.ndarray,
    *,
    limit: int = 2,
    keep: int | None = None,
    budget: int | None = None,
    threads: int | None = None,
    locked: bool = True,
    intersections: bool | str | None = None,
    box: tuple[int, int] | None = None,
) -> Batch:
    """Solve a batch of puzzles of one shape in one compiled call.

    `puzzles` is a list of `Grid` or an integer array with one puzzle per row
    (0 = empty; `box` gives the box shape when it is not the usual one for
    the side).  Each puzzle is searched for up to `limit` solutions (2 proves
    uniqueness), of which the first `keep` are stored (default: up to 2).
    `budget` caps the search nodes per puzzle.  `threads` spreads the batch
    over that many threads (default: numba's thread count); 1 stays in this
    thread.  Conflicting givens are reported in ``invalid``, not raised.
    `locked` and `intersections` choose the inference (see `tables.rules`).
    """
    if not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive integer, not {limit!r}")
    if keep is None:
        keep = min(limit, 2)
    if not isinstance(keep, int) or not 0 <= keep <= limit:
        raise ValueError(f"keep must be an integer 0..limit, not {keep!r}")
    if budget is not None and (not isinstance(budget, int) or budget < 0):
        raise ValueError(f"budget must be a non-negative integer, not {budget!r}")
    job = prepare_many(puzzles, limit, keep, budget, threads, locked, intersections, box)
    job.run()
    return job.answers()


def prepare_many(
    puzzles: Sequence[Grid] | np.ndarray,
    limit: int,
    keep: int,
    budget: int | None,
    threads: int | None,
    locked: bool,
    intersections: bool | str | None,
    box: tuple[int, int] | None,
) -> ManyJob:
    """`solve_many`'s arrays, made ready: `ManyJob.run` is the compiled call alone."""
    array, (br, bc) = as_array(puzzles, box)
    total, ncells = array.shape
    sols = np.zeros((total, keep, ncells), dtype=np.int8)
    stats = np.zeros((total, 4), dtype=np.int64)
    outcomes = np.zeros(total, dtype=np.int8)
    node_limit = kernels.NO_LIMIT if budget is None else budget
    serial, parallel, geometry = _kernel(br, bc)
    level = rules(br * bc, locked, intersections)
    args = (array, *geometry, level, limit, keep, node_limit, sols, stats, outcomes)
    return ManyJob(br, bc, limit, serial, parallel, args, _threads(threads))


@dataclass(frozen=True)
class ManyJob:
    """A batch ready to solve: the kernels, their arguments and the thread count."""

    box_rows: int
    box_cols: int
    limit: int
    serial: Any
    parallel: Any
    args: tuple[Any, ...]
    workers: int

    def run(self) -> None:
        """The compiled call, which fills the arrays `answers` reads."""
        total = len(self.args[0])
        if self.workers > 1 and total >= 2 * PUZZLES_PER_CHUNK:
            import numba

            previous = numba.get_num_threads()
            numba.set_num_threads(self.workers)
            try:
                self.parallel(*self.args, min(total // PUZZLES_PER_CHUNK, 64 * self.workers))
            finally:
                numba.set_num_threads(previous)
        else:
            self.serial(*self.args)

    def answers(self) -> Batch:
        """The arrays the kernel filled, as a `Batch`."""
        sols, stats, outcomes = self.args[-3:]
        return Batch(
            box_rows=self.box_rows,
            box_cols=self.box_cols,
            limit=self.limit,
            counts=stats[:, 3].copy(),
            solutions=sols,
            nodes=stats[:, 0].copy(),
            guesses=stats[:, 1].copy(),
            backtracks=stats[:, 2].copy(),
            exhausted=(outcomes == kernels.EXHAUSTED) | (outcomes == kernels.INVALID),
            invalid=outcomes == kernels.INVALID,
            over_budget=outcomes == kernels.PAUSED,
        )


def _kernel(br: int, bc: int) -> tuple[Any, Any, tuple[Any, ...]]:
    """The serial and parallel batch kernels for a box shape, and the tables they read."""
    t = tables(br, bc)
    if (br, bc) == (3, 3):
        from solvers.fast import kernels9

        return kernels9.solve_serial, kernels9.solve_parallel, (t.bitboard_peers, t.peers)
    return kernels.solve_serial, kernels.solve_parallel, (t.peers, t.units, br, bc)


def _threads(threads: int | None) -> int:
    """How many threads to use: the request, capped by numba's pool."""
    import numba

    if threads is None:
        return (
            numba.get_num_threads()
        )  # the cores, unless NUMBA_NUM_THREADS or the caller said less
    available = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")
    return min(threads, available)
