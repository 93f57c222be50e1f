"""The findings section of the HTML report: a line per solver and kind, the rows folded.

Grids are shown square (nine rows of nine for a 9x9 puzzle) in a monospace
font, never broken inside a row; the cells where an answer differs from the
other answer are marked.  Explanations wrap between words.  Every stored
string goes through `html.escape`.
"""

from __future__ import annotations

from html import escape

from harness.report.finding_groups import FindingGroup, grid_rows, group_findings
from harness.report.findings import Finding
from harness.report.study import Report

STYLE = """
details.findings{margin:.4em 0}details.findings summary{cursor:pointer;font-weight:600}
code.grid{display:block;white-space:pre;font:12px/1.2 ui-monospace,monospace;background:none;
padding:0}code.grid mark{background:#f6c7c0}
td.what{white-space:normal;min-width:14em;max-width:28em;text-align:left}
td.cell{text-align:left;vertical-align:top}
"""
OPEN_UP_TO = 10  # with this many findings or fewer, every group starts open


def _grid(text: str, other: str | None = None) -> str:
    """`text` (an answer or a puzzle) as a status line and a square grid, where it has one."""
    head, rows = grid_rows(text)
    if not rows:
        return f"<code>{escape(text)}</code>"
    _, theirs = grid_rows(other) if other else ("", [])
    if len(theirs) != len(rows):
        theirs = []
    lines = []
    for i, row in enumerate(rows):
        cells = [
            f"<mark>{escape(c)}</mark>" if theirs and theirs[i][j] != c else escape(c)
            for j, c in enumerate(row)
        ]
        lines.append("".join(cells))
    status = f"{escape(head)}<br>" if head else ""
    return f'{status}<code class="grid">' + "\n".join(lines) + "</code>"


def _row(f: Finding) -> str:
    form = f" (form {f.variant})" if f.variant else ""
    cells = [
        escape(f.corpus),
        f"{escape(f.puzzle_id)}{escape(form)}{_grid(f.puzzle)}",
        _grid(f.answer, f.other_answer),
        escape(f.other_solver or "—"),
        _grid(f.other_answer, f.answer) if f.other_answer else "—",
    ]
    return (
        "<tr>"
        + "".join(f'<td class="cell">{c}</td>' for c in cells)
        + f'<td class="what">{escape(f.detail)}</td></tr>'
    )


HEAD = "".join(
    f'<th class="text">{h}</th>'
    for h in ("corpus", "puzzle", "answer", "other solver", "other answer", "what")
)


def _group(index: int, group: FindingGroup, opened: bool) -> str:
    rows = "".join(_row(f) for f in group.findings)
    return (
        f'<details class="findings" id="findings-{index}"{" open" if opened else ""}>'
        f"<summary>{escape(group.title)}</summary>"
        f'<div class="scroll"><table><thead><tr>{HEAD}</tr></thead><tbody>{rows}</tbody>'
        "</table></div></details>"
    )


def findings_html(report: Report) -> list[str]:
    """The parts of the findings section: a count, one folded group per solver and kind."""
    if not report.findings:
        return ["<p>None: no wrong answer and no disagreement.</p>"]
    groups = group_findings(report.findings, report.solvers)
    total = len(report.findings)
    lines = [
        f"<p>{total} finding{'s' if total != 1 else ''} in {len(groups)} "
        f"group{'s' if len(groups) != 1 else ''} (one per solver and kind); open a group to "
        "see its puzzles and answers (the cells where two answers differ are marked).</p>"
    ]
    lines += [_group(i, g, total <= OPEN_UP_TO) for i, g in enumerate(groups, 1)]
    return lines
