"""One self-contained HTML file: tables you can sort, plots embedded, nothing fetched.

Every string that comes from the database (solver names, corpus names,
puzzles, error texts, commands, machine descriptions) goes through
`html.escape`; images are embedded as base64 ``data:`` URIs; the sorting is a
few lines of inline JavaScript that reads each cell's ``data-sort`` value, so
``183 µs`` sorts as 0.000183.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from html import escape
from typing import Any

from harness.report.context import solvers_table, study_files
from harness.report.html_findings import STYLE as FINDINGS_STYLE
from harness.report.html_findings import findings_html
from harness.report.html_matrix import SCRIPT as MATRIX_SCRIPT
from harness.report.html_matrix import STYLE as MATRIX_STYLE
from harness.report.html_matrix import matrix_html
from harness.report.kinds import support_table
from harness.report.matrix import LIMIT as MATRIX_LIMIT
from harness.report.matrix import matrix
from harness.report.plots import Plot
from harness.report.render_text import DEFINITIONS, WRONG_MARK, overview
from harness.report.stat_plots import is_statistics_plot
from harness.report.stat_tables import statistics_sections
from harness.report.study import Report
from harness.report.summary import VBS
from harness.report.tables import (
    Table,
    comparison_table,
    format_value,
    run_table,
    summary_tables,
)

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;
padding:1em 2em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0;font-variant-numeric:tabular-nums}
th,td{padding:.25em .6em;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}
th{background:#f4f4f4;user-select:none;position:sticky;top:0}
table.sortable th{cursor:pointer}th:focus-visible{outline:2px solid #332288;outline-offset:-2px}
th.text,td.text{text-align:left}
table.sortable th:after{content:" \\2195";color:#aaa;font-size:.8em}
table.sortable th[aria-sort=ascending]:after{content:" \\25B2";color:#333}
table.sortable th[aria-sort=descending]:after{content:" \\25BC";color:#333}
td.best{font-weight:700;background:#e8f4ea}
table.kv th{text-align:left;position:static;cursor:auto}
table.kv td{text-align:left;white-space:normal}
tr.wrong td{background:#fdecea}tr.vbs td{font-style:italic;border-top:2px solid #ccc}
td.long{white-space:normal;word-break:break-all;font-family:ui-monospace,monospace;font-size:.85em}
.caption{color:#555;font-size:.9em;max-width:60em}.note{background:#fff8e1;padding:.5em 1em}
figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #eee}
code{background:#f4f4f4;padding:0 .3em}nav a{margin-right:1em}
.scroll{overflow-x:auto}
"""

SCRIPT = """
function sortBy(th) {
  var table = th.closest("table"), column = th.cellIndex, body = table.tBodies[0];
  var all = Array.from(body.rows);
  var rows = all.filter(function (r) { return !r.classList.contains("vbs"); });
  var pinned = all.filter(function (r) { return r.classList.contains("vbs"); });
  var up = th.getAttribute("aria-sort") !== "ascending";
  table.querySelectorAll("th").forEach(function (other) {
    other.setAttribute("aria-sort", "none");
  });
  th.setAttribute("aria-sort", up ? "ascending" : "descending");
  function key(row) {
    var cell = row.cells[column], v = cell.dataset.sort;
    if (v === undefined) return cell.textContent;
    return v === "" ? null : parseFloat(v);
  }
  rows.sort(function (a, b) {
    var x = key(a), y = key(b);
    if (x === null || y === null) return (x === null) - (y === null);
    var c = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
    return up ? c : -c;
  });
  rows.concat(pinned).forEach(function (r) { body.appendChild(r); });
}
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.addEventListener("click", function () { sortBy(th); });
  th.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(th); }
  });
});
"""


def _sort_value(value: Any) -> str | None:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | float):
        return "" if isinstance(value, float) and not math.isfinite(value) else repr(value)
    if value is None:
        return ""
    return None


def _table(table: Table, long_columns: Sequence[int] = ()) -> str:
    """A sortable table: headers focusable (Enter or Space sorts), sort state in aria-sort."""
    head = "".join(
        f'<th class="{"text" if c.kind == "text" else "num"}" tabindex="0" aria-sort="none" '
        f'title="sort by {escape(c.header)}">{escape(c.header)}</th>'
        for c in table.columns
    )
    body = []
    flags = table.flags or [False] * len(table.rows)
    best = table.best()
    for r, (row, flagged) in enumerate(zip(table.rows, flags, strict=True)):
        cells = []
        for i, (value, column) in enumerate(zip(row, table.columns, strict=True)):
            text = format_value(value, column.kind)
            if i == 0 and flagged:
                text += WRONG_MARK
            classes = ["text" if column.kind == "text" else "num"]
            if i in long_columns:
                classes.append("long")
            title = ""
            if (r, i) in best:
                classes.append("best")
                title = ' title="best in this column"'
            sort = _sort_value(value) if column.kind != "text" else None
            data = f' data-sort="{escape(sort)}"' if sort is not None else ""
            cells.append(f'<td class="{" ".join(classes)}"{data}{title}>{escape(text)}</td>')
        kind = "vbs" if row and row[0] == VBS else ("wrong" if flagged else "")
        body.append(f'<tr class="{kind}">' + "".join(cells) + "</tr>")
    return (
        '<div class="scroll"><table class="sortable"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table></div>"
    )


