"""Comparing two runs: is B faster or slower than A, and is it more than noise?

Per solver x corpus, on the puzzles both runs solved:

- *ratio*: median time in B / median time in A (below 1: B is faster);
- a 95% confidence interval for that ratio from a paired bootstrap (puzzles
  are resampled with both of their times, so per-puzzle difficulty cancels);
- *faster on*: the share of those puzzles on which B took less time;
- status changes on every puzzle both runs attempted: newly solved, newly
  timed out, newly wrong, newly failed otherwise (stuck, error, memout), and
  wrong answers fixed;
- the verdict: *faster* / *slower* when the interval excludes 1 **and** the
  ratio differs from 1 by at least the noise threshold (default 5%), else
  *within noise*; with fewer than `MIN_PAIRED` puzzles solved by both runs,
  *too few puzzles* (the ratio and interval are still shown).  Both
  conditions matter: with thousands of puzzles a 1% drift from machine load
  is "significant" yet meaningless, and with a dozen a 30% change may be luck.

The regression gate (``--fail-if-slower 10%``) fails when a solver is
significantly slower by at least that much, or gave new wrong answers.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from harness.report.outcomes import TIMED_OUT, Outcome

FASTER, SLOWER, NOISE = "faster", "slower", "within noise"
TOO_FEW = "too few puzzles"
MIN_PAIRED = 10  # fewer paired puzzles give no verdict: a bootstrap of a handful misleads
ONLY_A, ONLY_B = "only in run A", "only in run B"


@dataclass(frozen=True)
class Comparison:
    """Run B against run A for one solver on one corpus."""

    solver: str
    corpus: str
    common: int  # puzzles both runs attempted
    paired: int  # puzzles both runs solved, with times
    median_a_s: float | None
    median_b_s: float | None
    ratio: float | None  # median B / median A
    ci_low: float | None
    ci_high: float | None
    faster_share: float | None  # share of paired puzzles where B was faster
    newly_solved: int
    newly_timed_out: int
    newly_wrong: int
    newly_failed: int
    fixed_wrong: int
    verdict: str

    def regressed(self, slower_by: float) -> bool:
        """Significantly slower by at least `slower_by` (0.1 = 10%), or newly wrong."""
        if self.newly_wrong:
            return True
        return (
            self.verdict not in (TOO_FEW, ONLY_A, ONLY_B)
            and self.ratio is not None
            and self.ci_low is not None
            and self.ci_low > 1.0
            and self.ratio >= 1.0 + slower_by
        )


def bootstrap_ratio_ci(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of median(b) / median(a), resampling pairs.

    Deterministic for a given seed.  Resamples are drawn in chunks so memory
    stays small for studies of many thousands of puzzles.
    """
    import numpy as np

    if len(a) != len(b) or not a:
        raise ValueError("bootstrap needs two non-empty sequences of the same length")
    xa = np.asarray(a, dtype=float)
    xb = np.asarray(b, dtype=float)
    n = len(xa)
    rng = np.random.default_rng(seed)
    chunk = max(1, min(resamples, 2_000_000 // n))
    ratios = []
    done = 0
    while done < resamples:
        size = min(chunk, resamples - done)
        idx = rng.integers(0, n, size=(size, n))
        med_a = np.median(xa[idx], axis=1)
        med_b = np.median(xb[idx], axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios.append(med_b / med_a)
        done += size
    values = np.concatenate(ratios)
    values = values[np.isfinite(values)]
    if not len(values):
        return (float("nan"), float("nan"))
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return (float(low), float(high))


def verdict(ratio: float, low: float, high: float, noise: float) -> str:
    """faster / slower only when the interval excludes 1 and the change exceeds `noise`."""
    if low > 1.0 and ratio >= 1.0 + noise:
        return SLOWER
    if high < 1.0 and ratio <= 1.0 / (1.0 + noise):
        return FASTER
    return NOISE


def _changes(pairs: list[tuple[Outcome, Outcome]]) -> dict[str, int]:
    counts = dict.fromkeys(
        ("newly_solved", "newly_timed_out", "newly_wrong", "newly_failed", "fixed_wrong"), 0
    )
    for a, b in pairs:
        if b.wrong and not a.wrong:
            counts["newly_wrong"] += 1
        elif a.wrong and not b.wrong:
            counts["fixed_wrong"] += 1
        if b.solved and not a.solved:
            counts["newly_solved"] += 1
        elif a.solved and not b.solved and not b.wrong:
            key = "newly_timed_out" if b.status in TIMED_OUT else "newly_failed"
            counts[key] += 1
    return counts


def compare_one(
    solver: str,
    corpus: str,
    a: dict[str, Outcome],
    b: dict[str, Outcome],
    *,
    noise: float = 0.05,
    resamples: int = 1000,
) -> Comparison:
    """Compare one solver's outcomes on one corpus, keyed by puzzle id."""
    pairs = [(a[p], b[p]) for p in a if p in b]
    timed = [
        (x.wall, y.wall)
        for x, y in pairs
        if x.solved and y.solved and x.wall is not None and y.wall is not None
    ]
    ta = [t for t, _ in timed]
    tb = [t for _, t in timed]
    changes = _changes(pairs)
    median_a = statistics.median(ta) if ta else None
    median_b = statistics.median(tb) if tb else None
    if len(timed) < 2 or not median_a:
        return Comparison(
            solver, corpus, len(pairs), len(timed), median_a, median_b,
            None, None, None, None, **changes, verdict=TOO_FEW,
        )  # fmt: skip
    ratio = median_b / median_a  # type: ignore[operator]
    low, high = bootstrap_ratio_ci(ta, tb, resamples=resamples)
    faster = sum(y < x for x, y in timed) / len(timed)
    return Comparison(
        solver, corpus, len(pairs), len(timed), median_a, median_b,
        ratio, low, high, faster, **changes,
        verdict=verdict(ratio, low, high, noise) if len(timed) >= MIN_PAIRED else TOO_FEW,
    )  # fmt: skip


def compare_runs(
    run_a: Sequence[Outcome],
    run_b: Sequence[Outcome],
    *,
    noise: float = 0.05,
    resamples: int = 1000,
) -> list[Comparison]:
    """Every solver x corpus of either run, matched by solver spec and puzzle id."""
    index_a = _index(run_a)
    index_b = _index(run_b)
    keys = list(index_a) + [k for k in index_b if k not in index_a]
    rows = []
    for key in keys:
        spec, corpus = key
        if key not in index_b or key not in index_a:
            rows.append(_missing(spec, corpus, ONLY_A if key in index_a else ONLY_B))
            continue
        rows.append(
            compare_one(spec, corpus, index_a[key], index_b[key], noise=noise, resamples=resamples)
        )
    return rows


def _index(outcomes: Sequence[Outcome]) -> dict[tuple[str, str], dict[str, Outcome]]:
    index: dict[tuple[str, str], dict[str, Outcome]] = {}
    for o in outcomes:
        index.setdefault((o.spec, o.corpus), {})[o.puzzle_id] = o
    return index


def _missing(solver: str, corpus: str, why: str) -> Comparison:
    return Comparison(solver, corpus, 0, 0, None, None, None, None, None, None, 0, 0, 0, 0, 0, why)


def parse_share(text: str) -> float:
    """'10%' or '0.1' -> 0.1; raises ValueError with a clear message."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise ValueError(f"expected a share such as 10% or 0.1, not {text!r}") from None
    if not 0 <= value < 100:
        raise ValueError(f"share out of range: {text!r}")
    return value
