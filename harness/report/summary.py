"""The summary table: per solver x corpus counts, times and research scores.

Definitions (the report's legend repeats them):

- *solved*: answered (SOLVED, MULTIPLE, UNSOLVABLE or INVALID) and not wrong;
  *timeouts* counts TIMEOUT and BUDGET (a limit ran out); *wrong* counts
  outcomes judged WRONG, which never count as solved.
- mean / median / p90 / max: wall seconds over the solved puzzles (p90 by the
  nearest-rank rule).  µs/puzzle and puzzles/s: throughput over every attempt.
- PAR-k: mean over the puzzles of the time when solved, else k times the
  time limit (the classic SAT-competition penalised average runtime, k = 2).
- under 0.1 / 0.5 / 1 s: share of the corpus solved within that time.
- nodes / guesses: mean per puzzle over the outcomes that report them;
  no-guess: share of solved puzzles that needed no guess.
- VBS, the virtual best solver: per puzzle the fastest correct outcome of a
  solver never judged wrong; *best* is each solver's share of those wins.
- Ranking: by PAR-k (else solved, then mean time), only solvers that attempted
  every puzzle of the corpus, solved at least one and gave no wrong answer
  anywhere (a solver that solved nothing has no place to rank: its PAR score
  is the penalty alone, whatever stopped it).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from harness.report.outcomes import TIMED_OUT, Outcome
from solvers.base import Status

VBS = "virtual best"
THRESHOLDS = (0.1, 0.5, 1.0)


@dataclass(frozen=True)
class SummaryRow:
    """One line of the summary table; None where a figure is undefined."""

    corpus: str
    solver: str
    puzzles: int
    solved: int
    stuck: int | None
    timeouts: int | None
    memouts: int | None
    errors: int | None
    wrong: int | None
    mean_s: float | None
    median_s: float | None
    p90_s: float | None
    max_s: float | None
    us_per_puzzle: float | None
    puzzles_per_s: float | None
    par_s: float | None
    under_0_1s: float
    under_0_5s: float
    under_1s: float
    nodes_per_puzzle: float | None
    guesses_per_puzzle: float | None
    no_guess_share: float | None
    best_share: float | None
    flagged: bool
    rank: int | None
    is_vbs: bool = False
    # with repeats (harness.report.spread): the median over every repeat with its 95%
    # interval, the median per-puzzle coefficient of variation, and the solvers whose
    # intervals overlap this one's
    repeats_median_s: float | None = None
    median_ci_low_s: float | None = None
    median_ci_high_s: float | None = None
    cv: float | None = None
    within_noise: tuple[str, ...] = ()
    # resources (harness.resources): median CPU seconds of the solved puzzles, child
    # processes included, and the largest resident high-water mark of any solve
    cpu_median_s: float | None = None
    peak_mb: float | None = None


def percentile(sorted_values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile of an ascending sequence (`share` in 0..1)."""
    if not sorted_values:
        raise ValueError("percentile of an empty sequence")
    index = max(0, math.ceil(share * len(sorted_values)) - 1)
    return sorted_values[min(index, len(sorted_values) - 1)]


def penalised_time(outcome: Outcome, penalty: float, limit: float | None) -> float | None:
    """The PAR-k term of one outcome: its time when solved, else k x the limit."""
    if outcome.solved and outcome.wall is not None:
        return outcome.wall
    if limit is None:
        return None
    return penalty * limit


def par_score(terms: Iterable[float | None]) -> float | None:
    """Mean of the PAR terms, or None when any term is undefined (no known limit)."""
    values = list(terms)
    if not values or any(v is None for v in values):
        return None
    return statistics.fmean(v for v in values if v is not None)


def _time_figures(times: list[float]) -> dict[str, Any]:
    """mean_s, median_s, p90_s and max_s of some times (None when there are none)."""
    if not times:
        return dict.fromkeys(("mean_s", "median_s", "p90_s", "max_s"))
    times = sorted(times)
    return {
        "mean_s": statistics.fmean(times),
        "median_s": statistics.median(times),
        "p90_s": percentile(times, 0.9),
        "max_s": times[-1],
    }


def _shares(solved_times: list[float], puzzles: int) -> tuple[float, float, float]:
    if not puzzles:
        return (0.0, 0.0, 0.0)
    return tuple(sum(t < th for t in solved_times) / puzzles for th in THRESHOLDS)  # type: ignore[return-value]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _limit(outcome: Outcome, default_limits: Mapping[int, float]) -> float | None:
    if outcome.time_limit is not None:
        return outcome.time_limit
    return default_limits.get(outcome.run_id)


