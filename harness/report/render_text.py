"""Terminal, Markdown and LaTeX renderings of a report (tables by tabulate)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from tabulate import tabulate

from harness.report.context import solvers_table, study_files, study_names
from harness.report.escape import markdown, markdown_code, terminal
from harness.report.finding_groups import group_findings
from harness.report.findings import Finding
from harness.report.kinds import support_table
from harness.report.stat_plots import STATISTICS_PLOTS
from harness.report.stat_tables import statistics_sections, statistics_tables
from harness.report.study import Report
from harness.report.tables import (
    Column,
    Table,
    comparison_table,
    findings_table,
    format_value,
    run_table,
    summary_tables,
)

WRONG_MARK = " (WRONG)"
TERMINAL_BEST = ("{}*", "{} ")  # the best value of a column, and the others (kept aligned)
MARKDOWN_BEST = ("**{}**", "{}")
TERMINAL_FINDINGS = 20  # the terminal lists this many; the other formats list all

DEFINITIONS = [
    "solved: answered (SOLVED, MULTIPLE, UNSOLVABLE or INVALID) and not judged wrong; "
    "timeouts include BUDGET (an effort limit ran out).",
    "stuck: an incomplete method (logic alone, bounded assumption) ran out of moves without "
    "an answer (status STUCK); memouts: the worker went over its memory limit (MEMOUT); both "
    "count as unsolved.",
    "Repeats of one puzzle fold into one outcome: the median time and the least favourable status.",
    "(WRONG) marks a solver that gave at least one wrong answer in the data shown: it has no "
    "rank and never counts for the virtual best solver.",
    "virtual best: per puzzle, the fastest correct answer of any solver never judged wrong.",
    "PAR-k: mean time per puzzle, an unsolved puzzle counting k times its time limit.",
]


Clean = Callable[[str], str]  # makes stored text safe for one format (`harness.report.escape`)


def _cells(
    table: Table, clean: Clean = terminal, mark: tuple[str, str] = ("{}", "{}")
) -> list[list[str]]:
    """Formatted cells, each made safe by `clean`; `mark` formats the best cells and the
    others (``("**{}**", "{}")``)."""
    rows = []
    flags = table.flags or [False] * len(table.rows)
    best = table.best()
    for i, (row, flagged) in enumerate(zip(table.rows, flags, strict=True)):
        cells = [format_value(v, c.kind) for v, c in zip(row, table.columns, strict=True)]
        if flagged:
            cells[0] += WRONG_MARK
        cells = [clean(c) for c in cells]
        rows.append([mark[(i, j) not in best].format(c) for j, c in enumerate(cells)])
    return rows


def _align(table: Table) -> list[str]:
    return ["left" if c.kind == "text" else "right" for c in table.columns]


def _tabulate(
    table: Table, fmt: str, clean: Clean = terminal, mark: tuple[str, str] = ("{}", "{}")
) -> str:
    return tabulate(
        _cells(table, clean, mark),
        headers=[clean(c.header) for c in table.columns],
        tablefmt=fmt,
        colalign=_align(table),
        disable_numparse=True,
    )


def _count(number: int, one: str, many: str) -> str:
    return f"{number:,} {one if number == 1 else many}"


def overview(report: Report) -> str:
    """One line: which runs, how many results, puzzles, corpora and solvers."""
    runs = ", ".join(str(r.id) for r in report.runs)
    source = f"run{'s' if len(report.runs) > 1 else ''} {runs}" if runs else "records"
    studies = study_names(report.runs)
    if studies:
        source += f" (study {', '.join(studies)})"
    puzzles = len({(o.corpus, o.puzzle_id) for o in report.outcomes})
    return (
        f"{source}: {_count(report.records, 'result', 'results')}, "
        f"{_count(puzzles, 'puzzle', 'puzzles')} in "
        f"{_count(len(report.corpora), 'corpus', 'corpora')}, "
        f"{_count(len(report.solvers), 'solver', 'solvers')}"
    )


def render_terminal(report: Report, plots: Sequence[str] = ()) -> str:
    """A plain-text report for the terminal (with a comparison: the comparison alone)."""
    out = [overview(report)]
    out += [f"note: {terminal(n)}" for n in report.notes]
    comparison = comparison_table(report)
    if comparison:
        a, b = report.compared or (0, 0)
        out += ["", terminal(comparison.title), _tabulate(comparison, "simple")]
        out += ["", terminal(comparison.caption)]
        out += ["", f"The tables of each run: sudoku-bench report --run {a} --run {b}"]
        if plots:
            out += ["", "plots:", *(f"  {terminal(p)}" for p in plots)]
        return "\n".join(out) + "\n"
    for table in summary_tables(report):
        out += ["", terminal(table.title), _tabulate(table, "simple", mark=TERMINAL_BEST)]
    out += ["", "* the best value of its column; rows in the order of their table's rank"]
    kinds = support_table(report)
    if kinds:
        out += ["", terminal(kinds.title), _tabulate(kinds, "simple"), "", terminal(kinds.caption)]
    significance = next((t for t, f in statistics_sections(report) if f == "critical-difference"),
                        None)  # fmt: skip
    if significance:
        out += ["", terminal(significance.title), _tabulate(significance, "simple")]
        out += ["", terminal(significance.caption)]
    out += ["", *_findings_text(report, "simple", TERMINAL_FINDINGS)]
    if plots:
        out += ["", "plots:", *(f"  {terminal(p)}" for p in plots)]
    return "\n".join(out) + "\n"


def _findings_text(
    report: Report, fmt: str, limit: int | None, clean: Clean = terminal
) -> list[str]:
    """A line per solver and kind, then the rows: the first `limit` in one table (terminal),
    or every row under its group's heading (`limit` None: Markdown)."""
    table = findings_table(report)
    if not table.rows:
        return ["Findings: none (no wrong answer, no disagreement)."]
    groups = group_findings(report.findings, report.solvers)
    lines = [
        f"Findings: {len(table.rows)}, in {len(groups)} group{'s' if len(groups) != 1 else ''} "
        "(one per solver and kind):"
    ]
    lines += [f"- {clean(g.title)}" for g in groups]
    if limit is None:
        for group in groups:
            rows = [_finding_cells(f) for f in group.findings]
            part = Table(group.title, FINDING_ROW_COLUMNS, rows)
            lines += ["", f"### {clean(group.title)}", "", _tabulate(part, fmt, clean)]
        return lines
    shown = table.rows[:limit]
    lines += ["", _tabulate(Table(table.title, table.columns, shown), fmt, clean)]
    if len(shown) < len(table.rows):
        lines.append(
            f"... and {len(table.rows) - len(shown)} more (all are in --format md, html or json)"
        )
    return lines


