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

from solvers.base import Limits, SolveResult, Status, counted_result
from solvers.fast import kernels
from solvers.fast.tables import tables
from solvers.grid import Grid

FIRST_SLICE = 4096  # nodes before the first clock read
SLICE_SECONDS = 0.01  # slices grow until they take about this long
FIRST_CAPACITY = 64  # solutions stored before the array grows


def solve_one(puzzle: Grid, limit: int, limits: Limits, locked: bool = True) -> SolveResult:
    """Search `puzzle` for up to `limit` solutions within `limits`."""
    t = tables(puzzle.box_rows, puzzle.box_cols)
    n = puzzle.size
    ncells = n * n
    stack = np.empty((ncells + 1, ncells), dtype=np.int32)
    pending = np.empty(ncells + 1, dtype=np.int32)
    cur = np.empty(ncells, dtype=np.int32)
    queue = np.empty(ncells, dtype=np.int32)
    seg = np.empty(ncells, dtype=np.int64)
    ctr = np.zeros(kernels.COUNTERS, dtype=np.int64)
    capacity = min(limit, FIRST_CAPACITY)  # grown on demand: limit may be huge
    sols = np.zeros((capacity, ncells), dtype=np.int8)
    kernels.start(np.array(puzzle.cells, dtype=np.int8), n, stack, pending, ctr)

    budget = limits.budget if limits.budget != float("inf") else kernels.NO_LIMIT
    timed = limits.remaining() is not None
    step = FIRST_SLICE
    stopped: Status | None = None
    while True:
        node_limit = min(budget, int(ctr[kernels.NODES]) + step) if timed else budget
        began = time.perf_counter()
        outcome = kernels.search(
            stack, pending, cur, queue, seg, t.peers, t.units,
            puzzle.box_rows, puzzle.box_cols, locked, capacity, capacity, node_limit, sols, ctr,
        )  # fmt: skip
        if outcome == kernels.LIMIT and capacity < limit:
            capacity = min(limit, 2 * capacity)
            sols = np.concatenate([sols, np.zeros_like(sols)])[:capacity]
            continue
        if outcome != kernels.PAUSED:
            break
        if ctr[kernels.NODES] >= budget:
            stopped = Status.BUDGET
            break
        if limits.remaining() == 0:
            stopped = Status.TIMEOUT
            break
        if time.perf_counter() - began < SLICE_SECONDS / 2:
            step *= 2

    found = int(ctr[kernels.FOUND])
    solutions = [puzzle.replace(row) for row in sols[:found].tolist()]
    stats = {
        "nodes": int(ctr[kernels.NODES]),
        "guesses": int(ctr[kernels.GUESSES]),
        "backtracks": int(ctr[kernels.BACKTRACKS]),
    }
    exhausted = outcome == kernels.EXHAUSTED
    return counted_result(solutions, exhausted, stats, stopped)
