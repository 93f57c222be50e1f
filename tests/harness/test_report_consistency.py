"""What a new user compares and must find consistent: the rows of every table follow
that table's rank, in every format; the counts `run` and `verify` print equal the
report's.

The tables are read back from the rendered text of each format, not from the
`Table` objects, so a renderer that reorders rows is caught too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

import solvers
from harness import tally
from harness.cli import main
from harness.records import ResultRecord, puzzle_text
from harness.report import build_report, render_html, render_latex, render_markdown
from harness.report import render_terminal as terminal_report
from harness.report.summary import VBS
from harness.store import Store
from solvers.grid import Grid
from tests.paths import PLUGINS
from tests.report_fixtures import NAMES, RUN
from tests.report_fixtures import records as _records

Parsed = list[tuple[str, list[str], list[list[str]]]]  # (title, headers, rows)


def _terminal(text: str) -> Parsed:
    tables = []
    blocks = text.split("\n\n")
    for block in blocks:
        lines = block.splitlines()
        if len(lines) > 3 and set(lines[2].replace(" ", "")) == {"-"}:
            widths = [len(m.group()) for m in re.finditer(r"-+", lines[2])]
            starts = [m.start() for m in re.finditer(r"-+", lines[2])]

            def cut(line: str, starts=starts, widths=widths) -> list[str]:
                return [line[s : s + w].strip() for s, w in zip(starts, widths, strict=True)]

            tables.append((lines[0], cut(lines[1]), [cut(x) for x in lines[3:]]))
    return tables


def _markdown(text: str) -> Parsed:
    tables = []
    summary = text.split("## Summary", 1)[1].split("\n## Findings", 1)[0]
    for section in summary.split("\n### ")[1:]:
        title, _, rest = section.partition("\n")
        table = rest.strip("\n").split("\n\n", 1)[0]
        lines = [x for x in table.splitlines() if x.startswith("|")]
        cells = [[c.strip().strip("*") for c in x.strip("|").split("|")] for x in lines]
        if cells:
            tables.append((title, cells[0], cells[2:]))
    return tables


def _latex(text: str) -> Parsed:
    tables = []
    for block in text.split("\\begin{table}")[1:]:
        title = re.search(r"\\caption\{(.*?)\. ", block).group(1)
        body = block.split("\\toprule\n", 1)[1].split("\\bottomrule", 1)[0]
        lines = [x.rstrip("\\ ").strip() for x in body.splitlines() if x.strip() != "\\midrule"]
        cells = [[re.sub(r"\\textbf\{(.*)\}", r"\1", c.strip()) for c in x.split("&")]
                 for x in lines]  # fmt: skip
        tables.append((title, cells[0], cells[1:]))
    return tables


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: Parsed = []
        self.title = ""
        self.cell: list[str] | None = None
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "h3":
            self.in_title, self.title = True, ""
        elif tag == "table":
            self.tables.append((self.title, [], []))
        elif tag == "tr" and self.tables:
            self.tables[-1][2].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "h3":
            self.in_title = False
        elif tag in ("td", "th") and self.cell is not None and self.tables:
            self.tables[-1][2][-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        if self.cell is not None:
            self.cell.append(data)


def _html(text: str) -> Parsed:
    parser = _Tables()
    parser.feed(text.split('id="summary"', 1)[1].split('id="findings"', 1)[0])
    return [(title, rows[0], rows[1:]) for title, _, rows in parser.tables]


def _rank_key(value: str) -> tuple[bool, float]:
    return (value in ("—", "--", ""), float(value) if value not in ("—", "--", "") else 0.0)


def _check_order(tables: Parsed) -> int:
    """Every table with a rank (or place, or mean rank) column reads down it; the others of
    a corpus list their solvers as that corpus's ranked table does, and the others of no
    corpus as the overall table.  Returns the tables checked."""
    order: dict[str, list[str]] = {}
    checked = 0
    for title, headers, rows in tables:
        solvers = [r[0].removesuffix(" (WRONG)") for r in rows if r[0] != VBS]
        corpus = title.split(":")[0] if ":" in title else "All corpora"
        ranked = ("rank", "place", "mean rank")
        column = next((headers.index(h) for h in ranked if h in headers), None)
        if column is not None:
            ranks = [r[column] for r in rows if r[0] != VBS]
            assert ranks == sorted(ranks, key=_rank_key), (title, ranks)
            order.setdefault(corpus, solvers)
        else:
            assert solvers == order[corpus], title
        checked += 1
    return checked


@pytest.mark.parametrize(
    ("render", "parse"),
    [(terminal_report, _terminal), (render_markdown, _markdown), (render_latex, _latex),
     (render_html, _html)],
    ids=["terminal", "markdown", "latex", "html"],
)  # fmt: skip
def test_rows_follow_the_rank_of_their_table_in_every_format(render, parse):
    records = [replace(r, stats={"nodes": 10, "guesses": i % 3}) for i, r in
               enumerate(_records(NAMES[:4]))]  # fmt: skip
    report = build_report(records, [RUN])  # s01 wins c2, s00 wins c1
    tables = parse(render(report))
    # overall, then outcomes, time and effort per corpus; and the statistics (not in the
    # terminal): the profile, a runtime distribution per corpus, the significance table
    statistics = 1 if render is terminal_report else 4
    assert _check_order(tables) == 7 + statistics
    by_title = {title: rows for title, _, rows in tables}
    assert [r[0] for r in by_title["c2: outcomes"]][:2] == ["s01", "s00"]
    assert [r[0] for r in by_title["c1: outcomes"]][:2] == ["s00", "s01"]


# -- run and verify count what the report counts ---------------------------------------
PLUGINS = str(PLUGINS)
COUNTS = ("puzzles", "solved", "stuck", "timeouts", "errors", "memouts", "wrong", "rank")


def _counts_agree(db: Path, printed: str) -> list[dict]:
    """The end-of-run table (as printed, and as `tally.rows`) against the report's summary."""
    with Store(db, create=False) as store:
        report = build_report(store.results([1]), [store.run(1)])
        tallied = [dict(zip(tally.HEADERS, row, strict=True)) for row in tally.rows(store, 1)]
    summary = [r for r in report.summary if not r.is_vbs]
    assert [(t["solver"], t["corpus"]) for t in tallied] == [(r.solver, r.corpus) for r in summary]
    for t, r in zip(tallied, summary, strict=True):
        assert {k: t[k] for k in COUNTS} == {k: getattr(r, k) or "—" if k == "rank" else
                                             getattr(r, k) for k in COUNTS}  # fmt: skip
    for t in tallied:  # the printed table holds the same numbers
        line = next(x for x in printed.splitlines() if x.startswith(f"{t['solver']} "))
        assert line.split()[2:4] == [str(t["puzzles"]), str(t["solved"])]
    return tallied