FINDING_ROW_COLUMNS = [
    Column("corpus"),
    Column("puzzle"),
    Column("answer"),
    Column("other solver"),
    Column("other answer"),
    Column("what"),
]


def _finding_cells(f: Finding) -> list[str | None]:
    form = f" (form {f.variant})" if f.variant else ""
    return [f.corpus, f"{f.puzzle_id}{form} {f.puzzle}", f.answer, f.other_solver,
            f.other_answer, f.detail]  # fmt: skip


def render_markdown(report: Report, plots: Sequence[tuple[str, str]] = ()) -> str:
    """A Markdown report; `plots` are (title, relative path) pairs to link."""
    out = ["# sudoku-bench report", "", overview(report) + "."]
    if report.command:
        out += ["", f"Report made by {markdown_code(report.command)}."]
    for note in report.notes:
        out += ["", f"> **Note:** {markdown(note)}"]
    out += ["", "## Summary"]
    for table in summary_tables(report):
        table_md = _tabulate(table, "github", markdown, MARKDOWN_BEST)
        out += ["", f"### {markdown(table.title)}", "", table_md]
        if table.caption:
            out += ["", f"*{markdown(table.caption)}*"]
    kinds = support_table(report)
    if kinds:
        out += ["", f"## {markdown(kinds.title)}", "", _tabulate(kinds, "github", markdown)]
        out += ["", f"*{markdown(kinds.caption)}*"]
    stat_links = {Path(path).stem: (title, path) for title, path in plots}
    sections = statistics_sections(report)
    if sections or (report.statistics and report.statistics.missing):
        out += ["", "## Comparison statistics"]
        for missing in report.statistics.missing if report.statistics else []:
            out += ["", f"> **Left out:** {markdown(missing)}"]
        for table, figure in sections:
            out += ["", f"### {markdown(table.title)}", "", _tabulate(table, "github", markdown)]
            out += ["", f"*{markdown(table.caption)}*"]
            if figure in stat_links:
                title, path = stat_links[figure]
                out += ["", f"![{_alt(title)}]({path})"]
    plots = [(t, p) for t, p in plots if not Path(p).stem.startswith(STATISTICS_PLOTS)]
    out += ["", "## Findings", "", *_findings_text(report, "github", None, markdown)]
    comparison = comparison_table(report)
    if comparison:
        title = markdown(comparison.title)
        out += ["", f"## {title}", "", _tabulate(comparison, "github", markdown)]
        out += ["", f"*{markdown(comparison.caption)}*"]
    if plots:
        out += ["", "## Plots"]
        for title, path in plots:
            out += ["", f"### {markdown(title)}", "", f"![{_alt(title)}]({path})"]
    if report.runs:
        out += ["", "## Environment", "", _tabulate(run_table(report), "github", markdown)]
    solvers = solvers_table(report)
    out += ["", "### Solvers", "", _tabulate(solvers, "github", markdown)]
    out += ["", f"*{markdown(solvers.caption)}*"]
    for study in study_files(report.runs):
        out += ["", f"### {markdown(study.title)}", "", _fenced(study.text, "toml")]
    out += ["", "## Definitions", "", *(f"- {d}" for d in DEFINITIONS)]
    return "\n".join(out) + "\n"


