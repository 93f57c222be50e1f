"""`python -m harness.bench.human_ab`: the worker's rows and the comparison of two versions."""

from __future__ import annotations

import json

from harness.bench import human_ab
from tests.harness.test_bench_human import PUZZLE


def _rows(seconds: list[float], er: float = 2.0) -> list[dict]:
    return [
        {
            "file": "f.txt",
            "index": i,
            "seconds": s,
            **{k: None for k in human_ab.COMPARED},
            "er": er,
        }
        for i, s in enumerate(seconds)
    ]


def test_the_worker_rates_each_puzzle_and_times_it(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(f"{PUZZLE}\n{PUZZLE.replace('1', '.', 1)}\n", encoding="utf-8")
    human_ab.worker([str(path)], 0, 1)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["index"] for r in rows] == [0, 1]
    assert all(r["file"] == str(path) and r["seconds"] >= 0 for r in rows)
    assert rows[0]["status"] == "solved"
    assert rows[0]["er"] > 0
    assert set(human_ab.COMPARED) <= set(rows[0])


def test_compare_takes_each_puzzles_median_over_rounds_and_checks_the_ratings():
    rounds = {
        "before": [_rows([0.010, 0.020, 0.030]), _rows([0.012, 0.018, 0.034])],
        "after": [_rows([0.005, 0.010, 0.015]), _rows([0.007, 0.010, 0.017])],
    }
    row = human_ab.compare(rounds, "f.txt")
    assert row[:2] == ["f", "3"]
    assert row[2] == "19.0 / 20.7 / 32.0 / 32.0"  # medians per puzzle 11, 19, 32 ms
    assert row[3] == "10.0 / 10.7 / 16.0 / 16.0"  # 6, 10, 16 ms
    assert row[4] == "0.53 / 0.52 / 0.50 / 0.50"
    assert row[5] == "yes"
    rounds["after"][1] = _rows([0.007, 0.010, 0.017], er=2.1)
    assert human_ab.compare(rounds, "f.txt")[5] == "no: 3 differ"


def test_a_missing_file_is_named(capsys):
    assert human_ab.main(["--base", "HEAD", "no/such/file.txt"]) == 2
    assert "no such puzzle file" in capsys.readouterr().err
