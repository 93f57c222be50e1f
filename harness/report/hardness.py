"""What makes a puzzle hard for whom: each solver's time against features of the puzzles.

Features, where known:

- *rating*: the difficulty rating of the puzzle (the human-style engine's
  Sudoku-Explainer-style ER with ``report --rate``, or one the records carry);
  a puzzle logic alone cannot finish (rated ``inf``) ranks above every rated one;
- *givens*: how many cells the puzzle gives (fewer often means harder);
- *fast guesses*: how many guesses the `fast` solver needed, a measure of
  how much search the puzzle takes.

Per solver and feature, Spearman's rank correlation (`scipy.stats.spearmanr`)
between the feature and the solver's PAR term (time when solved, k times the
limit when not) over the puzzles where both are known: near +1, the solver
slows down as the feature grows.  A rank correlation, since times span
decades and only their order should matter.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

from harness.report.optional import need
from harness.report.per_puzzle import Key, per_puzzle
from harness.report.study import Report
from harness.solver_params import base_spec

RATING, GIVENS, GUESSES = "rating", "givens", "fast guesses"
MIN_PUZZLES = 5  # fewer pairs give no correlation


@dataclass(frozen=True)
class Correlation:
    """Spearman's ρ between one solver's times and one feature, over `puzzles` puzzles."""

    solver: str
    feature: str
    rho: float | None  # None: too few puzzles, or a constant feature or time
    p_value: float | None
    puzzles: int


def features(report: Report) -> dict[str, dict[Key, float]]:
    """Each feature's value per puzzle, for the features the report has data for."""
    found: dict[str, dict[Key, float]] = {RATING: {}, GIVENS: {}, GUESSES: {}}
    for o in report.outcomes:
        key = (o.corpus, o.puzzle_id)
        if key not in found[GIVENS] and o.puzzle:
            givens = _givens(o.puzzle)
            if givens is not None:
                found[GIVENS][key] = givens
        if base_spec(o.solver) == "fast" and o.guesses is not None:
            found[GUESSES][key] = o.guesses
    for key, rating in report.ratings.items():
        if not math.isnan(rating):
            found[RATING][key] = rating
    return {name: values for name, values in found.items() if values}


def _givens(puzzle: str) -> float | None:
    """Filled cells of a one-line grid (``.`` or ``0`` blank); None for other texts."""
    if puzzle.startswith("{") or " " in puzzle.strip():
        return None
    return float(sum(c not in ".0-" for c in puzzle.strip()))


def correlations(report: Report) -> list[Correlation]:
    """Spearman's ρ per solver (the report's order) and feature; needs scipy."""
    measured = features(report)
    if not measured:
        return []
    stats = need("scipy.stats", "rank correlations")
    grid = per_puzzle(report)
    result = []
    for solver in grid.solvers:
        for feature, values in measured.items():
            keys = [k for k in grid.puzzles if k in values and solver in grid.times[k]]
            pairs = [(values[k], grid.penalised(k, solver, report.penalty)) for k in keys]
            rho = p_value = None
            if len(pairs) >= MIN_PUZZLES:
                xs, ys = _finite([x for x, _ in pairs]), _finite([y for _, y in pairs])
                if len(set(xs)) > 1 and len(set(ys)) > 1:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        found = stats.spearmanr(xs, ys)
                    rho, p_value = float(found.statistic), float(found.pvalue)
            result.append(Correlation(solver, feature, rho, p_value, len(pairs)))
    return result


def _finite(values: list[float]) -> list[float]:
    """Infinite values (beyond logic, an unknown limit) above every finite one: only their
    rank matters."""
    finite = [v for v in values if math.isfinite(v)]
    top = max(finite, default=0.0) + 1.0
    return [v if math.isfinite(v) else top for v in values]