def flagged_solvers(outcomes: Iterable[Outcome]) -> set[str]:
    """Labels of the solvers with at least one wrong outcome anywhere."""
    return {o.solver for o in outcomes if o.wrong}


def solver_row(
    corpus: str,
    solver: str,
    outcomes: Sequence[Outcome],
    *,
    penalty: float,
    default_limits: Mapping[int, float],
    flagged: bool,
    best_share: float | None,
) -> SummaryRow:
    """The summary figures of one solver on one corpus."""
    statuses = [o.status for o in outcomes]
    solved = [o for o in outcomes if o.solved]
    solved_times = [o.wall for o in solved if o.wall is not None]
    walls = [o.wall for o in outcomes if o.wall is not None]
    total = sum(walls)
    nodes = [o.nodes for o in outcomes if o.nodes is not None]
    guesses = [o.guesses for o in outcomes if o.guesses is not None]
    solved_guesses = [o.guesses for o in solved if o.guesses is not None]
    under = _shares(solved_times, len(outcomes))
    return SummaryRow(
        corpus=corpus,
        solver=solver,
        puzzles=len(outcomes),
        solved=len(solved),
        stuck=statuses.count(Status.STUCK),
        timeouts=sum(s in TIMED_OUT for s in statuses),
        memouts=statuses.count(Status.MEMOUT),
        errors=statuses.count(Status.ERROR),
        wrong=sum(o.wrong for o in outcomes),
        **_time_figures(solved_times),
        us_per_puzzle=total / len(walls) * 1e6 if walls else None,
        puzzles_per_s=len(walls) / total if total > 0 else None,
        par_s=par_score(penalised_time(o, penalty, _limit(o, default_limits)) for o in outcomes),
        under_0_1s=under[0],
        under_0_5s=under[1],
        under_1s=under[2],
        nodes_per_puzzle=_mean(nodes),
        guesses_per_puzzle=_mean(guesses),
        no_guess_share=(
            sum(g == 0 for g in solved_guesses) / len(solved_guesses) if solved_guesses else None
        ),
        best_share=best_share,
        flagged=flagged,
        rank=None,
        cpu_median_s=_median([o.cpu for o in solved if o.cpu is not None]),
        peak_mb=max((o.peak_mb for o in outcomes if o.peak_mb is not None), default=None),
    )


def vbs_row(
    corpus: str,
    by_puzzle: Mapping[str, list[Outcome]],
    *,
    penalty: float,
    default_limits: Mapping[int, float],
    excluded: set[str],
) -> tuple[SummaryRow, dict[str, str]]:
    """The virtual best solver of a corpus, and the winning solver of each puzzle."""
    winners: dict[str, str] = {}
    best_times: list[float] = []
    terms: list[float | None] = []
    for puzzle_id, candidates in by_puzzle.items():
        correct = [
            o for o in candidates if o.solved and o.wall is not None and o.solver not in excluded
        ]
        if correct:
            best = min(correct, key=lambda o: (o.wall, o.solver))
            winners[puzzle_id] = best.solver
            best_times.append(best.wall)  # type: ignore[arg-type]
            terms.append(best.wall)
        else:
            limits = [lim for o in candidates if (lim := _limit(o, default_limits)) is not None]
            terms.append(penalty * max(limits) if limits else None)
    puzzles = len(by_puzzle)
    under = _shares(best_times, puzzles)
    total = sum(best_times)
    row = SummaryRow(
        corpus=corpus,
        solver=VBS,
        puzzles=puzzles,
        solved=len(best_times),
        stuck=None,
        timeouts=None,
        memouts=None,
        errors=None,
        wrong=None,
        **_time_figures(best_times),
        us_per_puzzle=total / len(best_times) * 1e6 if best_times else None,
        puzzles_per_s=len(best_times) / total if total > 0 else None,
        par_s=par_score(terms),
        under_0_1s=under[0],
        under_0_5s=under[1],
        under_1s=under[2],
        nodes_per_puzzle=None,
        guesses_per_puzzle=None,
        no_guess_share=None,
        best_share=None,
        flagged=False,
        rank=None,
        is_vbs=True,
    )
    return row, winners