def _alt(title: str) -> str:
    """A plot title as the alternative text of a Markdown image."""
    return markdown(title).replace("[", "\\[").replace("]", "\\]")


def _fenced(text: str, language: str) -> str:
    """A fenced code block holding `text` literally, whatever fences it holds."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{language}\n{terminal(text).rstrip()}\n{fence}"


def _latex_escape(text: str) -> str:
    table = {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "µ": r"$\mu$",
        "—": "--",
        "<": "$<$",
        ">": "$>$",
        "–": "--",
    }
    return "".join(table.get(ch, ch) for ch in terminal(text))


def render_latex(report: Report) -> str:
    """LaTeX ``table`` environments (booktabs) for the summary, ready to paste."""
    blocks = [
        "% sudoku-bench report: " + overview(report),
        "% needs \\usepackage{booktabs}",
    ]
    tables = summary_tables(report) + statistics_tables(report)
    kinds = support_table(report)
    if kinds:
        tables.append(kinds)
    comparison = comparison_table(report)
    if comparison:
        tables.append(comparison)
    labels: set[str] = set()
    for table in tables:
        best = table.best()
        cells = [
            [f"\\textbf{{{_latex_escape(c)}}}" if (i, j) in best else _latex_escape(c)
             for j, c in enumerate(row)]
            for i, row in enumerate(_cells(table))
        ]  # fmt: skip
        body = tabulate(
            cells,
            headers=[_latex_escape(c.header) for c in table.columns],
            tablefmt="latex_raw",
            colalign=_align(table),
            disable_numparse=True,
        )
        body = _booktabs(body)
        caption = _latex_escape(table.title + (f". {table.caption}" if table.caption else ""))
        label = _label(table.title, labels)
        blocks.append(
            "\\begin{table}[ht]\n\\centering\n\\small\n"
            f"\\caption{{{caption}}}\n\\label{{{label}}}\n{body}\n\\end{{table}}"
        )
    return "\n\n".join(blocks) + "\n"


def _label(title: str, used: set[str]) -> str:
    """A unique ``\\label`` key for a table: ``tab:gen9-easy-outcomes``, ``-2`` on a repeat."""
    base = "tab:" + (re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-").lower() or "table")
    label, n = base, 1
    while label in used:
        n += 1
        label = f"{base}-{n}"
    used.add(label)
    return label


def _booktabs(body: str) -> str:
    """tabulate's raw LaTeX with booktabs rules instead of \\hline."""
    lines = body.splitlines()
    rules = iter([r"\toprule", r"\midrule", r"\bottomrule"])
    return "\n".join(next(rules, r"\bottomrule") if ln.strip() == r"\hline" else ln for ln in lines)
