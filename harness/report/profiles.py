"""Performance profiles (Dolan and Moré, 2002): how often each solver is within a factor of
the best.

For each puzzle the best time is the least time of any solver on it; a
solver's *ratio* on the puzzle is its time over that best (``inf`` when it
did not solve the puzzle).  Its profile ρ(τ) is the share of puzzles with a
ratio at most τ: ρ(1) is the share it won (ties count for each), ρ(τ) for
large τ tends to the share it solved.  Only puzzles every solver attempted
count, and a puzzle no solver solved counts against all of them.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from harness.report.per_puzzle import per_puzzle
from harness.report.study import Report

TAUS = (1.0, 2.0, 4.0, 10.0, 100.0)  # the factors the tables give


@dataclass(frozen=True)
class Profile:
    """One solver's ratios to the best, sorted (finite ones only), over `puzzles` puzzles."""

    solver: str
    ratios: list[float]
    puzzles: int

    def share(self, tau: float) -> float:
        """ρ(τ): the share of the puzzles on which the solver was within τ of the best."""
        if not self.puzzles:
            return 0.0
        return bisect.bisect_right(self.ratios, tau) / self.puzzles

    @property
    def solved(self) -> float:
        """ρ(∞): the share of the puzzles the solver solved."""
        return len(self.ratios) / self.puzzles if self.puzzles else 0.0


def performance_profiles(report: Report, corpus: str | None = None) -> list[Profile]:
    """A profile per solver (the report's order) over the puzzles every solver attempted."""
    grid = per_puzzle(report, corpus)
    puzzles = grid.complete()
    ratios: dict[str, list[float]] = {s: [] for s in grid.solvers}
    for key in puzzles:
        row = grid.times[key]
        best = min(row[s] for s in grid.solvers)
        if not math.isfinite(best):
            continue  # nobody solved it: an infinite ratio for every solver
        for solver in grid.solvers:
            time = row[solver]
            if best > 0 and math.isfinite(time):
                ratios[solver].append(time / best)
            elif time <= 0:  # a zero time (a clock too coarse) ties a zero best
                ratios[solver].append(1.0)
    return [Profile(s, sorted(ratios[s]), len(puzzles)) for s in grid.solvers]
