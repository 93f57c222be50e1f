"""A report's content, independent of its format: runs, outcomes, summary, findings.

`build_report` turns any iterable of `ResultRecord` (from the store, or made
in a test) into a `Report`; the renderers only format it.  Nothing here knows
about SQL, so the statistics are tested on real solves without a database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.crosscheck import unchecked
from harness.records import ResultRecord, RunInfo
from harness.report.clocks import clock_notes, retimed
from harness.report.compare import Comparison
from harness.report.conditions import condition_notes
from harness.report.findings import Finding, TruthLookup, find
from harness.report.outcomes import Outcome, fold, primary
from harness.report.spread import with_spread
from harness.report.summary import (
    SummaryRow,
    flagged_solvers,
    in_rank_order,
    overall_order,
    summarise,
)

if TYPE_CHECKING:
    from harness.report.statistics import Statistics


@dataclass
class Report:
    """Everything a report shows; renderers read it and never recompute."""

    runs: list[RunInfo]
    outcomes: list[Outcome]
    summary: list[SummaryRow]
    findings: list[Finding]
    flagged: set[str]
    ratings: dict[tuple[str, str], float]
    penalty: float
    records: int
    comparison: list[Comparison] | None = None
    compared: tuple[int, int] | None = None  # (run A, run B)
    command: str = ""  # the report command line, for the record
    notes: list[str] = field(default_factory=list)
    rating_label: str = "difficulty rating of the puzzle"
    # (run, spec, corpus, puzzle id, variant) of every outcome judged wrong
    wrong_keys: set[tuple[int, str, str, str, int]] = field(default_factory=set)
    # solver labels by mean rank over the corpora (empty: derived from `summary`)
    order: list[str] = field(default_factory=list)
    # profiles, runtime distributions, significance, hardness (`harness.report.statistics`)
    statistics: Statistics | None = None

    @property
    def corpora(self) -> list[str]:
        """Corpus names in first-seen order."""
        return list(dict.fromkeys(o.corpus for o in self.outcomes))

    @property
    def solvers(self) -> list[str]:
        """Solver labels by mean rank over the corpora (see `rank_order`): the order of the
        plots and of the overall table; each corpus's tables follow that corpus's rank."""
        return self.order or overall_order(self.summary)

    def spec_order(self) -> dict[str, int]:
        """Solver spec -> position of its first label in `solvers` (for per-spec rows)."""
        position = {label: i for i, label in enumerate(self.solvers)}
        order: dict[str, int] = {}
        for o in self.outcomes:
            where = position.get(o.solver, len(position))
            order[o.spec] = min(where, order.get(o.spec, where))
        return order

    def times(self, corpus: str | None = None) -> dict[str, list[float]]:
        """Solved wall times per solver (all corpora, or one)."""
        result: dict[str, list[float]] = {s: [] for s in self.solvers}
        for o in self.outcomes:
            if o.solved and o.wall is not None and (corpus is None or o.corpus == corpus):
                result[o.solver].append(o.wall)
        return result


def default_time_limits(runs: Iterable[RunInfo]) -> dict[int, float]:
    """Run id -> the run's ``timeout`` setting, for records without their own limit."""
    limits = {}
    for run in runs:
        value = run.settings.get("timeout")
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            limits[run.id] = float(value)
    return limits


def solver_order(labels: Iterable[str]) -> list[str]:
    """Labels in the registry's table order (human ... fast), others after, by name."""
    from solvers.registry import names, parse_spec

    try:
        position = {name: i for i, name in enumerate(names())}
    except Exception:  # a broken third-party entry point must not break a report
        position = {}

    def key(label: str) -> tuple[int, str]:
        try:
            base = parse_spec(label.split(" (run ")[0])[0]
        except ValueError:
            base = label
        return (position.get(base, len(position)), label)

    return sorted(set(labels), key=key)


