"""A report worth publishing: few plots by default, one style per solver, one solver order,
the best values marked, accessible sorting, and the environment as a table.

Plot contents are checked on the matplotlib figures themselves (captured before
they are saved); the data are synthetic records with fixed times, so nothing
here depends on the machine's speed.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from harness import tally
from harness.cli import main
from harness.report import build_report, render_html, render_markdown, render_terminal
from harness.report import plots as plotting
from harness.report.stat_tables import statistics_tables
from harness.report.tables import run_table, summary_tables
from harness.store import Store
from tests.report_fixtures import NAMES, RUN
from tests.report_fixtures import records as _records


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The matplotlib figures the plot functions draw, captured instead of saved."""
    captured: list[Any] = []

    def keep(fig: Any, fmt: str) -> bytes:
        captured.append(fig)
        return b""

    monkeypatch.setattr(plotting, "save", keep)
    return captured


def test_by_default_one_figure_compares_each_solver_with_the_best_ranked(figures):
    report = build_report(_records(NAMES[:9]), [RUN])
    plots = list(plotting.all_plots(report))
    names = [p.name for p in plots]
    assert names == [
        "cactus-c1",
        "cactus-c2",
        "distribution-c1",
        "distribution-c2",
        "versus-s00",
        "performance-profile",
        "runtime-c1",
        "runtime-c2",
        "critical-difference",
    ]
    versus = figures[names.index("versus-s00")]
    titles = [ax.get_title() for ax in versus.axes if ax.get_visible() and ax.get_title()]
    assert [t.split("\n")[0] for t in titles] == NAMES[1:9]  # eight panels, in rank order
    assert "s00 (best-ranked)" in versus.get_supxlabel()


def test_pairs_and_all_pairs_add_one_scatter_each(figures):
    report = build_report(_records(NAMES[:9]), [RUN])
    named = [p.name for p in plotting.all_plots(report, [("s03", "s05")])]
    assert [n for n in named if n.startswith("scatter")] == ["scatter-s03-vs-s05"]
    every = [p.name for p in plotting.all_plots(report, all_pairs=True)]
    assert len([n for n in every if n.startswith("scatter")]) == 36
    assert "versus-s00" in every
    with pytest.raises(ValueError, match="not in the report"):
        plotting.solver_pairs(report, [("s00", "nobody")])


def test_every_solver_keeps_one_distinct_colour_and_marker_in_every_plot(figures):
    report = build_report(_records(NAMES), [RUN])
    styles = plotting.solver_styles(report)
    colours = [styles[s]["color"] for s in NAMES]
    markers = [styles[s]["marker"] for s in NAMES]
    assert len(set(colours)) == len(NAMES) == len(set(markers))
    plotting.cactus(report, "c1")
    plotting.distribution(report, "c1")
    cactus, boxes = figures
    lines = {line.get_label().split(":")[0]: line for line in cactus.axes[0].get_lines()}
    for solver in NAMES:
        assert lines[solver].get_color() == styles[solver]["color"]
        assert lines[solver].get_marker() == styles[solver]["marker"]
    ax = boxes.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    faces = [patch.get_facecolor() for patch in ax.patches]
    from matplotlib.colors import to_rgb

    for label, face in zip(labels, faces, strict=True):
        assert to_rgb(face) == pytest.approx(to_rgb(styles[label]["color"]))
    medians = {line.get_marker(): to_rgb(line.get_color()) for line in ax.get_lines()
               if line.get_marker() in markers}  # fmt: skip
    assert set(medians) == set(markers)


def test_the_distribution_title_fits_its_figure(figures):
    report = build_report(_records(NAMES[:3], ("a-rather-long-corpus-name-for-a-title",)), [RUN])
    plotting.distribution(report, report.corpora[0])
    (fig,) = figures
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    box = fig.axes[0].title.get_window_extent(renderer)
    assert box.x0 >= 0
    assert box.x1 <= fig.bbox.x1
    assert "5th to 95th percentile" in fig.axes[0].get_title()


