"""Runtime distributions with censoring: the share of a corpus each solver solves within t.

A puzzle a solver did not solve (timeout, stuck, error, wrong answer) is not
a time: it is *right-censored* at its time limit (all we know is that the
solver would have needed longer).  The Kaplan–Meier estimator (scipy's
`scipy.stats.ecdf` on `scipy.stats.CensoredData`) turns solved times and
censored limits into F(t), the probability of solving a puzzle of the corpus
within t, with a 95% pointwise confidence band (Greenwood's formula,
log-log transformed).  Quantiles (the time by which a quarter, half, three
quarters of the corpus is solved) are read off F; a quantile F never reaches
before the limit is "beyond the limit" (None), never an invented number.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

from harness.report.optional import need
from harness.report.per_puzzle import per_puzzle
from harness.report.study import Report

QUANTILES = (0.25, 0.5, 0.75)


@dataclass(frozen=True)
class RuntimeCurve:
    """One solver's estimated runtime distribution on one corpus."""

    corpus: str
    solver: str
    puzzles: int
    solved: int
    times: list[float]  # where F steps up
    solved_share: list[float]  # F at each of `times`
    low: list[float]  # the 95% confidence band of F at each of `times`
    high: list[float]
    quantiles: dict[float, float | None]  # share -> time (None: not reached)


def runtime_curves(report: Report, corpus: str) -> list[RuntimeCurve]:
    """A Kaplan–Meier runtime distribution per solver of `corpus` (needs scipy)."""
    stats = need("scipy.stats", "runtime distributions with censoring")
    grid = per_puzzle(report, corpus)
    curves = []
    for solver in grid.solvers:
        cells = [(row[solver], grid.limits[key][solver]) for key, row in grid.times.items()
                 if solver in row]  # fmt: skip
        solved = [t for t, _ in cells if math.isfinite(t)]
        censored = [limit for t, limit in cells if not math.isfinite(t) and limit is not None]
        if not solved:
            curves.append(RuntimeCurve(corpus, solver, len(cells), 0, [], [], [], [],
                                       dict.fromkeys(QUANTILES)))  # fmt: skip
            continue
        result = stats.ecdf(stats.CensoredData(uncensored=solved, right=censored))
        cdf = result.cdf
        with warnings.catch_warnings():  # undefined where F is 0 or 1: the band closes there
            warnings.simplefilter("ignore", RuntimeWarning)
            band = cdf.confidence_interval(0.95, method="log-log")
        # scipy lists the censoring times too, where F stays level: keep the steps only
        steps = [i for i, f in enumerate(cdf.probabilities)
                 if i == 0 or f > cdf.probabilities[i - 1]]  # fmt: skip
        times = [float(cdf.quantiles[i]) for i in steps]
        shares = [float(cdf.probabilities[i]) for i in steps]
        low = [_finite(band.low.probabilities[i], f) for i, f in zip(steps, shares, strict=True)]
        high = [_finite(band.high.probabilities[i], f) for i, f in zip(steps, shares, strict=True)]
        curves.append(
            RuntimeCurve(corpus, solver, len(cells), len(solved), times, shares, low, high,
                         {q: _quantile(times, shares, q) for q in QUANTILES})
        )  # fmt: skip
    return curves


def _finite(value: float, default: float) -> float:
    return float(value) if math.isfinite(value) else default


def _quantile(times: list[float], shares: list[float], q: float) -> float | None:
    """The first time at which F reaches `q`, or None when it never does."""
    return next((t for t, f in zip(times, shares, strict=True) if f >= q - 1e-12), None)
