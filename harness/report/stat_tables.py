"""The comparison statistics as tables: profiles, runtime distributions, significance,
hardness.  Raw values, as in `harness.report.tables`; the renderers format them."""

from __future__ import annotations

from harness.report.hardness import RATING
from harness.report.plots import slug
from harness.report.profiles import TAUS
from harness.report.significance import p_text as _p
from harness.report.statistics import Statistics
from harness.report.study import Report
from harness.report.summary import VBS
from harness.report.tables import HIGH, LOW, Column, Table


def _flag(report: Report, solver: str) -> bool:
    return solver in report.flagged


def profile_table(report: Report, stats: Statistics) -> Table | None:
    if not stats.profiles:
        return None
    puzzles = stats.profiles[0].puzzles
    columns = [Column("solver"), *(Column(f"ρ({t:g})", "share", HIGH) for t in TAUS),
               Column("solved", "share", HIGH)]  # fmt: skip
    rows = [[p.solver, *(p.share(t) for t in TAUS), p.solved] for p in stats.profiles]
    return Table(
        "Performance profile",
        columns,
        rows,
        f"ρ(τ): share of the {puzzles} puzzles every solver attempted on which the solver "
        "was within a factor τ of the fastest solver on that puzzle (ρ(1): fastest, ties "
        "included); solved: ρ as τ grows without bound.",
        [_flag(report, p.solver) for p in stats.profiles],
    )


def runtime_tables(report: Report, stats: Statistics) -> list[Table]:
    """One table per corpus, solvers in the order of the corpus's rank."""
    tables = []
    for corpus, curves in stats.curves.items():
        order = [r.solver for r in report.summary if r.corpus == corpus and r.solver != VBS]
        by_solver = {c.solver: c for c in curves}
        rows, flags = [], []
        for solver in order:
            c = by_solver.get(solver)
            if c is None:
                continue
            end = c.solved_share[-1] if c.solved_share else 0.0
            band = f"{c.low[-1] * 100:.1f}–{c.high[-1] * 100:.1f}%" if c.solved_share else None
            rows.append([solver, c.puzzles, c.solved, end, band,
                         *(c.quantiles[q] for q in sorted(c.quantiles))])  # fmt: skip
            flags.append(_flag(report, solver))
        tables.append(
            Table(
                f"{corpus}: runtime distribution",
                [
                    Column("solver"),
                    Column("puzzles", "int"),
                    Column("solved", "int", HIGH),
                    Column("F(limit)", "share", HIGH),
                    Column("95% CI"),
                    Column("25% solved by", "time", LOW),
                    Column("50% solved by", "time", LOW),
                    Column("75% solved by", "time", LOW),
                ],  # fmt: skip
                rows,
                "Kaplan–Meier estimate of F(t), the probability of solving a puzzle of the "
                "corpus within t, each unsolved puzzle censored at its time limit; F(limit) "
                "with its 95% confidence interval (Greenwood, log-log); '25% solved by' ...: the "
                "time by which F reaches that share (—: not within the limit).",
                flags,
            )
        )
    return tables


def significance_table(report: Report, stats: Statistics) -> Table | None:
    result = stats.significance
    if result is None:
        return None
    verdict = "differ" if result.significant else "do not differ significantly"
    return Table(
        "Significance: Friedman test and Nemenyi post-hoc",
        [
            Column("solver"),
            Column("mean rank", "number", LOW),
            Column("not significantly different from"),
        ],  # fmt: skip
        [[s, result.mean_ranks[s], ", ".join(result.same_as(s)) or "—"] for s in result.solvers],
        f"Friedman test over {result.puzzles} puzzles and {len(result.solvers)} solvers "
        f"(ranks of the PAR-{report.penalty:g} terms per puzzle): χ² = {result.statistic:.1f}, "
        f"p {_p(result.p_value)}; the mean ranks {verdict} at α = {result.alpha:g}. "
        f"Nemenyi critical difference: {result.critical_difference:.2f} mean ranks; solvers "
        "with a wrong answer take no part.",
    )


def hardness_table(report: Report, stats: Statistics) -> Table | None:
    if not stats.correlations:
        return None
    features = list(dict.fromkeys(c.feature for c in stats.correlations))
    solvers = list(dict.fromkeys(c.solver for c in stats.correlations))
    by = {(c.solver, c.feature): c for c in stats.correlations}
    count = max(c.puzzles for c in stats.correlations)
    label = {RATING: f"ρ {report.rating_label.split(':')[0]}"}
    return Table(
        "What makes a puzzle hard, and for whom",
        [Column("solver"), *(Column(label.get(f, f"ρ {f}"), "number") for f in features)],
        [[s, *(by[(s, f)].rho for f in features)] for s in solvers],
        "Spearman's rank correlation between each solver's PAR term on a puzzle and a feature "
        f"of the puzzle, over up to {count} puzzles: near +1, the solver slows as the feature "
        "grows; near 0, the feature says little about its time. givens: filled cells; fast "
        "guesses: the guesses the fast solver made; rating: the puzzle's difficulty rating.",
        [_flag(report, s) for s in solvers],
    )


def statistics_sections(report: Report) -> list[tuple[Table, str]]:
    """Every statistics table the report has data for, in reading order, each with the
    name of the figure that draws it (`harness.report.stat_plots`)."""
    stats = report.statistics
    if stats is None:
        return []
    sections: list[tuple[Table | None, str]] = [
        (profile_table(report, stats), "performance-profile")
    ]
    sections += [(t, f"runtime-{slug(t.title.rsplit(':', 1)[0])}")
                 for t in runtime_tables(report, stats)]  # fmt: skip
    sections += [(significance_table(report, stats), "critical-difference"),
                 (hardness_table(report, stats), "hardness")]  # fmt: skip
    return [(t, name) for t, name in sections if t is not None]


def statistics_tables(report: Report) -> list[Table]:
    """Every statistics table the report has data for, in reading order."""
    return [table for table, _ in statistics_sections(report)]
