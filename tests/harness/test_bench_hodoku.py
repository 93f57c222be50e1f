"""The HoDoKu comparison benchmark: it rates with both programs and prints agreement figures."""

from __future__ import annotations

import pytest

from harness.bench import hodoku as bench


def test_agreement_counts_levels_scores_and_rank_correlation():
    pairs = [
        bench.Pair("a", 100, "Easy", 100, "Easy", True),
        bench.Pair("b", 210, "Medium", 200, "Medium", True),  # within 5%
        bench.Pair("c", 400, "Hard", 300, "Medium", True),
        bench.Pair("d", 900, "Hard", 1000, "Hard", True),
    ]
    figures = bench.agreement("set", pairs)
    assert (figures.level_equal, figures.score_equal, figures.score_within_5) == (3, 1, 2)
    assert figures.spearman == pytest.approx(1.0)  # the same order
    assert figures.row()[2:5] == ["75.0%", "25.0%", "50.0%"]


def test_the_program_rates_a_corpus_with_both(capsys):
    pytest.importorskip("hodoku", reason="needs hodoku-py: pip install 'sudoku-bench[hodoku]'")
    pytest.importorskip("scipy", reason="needs scipy: pip install 'sudoku-bench[hodoku]'")
    assert bench.main(["gen9-easy", "--sample", "6", "--misses"]) == 0
    out = capsys.readouterr().out
    table = [line for line in out.splitlines() if line.startswith("| gen9-easy |")]
    assert len(table) == 1
    assert table[0].split("|")[2].strip() == "6"


def test_a_missing_corpus_is_one_line_and_status_2(capsys):
    pytest.importorskip("hodoku", reason="needs hodoku-py: pip install 'sudoku-bench[hodoku]'")
    assert bench.main(["no-such-file.txt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "no-such-file.txt" in err[0]


def test_the_pass_alone_is_timed_per_set(capsys):
    from harness.bench import hodoku_pass

    assert hodoku_pass.main(["gen9-hard", "--sample", "3"]) == 0
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| gen9")]
    assert len(table) == 1
    cells = [c.strip() for c in table[0].strip("|").split("|")]
    assert cells[:2] == ["gen9-hard", "3"]
    assert len(cells) == len(hodoku_pass.HEADER)