def build_report(
    records: Iterable[ResultRecord],
    runs: Sequence[RunInfo] = (),
    *,
    penalty: float = 2.0,
    ratings: Mapping[tuple[str, str], float] | None = None,
    truth: TruthLookup | None = None,
    command: str = "",
    clock: str = "harness",
    subtract_overhead: bool = False,
    statistics: bool = True,
) -> Report:
    """Fold, judge, summarise: the whole content of a report from a record stream.

    `truth` looks up the oracle's answer for a puzzle, shown beside wrong
    answers in the findings; `ratings` adds difficulty ratings per
    (corpus, puzzle id) to those the records carry; `statistics` False leaves
    out the comparison statistics (the CSV and Parquet exports need none).
    """
    if not penalty > 0:
        raise ValueError(f"the timeout penalty must be positive, not {penalty!r}")
    seen: list[ResultRecord] = []
    unknown: Counter[tuple[int, str]] = Counter()
    clocked = retimed(
        _noting(records, seen, unknown), runs, clock=clock, subtract_overhead=subtract_overhead
    )
    folded = fold(clocked)
    judged, findings = find(folded.outcomes, truth)
    outcomes = primary(judged)
    order = solver_order(o.solver for o in outcomes)
    summary = in_rank_order(
        summarise(outcomes, penalty=penalty, default_limits=default_time_limits(runs), order=order),
        order,
    )
    summary = with_spread(summary, outcomes)
    all_ratings = dict(folded.ratings)
    all_ratings.update(ratings or {})
    notes = (
        _notes(runs)
        + condition_notes(runs)
        + clock_notes(seen, runs, clock=clock, subtract_overhead=subtract_overhead)
    )
    notes += unchecked_notes(unknown)
    report = Report(
        runs=list(runs),
        outcomes=outcomes,
        summary=summary,
        findings=findings,
        flagged=flagged_solvers(outcomes),
        ratings=all_ratings,
        penalty=penalty,
        records=folded.records,
        command=command,
        notes=notes,
        order=overall_order(summary, order),
        wrong_keys={
            (o.run_id, o.spec, o.corpus, o.puzzle_id, o.variant) for o in judged if o.wrong
        },
    )
    if statistics:
        from harness.report.statistics import compute

        report.statistics = compute(report)
    return report


def _noting(
    records: Iterable[ResultRecord],
    seen: list[ResultRecord],
    unknown: Counter[tuple[int, str]],
) -> Iterator[ResultRecord]:
    """Pass the records on, keeping one per solver and clock for the notes, and
    counting the answers the cross-check could not judge, per run and reason."""
    kinds: set[tuple[object, ...]] = set()
    for record in records:
        stats = record.stats
        kind = (
            record.solver,
            stats.get("clock"),
            "solver_time" in stats,
            "search" in stats,
            stats.get("span"),
            stats.get("calls"),
        )
        if kind not in kinds:
            kinds.add(kind)
            seen.append(record)
        if unchecked(record.status, record.verdict):
            unknown[record.run_id, record.reason] += 1
        yield record


REASONS_SHOWN = 3  # per run, the most common reasons an answer went unchecked


def unchecked_notes(unknown: Counter[tuple[int, str]]) -> list[str]:
    """One note per run with answers the cross-check could not judge: how many, and why."""
    notes = []
    for run_id in sorted({run for run, _ in unknown}):
        reasons = sorted(
            ((n, reason) for (run, reason), n in unknown.items() if run == run_id),
            key=lambda item: (-item[0], item[1]),
        )
        total = sum(n for n, _ in reasons)
        shown = [f"{n} {reason or 'no reason recorded'}" for n, reason in reasons[:REASONS_SHOWN]]
        if len(reasons) > REASONS_SHOWN:
            shown.append(f"{len(reasons) - REASONS_SHOWN} other reasons")
        notes.append(
            f"{total} answer{'s' if total != 1 else ''} of run {run_id} could not be checked "
            f"(verdict UNKNOWN, still counted as solved): {'; '.join(shown)}."
        )
    return notes


def _notes(runs: Sequence[RunInfo]) -> list[str]:
    """Caveats the reader must see: parallel timing, unfinished runs, a busy machine."""
    notes = []
    for run in runs:
        execution = run.settings.get("execution")
        jobs: Any = run.settings.get("jobs")
        if isinstance(execution, dict):
            jobs = execution.get("jobs", jobs)
        if isinstance(jobs, int) and jobs > 1:
            notes.append(
                f"run {run.id} timed {jobs} solves in parallel: timings include "
                "contention for cores, memory and caches."
            )
        if not run.finished:
            notes.append(f"run {run.id} has not finished (interrupted or still running).")
        cores = run.machine.get("usable_cores") or run.machine.get("cores")
        loads = [run.machine.get(k) for k in ("load_start", "load_end")]
        busiest = max((v[0] for v in loads if isinstance(v, list) and v), default=None)
        if isinstance(cores, int) and busiest is not None and busiest > cores:
            notes.append(
                f"run {run.id} ran on a busy machine (load average up to {busiest:.1f} on "
                f"{cores} cores): other work slowed its solves."
            )
    return notes