def _key_values(table: Table) -> str:
    """A table of names (first column) and values (one column per run), not sortable."""
    head = "".join(f'<th scope="col">{escape(c.header)}</th>' for c in table.columns)
    body = "".join(
        f'<tr><th scope="row">{escape(str(row[0]))}</th>'
        + "".join(f"<td>{escape(format_value(v, 'text'))}</td>" for v in row[1:])
        + "</tr>"
        for row in table.rows
    )
    return (
        f'<div class="scroll"><table class="kv"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _section(title: str, anchor: str, parts: list[str]) -> list[str]:
    return [f'<h2 id="{anchor}">{escape(title)}</h2>', *parts]


def _figure(plot: Plot) -> str:
    mime = "image/svg+xml" if plot.format == "svg" else "image/png"
    data = base64.b64encode(plot.data).decode("ascii")
    title = escape(plot.title)
    return (
        f'<figure id="plot-{escape(plot.name)}"><img alt="{title}" '
        f'src="data:{mime};base64,{data}"><figcaption>{title}</figcaption></figure>'
    )


def _statistics(report: Report, plots: Sequence[Plot]) -> list[str]:
    """The statistics section: each table, its caption and its figure; what was left out."""
    figures = {p.name: p for p in plots}
    parts = [
        f'<p class="note"><b>Left out:</b> {escape(m)}</p>'
        for m in (report.statistics.missing if report.statistics else [])
    ]
    for table, figure in statistics_sections(report):
        parts += [f"<h3>{escape(table.title)}</h3>", _table(table)]
        parts.append(f'<p class="caption">{escape(table.caption)}</p>')
        if figure in figures:
            parts.append(_figure(figures[figure]))
    return parts


def render_html(
    report: Report, plots: Sequence[Plot] = (), matrix_puzzles: int = MATRIX_LIMIT
) -> str:
    """The whole report as one HTML document (UTF-8 text); the per-puzzle matrix shows at
    most `matrix_puzzles` puzzles (0: no matrix)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>sudoku-bench report</title>",
        f"<style>{STYLE}{FINDINGS_STYLE}{MATRIX_STYLE}</style></head><body>",
        "<h1>sudoku-bench report</h1>",
        f"<p>{escape(overview(report))}.</p>",
    ]
    parts += [f'<p class="note"><b>Note:</b> {escape(n)}</p>' for n in report.notes]
    nav = [("summary", "Summary")]
    kinds = support_table(report)
    if kinds:
        nav.append(("kinds", "Constraint kinds"))
    if _statistics(report, []):
        nav.append(("statistics", "Statistics"))
    nav.append(("findings", "Findings"))
    if matrix_puzzles > 0:
        nav.append(("puzzles", "Puzzles"))
    if report.comparison is not None:
        nav.append(("comparison", "Comparison"))
    if plots:
        nav.append(("plots", "Plots"))
    nav += [("environment", "Environment"), ("definitions", "Definitions")]
    parts.append("<nav>" + "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in nav) + "</nav>")

    summary = []
    for table in summary_tables(report):
        summary += [f"<h3>{escape(table.title)}</h3>", _table(table)]
        if table.caption:
            summary.append(f'<p class="caption">{escape(table.caption)}</p>')
    parts += _section("Summary", "summary", summary)
    if kinds:
        caption = f'<p class="caption">{escape(kinds.caption)}</p>'
        parts += _section(kinds.title, "kinds", [_table(kinds), caption])

    statistics = _statistics(report, plots)
    if statistics:
        parts += _section("Comparison statistics", "statistics", statistics)
    plots = [p for p in plots if not is_statistics_plot(p)]
    parts += _section("Findings", "findings", findings_html(report))
    if matrix_puzzles > 0:
        parts += _section("Puzzles", "puzzles", matrix_html(matrix(report, matrix_puzzles)))

    comparison = comparison_table(report)
    if comparison:
        parts += _section(
            comparison.title,
            "comparison",
            [_table(comparison), f'<p class="caption">{escape(comparison.caption)}</p>'],
        )
    if plots:
        parts += _section("Plots", "plots", [_figure(p) for p in plots])

    environment = []
    if report.runs:
        environment.append(_key_values(run_table(report)))
    solvers = solvers_table(report)
    environment += [f"<h3>{escape(solvers.title)}</h3>", _table(solvers)]
    environment.append(f'<p class="caption">{escape(solvers.caption)}</p>')
    for study in study_files(report.runs):
        environment.append(
            f"<details><summary>{escape(study.title)}</summary>"
            f"<pre>{escape(study.text)}</pre></details>"
        )
    if report.command:
        environment.append(f"<p>This report: <code>{escape(report.command)}</code>.</p>")
    parts += _section("Environment", "environment", environment or ["<p>Not recorded.</p>"])
    parts += _section(
        "Definitions",
        "definitions",
        ["<ul>" + "".join(f"<li>{escape(d)}</li>" for d in DEFINITIONS) + "</ul>"],
    )
    parts += [f"<script>{SCRIPT}{MATRIX_SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"
