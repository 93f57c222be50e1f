"""One solver's time on one puzzle, for every pair: the grid the comparison statistics read.

Performance profiles, runtime distributions, the Friedman test and the
hardness correlations all compare solvers puzzle by puzzle.  `PerPuzzle`
lays the report's outcomes out once: a row per puzzle (corpus, id), a column
per solver, the wall time where the puzzle was solved (and not judged
wrong) and ``inf`` where it was not, with the time limit of each cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from harness.report.outcomes import Outcome
from harness.report.study import Report, default_time_limits

Key = tuple[str, str]  # (corpus, puzzle id)


@dataclass(frozen=True)
class PerPuzzle:
    """Times (``inf``: unsolved) and limits (None: unknown) per puzzle and solver."""

    solvers: list[str]
    puzzles: list[Key]
    times: dict[Key, dict[str, float]]
    limits: dict[Key, dict[str, float | None]]

    def complete(self, solvers: list[str] | None = None) -> list[Key]:
        """The puzzles every one of `solvers` (default: all) attempted."""
        wanted = self.solvers if solvers is None else solvers
        return [p for p in self.puzzles if all(s in self.times[p] for s in wanted)]

    def penalised(self, key: Key, solver: str, penalty: float) -> float:
        """The PAR term of a cell: its time when solved, else `penalty` x its limit (``inf``
        when the limit is unknown)."""
        time = self.times[key][solver]
        if math.isfinite(time):
            return time
        limit = self.limits[key][solver]
        return penalty * limit if limit is not None else math.inf


def per_puzzle(report: Report, corpus: str | None = None) -> PerPuzzle:
    """The report's outcomes (of one corpus, or all) laid out per puzzle and solver."""
    defaults = default_time_limits(report.runs)
    times: dict[Key, dict[str, float]] = {}
    limits: dict[Key, dict[str, float | None]] = {}
    for o in report.outcomes:
        if corpus is not None and o.corpus != corpus:
            continue
        key = (o.corpus, o.puzzle_id)
        times.setdefault(key, {})[o.solver] = _time(o)
        limit = o.time_limit if o.time_limit is not None else defaults.get(o.run_id)
        limits.setdefault(key, {})[o.solver] = limit
    solvers = [s for s in report.solvers if any(s in row for row in times.values())]
    return PerPuzzle(solvers, list(times), times, limits)


def _time(outcome: Outcome) -> float:
    return outcome.wall if outcome.solved and outcome.wall is not None else math.inf
