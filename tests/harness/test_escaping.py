"""The same hostile names through every report format: data stays data.

Corpus names, puzzle ids, solver specs, error texts and the command line are
stored text; each format must show them without running them: no raw HTML
in Markdown or HTML, no formula a spreadsheet would evaluate in CSV, no
terminal escape sequence, no LaTeX command, and JSON keeps them exactly.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from harness.records import ResultRecord, RunInfo
from harness.report import build_report, render_data, render_html, render_latex, render_markdown
from harness.report.escape import FORMULA_STARTS, markdown_code, spreadsheet, terminal
from harness.report.render_text import render_terminal

CORPUS = (
    '=HYPERLINK("http://x","y")<img src=x onerror=alert(1)>\x1b]0;owned\x07\\input{/etc/passwd}'
)
SOLVER = "external[cmd='<script>alert(1)</script><svg onload=alert(2)>']"
PUZZLE_ID = "+cmd|' /C calc'!A0"
ERROR = "-2+3 <b onmouseover=alert(3)>x</b>"
REASON = "@SUM(1) false UNSOLVABLE <svg onload=alert(4)>"
COMMAND = "sudoku-bench run --corpus '<script>x</script>' `rm -rf`"
HOSTILE = (CORPUS, SOLVER, PUZZLE_ID, ERROR, REASON)
PUZZLE, SOLUTION = "1...3..2...3..2.", "1234341221434321"
RAW_MARKUP = ("<img", "<script", "<svg", "<b ")


def _records() -> list[ResultRecord]:
    def record(solver: str, pid: str, status: str, **fields) -> ResultRecord:
        return ResultRecord(1, solver, CORPUS, pid, PUZZLE, 0, status, wall=0.001, cpu=0.001,
                            time_limit=1.0, **fields)  # fmt: skip

    return [
        record("dlx", PUZZLE_ID, "SOLVED", solution=SOLUTION, verdict="CORRECT"),
        record(SOLVER, PUZZLE_ID, "UNSOLVABLE", verdict="WRONG", reason=REASON),
        record("dlx", "=1+1", "SOLVED", solution=SOLUTION, verdict="CORRECT"),
        record(SOLVER, "=1+1", "ERROR", verdict="UNKNOWN", error=ERROR),
    ]


RUN = RunInfo(1, "2026-01-01T00:00:00+00:00", None, COMMAND, settings={"timeout": 1.0,
              "corpora": [CORPUS]}, machine={"cpu": "<img src=y onerror=alert(5)>"})  # fmt: skip


@pytest.fixture(scope="module")
def report():
    return build_report(_records(), [RUN], command=COMMAND)


def test_terminal_shows_control_characters_as_text(report) -> None:
    text = render_terminal(report)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "\\x1b]0;owned\\x07" in text


def test_markdown_escapes_html_everywhere(report) -> None:
    text = render_markdown(report)
    # the command is one code span, whose text Markdown never reads as HTML
    command = f"Report made by {markdown_code(COMMAND)}."
    assert command in text
    text = text.replace(command, "")
    for tag in RAW_MARKUP:
        assert tag not in text, tag
    assert "&lt;img src=x onerror=alert(1)&gt;" in text  # the corpus, in headings and cells
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # the solver spec
    assert "\x1b" not in text


def test_html_escapes_every_stored_string(report) -> None:
    text = render_html(report)
    # the page's script and the per-puzzle matrix's data (JSON, "<" escaped), no other
    assert text.count("<script") == 2
    assert text.count('<script type="application/json" id="matrix-data">') == 1
    for tag in RAW_MARKUP:
        assert tag == "<script" or tag not in text, tag
    assert "&lt;svg onload=alert(2)&gt;" in text


def test_csv_neutralises_every_formula(report) -> None:
    out = io.StringIO()
    render_data.write_csv(
        render_data.result_rows(report, _records()), render_data.RESULT_COLUMNS, out
    )
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    summary = list(csv.reader(io.StringIO(render_data.summary_csv(report))))
    cells = [cell for row in rows + summary for cell in row]
    assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
    results = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert {r["corpus"] for r in results} == {"'" + CORPUS}
    assert {r["puzzle_id"] for r in results} == {"'" + PUZZLE_ID, "'=1+1"}
    assert "'" + ERROR in {r["error"] for r in results}
    assert "'" + REASON in {r["reason"] for r in results}


def test_json_keeps_every_string_exactly(report) -> None:
    out = io.StringIO()
    render_data.write_json(report, render_data.result_rows(report, _records()), out)
    document = json.loads(out.getvalue())
    assert {r["corpus"] for r in document["summary"]} == {CORPUS}
    assert {r["puzzle_id"] for r in document["results"]} == {PUZZLE_ID, "=1+1"}
    assert SOLVER in {r["solver"] for r in document["summary"]}
    assert document["command"] == COMMAND


def test_latex_escapes_commands_and_control_characters(report) -> None:
    text = render_latex(report)
    assert "\\input{" not in text
    assert "\\textbackslash{}input\\{/etc/passwd\\}" in text
    assert "\x1b" not in text


@pytest.mark.parametrize("start", list(FORMULA_STARTS))
def test_each_formula_start_is_neutralised(start: str) -> None:
    assert spreadsheet(f"{start}1") == f"'{start}1"
    assert spreadsheet(f"a{start}1") == f"a{start}1"


def test_numbers_and_plain_text_are_left_alone() -> None:
    assert spreadsheet(-3) == -3
    assert spreadsheet("gen9-easy:12") == "gen9-easy:12"
    assert terminal("tab\tand\nline") == "tab\tand\nline"


def test_the_hostile_names_are_all_used() -> None:
    text = json.dumps([r.__dict__ for r in _records()])
    assert all(json.dumps(h)[1:-1] in text for h in HOSTILE)
