"""The report's arithmetic on examples small enough to check by hand.

PAR-2 and the virtual best solver use hand-made records (the issue asks for a
hand-checkable example); the rest of the report is tested on real solves in
test_report.py.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.records import ResultRecord
from harness.report import build_report
from harness.report.compare import (
    FASTER,
    NOISE,
    SLOWER,
    bootstrap_ratio_ci,
    compare_runs,
    parse_share,
    verdict,
)
from harness.report.findings import natural_key
from harness.report.summary import VBS, percentile
from harness.report.tables import format_seconds, format_value

LIMIT = 10.0


def _r(solver: str, puzzle: str, status: str, wall: float, **extra) -> ResultRecord:
    fields = {"verdict": "CORRECT" if status == "SOLVED" else "UNKNOWN", "repeat": 0, **extra}
    return ResultRecord(
        run_id=1, solver=solver, corpus="c", puzzle_id=puzzle, puzzle="",
        status=status, wall=wall, time_limit=LIMIT, **fields,
    )  # fmt: skip


# A: p1 0.05 s, p2 0.4 s, p3 timeout.  B: p1 0.2 s, p2 stuck, p3 3 s.
# C answers p1 in 1 ms, wrongly.
HAND = [
    _r("A", "p1", "SOLVED", 0.05),
    _r("A", "p2", "SOLVED", 0.4),
    _r("A", "p3", "TIMEOUT", LIMIT),
    _r("B", "p1", "SOLVED", 0.2),
    _r("B", "p2", "STUCK", 0.01),
    _r("B", "p3", "SOLVED", 3.0),
    _r("C", "p1", "SOLVED", 0.001, verdict="WRONG"),
]


def _rows(records, **options):
    return {r.solver: r for r in build_report(records, **options).summary}


def test_par2_by_hand():
    rows = _rows(HAND)
    assert rows["A"].par_s == pytest.approx((0.05 + 0.4 + 2 * LIMIT) / 3)
    assert rows["B"].par_s == pytest.approx((0.2 + 2 * LIMIT + 3.0) / 3)
    # a wrong answer is not solved: it costs the penalty, however fast it came
    assert rows["C"].par_s == pytest.approx(2 * LIMIT)
    assert rows["C"].solved == 0


def test_par_k_follows_the_penalty():
    rows = _rows(HAND, penalty=10)
    assert rows["A"].par_s == pytest.approx((0.05 + 0.4 + 10 * LIMIT) / 3)


def test_virtual_best_by_hand():
    rows = _rows(HAND)
    vbs = rows[VBS]
    assert vbs.is_vbs
    assert vbs.solved == 3
    # p1: A 0.05 (C's 1 ms is wrong and C is excluded), p2: A 0.4, p3: B 3.0
    assert vbs.par_s == pytest.approx((0.05 + 0.4 + 3.0) / 3)
    assert vbs.median_s == pytest.approx(0.4)
    assert (vbs.under_0_1s, vbs.under_0_5s, vbs.under_1s) == pytest.approx((1 / 3, 2 / 3, 2 / 3))
    assert rows["A"].best_share == pytest.approx(2 / 3)
    assert rows["B"].best_share == pytest.approx(1 / 3)


def test_counts_shares_and_ranks_by_hand():
    rows = _rows(HAND)
    a, b, c = rows["A"], rows["B"], rows["C"]
    assert (a.puzzles, a.solved, a.timeouts, a.stuck, a.wrong) == (3, 2, 1, 0, 0)
    assert (b.puzzles, b.solved, b.timeouts, b.stuck, b.wrong) == (3, 2, 0, 1, 0)
    assert (a.under_0_1s, a.under_0_5s, a.under_1s) == pytest.approx((1 / 3, 2 / 3, 2 / 3))
    assert (b.under_0_1s, b.under_0_5s, b.under_1s) == pytest.approx((0, 1 / 3, 1 / 3))
    assert a.mean_s == pytest.approx(0.225)
    assert a.max_s == pytest.approx(0.4)
    assert a.puzzles_per_s == pytest.approx(3 / (0.05 + 0.4 + LIMIT))
    assert (a.rank, b.rank) == (1, 2)
    assert c.flagged
    assert c.rank is None
    assert c.wrong == 1


def test_the_run_timeout_stands_in_for_a_missing_limit():
    from harness.records import RunInfo

    records = [
        ResultRecord(1, "A", "c", "p1", "", 0, "TIMEOUT", wall=5.0, verdict="UNKNOWN"),
        ResultRecord(1, "A", "c", "p2", "", 0, "SOLVED", wall=1.0, verdict="CORRECT"),
    ]
    assert _rows(records)["A"].par_s is None  # no limit known: PAR undefined, not made up
    run = RunInfo(1, "2026-01-01T00:00:00+00:00", None, "run", settings={"timeout": 5})
    assert _rows(records, runs=[run])["A"].par_s == pytest.approx((10.0 + 1.0) / 2)


def test_repeats_fold_to_the_median_time_and_the_least_favourable_status():
    records = [
        _r("A", "p1", "SOLVED", 0.1, repeat=0),
        _r("A", "p1", "SOLVED", 0.3, repeat=1),
        _r("A", "p1", "SOLVED", 0.2, repeat=2),
        _r("A", "p2", "SOLVED", 0.1, repeat=0),
        _r("A", "p2", "TIMEOUT", LIMIT, repeat=1),
    ]
    report = build_report(records)
    outcomes = {o.puzzle_id: o for o in report.outcomes}
    assert outcomes["p1"].wall == pytest.approx(0.2)
    assert outcomes["p1"].repeats == 3
    assert outcomes["p2"].status == "TIMEOUT"
    row = _rows(records)["A"]
    assert (row.puzzles, row.solved, row.timeouts) == (2, 1, 1)


def test_a_wrong_metamorphic_form_makes_the_puzzle_wrong():
    records = [
        _r("A", "p1", "SOLVED", 0.1),
        _r("A", "p1", "SOLVED", 0.1, variant=1, verdict="WRONG", reason="maps back differently"),
        _r("B", "p1", "SOLVED", 0.2),
    ]
    report = build_report(records)
    rows = {r.solver: r for r in report.summary}
    assert rows["A"].wrong == 1
    assert rows["A"].puzzles == 1  # forms do not count as puzzles
    assert rows["A"].flagged
    assert [f.detail for f in report.findings] == ["maps back differently"]
    assert report.findings[0].variant == 1


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 11)]
    assert percentile(values, 0.9) == 9
    assert percentile(values, 1.0) == 10
    assert percentile(values, 0.0) == 1
    assert percentile([4.0], 0.9) == 4
    with pytest.raises(ValueError, match="empty"):
        percentile([], 0.5)


def test_bootstrap_of_identical_and_doubled_times():
    a = [0.001 * (1 + i % 7) for i in range(50)]
    assert bootstrap_ratio_ci(a, a) == pytest.approx((1.0, 1.0))
    assert bootstrap_ratio_ci(a, [2 * t for t in a]) == pytest.approx((2.0, 2.0))
    assert bootstrap_ratio_ci(a, list(reversed(a)), seed=3) == bootstrap_ratio_ci(
        a, list(reversed(a)), seed=3
    )
    with pytest.raises(ValueError, match="same length"):
        bootstrap_ratio_ci(a, a[:-1])


@given(st.lists(st.floats(1e-6, 10.0), min_size=2, max_size=40), st.floats(0.2, 5.0))
def test_bootstrap_interval_brackets_the_ratio_of_a_uniform_change(times, factor):
    low, high = bootstrap_ratio_ci(times, [t * factor for t in times], resamples=200)
    assert low == pytest.approx(factor, rel=1e-9)
    assert high == pytest.approx(factor, rel=1e-9)


@pytest.mark.parametrize(
    ("ratio", "low", "high", "expected"),
    [
        (2.0, 1.8, 2.2, SLOWER),
        (1.03, 1.01, 1.05, NOISE),  # significant but below the 5% threshold
        (1.5, 0.9, 2.1, NOISE),  # large but the interval holds 1
        (0.5, 0.45, 0.55, FASTER),
        (0.97, 0.95, 0.99, NOISE),
    ],
)
def test_verdict_needs_both_significance_and_size(ratio, low, high, expected):
    assert verdict(ratio, low, high, noise=0.05) == expected


def test_status_changes_between_runs():
    def run(run_id, statuses):
        return [
            ResultRecord(run_id, "A", "c", p, "", 0, s, wall=0.1, verdict=v, time_limit=LIMIT)
            for p, (s, v) in statuses.items()
        ]

    a = run(1, {"p1": ("TIMEOUT", "UNKNOWN"), "p2": ("SOLVED", "CORRECT"),
                "p3": ("SOLVED", "CORRECT"), "p4": ("SOLVED", "WRONG")})  # fmt: skip
    b = run(2, {"p1": ("SOLVED", "CORRECT"), "p2": ("TIMEOUT", "UNKNOWN"),
                "p3": ("SOLVED", "WRONG"), "p4": ("SOLVED", "CORRECT")})  # fmt: skip
    report = build_report(a + b)
    side = {r: [o for o in report.outcomes if o.run_id == r] for r in (1, 2)}
    (row,) = compare_runs(side[1], side[2])
    assert (row.newly_solved, row.newly_timed_out, row.newly_wrong, row.fixed_wrong) == (2, 1, 1, 1)
    assert row.regressed(0.10)  # a new wrong answer fails the gate whatever the speed


def test_a_solver_in_one_run_only_is_reported_not_compared():
    a = [_r("A", "p1", "SOLVED", 0.1)]
    b = [ResultRecord(2, "B", "c", "p1", "", 0, "SOLVED", wall=0.1, verdict="CORRECT")]
    report = build_report(a + b)
    rows = compare_runs(
        [o for o in report.outcomes if o.run_id == 1], [o for o in report.outcomes if o.run_id == 2]
    )
    assert [(r.solver, r.verdict) for r in rows] == [("A", "only in run A"), ("B", "only in run B")]


@pytest.mark.parametrize(("text", "value"), [("10%", 0.1), ("0.25", 0.25), (" 5 % ", 0.05)])
def test_parse_share(text, value):
    assert parse_share(text.replace(" %", "%")) == pytest.approx(value)


@pytest.mark.parametrize("text", ["ten", "-5%", ""])
def test_parse_share_refuses_nonsense(text):
    with pytest.raises(ValueError, match="share"):
        parse_share(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(183e-6, "183 µs"), (0.00241, "2.41 ms"), (1.5, "1.5 s"), (12.345, "12.3 s")],
)
def test_times_read_in_a_fitting_unit(seconds, text):
    assert format_seconds(seconds) == text


def test_missing_figures_show_a_dash():
    assert format_value(None, "time") == "—"
    assert format_value(math.nan, "share") == "—"
    assert format_value(0.25, "share") == "25.0%"


def test_natural_order_of_puzzle_ids():
    ids = ["f.txt:10", "f.txt:9", "f.txt:100", "g:1"]
    assert sorted(ids, key=natural_key) == ["f.txt:9", "f.txt:10", "f.txt:100", "g:1"]


def test_penalty_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        build_report(HAND, penalty=0)


def test_a_handful_of_puzzles_gets_no_verdict():
    a = [_r("A", f"p{i}", "SOLVED", 0.1) for i in range(5)]
    b = [ResultRecord(2, "A", "c", f"p{i}", "", 0, "SOLVED", wall=0.3, verdict="CORRECT")
         for i in range(5)]  # fmt: skip
    report = build_report(a + b)
    side = [[o for o in report.outcomes if o.run_id == r] for r in (1, 2)]
    (row,) = compare_runs(*side)
    assert row.ratio == pytest.approx(3.0)
    assert row.verdict == "too few puzzles"
    assert not row.regressed(0.10)


@pytest.mark.parametrize("failure", ["MEMOUT", "ERROR", "TIMEOUT", "STUCK"])
def test_a_solver_that_solved_nothing_has_no_rank(failure):
    records = [
        _r("A", "p1", "SOLVED", 0.05),
        _r("A", "p2", "SOLVED", 0.4),
        _r("D", "p1", failure, 0.01),
        _r("D", "p2", failure, 0.01),
        _r("E", "p1", failure, 0.02),
        _r("E", "p2", failure, 0.02),
    ]
    rows = _rows(records)
    assert rows["A"].rank == 1
    assert rows["D"].rank is None
    assert rows["E"].rank is None


def test_the_run_summary_gives_no_rank_to_a_solver_that_solved_nothing(tmp_path):
    from harness import tally
    from harness.store import Store

    records = [
        _r("A", "p1", "SOLVED", 0.05),
        _r("A", "p2", "SOLVED", 0.4),
        _r("D", "p1", "MEMOUT", 0.01),
        _r("D", "p2", "MEMOUT", 0.01),
        _r("E", "p1", "ERROR", 0.01),
        _r("E", "p2", "ERROR", 0.01),
    ]
    with Store(tmp_path / "db.sqlite") as store:
        run = store.start_run("synthetic", {"timeout": LIMIT})
        store.add_results(records)
        store.finish_run(run)
        ranks = {row[0]: row[-1] for row in tally.rows(store, run)}
    assert ranks == {"A": 1, "D": "—", "E": "—"}
