"""Performance reports: summary tables, research scores, findings, plots, run comparison.

The pipeline reads `ResultRecord`s (from `harness.store.Store.results`, or
any iterable) and never touches SQL itself::

    from harness.store import Store
    from harness.report import build_report, render_markdown

    with Store("sudoku-bench.sqlite", create=False) as store:
        run = store.last_run_id()
        report = build_report(store.results([run]), [store.run(run)])
    print(render_markdown(report))

Modules: `outcomes` (repeats folded, verdicts), `summary` (the table, PAR-k,
virtual best solver), `findings` (wrong answers, disagreements), `compare`
(two runs, bootstrap interval, verdict), `plots` (matplotlib, Agg), `tables`
(the tables as data), `render_text` / `render_html` / `render_data`
(terminal, Markdown, LaTeX, HTML, CSV, JSON), `study` (the `Report`).
"""

from harness.report.compare import Comparison, compare_runs
from harness.report.render_data import SCHEMA
from harness.report.render_html import render_html
from harness.report.render_text import render_latex, render_markdown, render_terminal
from harness.report.study import Report, build_report

__all__ = [
    "SCHEMA",
    "Comparison",
    "Report",
    "build_report",
    "compare_runs",
    "render_html",
    "render_latex",
    "render_markdown",
    "render_terminal",
]
