"""The report's tables as data: columns with a kind, rows with raw values.

Terminal, Markdown, LaTeX and HTML all render these same tables; each value
stays raw (seconds, shares, counts) until a renderer formats it, so the HTML
can sort on the numbers while showing ``183 µs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from harness.report.study import Report


@dataclass(frozen=True)
class Column:
    header: str
    kind: str = "text"  # text | int | time | share | number | rate | ratio


@dataclass
class Table:
    title: str
    columns: list[Column]
    rows: list[list[Any]]
    caption: str = ""
    flags: list[bool] = field(default_factory=list)  # per row: solver gave a wrong answer


def format_value(value: Any, kind: str) -> str:
    """A raw value as people read it; '—' for a missing figure."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if kind == "time":
        return format_seconds(value)
    if kind == "share":
        return f"{value * 100:.1f}%"
    if kind == "int":
        return f"{value:,}".replace(",", " ") if isinstance(value, int) else str(value)
    if kind == "rate":
        return f"{value:,.0f}".replace(",", " ") if value >= 100 else f"{value:.3g}"
    if kind == "number":
        return f"{value:,.0f}".replace(",", " ") if value >= 100 else f"{value:.3g}"
    if kind == "ratio":
        return f"{value:.2f}x"
    return str(value)


def format_seconds(seconds: float) -> str:
    """Seconds with a unit that keeps three significant figures: µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


OUTCOME_COLUMNS = [
    Column("solver"),
    Column("rank", "int"),
    Column("puzzles", "int"),
    Column("solved", "int"),
    Column("stuck", "int"),
    Column("timeouts", "int"),
    Column("memouts", "int"),
    Column("errors", "int"),
    Column("wrong", "int"),
    Column("best", "share"),
]


def _speed_columns(penalty: float) -> list[Column]:
    return [
        Column("solver"),
        Column("mean", "time"),
        Column("median", "time"),
        Column("p90", "time"),
        Column("max", "time"),
        Column("µs/puzzle", "number"),
        Column("puzzles/s", "rate"),
        Column(f"PAR-{penalty:g}", "time"),
        Column("< 0.1 s", "share"),
        Column("< 0.5 s", "share"),
        Column("< 1 s", "share"),
    ]


EFFORT_COLUMNS = [
    Column("solver"),
    Column("nodes/puzzle", "number"),
    Column("guesses/puzzle", "number"),
    Column("no guess", "share"),
]


def summary_tables(report: Report) -> list[Table]:
    """Three tables per corpus: outcomes, speed and search effort."""
    tables = []
    for corpus in report.corpora:
        rows = [r for r in report.summary if r.corpus == corpus]
        flags = [r.flagged for r in rows]
        tables.append(
            Table(
                f"{corpus}: outcomes",
                OUTCOME_COLUMNS,
                [
                    [
                        r.solver,
                        r.rank,
                        r.puzzles,
                        r.solved,
                        r.stuck,
                        r.timeouts,
                        r.memouts,
                        r.errors,
                        r.wrong,
                        r.best_share,
                    ]
                    for r in rows
                ],  # fmt: skip
                "rank: by PAR score among solvers with no wrong answer that attempted every "
                "puzzle; best: share of puzzles on which the solver was the fastest correct one.",
                flags,
            )
        )
        tables.append(
            Table(
                f"{corpus}: time per puzzle",
                _speed_columns(report.penalty),
                [
                    [
                        r.solver,
                        r.mean_s,
                        r.median_s,
                        r.p90_s,
                        r.max_s,
                        r.us_per_puzzle,
                        r.puzzles_per_s,
                        r.par_s,
                        r.under_0_1s,
                        r.under_0_5s,
                        r.under_1s,
                    ]
                    for r in rows
                ],  # fmt: skip
                "mean/median/p90/max: wall time over solved puzzles; µs/puzzle and puzzles/s: "
                f"over every attempt; PAR-{report.penalty:g}: unsolved counted at "
                f"{report.penalty:g}x the time limit; < t: share of the corpus solved within t.",
                flags,
            )
        )
        effort = [r for r in rows if not r.is_vbs]
        if any(r.nodes_per_puzzle is not None or r.guesses_per_puzzle is not None for r in effort):
            tables.append(
                Table(
                    f"{corpus}: search effort",
                    EFFORT_COLUMNS,
                    [
                        [r.solver, r.nodes_per_puzzle, r.guesses_per_puzzle, r.no_guess_share]
                        for r in effort
                    ],
                    "means per puzzle of the counters each solver reports (its own notion of "
                    "a node); no guess: share of solved puzzles that needed no guess.",
                    [r.flagged for r in effort],
                )
            )
    return tables


FINDING_COLUMNS = [
    Column("kind"),
    Column("corpus"),
    Column("puzzle"),
    Column("solver"),
    Column("answer"),
    Column("other solver"),
    Column("other answer"),
    Column("what"),
]


def findings_table(report: Report) -> Table:
    rows = [
        [f.kind, f.corpus, f"{f.puzzle_id} {f.puzzle}", f.solver, f.answer, f.other_solver,
         f.other_answer, f.detail]
        for f in report.findings
    ]  # fmt: skip
    return Table("Findings", FINDING_COLUMNS, rows)


COMPARISON_COLUMNS = [
    Column("solver"),
    Column("corpus"),
    Column("paired", "int"),
    Column("median A", "time"),
    Column("median B", "time"),
    Column("B / A", "ratio"),
    Column("95% CI", "text"),
    Column("B faster on", "share"),
    Column("newly solved", "int"),
    Column("newly timed out", "int"),
    Column("newly wrong", "int"),
    Column("newly failed", "int"),
    Column("fixed", "int"),
    Column("verdict"),
]


def comparison_table(report: Report) -> Table | None:
    if report.comparison is None or report.compared is None:
        return None
    a, b = report.compared
    rows = [
        [c.solver, c.corpus, c.paired, c.median_a_s, c.median_b_s, c.ratio,
         f"{c.ci_low:.2f}–{c.ci_high:.2f}" if c.ci_low is not None else None,
         c.faster_share, c.newly_solved, c.newly_timed_out, c.newly_wrong, c.newly_failed,
         c.fixed_wrong, c.verdict]
        for c in report.comparison
    ]  # fmt: skip
    wrong_specs = {o.spec for o in report.outcomes if o.solver in report.flagged}
    return Table(
        f"Run {b} (B) against run {a} (A)",
        COMPARISON_COLUMNS,
        rows,
        "B / A: ratio of median times on the puzzles both runs solved (paired); 95% CI from a "
        "paired bootstrap; the verdict is faster or slower only when the interval excludes 1 "
        "and the change exceeds the noise threshold.",
        [c.solver in wrong_specs for c in report.comparison],
    )


def run_table(report: Report) -> Table:
    """Where and how the data was produced, one row per run."""
    rows = []
    for run in report.runs:
        machine = ", ".join(f"{k} {v}" for k, v in run.machine.items())
        versions = ", ".join(f"{k} {v}" for k, v in run.versions.items())
        settings = ", ".join(f"{k}={v}" for k, v in run.settings.items())
        rows.append(
            [run.id, run.started, run.finished or "unfinished", run.command, settings,
             run.git_commit or "", versions, machine]
        )  # fmt: skip
    columns = [
        Column("run", "int"),
        Column("started"),
        Column("finished"),
        Column("command"),
        Column("settings"),
        Column("commit"),
        Column("versions"),
        Column("machine"),
    ]
    return Table("Runs", columns, rows)
