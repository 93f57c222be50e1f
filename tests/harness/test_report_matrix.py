"""The per-puzzle matrix's data: compact, escaped, disagreements first, optional."""

from __future__ import annotations

import json
import re

from harness.records import ResultRecord, RunInfo
from harness.report import build_report, render_html
from harness.report.matrix import STATUSES, matrix

RUN = RunInfo(1, "2026-01-01T00:00:00+00:00", None, "test", settings={"timeout": 1.0})
SOLVED = "1234341221434321"
PUZZLE = "1...3..2...3..2."  # 4x4
BOTCHED = "2134" + SOLVED[4:]  # two cells swapped


def _records(count: int, nasty: str = "p") -> list[ResultRecord]:
    records = []
    for i in range(count):
        for solver in ("a", "b"):
            wrong = solver == "b" and i % 4 == 3
            answer = BOTCHED if wrong else SOLVED
            verdict, reason = ("WRONG", "bad grid") if wrong else ("CORRECT", "")
            record = ResultRecord(1, solver, "c", f"{nasty}{i}", PUZZLE, 0, "SOLVED",
                                  solution=answer, wall=0.001 * (i + 1), cpu=0.0,
                                  verdict=verdict, reason=reason, time_limit=1.0)  # fmt: skip
            records.append(record)
    records.append(ResultRecord(1, "a", "c", f"{nasty}x", PUZZLE, 0, "ERROR", wall=0.5,
                                error="</script><b>boom</b>", time_limit=1.0))  # fmt: skip
    return records


def test_cells_point_into_each_puzzles_answers_and_texts():
    data = matrix(build_report(_records(8), [RUN]))
    assert data.solvers == ["a", "b"]
    rows = {row[1]: row for row in data.rows}
    corpus, pid, puzzle, disagree, answers, texts, cells = rows["p3"]
    assert (puzzle, disagree) == (PUZZLE, 1)
    assert answers == [SOLVED, BOTCHED]
    a, b = cells
    assert (STATUSES[a[0]], a[2], a[3]) == ("SOLVED", 0, -1)
    assert (STATUSES[b[0]], b[2], texts[b[3]]) == ("WRONG", 1, "bad grid")
    assert rows["p0"][3] == 0  # they agree
    error = rows["px"]
    assert error[6][1] is None  # b never ran it
    assert error[5] == ["</script><b>boom</b>"]


def test_past_the_limit_the_disagreements_come_first():
    data = matrix(build_report(_records(20), [RUN]), limit=5)
    assert data.puzzles == 21
    assert [row[1] for row in data.rows] == ["p3", "p7", "p11", "p15", "p19"]


def test_stored_text_cannot_end_the_script_and_the_matrix_is_optional():
    page = render_html(build_report(_records(4, nasty="</script>"), [RUN]))
    data = page.split('<script type="application/json" id="matrix-data">', 1)[1]
    data = data.split("</script>", 1)[0]
    assert not set("<>") & set(data)
    assert json.loads(data)["rows"][0][1].startswith("</script>")
    assert "<b>boom</b>" not in page
    assert len(re.findall(r"</script>", page)) == 2  # the data's and the page script's
    none = render_html(build_report(_records(4), [RUN]), matrix_puzzles=0)
    assert 'id="matrix-data"' not in none
    assert 'href="#puzzles"' not in none
