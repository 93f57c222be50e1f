"""Report times: which clock, and the timer's own cost subtracted on request."""

from __future__ import annotations

import pytest

from harness.records import ResultRecord, RunInfo
from harness.report.clocks import clock_notes, retimed
from harness.report.study import build_report

PUZZLE = "1...3..2...3..2."
SOLUTION = "1234341221434321"
RUN = RunInfo(1, "2026-11-23T00:00:00+00:00", None, "test", {"timeout": 1.0, "overhead": 1e-6})


def record(solver: str, wall: float, **stats: object) -> ResultRecord:
    return ResultRecord(
        run_id=1, solver=solver, corpus="c", puzzle_id="c:1", puzzle=PUZZLE, repeat=0,
        status="SOLVED", solution=SOLUTION, solutions_found=1, exhausted=True, wall=wall,
        stats=dict(stats), verdict="CORRECT", time_limit=1.0,
    )  # fmt: skip


def walls(records, **options) -> dict[str, float | None]:
    return {r.solver: r.wall for r in retimed(records, [RUN], **options)}


def test_the_harness_clock_is_the_default_and_the_overhead_comes_off_on_request() -> None:
    records = [record("a", 5e-6, clock="solve"), record("b", 0.5e-6, clock="solve")]
    assert walls(records) == {"a": 5e-6, "b": 0.5e-6}
    subtracted = walls(records, subtract_overhead=True)
    assert subtracted["a"] == pytest.approx(4e-6)
    assert subtracted["b"] == 0.0  # never below zero


def test_the_solver_clock_uses_the_solver_s_own_time_where_it_reports_one() -> None:
    records = [record("ext", 30e-6, solver_time=2e-6), record("dlx", 1e-3)]
    assert walls(records, clock="solver") == {"ext": 2e-6, "dlx": 1e-3}
    with pytest.raises(ValueError, match="clock must be one of"):
        list(retimed(records, [RUN], clock="cpu"))


def test_the_notes_say_where_every_time_comes_from() -> None:
    records = [record("fast", 5e-6, clock="batch"), record("ext", 3e-5, solver_time=2e-6)]
    notes = " ".join(clock_notes(records, [RUN]))
    assert "1.00 µs" in notes
    assert "included in" in notes
    assert "fast: timed in batches" in notes
    assert "ext also report their own time" in notes
    notes = " ".join(clock_notes(records, [RUN], clock="solver", subtract_overhead=False))
    assert "ext: times are the solver's own measurement" in notes


def test_a_report_built_with_the_solver_clock_summarises_those_times() -> None:
    records = [record("ext", 30e-6, solver_time=2e-6)]
    harness_clock = build_report(records, [RUN])
    solver_clock = build_report(records, [RUN], clock="solver")
    assert harness_clock.times()["ext"] == [30e-6]
    assert solver_clock.times()["ext"] == [2e-6]
    assert any("solver's own measurement" in n for n in solver_clock.notes)
