"""`sudoku-bench rate` in worker processes, and a table that fits the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

import corpora
from harness.cli import main
from harness.commands.fit import fitted_table


@pytest.fixture
def puzzles(tmp_path):
    """Eight hard puzzles of the built-in set, in a file."""
    source = Path(corpora.__file__).parent / "data" / "gen9-hard.txt"
    lines = [x for x in source.read_text(encoding="utf-8").splitlines() if x and x[0] != "#"]
    path = tmp_path / "eight.txt"
    path.write_text("\n".join(lines[:8]) + "\n", encoding="utf-8")
    return path


def test_workers_give_the_same_rows_in_the_files_order(puzzles, capsys):
    assert main(["rate", str(puzzles), "--format", "csv"]) == 0
    alone = capsys.readouterr().out.splitlines()
    assert main(["rate", str(puzzles), "--format", "csv", "--jobs", "2", "--check"]) == 0
    together = capsys.readouterr()
    assert together.out.splitlines() == alone
    assert len(alone) == 9  # header and eight puzzles
    assert "none unsound" in together.err


def test_the_table_fits_the_terminal(puzzles, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "90")
    assert main(["rate", str(puzzles)]) == 0
    table = capsys.readouterr().out.split("\n\n")[0]
    assert max(len(line) for line in table.splitlines()) <= 90
    assert "Full house" in table  # the techniques' usual names, not the table's
    assert "full_house" not in table
    assert "hidden_single" not in table


@pytest.mark.parametrize("jobs", ["0", "-1", "many", "100000"])
def test_a_bad_worker_count_is_a_usage_error(puzzles, jobs, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["rate", str(puzzles), "--jobs", jobs])
    assert stop.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_fitted_table_wraps_only_the_last_column():
    rows = [["a", "1", "word " * 30]]
    text = fitted_table(rows, ["name", "n", "notes"], 50)
    assert max(len(line) for line in text.splitlines()) <= 50
    assert text.splitlines()[2].startswith("a ")
