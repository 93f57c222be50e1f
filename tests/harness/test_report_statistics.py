"""The comparison statistics on data small enough to check by hand.

Synthetic records with fixed times: the profile shares, the Kaplan–Meier
estimate (with a censored puzzle before a solved one, where it differs from a
plain share), the Friedman test and the Nemenyi critical difference of
Demšar's table, the rank correlations; and a report without the optional
packages, which says what to install.
"""

from __future__ import annotations

import math

import pytest

from harness.records import ResultRecord, RunInfo
from harness.report import (
    build_report,
    optional,
    render_html,
    render_latex,
    render_markdown,
    statistics,
)
from harness.report.hardness import GIVENS, RATING, correlations
from harness.report.profiles import performance_profiles
from harness.report.significance import significance
from harness.report.survival import runtime_curves

RUN = RunInfo(1, "2026-01-01T00:00:00+00:00", "2026-01-01T00:01:00+00:00", "test",
              settings={"timeout": 10.0})  # fmt: skip
EASY = "1" * 30 + "." * 51  # a one-line "grid" with 30 givens (only the count matters here)


def _record(
    solver: str,
    puzzle: int,
    wall: float | None,
    *,
    limit: float = 10.0,
    corpus: str = "c",
    text: str = EASY,
    wrong: bool = False,
) -> ResultRecord:
    status = "SOLVED" if wall is not None else "TIMEOUT"
    return ResultRecord(
        1, solver, corpus, f"{corpus}:{puzzle}", text, 0, status,
        wall=wall if wall is not None else limit, cpu=0.0,
        verdict=("WRONG" if wrong else "CORRECT") if wall is not None else None,
        time_limit=limit,
    )  # fmt: skip


def test_performance_profile_shares_by_hand():
    times = {  # puzzle -> solver -> time (None: unsolved)
        1: {"a": 1.0, "b": 2.0, "c": 4.0},
        2: {"a": 3.0, "b": 1.0, "c": None},
        3: {"a": 1.0, "b": 1.0, "c": 1.0},
        4: {"a": None, "b": None, "c": None},
    }
    records = [_record(s, p, t) for p, row in times.items() for s, t in row.items()]
    profiles = {p.solver: p for p in performance_profiles(build_report(records, [RUN]))}
    a, b, c = profiles["a"], profiles["b"], profiles["c"]
    assert a.puzzles == 4
    assert [a.share(1), a.share(2), a.share(3)] == [0.5, 0.5, 0.75]  # 1, 1, 3
    assert [b.share(1), b.share(2)] == [0.5, 0.75]  # 2, 1, 1
    assert [c.share(1), c.share(4), c.share(1e9)] == [0.25, 0.5, 0.5]  # 4, -, 1
    assert (a.solved, b.solved, c.solved) == (0.75, 0.75, 0.5)


def test_kaplan_meier_counts_a_puzzle_censored_early_out_of_the_risk_set():
    # solved at 1, censored at its own limit 2, solved at 3 and 4 (limits 10)
    records = [_record("a", 1, 1.0), _record("a", 2, None, limit=2.0), _record("a", 3, 3.0),
               _record("a", 4, 4.0)]  # fmt: skip
    (curve,) = runtime_curves(build_report(records, [RUN]), "c")
    assert curve.times == [1.0, 3.0, 4.0]
    # S: 3/4, then 3/4 x 1/2 (two at risk at 3 s), then 0: F = 1 - S
    assert curve.solved_share == pytest.approx([0.25, 0.625, 1.0])
    assert curve.quantiles == {0.25: 1.0, 0.5: 3.0, 0.75: 4.0}
    assert all(lo <= f <= hi for lo, f, hi in zip(curve.low, curve.solved_share, curve.high,
                                                  strict=True))  # fmt: skip


def test_a_quantile_not_reached_within_the_limit_is_none():
    records = [_record("a", 1, 1.0), _record("a", 2, None), _record("a", 3, None)]
    (curve,) = runtime_curves(build_report(records, [RUN]), "c")
    assert curve.solved_share == pytest.approx([1 / 3])
    assert curve.quantiles == {0.25: 1.0, 0.5: None, 0.75: None}


def _ordered(solvers: int, puzzles: int) -> list[ResultRecord]:
    """Solver i takes (i + 1) ms on every puzzle: a consistent order."""
    return [_record(f"s{i}", p, 0.001 * (i + 1) * (1 + p % 3)) for p in range(puzzles)
            for i in range(solvers)]  # fmt: skip


def test_friedman_and_the_nemenyi_critical_difference_of_demsars_table():
    result = significance(build_report(_ordered(4, 20), [RUN]))
    assert result is not None
    assert result.solvers == ["s0", "s1", "s2", "s3"]
    assert result.mean_ranks == {"s0": 1.0, "s1": 2.0, "s2": 3.0, "s3": 4.0}
    assert result.p_value < 1e-6
    # Demšar (2006), Table 5: q(0.05) = 2.569 for four classifiers
    assert result.critical_difference == pytest.approx(2.569 * math.sqrt(4 * 5 / (6 * 20)),
                                                       abs=1e-3)  # fmt: skip
    assert result.pairwise[("s0", "s3")] < 0.05
    assert "s0" not in result.same_as("s3")


def test_significance_leaves_out_wrong_solvers_and_needs_three():
    records = _ordered(3, 10)
    records = [r if r.solver != "s2" or r.puzzle_id != "c:0" else
               ResultRecord(**{**r.__dict__, "verdict": "WRONG"}) for r in records]  # fmt: skip
    report = build_report(records, [RUN])
    assert report.flagged == {"s2"}
    assert significance(report) is None  # two solvers compete


def test_rank_correlations_with_the_rating_and_the_givens():
    records = []
    for p in range(8):
        text = "1" * (20 + p) + "." * (61 - p)  # more givens, more time
        records.append(_record("a", p, 0.001 * (p + 1), text=text))
        records.append(_record("b", p, 0.001 * (8 - p), text=text))
    report = build_report(records, [RUN])
    report.ratings.update({("c", f"c:{p}"): float(p) for p in range(8)})
    found = {(c.solver, c.feature): c for c in correlations(report)}
    assert found[("a", GIVENS)].rho == pytest.approx(1.0)
    assert found[("b", GIVENS)].rho == pytest.approx(-1.0)
    assert found[("a", RATING)].rho == pytest.approx(1.0)
    assert found[("a", RATING)].puzzles == 8


def test_every_format_shows_the_statistics():
    report = build_report(_ordered(4, 20), [RUN])
    md, latex, page = render_markdown(report), render_latex(report), render_html(report)
    for title in ("Performance profile", "c: runtime distribution",
                  "Significance: Friedman test and Nemenyi post-hoc"):  # fmt: skip
        assert f"### {title}" in md
        assert f"<h3>{title}</h3>" in page
        assert f"\\caption{{{title}" in latex
    assert 'id="statistics"' in page


def test_without_the_statistics_packages_the_report_says_what_to_install(monkeypatch):
    def missing(module: str, purpose: str):
        raise optional.MissingStats(f"{purpose} needs {module}: {optional.INSTALL}")

    for module in ("survival", "significance", "hardness"):
        monkeypatch.setattr(f"harness.report.{module}.need", missing)
    report = build_report(_ordered(4, 20), [RUN])
    assert report.statistics is not None
    assert report.statistics.profiles  # needs numpy only
    assert report.statistics.significance is None
    assert report.statistics.curves == {}
    page = render_html(report)
    assert "pip install &#x27;sudoku-bench[stats]&#x27;" in page
    assert "Performance profile" in page
    assert statistics.compute(report).missing
