"""Per-puzzle timing of solvers in one process: the figures behind speed claims.

Times only the ``solve`` call (``perf_counter``), after a warm-up solve, and
verifies every answer.  Several solvers are measured side by side in one run,
interleaved per puzzle, so machine noise hits them alike.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import solvers
from corpora.corpus import Puzzle


@dataclass
class Timing:
    """The per-puzzle times (seconds) and outcomes of one solver over a set."""

    spec: str
    seconds: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    wrong: int = 0
    nodes: list[int] = field(default_factory=list)

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
    limit: int = 1,
    time_limit: float | None = None,
    repeat: int = 1,
    progress: bool = False,
) -> list[Timing]:
    """Time each solver on each puzzle (best of `repeat`), interleaved per puzzle."""
    instances = [solvers.get(spec) for spec in specs]
    timings = [Timing(s.spec) for s in instances]
    if puzzles:  # warm-up: imports, caches, JIT
        for solver in instances:
            if solver.handles(puzzles[0].grid):
                solver.solve(puzzles[0].grid, limit=limit, time_limit=time_limit)
    iterator = puzzles
    if progress:
        from tqdm import tqdm

        iterator = tqdm(puzzles, unit="puzzle", leave=False)
    for puzzle in iterator:
        for solver, timing in zip(instances, timings, strict=True):
            if not solver.handles(puzzle.grid):
                timing.statuses["unsupported"] += 1
                continue
            best = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                result = solver.solve(puzzle.grid, limit=limit, time_limit=time_limit)
                best = min(best, time.perf_counter() - start)
            timing.seconds.append(best)
            timing.statuses[result.status.value] += 1
            timing.wrong += any(solvers.check(puzzle.grid, s) for s in result.solutions)
            if "nodes" in result.stats:
                timing.nodes.append(result.stats["nodes"])
    return timings
