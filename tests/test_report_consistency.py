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

import pytest

from harness.report import build_report, render_html, render_latex, render_markdown
from harness.report import render_terminal as terminal_report
from harness.report.summary import VBS
from tests.test_report_publish import NAMES, RUN, _records

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
    for section in text.split("\n### ")[1:]:
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
    """Every table with a rank (or place) column reads down it; the others of a corpus
    list their solvers as that corpus's ranked table does.  Returns the tables checked."""
    order: dict[str, list[str]] = {}
    checked = 0
    for title, headers, rows in tables:
        solvers = [r[0].removesuffix(" (WRONG)") for r in rows if r[0] != VBS]
        corpus = title.split(":")[0]
        column = next((headers.index(h) for h in ("rank", "place") if h in headers), None)
        if column is not None:
            ranks = [r[column] for r in rows if r[0] != VBS]
            assert ranks == sorted(ranks, key=_rank_key), (title, ranks)
            order[corpus] = solvers
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
    assert _check_order(tables) == 7  # overall, then outcomes, time and effort per corpus
    by_title = {title: rows for title, _, rows in tables}
    assert [r[0] for r in by_title["c2: outcomes"]][:2] == ["s01", "s00"]
    assert [r[0] for r in by_title["c1: outcomes"]][:2] == ["s00", "s01"]
