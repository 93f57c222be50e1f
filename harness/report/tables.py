"""The report's tables as data: columns with a kind, rows with raw values.

Terminal, Markdown, LaTeX and HTML all render these same tables; each value
stays raw (seconds, shares, counts) until a renderer formats it, so the HTML
can sort on the numbers while showing ``183 µs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from harness.report.overall import standings
from harness.report.study import Report
from harness.report.summary import VBS

LOW, HIGH = "low", "high"  # which end of a column is best


@dataclass(frozen=True)
class Column:
    header: str
    kind: str = "text"  # text | int | time | share | number | rate | ratio
    better: str | None = None  # LOW or HIGH: the best value is marked; None: no best


@dataclass
class Table:
    title: str
    columns: list[Column]
    rows: list[list[Any]]
    caption: str = ""
    flags: list[bool] = field(default_factory=list)  # per row: solver gave a wrong answer

    def best(self) -> set[tuple[int, int]]:
        """(row, column) of the best value of each column that has a direction.

        Only solvers that compete count (no wrong answer, not the virtual best
        solver); tied bests are all marked, unless they are most of the rows.
        """
        flags = self.flags or [False] * len(self.rows)
        rows = [
            i for i, (row, flagged) in enumerate(zip(self.rows, flags, strict=True))
            if not flagged and not (row and row[0] == VBS)
        ]  # fmt: skip
        marked: set[tuple[int, int]] = set()
        for j, column in enumerate(self.columns):
            if column.better is None:
                continue
            values = {i: self.rows[i][j] for i in rows if _comparable(self.rows[i][j])}
            if len(set(values.values())) < 2:
                continue
            pick = min if column.better == LOW else max
            top = pick(values.values())
            winners = [i for i, v in values.items() if v == top]
            if len(winners) <= len(values) / 2:  # a mark most rows share tells nothing
                marked.update((i, j) for i in winners)
        return marked


def _comparable(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and not (isinstance(value, float) and math.isnan(value))
    )


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
    Column("solved", "int", HIGH),
    Column("stuck", "int", LOW),
    Column("timeouts", "int", LOW),
    Column("memouts", "int", LOW),
    Column("errors", "int", LOW),
    Column("wrong", "int", LOW),
    Column("best", "share", HIGH),
]


def _speed_columns(penalty: float) -> list[Column]:
    return [
        Column("solver"),
        Column("mean", "time", LOW),
        Column("median", "time", LOW),
        Column("p90", "time", LOW),
        Column("max", "time", LOW),
        Column("µs/puzzle", "number", LOW),
        Column("puzzles/s", "rate", HIGH),
        Column(f"PAR-{penalty:g}", "time", LOW),
        Column("< 0.1 s", "share", HIGH),
        Column("< 0.5 s", "share", HIGH),
        Column("< 1 s", "share", HIGH),
        Column("CPU median", "time", LOW),
        Column("peak MB", "number", LOW),
    ]


SPREAD_COLUMNS = [
    Column("solver"),
    Column("median", "time"),
    Column("95% low", "time"),
    Column("95% high", "time"),
    Column("CV", "share"),
    Column("within noise of"),
]


EFFORT_COLUMNS = [
    Column("solver"),
    Column("nodes/puzzle", "number"),
    Column("guesses/puzzle", "number"),
    Column("no guess", "share", HIGH),
]


BEST_NOTE = "the best value of each column is in bold"


def overall_table(report: Report) -> Table:
    """Every solver over all corpora: its place, mean rank and the rank on each corpus."""
    corpora = report.corpora
    rows = standings(report.summary, report.solvers)
    return Table(
        "All corpora: ranks",
        [Column("solver"), Column("place", "int"), Column("mean rank", "number"),
         *(Column(f"rank on {c}", "int") for c in corpora),
         Column("puzzles", "int"), Column("solved", "int", HIGH)],
        [[s.solver, s.place, s.mean_rank, *s.ranks, s.puzzles, s.solved] for s in rows],
        "place: by mean rank among the solvers ranked on every corpus (the order of the "
        "plots); the tables of each corpus follow that corpus's rank.",
        [s.flagged for s in rows],
    )  # fmt: skip


def summary_tables(report: Report) -> list[Table]:
    """The overall ranks (with two or more corpora), then three tables per corpus:
    outcomes, speed and search effort, each in the order of the corpus's rank."""
    tables = [overall_table(report)] if len(report.corpora) > 1 else []
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
                "puzzle and solved at least one; best: share of puzzles on which the solver was "
                "the fastest correct one. Rows in the order of this corpus's rank, unranked "
                "solvers last; "
                f"{BEST_NOTE}.",
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
                        r.cpu_median_s,
                        r.peak_mb,
                    ]
                    for r in rows
                ],  # fmt: skip
                "mean/median/p90/max: wall time over solved puzzles; µs/puzzle and puzzles/s: "
                f"over every attempt; PAR-{report.penalty:g}: unsolved counted at "
                f"{report.penalty:g}x the time limit; < t: share of the corpus solved within t; "
                "CPU median: CPU time of the solved puzzles, child processes included; peak MB: "
                "the largest resident-memory high-water mark of a solve (the worker's or a "
                f"child's); {BEST_NOTE}.",
                flags,
            )
        )
        spread = [r for r in rows if r.median_ci_low_s is not None or r.cv is not None]
        if spread:
            tables.append(
                Table(
                    f"{corpus}: spread over the repeats",
                    SPREAD_COLUMNS,
                    [
                        [
                            r.solver,
                            r.repeats_median_s,
                            r.median_ci_low_s,
                            r.median_ci_high_s,
                            r.cv,
                            ", ".join(r.within_noise) or None,
                        ]
                        for r in spread
                    ],
                    "median: of every repeat's time on the solved puzzles; 95% "
                    "interval: bootstrap of that median, each puzzle's repeats resampled (the "
                    "timing noise, on these puzzles); CV: median over puzzles of the standard "
                    "deviation / mean of a puzzle's repeats; within noise of: the solvers whose "
                    "intervals overlap this one's.",
                    [r.flagged for r in spread],
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
    """Where and how the data was produced: a name and a value per row, a column per run."""
    runs = report.runs
    rows: list[list[Any]] = []

    def add(name: str, values: list[Any]) -> None:
        if any(v not in (None, "", [], {}) for v in values):
            rows.append([name, *("—" if v in (None, "", [], {}) else v for v in values)])

    add("started", [r.started for r in runs])
    add("finished", [r.finished or "unfinished" for r in runs])
    add("command", [r.command for r in runs])
    add("commit", [r.git_commit for r in runs])
    add("CPU", [r.machine.get("cpu") for r in runs])
    add("cores (usable)", [_cores(r.machine) for r in runs])
    add("memory", [_memory(r.machine.get("memory_mb")) for r in runs])
    add("OS", [" ".join(filter(None, (r.machine.get("system"), r.machine.get("machine"))))
               for r in runs])  # fmt: skip
    add("host", [r.machine.get("host") for r in runs])
    add("load average at start", [_load(r.machine.get("load_start")) for r in runs])
    add("load average at end", [_load(r.machine.get("load_end")) for r in runs])
    add("free cores at start", [_free(r.machine.get("free_cores")) for r in runs])
    add("frequency governor", [_governors(r.machine.get("governors")) for r in runs])
    add("turbo boost", [_on_off(r.machine.get("boost")) for r in runs])
    add("CPU pinning", [_pinning(r.settings) for r in runs])
    add("Python", [r.versions.get("python") for r in runs])
    libraries = dict.fromkeys(k for r in runs for k in r.versions if k != "python")
    for name in libraries:
        add(name, [r.versions.get(name) for r in runs])
    for name, describe in SETTINGS:
        add(name, [describe(r.settings) for r in runs])
    return Table("Environment", [Column(""), *(Column(f"run {r.id}") for r in runs)], rows)


def _cores(machine: dict[str, Any]) -> str | None:
    cores, usable = machine.get("cores"), machine.get("usable_cores")
    if cores is None:
        return None
    return f"{cores} ({usable})" if usable not in (None, cores) else str(cores)


def _memory(mb: Any) -> str | None:
    return f"{mb / 1024:.1f} GB" if isinstance(mb, int | float) else None


def _load(values: Any) -> str | None:
    """1, 5 and 15 minute load averages."""
    if not isinstance(values, list) or not values:
        return None
    return ", ".join(f"{v:.2f}" for v in values) + " (1, 5, 15 min)"


def _free(value: Any) -> str | None:
    return f"{value:g}" if isinstance(value, int | float) else None


def _governors(value: Any) -> str | None:
    """``performance (8 cores)``; several governors are listed with their counts."""
    if not isinstance(value, dict) or not value:
        return None
    return ", ".join(f"{name} ({count} core{'s' * (count != 1)})" for name, count in value.items())


def _on_off(value: Any) -> str | None:
    return {True: "on", False: "off"}.get(value) if isinstance(value, bool) else None


def _pinning(settings: dict[str, Any]) -> str | None:
    """Whether the workers were pinned, and to which cores they said they ran on."""
    if "pin" not in settings:
        return None
    if not settings["pin"]:
        return "no"
    cores = [settings.get("pinned_cores")]
    cores += [entry.get("pinned_cores") for entry in settings.get("resumed", [])]
    seen = sorted({c for group in cores if isinstance(group, list) for c in group})
    listed = ", ".join(map(str, seen)) if seen else "none reported"
    return f"each worker on a core of its own (cores {listed})"


def _footprints(value: Any) -> str | None:
    """What each solver held once loaded, as measured before the run (harness.footprint)."""
    if not isinstance(value, dict) or not value:
        return None
    return ", ".join(f"{spec} {'?' if mb is None else f'{mb} MB'}" for spec, mb in value.items())


def _execution(settings: dict[str, Any]) -> str | None:
    execution = settings.get("execution")
    if not isinstance(execution, dict):
        jobs = settings.get("jobs")
        return f"{jobs} jobs" if jobs is not None else None
    workers = settings.get("workers", execution.get("jobs"))
    text = f"{execution.get('executor', '?')}, {workers} workers"
    return text + (f" at {execution['scheduler']}" if execution.get("scheduler") else "")


def _names(paths: Any) -> str | None:
    """Corpus names: built-in ones and files by their file name, not their full path."""
    if not isinstance(paths, list):
        return None
    return ", ".join(str(p).replace("\\", "/").rsplit("/", 1)[-1] for p in paths)


def _study(study: Any) -> str | None:
    """A study file by its name and path (its text is shown under the table)."""
    if not isinstance(study, dict) or not study.get("path"):
        return None
    return f"{study['name']} ({study['path']})" if study.get("name") else str(study["path"])


def _setting(key: str, unit: str = "") -> Any:
    def describe(settings: dict[str, Any]) -> str | None:
        value = settings.get(key)
        return (
            None
            if value is None
            else f"{value:g}{unit}"
            if isinstance(value, float)
            else f"{value}{unit}"
        )

    return describe


SETTINGS = (
    ("study", lambda s: _study(s.get("study_file"))),
    ("corpora", lambda s: _names(s.get("corpora"))),
    ("solvers", lambda s: ", ".join(s["solvers"]) if isinstance(s.get("solvers"), list) else None),
    ("time limit", _setting("timeout", " s")),
    ("memory limit", _setting("memory", " MB")),
    ("solver footprints", lambda s: _footprints(s.get("footprints"))),
    ("repeats", _setting("repeat")),
    ("solutions asked", _setting("limit")),
    ("metamorphic forms", _setting("metamorphic")),
    ("seed", _setting("seed")),
    ("oracle", _setting("oracle")),
    ("execution", _execution),
)
