"""Per-puzzle timing of solvers in one process: the figures behind speed claims.

Each solve is timed exactly as a worker of ``sudoku-bench run`` times it
(`harness.measure`: the span the solver declares, after its staging and
before its result is built), after a warm-up solve and with the heap settled
(`harness.measure.settle_heap`), and every answer is verified.  Several
solvers are measured side by side in one run, interleaved per puzzle, so
machine noise hits them alike.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import solvers
from corpora.corpus import Puzzle
from harness.measure import measured_solve, settle_heap

BLOCK = 25  # puzzles each solver solves in its turn


@dataclass
class Timing:
    """The per-puzzle times (seconds) and outcomes of one solver over a set."""

    spec: str
    seconds: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    wrong: int = 0
    nodes: list[int] = field(default_factory=list)
    span: str = "call"  # what each time covers (`solvers.base.SPANS`)
    cpu: list[float] = field(default_factory=list)  # CPU seconds, children included

    def figures(self) -> dict[str, float]:
        """Median, mean, p90 and max in µs, and puzzles per second."""
        s = sorted(self.seconds)
        if not s:
            return {}
        p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
        return {
            "median_us": statistics.median(s) * 1e6,
            "mean_us": statistics.fmean(s) * 1e6,
            "p90_us": p90 * 1e6,
            "max_us": s[-1] * 1e6,
            "per_second": len(s) / sum(s) if sum(s) else float("inf"),
        }


def bench(
    specs: Sequence[str],
    puzzles: Sequence[Puzzle],
    *,
    limit: int = 2,
    time_limit: float | None = None,
    repeat: int = 1,
    progress: bool = False,
    block: int = BLOCK,
) -> list[Timing]:
    """Time each solver on each puzzle (best of `repeat`), the solvers taking turns.

    The solvers take turns by blocks of `block` puzzles: close enough in time
    that a change in the machine's load falls on all of them, and long enough
    that each solves consecutive puzzles with its own data in the caches, as
    a worker of ``run`` does with its batches (turns of single puzzles would
    let one solver evict another's data and slow microsecond solvers down).
    """
    instances = [solvers.get(spec) for spec in specs]
    timings = [Timing(s.spec, span=s.timed) for s in instances]
    if puzzles:  # warm-up: imports, caches, JIT
        for solver in instances:
            if solver.handles(puzzles[0].grid):
                measured_solve(solver, puzzles[0].grid, limit=limit, time_limit=time_limit)
    settle_heap()  # (as a worker of ``run`` does after warming up)
    blocks = [puzzles[i : i + block] for i in range(0, len(puzzles), max(1, block))]
    iterator = blocks
    if progress:
        from tqdm import tqdm

        iterator = tqdm(blocks, unit="block", leave=False)
    for chunk in iterator:
        for solver, timing in zip(instances, timings, strict=True):
            for puzzle in chunk:
                _time_one(solver, timing, puzzle, limit, time_limit, repeat)
    return timings


def _time_one(
    solver: solvers.Solver,
    timing: Timing,
    puzzle: Puzzle,
    limit: int,
    time_limit: float | None,
    repeat: int,
) -> None:
    """Solve one puzzle (best of `repeat`) and add its figures to the solver's timing."""
    if not solver.handles(puzzle.grid):
        timing.statuses["unsupported"] += 1
        return
    tries = [
        measured_solve(solver, puzzle.grid, limit=limit, time_limit=time_limit)
        for _ in range(max(1, repeat))
    ]
    best = min(tries, key=lambda m: m.wall)
    result = best.result
    timing.seconds.append(best.wall)
    timing.cpu.append(best.usage.cpu_s)
    timing.statuses[result.status.value] += 1
    timing.wrong += any(solvers.check(puzzle.grid, s) for s in result.solutions)
    if "nodes" in result.stats:
        timing.nodes.append(result.stats["nodes"])