def test_run_with_repeats_counts_puzzles_as_the_report(tmp_path, capsys):
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--solver", "dlx", "--solver", "human", "--repeat", "3",
            "--executor", "serial", "--no-progress", "--db", str(db)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "run 1: 300 results" in out  # 50 puzzles x 2 solvers x 3 repeats stored
    tallied = _counts_agree(db, out)
    assert [t["puzzles"] for t in tallied] == [50, 50]
    assert (
        "note: counts are per puzzle, as in the report: each puzzle's 3 repeats fold into one"
        in out
    )


def test_verify_counts_puzzles_as_the_report(tmp_path, monkeypatch, capsys, faulty):
    monkeypatch.chdir(PLUGINS)  # --plugin imports from the current directory
    db = tmp_path / "db.sqlite"
    # wrong on every form of every puzzle, and on the puzzles as given unless their text
    # starts with ".": the findings outnumber the puzzles
    status = main(["verify", "--corpus", "gen4", "--solver", "dlx",
                   "--solver", "faulty[fault=wrong,spare=.]", "--plugin", "faulty_solvers",
                   "--executor", "serial", "--no-progress", "--db", str(db)])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1
    tallied = _counts_agree(db, out)
    wrong = {t["solver"]: t["wrong"] for t in tallied}
    findings = int(re.search(r"verify: (\d+) findings on (\d+) solver x puzzle", out).group(1))
    pairs = int(re.search(r"verify: \d+ findings on (\d+) solver x puzzle", out).group(1))
    assert wrong["dlx"] == 0
    assert wrong["faulty[fault=wrong,spare=.]"] == pairs < findings
    assert "the table above and the report count a puzzle once" in out
    assert "each puzzle's 2 equivalent forms count with it (wrong when any form was)" in out


# -- findings: square grids, explanations that wrap between words, folded groups -------
def _wrong_records(count: int) -> list[ResultRecord]:
    """`count` puzzles that "botch" answers with two cells swapped and "right" solves."""
    from solvers.testing import PUZZLE_9X9_EASY

    grid = Grid.parse(PUZZLE_9X9_EASY)
    solution = puzzle_text(solvers.get("dlx").solve(grid).solutions[0])[0]
    botched = solution[1] + solution[0] + solution[2:]
    text = puzzle_text(grid)[0]
    records = []
    for i in range(count):
        answers = (("right", solution, "CORRECT"), ("botch", botched, "WRONG"))
        for solver, answer, verdict in answers:
            records.append(ResultRecord(1, solver, "c", f"c:{i + 1}", text, 0, "SOLVED",
                                        solution=answer, wall=0.001, cpu=0.001, verdict=verdict,
                                        reason="a cell breaks a row", time_limit=1.0))  # fmt: skip
    return records