def _ranked(rows: list[SummaryRow], corpus_size: int) -> list[SummaryRow]:
    eligible = [r for r in rows if not r.flagged and r.puzzles == corpus_size and r.solved]

    def key(r: SummaryRow) -> tuple[float, float, float]:
        par = r.par_s if r.par_s is not None else math.inf
        mean = r.mean_s if r.mean_s is not None else math.inf
        return (par, -r.solved, mean)

    ranks = {r.solver: i for i, r in enumerate(sorted(eligible, key=key), 1)}
    return [replace(r, rank=ranks.get(r.solver)) for r in rows]


def summarise(
    outcomes: Sequence[Outcome],
    *,
    penalty: float = 2.0,
    default_limits: Mapping[int, float] | None = None,
    order: Sequence[str] = (),
) -> list[SummaryRow]:
    """Rows per corpus (in first-seen order): one per solver, then the VBS row.

    `default_limits` maps run id -> time limit, for records that lack their
    own; `order` lists solver labels in the order the table should show them.
    """
    default_limits = default_limits or {}
    flagged = flagged_solvers(outcomes)
    grouped: dict[str, dict[str, list[Outcome]]] = defaultdict(lambda: defaultdict(list))
    puzzles: dict[str, dict[str, list[Outcome]]] = defaultdict(lambda: defaultdict(list))
    for o in outcomes:
        grouped[o.corpus][o.solver].append(o)
        puzzles[o.corpus][o.puzzle_id].append(o)
    position = {label: i for i, label in enumerate(order)}
    rows: list[SummaryRow] = []
    for corpus, per_solver in grouped.items():
        vbs, winners = vbs_row(
            corpus,
            puzzles[corpus],
            penalty=penalty,
            default_limits=default_limits,
            excluded=flagged,
        )
        wins: dict[str, int] = defaultdict(int)
        for label in winners.values():
            wins[label] += 1
        corpus_size = len(puzzles[corpus])
        solver_rows = [
            solver_row(
                corpus,
                label,
                per_solver[label],
                penalty=penalty,
                default_limits=default_limits,
                flagged=label in flagged,
                best_share=None if label in flagged else wins[label] / corpus_size,
            )
            for label in sorted(per_solver, key=lambda s: (position.get(s, len(position)), s))
        ]
        rows.extend(_ranked(solver_rows, corpus_size))
        rows.append(vbs)
    return rows


def rank_order(
    ranks: Mapping[str, Mapping[str, int | None]], fallback: Sequence[str] = ()
) -> list[str]:
    """Solvers in one order for every table and plot: best ranked first.

    `ranks` maps solver -> corpus -> rank (None: unranked there).  Solvers
    ranked on every corpus come first by mean rank, then those ranked on
    some, then the unranked (wrong answers, puzzles not attempted); ties keep
    the `fallback` order (the registry's), then the name.
    """
    position = {label: i for i, label in enumerate(fallback)}

    def key(solver: str) -> tuple[int, float, int, str]:
        ranked = [r for r in ranks[solver].values() if r is not None]
        missing = len(ranks[solver]) - len(ranked)
        mean = statistics.fmean(ranked) if ranked else math.inf
        return (missing if ranked else len(ranks[solver]) + 1, mean,
                position.get(solver, len(position)), solver)  # fmt: skip

    return sorted(ranks, key=key)


def in_rank_order(rows: Sequence[SummaryRow], fallback: Sequence[str] = ()) -> list[SummaryRow]:
    """The rows per corpus: ranked solvers by their rank on that corpus, the unranked
    after them in `rank_order`, the VBS row last (so each table reads 1, 2, 3 ...)."""
    position = {label: i for i, label in enumerate(overall_order(rows, fallback))}
    corpora = list(dict.fromkeys(r.corpus for r in rows))
    return sorted(
        rows,
        key=lambda r: (
            corpora.index(r.corpus),
            r.is_vbs,
            r.rank is None,
            r.rank or 0,
            position.get(r.solver, len(position)),
        ),
    )


def overall_order(rows: Sequence[SummaryRow], fallback: Sequence[str] = ()) -> list[str]:
    """The solvers in `rank_order` of their ranks in `rows` (the order of the plots)."""
    ranks: dict[str, dict[str, int | None]] = defaultdict(dict)
    for row in rows:
        if not row.is_vbs:
            ranks[row.solver][row.corpus] = row.rank
    return rank_order(ranks, fallback)
