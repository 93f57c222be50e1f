"""One puzzle at a time, with a wall-clock limit honoured between node slices.

Compiled code cannot read a clock cheaply, so the search runs in slices of
nodes: the kernel stops after its node limit with the rest of the search on
its stack, Python reads the clock, and the kernel resumes where it stopped.
Slices start small and double while they take under `SLICE_SECONDS`, so a
deadline is overshot by at most about that much, and easy puzzles never
leave compiled code.
"""

from __future__ import annotations

import time

import numpy as np

from solvers.base import Limits, SolveResult, Staged, Status, counted_result
from solvers.fast import kernels
from solvers.fast.tables import rules, tables
from solvers.grid import Grid

FIRST_SLICE = 4096  # nodes before the first clock read
SLICE_SECONDS = 0.01  # slices grow until they take about this long
FIRST_CAPACITY = 64  # solutions stored before the array grows


def grids_of(puzzle: Grid, rows: np.ndarray) -> list[Grid]:
    """The kernel's solutions (int8 digits, valid by construction) as grids of `puzzle`'s shape.

    A search may return a hundred thousand solutions (the empty grid with a
    large limit), so past a few this skips `Grid`'s per-cell validation: the
    fields are set as `Grid.__init__` would set them from valid cells.
    """
    if len(rows) <= 64:
        return [puzzle.replace(row) for row in rows.tolist()]
    first = puzzle.replace(rows[0].tolist())  # validated: its symbols are the model's
    out = [first]
    raw = rows.astype(np.uint8).tobytes()
    n = rows.shape[1]
    for k in range(1, len(rows)):
        g = object.__new__(Grid)
        object.__setattr__(g, "box_rows", first.box_rows)
        object.__setattr__(g, "box_cols", first.box_cols)
        object.__setattr__(g, "cells", tuple(raw[k * n : (k + 1) * n]))
        object.__setattr__(g, "symbols", first.symbols)
        out.append(g)
    return out


def solve_one(
    puzzle: Grid,
    limit: int,
    limits: Limits,
    locked: bool = True,
    intersections: bool | str | None = None,
) -> SolveResult:
    """Search `puzzle` for up to `limit` solutions within `limits` (rules: `tables.rules`)."""
    job = Job(puzzle, limit, rules(puzzle.size, locked, intersections))
    return job.finish(job.run(limits))


def staged(
    puzzle: Grid,
    limit: int,
    time_limit: float | None,
    budget: int | None,
    locked: bool,
    intersections: bool | str | None = None,
) -> Staged:
    """The solve with the workspace allocated before, and the grids built after, the timed run."""
    job = Job(puzzle, limit, rules(puzzle.size, locked, intersections))
    return Staged(lambda: job.run(Limits(time_limit, budget)), job.finish)


class Job:
    """One puzzle's search: the workspace (`__init__`), the compiled search (`run`),
    and the answer as a `SolveResult` (`finish`)."""

    def __init__(self, puzzle: Grid, limit: int, level: int) -> None:
        self.puzzle, self.limit, self.level = puzzle, limit, level
        nine = (puzzle.box_rows, puzzle.box_cols) == (3, 3)
        self.search: Search
        if puzzle.constraints:
            self.search = VariantSearch(puzzle)
        else:
            self.search = BitboardSearch(puzzle) if nine else Search(puzzle)
        self.ctr = np.zeros(kernels.COUNTERS, dtype=np.int64)
        self.capacity = min(limit, FIRST_CAPACITY)  # grown on demand: limit may be huge
        self.sols = np.zeros((self.capacity, len(puzzle.cells)), dtype=np.int8)
        self.search.start(self.ctr)  # the root state: set-up, not search

    def run(self, limits: Limits) -> tuple[int, Status | None]:
        """Search within `limits`; the kernel's outcome and the limit that stopped it, if any."""
        search, ctr, limit = self.search, self.ctr, self.limit
        budget = kernels.NO_LIMIT if limits.budget == float("inf") else int(limits.budget)
        timed = limits.remaining() is not None
        step = FIRST_SLICE
        while True:
            node_limit = min(budget, int(ctr[kernels.NODES]) + step) if timed else budget
            began = time.perf_counter()
            outcome = search.run(self.level, self.capacity, node_limit, self.sols, ctr)
            if outcome == kernels.LIMIT and self.capacity < limit:
                self.capacity = min(limit, 2 * self.capacity)
                self.sols = np.concatenate([self.sols, np.zeros_like(self.sols)])[: self.capacity]
                continue
            if outcome != kernels.PAUSED:
                return outcome, None
            if ctr[kernels.NODES] >= budget:
                return outcome, Status.BUDGET
            if limits.remaining() == 0:
                return outcome, Status.TIMEOUT
            if time.perf_counter() - began < SLICE_SECONDS / 2:
                step *= 2

    def finish(self, ran: tuple[int, Status | None]) -> SolveResult:
        """The solutions found as `Grid`s, with the search's counters."""
        outcome, stopped = ran
        ctr = self.ctr
        found = int(ctr[kernels.FOUND])
        solutions = grids_of(self.puzzle, self.sols[:found])
        stats = {
            "nodes": int(ctr[kernels.NODES]),
            "guesses": int(ctr[kernels.GUESSES]),
            "backtracks": int(ctr[kernels.BACKTRACKS]),
        }
        return counted_result(solutions, outcome == kernels.EXHAUSTED, stats, stopped)


