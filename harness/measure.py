"""The one definition of what a recorded time covers, shared by `run`, `verify`, `bench` and
`solve`.

Every command times a solve the same way: the solver stages its work
(`Solver.stage`: argument checks, set-up, a request written), the clock runs
around `Staged.run` alone, and the result is built after (`Staged.finish`).
What `run` covers depends on the solver, which declares it (`Solver.timed`,
described in `solvers.base.SPANS`): its work in this process (``call``), an
exchange with a persistent program (``exchange``), or the programs it starts
for the puzzle, start-up included (``process``).  Around the same span the
`harness.resources` meter reads CPU (children included) and peak memory.

A process that times solves first settles its heap (`settle_heap`), so that Python's
garbage collector does not walk what warming up loaded during every later solve.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.resources import Meter, Usage
from solvers.base import Solver, SolveResult
from solvers.grid import Grid


def settle_heap() -> None:
    """Move everything alive after warming up out of the garbage collector's way
    (`gc.freeze`).  Modules, JIT-compiled kernels and models live as long as the
    process; left in the collector's oldest generation, each full collection inside a
    timed solve walks them all again (a few hundred thousand objects once numba is
    loaded), charging a Python solver for what it did not do."""
    gc.collect()
    gc.freeze()


class Clock:
    """Times one solve's span and reads its resources; `partial` answers mid-way."""

    def __init__(self, solver: Solver) -> None:
        self.span = solver.timed
        self.meter = Meter(children=self.span != "call", sample=self.span == "process")
        self._start: float | None = None
        self._cpu = 0.0
        self.wall = 0.0
        self.usage = Usage(0.0, 0.0, 0.0, None, None, None)  # until the span has run

    def time(self, run: Callable[[], Any]) -> Any:
        """Call `run` (a `Staged.run`) inside the span and return what it returned."""
        self.meter.start()
        self._cpu = time.process_time()
        self._start = time.perf_counter()
        raw = run()
        self.wall = time.perf_counter() - self._start
        self.usage = self.meter.stop()
        return raw

    def partial(self) -> tuple[float, float]:
        """(wall, CPU) seconds so far: what a solve stopped from outside had used."""
        if self._start is None:
            return 0.0, 0.0
        return time.perf_counter() - self._start, time.process_time() - self._cpu


@dataclass(frozen=True)
class Measured:
    """A solve, the seconds its span took, and its resources."""

    result: SolveResult
    wall: float
    usage: Usage
    span: str


def measured_solve(
    solver: Solver,
    puzzle: Grid,
    *,
    limit: int,
    time_limit: float | None,
    budget: int | None = None,
    trace: bool = False,
) -> Measured:
    """Solve once, timing the solver's declared span exactly as a worker of `run` does."""
    staged = solver.stage(puzzle, limit=limit, time_limit=time_limit, budget=budget, trace=trace)
    clock = Clock(solver)
    raw = clock.time(staged.run)
    result = staged.finish(raw)
    return Measured(result, clock.wall, clock.usage, clock.span)