def test_plots_follow_the_mean_rank_and_each_corpus_table_its_own_rank():
    records = _records(NAMES[:4])
    report = build_report(records, [RUN])
    assert report.solvers == NAMES[:4]  # s01 wins c2 but ranks 2nd on c1: mean rank 1.5
    ranks = {(r.corpus, r.solver): r.rank for r in report.summary}
    assert ranks[("c2", "s01")] == 1
    assert ranks[("c1", "s00")] == 1
    for table in summary_tables(report):
        solvers = [row[0] for row in table.rows if row[0] != "virtual best"]
        corpus = table.title.split(":")[0]
        expected = NAMES[:4] if corpus in ("c1", "All corpora") else ["s01", "s00", *NAMES[2:4]]
        assert solvers == expected, table.title


def test_the_best_value_of_each_column_is_marked_in_every_format():
    report = build_report(_records(NAMES[:4]), [RUN])
    speed = next(t for t in summary_tables(report) if t.title == "c1: time per puzzle")
    best = speed.best()
    median = [c.header for c in speed.columns].index("median")
    assert {r for r, c in best if c == median} == {0}  # s00, not the virtual best row
    assert not any(speed.rows[r][0] == "virtual best" for r, _ in best)
    terminal = render_terminal(report)
    assert "* the best value of its column" in terminal
    assert re.search(r"^s00 .*\*", terminal, flags=re.M)
    assert "**" in render_markdown(report)
    html = render_html(report)
    tables = summary_tables(report) + statistics_tables(report)
    assert html.count('class="num best"') == len([cell for t in tables for cell in t.best()])


def test_sorting_is_announced_and_works_from_the_keyboard():
    html = render_html(build_report(_records(NAMES[:3]), [RUN]))
    sortable = [part.split("</thead>", 1)[0] for part in html.split('<table class="sortable">')[1:]]
    headers = [h for part in sortable for h in re.findall(r"<th [^>]*>", part)]
    assert len(sortable) > 5
    assert all('tabindex="0"' in h and 'aria-sort="none"' in h for h in headers)
    script = html.split("<script>", 1)[1]
    assert 'setAttribute("aria-sort", up ? "ascending" : "descending")' in script
    assert '"keydown"' in script
    assert 'event.key === "Enter" || event.key === " "' in script


def test_the_environment_is_a_table_of_names_and_values():
    report = build_report(_records(NAMES[:2]), [RUN])
    table = run_table(report)
    values = {row[0]: row[1] for row in table.rows}
    assert values["CPU"] == "Test CPU"
    assert values["cores (usable)"] == "2"
    assert values["memory"] == "4.0 GB"
    assert values["Python"] == "3.11.7"
    assert values["ortools"] == "9.15"
    assert values["commit"] == "abc123"
    assert values["load average at start"].startswith("0.50, 0.25, 0.12")
    assert values["load average at end"].startswith("1.50, 1.25, 1.00")
    assert values["corpora"] == "c1.txt"
    assert values["execution"] == "process, 2 workers"
    html = render_html(report)
    environment = html.split('id="environment"', 1)[1]
    assert '<table class="kv">' in environment
    assert "site-packages" not in html
    assert "python_executable" not in html
    assert '<th scope="row">load average at end</th>' in environment


def test_run_records_the_load_and_prints_its_summary_in_the_report_order(tmp_path, capsys):
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--executor", "serial", "--no-progress", "--db", str(db)]
    for solver in ("human", "dlx", "mrv", "positions"):
        args += ["--solver", solver]
    assert main(args) == 0
    printed = capsys.readouterr().out
    with Store(db, create=False) as store:
        run = store.run(1)
        for key in ("load_start", "load_end"):
            assert len(run.machine[key]) == 3
            assert all(v >= 0 for v in run.machine[key])
        report = build_report(store.results([1]), [run])
        summary = tally.rows(store, 1)
    in_report = [r.solver for r in report.summary if not r.is_vbs]
    assert [row[0] for row in summary] == in_report  # by the corpus's rank, as the report
    assert [row[-1] for row in summary] == [
        r.rank for r in report.summary if not r.is_vbs
    ]  # the same ranks as the report
    lines = [line.split()[0] for line in printed.splitlines()[3:] if line.strip()]
    assert lines == in_report


