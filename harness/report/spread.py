"""Spread over repeats: how much of a difference between solvers is timing noise.

With ``--repeat K`` every puzzle is solved K times.  For each solver on each
corpus, over the puzzles it solved:

- the *median* is that of every solve's time, all repeats together (close
  to the summary's median of per-puzzle medians, and better behaved under
  resampling: the median of three resampled repeats leans towards the slow
  ones, and so would an interval built on it);
- its *95% interval* comes from a percentile bootstrap
  (`scipy.stats.bootstrap`, `RESAMPLES` resamples, a fixed seed) that
  resamples each puzzle's repeats on their own: it says how far the median
  could move if the same puzzles were timed again.  It is about the timing
  noise, not about which puzzles the corpus holds;
- *CV* is the median over puzzles of the coefficient of variation of a
  puzzle's repeats (sample standard deviation / mean);
- two solvers whose intervals overlap are *within noise* of each other: the
  repeats do not tell them apart.

Puzzles timed once count with their one time and move nothing in the
bootstrap; a solver with no puzzle timed twice gets no interval.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from harness.report.outcomes import Outcome
from harness.report.summary import SummaryRow

RESAMPLES = 1000
CONFIDENCE = 0.95
CELLS = 4_000_000  # resampled values held at once (puzzles x resamples x repeats)


@dataclass(frozen=True)
class Spread:
    """The spread figures of one solver on one corpus."""

    median_s: float
    low_s: float | None
    high_s: float | None
    cv: float | None

    def overlaps(self, other: Spread) -> bool:
        """Whether the two intervals share any time."""
        if None in (self.low_s, self.high_s, other.low_s, other.high_s):
            return False
        return self.low_s <= other.high_s and other.low_s <= self.high_s  # type: ignore[operator]


def _pooled_median(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.median(np.concatenate(samples, axis=axis), axis=axis)


def spread(times: Sequence[Sequence[float]]) -> Spread | None:
    """The spread of a solver's repeat times (one sequence per solved puzzle)."""
    from scipy.stats import bootstrap

    puzzles = [np.asarray(t, dtype=float) for t in times if len(t)]
    if not puzzles:
        return None
    median = float(_pooled_median(*puzzles))
    repeated = [t for t in puzzles if len(t) > 1]
    cvs = [float(np.std(t, ddof=1) / np.mean(t)) for t in repeated if np.mean(t) > 0]
    cv = float(np.median(cvs)) if cvs else None
    if not repeated:
        return Spread(median, None, None, cv)
    once = np.array([t[0] for t in puzzles if len(t) == 1])

    def statistic(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
        if len(once):  # timed once: the same value in every resample
            samples += (np.broadcast_to(once, (*samples[0].shape[:-1], len(once))),)
        return _pooled_median(*samples, axis=axis)

    cells = sum(len(t) for t in puzzles)
    batch = max(50, min(RESAMPLES, CELLS // cells))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # identical repeats: a degenerate, zero-width interval
        result = bootstrap(
            repeated,
            statistic,
            n_resamples=RESAMPLES,
            batch=batch,
            vectorized=True,
            paired=False,
            confidence_level=CONFIDENCE,
            method="percentile",
            rng=np.random.default_rng(0),
        )
    low, high = result.confidence_interval
    return Spread(median, float(low), float(high), cv)


def with_spread(rows: Sequence[SummaryRow], outcomes: Sequence[Outcome]) -> list[SummaryRow]:
    """The summary rows with their spread figures, where some puzzle was timed more than once."""
    times: dict[tuple[str, str], list[tuple[float, ...]]] = defaultdict(list)
    repeated: set[tuple[str, str]] = set()
    for o in outcomes:
        if o.solved and o.wall is not None:
            times[(o.corpus, o.solver)].append(o.walls or (o.wall,))
            if len(o.walls) > 1:
                repeated.add((o.corpus, o.solver))
    figures = {key: spread(times[key]) for key in repeated}
    result = []
    for row in rows:
        found = figures.get((row.corpus, row.solver))
        if found is None or row.is_vbs:
            result.append(row)
            continue
        close = tuple(
            other.solver
            for other in rows
            if other.corpus == row.corpus
            and other.solver != row.solver
            and (theirs := figures.get((other.corpus, other.solver))) is not None
            and found.overlaps(theirs)
        )
        result.append(
            replace(
                row,
                repeats_median_s=found.median_s,
                median_ci_low_s=found.low_s,
                median_ci_high_s=found.high_s,
                cv=found.cv,
                within_noise=close,
            )
        )
    return result