def test_html_findings_are_grouped_folded_and_show_square_grids():
    report = build_report(_wrong_records(12), [RUN])
    page = render_html(report)
    section = page.split('id="findings"', 1)[1].split("</h2>", 1)[1].split("<h2", 1)[0]
    assert "12 findings in 1 group" in section
    assert section.count('<details class="findings"') == 1
    assert '<details class="findings" id="findings-1">' in section  # folded: > 10 findings
    assert "<summary>botch: 12 wrong answers</summary>" in section
    grids = re.findall(r'<code class="grid">(.*?)</code>', section, flags=re.S)
    assert len(grids) == 12 * 3  # puzzle, answer and the other answer of each finding
    for grid in grids:
        rows = re.sub(r"</?mark>", "", grid).split("\n")
        assert [len(r) for r in rows] == [9] * 9
    assert grids[1].startswith("<mark>")  # the swapped cells are marked
    what = re.findall(r'<td class="what">([^<]*)</td>', section)
    assert what == ["a cell breaks a row"] * 12
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    assert re.search(r"td\.what\{white-space:normal", style)
    assert "break-all" not in re.search(r"td\.what\{[^}]*\}", style).group()
    few = render_html(build_report(_wrong_records(3), [RUN]))
    assert '<details class="findings" id="findings-1" open>' in few  # few findings: open


def test_markdown_findings_come_under_a_heading_per_solver_and_kind():
    text = render_markdown(build_report(_wrong_records(4), [RUN]))
    findings = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "Findings: 4, in 1 group (one per solver and kind):" in findings
    assert "- botch: 4 wrong answers" in findings
    assert "### botch: 4 wrong answers" in findings
    assert findings.count("| c ") == 4


# -- the context a reader needs ----------------------------------------------------------
@pytest.fixture(scope="module")
def studied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1 from a study file (mrv with its defaults, cpsat with one parameter changed);
    run 2 the same solvers on two workers."""
    folder = tmp_path_factory.mktemp("studied")
    study = folder / "tiny.toml"
    study.write_text('name = "tiny study"\ncorpora = ["gen4"]\ntimeout = 5\n'
                     "[solvers]\nmrv = {}\ncpsat = {model = [\"boolean\"]}\n")  # fmt: skip
    db = folder / "db.sqlite"
    common = ["--executor", "serial", "--no-progress", "--db", str(db)]
    assert main(["run", str(study), *common]) == 0
    again = ["--corpus", "gen4", "--solver", "mrv", "--solver", "cpsat[model=boolean]"]
    assert main(["run", *again, "--timeout", "5", "--jobs", "2", "--db", str(db)]) == 0
    return db


def test_the_study_file_and_every_parameter_are_in_the_report(studied, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", "--db", str(studied), "--run", "1", "--format", "html", "--out",
                 str(out), "--no-plots"]) == 0  # fmt: skip
    md = tmp_path / "r.md"
    assert main(["report", "--db", str(studied), "--run", "1", "--format", "md", "--out",
                 str(md), "--no-plots"]) == 0  # fmt: skip
    assert main(["report", "--db", str(studied), "--run", "1"]) == 0
    terminal = capsys.readouterr().out
    assert terminal.startswith("run 1 (study tiny study): ")
    page = out.read_text(encoding="utf-8")
    assert "study file of run 1: tiny study (" in page
    assert "cpsat = {model = [&quot;boolean&quot;]}" in page  # the file's text
    assert '<td class="text">model=boolean, workers=1 (default), seed=0 (default)' in page
    assert re.search(r"singles=\w+ \(default\)", page)
    text = md.read_text(encoding="utf-8")
    assert '```toml\nname = "tiny study"' in text
    assert "### Solvers" in text
    assert "| study " in text


def test_latex_tables_each_have_a_label(studied, capsys):
    assert main(["report", "--db", str(studied), "--run", "1", "--run", "2", "--format",
                 "latex"]) == 0  # fmt: skip
    latex = capsys.readouterr().out
    tables = latex.count("\\begin{table}")
    labels = re.findall(r"\\label\{([^}]*)\}", latex)
    assert len(labels) == tables >= 3
    assert len(set(labels)) == len(labels)
    assert "tab:gen4-outcomes" in labels


def test_compare_prints_the_comparison_alone_and_warns_of_different_settings(studied, capsys):
    assert main(["report", "--db", str(studied), "--compare", "1", "2"]) == 0
    out = capsys.readouterr().out
    assert "Run 2 (B) against run 1 (A)" in out
    assert ": outcomes" not in out  # not the whole report first
    assert "note: runs 1 and 2 were not run alike (parallel workers (--jobs): 1 in run 1, " in out
    assert "The tables of each run: sudoku-bench report --run 1 --run 2" in out


def test_the_report_defines_stuck_and_memouts(studied, capsys):
    assert main(["report", "--db", str(studied), "--format", "md"]) == 0
    out = capsys.readouterr().out
    definitions = out.split("## Definitions", 1)[1]
    assert "stuck: an incomplete method" in definitions
    assert "memouts: the worker went over its memory limit" in definitions


def test_rate_help_gives_the_measured_cost(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "about 10 ms" not in text
    assert "tens of ms each" in text


def test_the_csv_and_json_summaries_follow_each_corpuss_rank():
    import csv
    import io

    from harness.report import render_data

    report = build_report(_records(NAMES[:4]), [RUN])
    rows = list(csv.DictReader(io.StringIO(render_data.summary_csv(report))))
    document = render_data.document(report, None)
    for table in (rows, document["summary"]):
        for corpus in ("c1", "c2"):
            ranks = [str(r["rank"]) for r in table if r["corpus"] == corpus
                     and r["solver"] != VBS]  # fmt: skip
            assert ranks == ["1", "2", "3", "4"]