def test_a_report_command_takes_all_pairs(tmp_path, capsys):
    db = tmp_path / "db.sqlite"
    with Store(db) as store:
        run = store.start_run("synthetic", {"timeout": 1.0})
        store.add_results(_records(NAMES[:4]))
        store.finish_run(run)
    plots = tmp_path / "plots"
    assert main(["report", "--db", str(db), "--plots", str(plots), "--all-pairs"]) == 0
    capsys.readouterr()
    names = sorted(p.name for p in plots.iterdir())
    assert len([n for n in names if n.startswith("scatter-")]) == 6
    assert "versus-s00.png" in names
    assert Path(plots / "versus-s00.png").read_bytes().startswith(b"\x89PNG")


def test_a_busy_machine_is_noted():
    quiet = build_report(_records(NAMES[:2]), [RUN])
    assert not any("busy machine" in n for n in quiet.notes)
    busy = dataclasses.replace(RUN, machine={**RUN.machine, "load_end": [9.63, 7.9, 4.9]})
    notes = build_report(_records(NAMES[:2]), [busy]).notes
    assert "run 1 ran on a busy machine (load average up to 9.6 on 2 cores)" in " ".join(notes)


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
PROBE = """<script>
var th = document.querySelectorAll("table.sortable")[2].tHead.rows[0].cells[2];
th.focus();
th.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
var first = th.getAttribute("aria-sort");
th.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
var rows = Array.from(th.closest("table").tBodies[0].rows, function (r) {
  return r.cells[0].textContent;
});
document.body.setAttribute("data-probe", JSON.stringify({first: first,
  second: th.getAttribute("aria-sort"), focused: document.activeElement === th, rows: rows}));
</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason="needs a headless chromium (apt-get install chromium)")
def test_a_browser_sorts_from_the_keyboard(tmp_path):
    """The real script in a real browser: Enter sorts ascending, Space then descending."""
    report = build_report(_records(NAMES[:4]), [RUN])
    page = tmp_path / "report.html"
    page.write_text(render_html(report).replace("</body>", PROBE), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--dump-dom"]  # fmt: skip
    dom = subprocess.run(
        [str(BROWSER), *flags, page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, dom[-2000:]
    probe = json.loads(html.unescape(found.group(1)))
    assert probe["focused"]
    assert (probe["first"], probe["second"]) == ("ascending", "descending")
    medians = {r.solver: r.median_s for r in report.summary if r.corpus == "c1" and not r.is_vbs}
    slowest_first = sorted(medians, key=lambda s: -medians[s])
    assert probe["rows"] == [*slowest_first, "virtual best"]  # the VBS row stays last


def test_comparison_rows_follow_the_report_order(tmp_path, capsys):
    db = tmp_path / "db.sqlite"
    with Store(db) as store:
        for _ in range(2):
            run = store.start_run("synthetic", {"timeout": 1.0})
            stored = [dataclasses.replace(r, run_id=run) for r in _records(NAMES[:3], ("c1",))]
            store.add_results(reversed(stored))  # stored slowest solver first
            store.finish_run(run)
    out = tmp_path / "cmp.json"
    assert main(["report", "--db", str(db), "--compare", "1", "2", "--format", "json",
                 "--no-results", "--out", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    rows = json.loads(out.read_text(encoding="utf-8"))["comparison"]["rows"]
    assert [r["solver"] for r in rows] == NAMES[:3]


def test_past_the_palette_colour_and_marker_pairs_stay_unique(figures):
    names = [f"t{i:02d}" for i in range(30)]
    report = build_report(_records(names), [RUN])
    styles = plotting.solver_styles(report)
    pairs = [(styles[s]["color"], styles[s]["marker"]) for s in names]
    assert len(set(pairs)) == len(names)