class Search:
    """A resumable search of one puzzle with the generic kernel, and its workspace."""

    def __init__(self, puzzle: Grid) -> None:
        self.tables = tables(puzzle.box_rows, puzzle.box_cols)
        ncells = len(puzzle.cells)
        self.cells = np.array(puzzle.cells, dtype=np.int8)
        self.stack = np.empty((ncells + 1, ncells), dtype=np.int32)
        self.pending = np.empty(ncells + 1, dtype=np.int32)
        self.cur = np.empty(ncells, dtype=np.int32)
        self.queue = np.empty(ncells, dtype=np.int32)
        self.seg = np.empty(ncells, dtype=np.int64)

    def start(self, ctr: np.ndarray) -> None:
        """Put the puzzle on the stack and zero the counters."""
        kernels.start(self.cells, self.tables.size, self.stack, self.pending, ctr)

    def run(
        self, level: int, limit: int, node_limit: int, sols: np.ndarray, ctr: np.ndarray
    ) -> int:
        """Search on until `limit` solutions, `node_limit` nodes or the end; the outcome code."""
        t = self.tables
        return kernels.search(
            self.stack, self.pending, self.cur, self.queue, self.seg, t.peers, t.units,
            t.box_rows, t.box_cols, level, limit, limit, node_limit, sols, ctr,
        )  # fmt: skip


class BitboardSearch(Search):
    """The same with the 9x9 bitboard kernel."""

    def __init__(self, puzzle: Grid) -> None:
        from solvers.fast import kernels9

        self.kernels = kernels9
        self.tables = tables(3, 3)
        self.cells = np.array(puzzle.cells, dtype=np.int8)
        self.stack = np.empty((82, kernels9.WORDS), dtype=np.int64)
        self.pending = np.empty(82, dtype=np.int32)
        self.cur = np.empty(kernels9.WORDS, dtype=np.int64)

    def start(self, ctr: np.ndarray) -> None:
        self.kernels.start(self.cells, self.stack, self.pending, ctr)

    def run(
        self, level: int, limit: int, node_limit: int, sols: np.ndarray, ctr: np.ndarray
    ) -> int:
        return self.kernels.search(
            self.stack, self.pending, self.cur, self.cells, self.tables.bitboard_peers,
            level, limit, limit, node_limit, sols, ctr,
        )  # fmt: skip


class VariantSearch(Search):
    """The same with the variant kernel and the puzzle's own tables (`variant_tables`)."""

    loaded = False  # the variant kernel has run in this process

    def __init__(self, puzzle: Grid) -> None:
        from solvers.fast import variant_kernels
        from solvers.fast.variant_tables import variant_tables

        if not VariantSearch.loaded:
            VariantSearch.loaded = True
            _load_variant_kernel()
        self.kernels = variant_kernels
        self.rules = variant_tables(puzzle)
        ncells = len(puzzle.cells)
        self.cells = np.array(puzzle.cells, dtype=np.int8)
        self.stack = np.empty((ncells + 1, ncells), dtype=np.int32)
        self.pending = np.empty(ncells + 1, dtype=np.int32)
        self.cur = np.empty(ncells, dtype=np.int32)
        self.queue = np.empty(ncells, dtype=np.int32)
        self.seg = np.empty(ncells, dtype=np.int64)
        self.acc = np.empty(self.rules.peer_bits.shape[1], dtype=np.int64)

    def start(self, ctr: np.ndarray) -> None:
        self.kernels.start(self.cells, self.rules.initial, self.stack, self.pending, ctr)

    def run(
        self, level: int, limit: int, node_limit: int, sols: np.ndarray, ctr: np.ndarray
    ) -> int:
        t = self.rules
        # tdoku's band branching is the 9x9 kernel's own
        level = kernels.LOCKED if level == kernels.BANDS else level
        return self.kernels.search(
            self.stack, self.pending, self.cur, self.queue, self.seg, self.acc, t.units,
            t.peer_start, t.peers, t.peer_bits, t.near_start, t.near, t.cage_start,
            t.cage_cells, t.combo_start, t.combos, t.box_rows, t.box_cols, t.boxes, level,
            limit, limit, node_limit, sols, ctr,
        )  # fmt: skip


def _load_variant_kernel() -> None:
    """Compile the variant kernel, or load it from numba's cache, with a tiny puzzle of the
    same types: in the set-up of the first puzzle with constraints, not in its timed run
    (the harness's warm-up solves a classic grid)."""
    from solvers.variants import Killer

    tiny = Grid.empty(2).with_constraints((Killer((0, 1), 3),))
    Job(tiny, 1, kernels.LOCKED).run(Limits())
