"""Spread over repeats: the median with its bootstrap 95% interval, the CV, solvers within noise."""

from __future__ import annotations

import json

import pytest

from harness.cli import main
from harness.records import ResultRecord
from harness.report import build_report
from harness.report.render_data import SCHEMA, document
from harness.report.render_text import render_markdown, render_terminal
from harness.report.spread import spread
from harness.report.tables import summary_tables

NOISE = (0.98, 1.0, 1.03)  # each puzzle's three repeats, relative to its own time


def records(solver: str, scale: float, puzzles: int = 40, noise=NOISE) -> list[ResultRecord]:
    """`puzzles` puzzles of rising difficulty, each solved len(noise) times."""
    return [
        ResultRecord(
            1,
            solver,
            "c",
            f"p{p}",
            "",
            repeat,
            "SOLVED",
            wall=scale * (1 + p / 10) * factor,
            verdict="CORRECT",
            time_limit=10.0,
        )  # fmt: skip
        for p in range(puzzles)
        for repeat, factor in enumerate(noise)
    ]


def rows(*groups: list[ResultRecord]) -> dict:
    report = build_report([r for g in groups for r in g])
    return {r.solver: r for r in report.summary if not r.is_vbs}


def test_the_cv_of_one_puzzle_by_hand() -> None:
    found = spread([(1.0, 2.0, 3.0), (4.0, 4.0, 4.0)])
    # CVs 1/2 and 0: their median is 1/4; the six times 1 2 3 4 4 4 have the median 3.5
    assert found.cv == pytest.approx(0.25)
    assert found.median_s == pytest.approx(3.5)
    assert found.low_s <= found.median_s <= found.high_s


def test_puzzles_timed_once_count_but_give_no_interval_alone() -> None:
    alone = spread([(1.0,), (2.0,), (3.0,)])
    assert (alone.median_s, alone.low_s, alone.high_s, alone.cv) == (2.0, None, None, None)
    assert spread([]) is None


def test_solvers_within_noise_are_shown_as_such() -> None:
    found = rows(records("A", 1e-3), records("B", 1.004e-3), records("C", 2e-3))
    a, b, c = found["A"], found["B"], found["C"]
    for row in (a, b, c):
        assert row.median_ci_low_s <= row.repeats_median_s <= row.median_ci_high_s
        assert row.cv == pytest.approx(0.0251, abs=1e-3)  # the NOISE triple's CV
    assert a.within_noise == ("B",)
    assert b.within_noise == ("A",)
    assert c.within_noise == ()
    assert c.median_ci_low_s > b.median_ci_high_s


def test_more_noise_widens_the_interval() -> None:
    quiet = rows(records("A", 1e-3, noise=(0.99, 1.0, 1.01)))["A"]
    loud = rows(records("A", 1e-3, noise=(0.7, 1.0, 1.4)))["A"]
    width = lambda r: r.median_ci_high_s - r.median_ci_low_s  # noqa: E731
    assert width(loud) > 5 * width(quiet)
    assert loud.cv > 5 * quiet.cv


def test_without_repeats_there_is_no_spread() -> None:
    report = build_report(records("A", 1e-3, noise=(1.0,)))
    (row,) = [r for r in report.summary if not r.is_vbs]
    assert (row.median_ci_low_s, row.cv, row.within_noise) == (None, None, ())
    assert not any("spread" in t.title for t in summary_tables(report))


def test_the_spread_table_and_json_carry_the_figures() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    report = build_report(records("A", 1e-3) + records("B", 1.004e-3))
    (table,) = [t for t in summary_tables(report) if "spread" in t.title]
    assert [c.header for c in table.columns] == [
        "solver", "median", "95% low", "95% high", "CV", "within noise of",
    ]  # fmt: skip
    assert "c: spread over the repeats" in render_terminal(report)
    assert "### c: spread over the repeats" in render_markdown(report)
    data = json.loads(json.dumps(document(report, None)))
    jsonschema.validate(data, SCHEMA)
    a = next(r for r in data["summary"] if r["solver"] == "A")
    assert a["within_noise"] == ["B"]
    assert a["median_ci_low_s"] < a["repeats_median_s"] < a["median_ci_high_s"]


def test_a_run_with_repeats_reports_its_spread(tmp_path, capsys) -> None:
    db = str(tmp_path / "db.sqlite")
    run = ["run", "--corpus", "gen4", "--solver", "dlx", "--solver", "mrv", "--repeat", "3"]
    assert main([*run, "--executor", "serial", "--db", db, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", db]) == 0
    out = capsys.readouterr().out
    table = out.split("gen4: spread over the repeats", 1)[1].split("\n\n", 1)[0]
    lines = table.strip().splitlines()
    assert lines[0].split() == ["solver", "median", "95%", "low", "95%", "high", "CV", "within",
                                "noise", "of"]  # fmt: skip
    assert {line.split()[0] for line in lines[2:]} == {"dlx", "mrv"}
    assert all("%" in line for line in lines[2:])  # a CV for each
