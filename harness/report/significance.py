"""Are the solvers' differences more than chance?  Friedman over puzzles, then Nemenyi.

Each puzzle every competing solver attempted is a block; on it the solvers
are ranked by their PAR term (time when solved, k times the limit when not;
ties share the mean rank).  The Friedman test (`scipy.stats.friedmanchisquare`)
asks whether the mean ranks differ at all; the Nemenyi post-hoc test
(`scikit_posthocs.posthoc_nemenyi_friedman`) gives a p-value per pair, and
its critical difference, CD = q(α, k, ∞) / √2 · √(k(k+1) / 6N), is the least
difference of mean ranks it calls significant at α = 0.05 (Demšar, 2006).
Solvers with a wrong answer take no part, as they take no rank; the test
needs at least three solvers and two puzzles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from harness.report.optional import need
from harness.report.per_puzzle import per_puzzle
from harness.report.study import Report

ALPHA = 0.05


@dataclass(frozen=True)
class Significance:
    """The Friedman test over puzzles and the Nemenyi comparisons of every pair."""

    solvers: list[str]  # by mean rank, best first
    mean_ranks: dict[str, float]
    puzzles: int
    statistic: float
    p_value: float
    critical_difference: float
    pairwise: dict[tuple[str, str], float]  # Nemenyi p-value of each pair (both orders)
    alpha: float = ALPHA

    def same_as(self, solver: str) -> list[str]:
        """The solvers this one is not significantly different from (Nemenyi, α)."""
        return [
            other
            for other in self.solvers
            if other != solver and self.pairwise[(solver, other)] >= self.alpha
        ]

    @property
    def significant(self) -> bool:
        return self.p_value < self.alpha


def significance(report: Report) -> Significance | None:
    """The tests on every puzzle all competing solvers attempted; None with fewer than three
    such solvers or two such puzzles.  Needs scipy and scikit-posthocs."""
    grid = per_puzzle(report)
    solvers = [s for s in grid.solvers if s not in report.flagged]
    puzzles = grid.complete(solvers)
    if len(solvers) < 3 or len(puzzles) < 2:
        return None
    stats = need("scipy.stats", "the Friedman test")
    posthocs = need("scikit_posthocs", "the Nemenyi post-hoc test")
    pd = need("pandas", "the Nemenyi post-hoc test")
    table = pd.DataFrame(
        [[grid.penalised(key, s, report.penalty) for s in solvers] for key in puzzles],
        columns=solvers,
    )
    finite = table.replace(math.inf, math.nan)
    ceiling = float(finite.max().max()) if finite.notna().any().any() else 1.0
    table = table.replace(math.inf, 2 * ceiling + 1)  # unknown limits: worse than any time
    ranks = table.rank(axis=1, method="average").mean()
    statistic, p_value = stats.friedmanchisquare(*(table[s] for s in solvers))
    nemenyi = posthocs.posthoc_nemenyi_friedman(table)
    k, n = len(solvers), len(puzzles)
    q = stats.studentized_range.ppf(1 - ALPHA, k, math.inf) / math.sqrt(2)
    order = sorted(solvers, key=lambda s: (ranks[s], solvers.index(s)))
    return Significance(
        solvers=order,
        mean_ranks={s: float(ranks[s]) for s in order},
        puzzles=n,
        statistic=_number(statistic),
        p_value=_number(p_value, 1.0),
        critical_difference=float(q * math.sqrt(k * (k + 1) / (6 * n))),
        pairwise={(a, b): _number(nemenyi.loc[a, b], 1.0) for a in solvers for b in solvers},
    )


def _number(value: object, default: float = 0.0) -> float:
    """A float; `default` where the test is undefined (every solver tied on every puzzle)."""
    number = float(value)  # type: ignore[arg-type]
    return number if math.isfinite(number) else default


def p_text(p_value: float) -> str:
    """``= 0.012`` or, where the test's p-value underflows to 0, ``< 1e-300``."""
    return f"= {p_value:.2g}" if p_value > 0 else "< 1e-300"
