"""`sudoku-bench generate`: formats, options, reproducibility, clear errors."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex

import pytest

import solvers
from corpora.corpus import read_puzzles
from harness.cli import main
from solvers.grid import Grid

DLX = solvers.get("dlx")


def run(capsys, *argv):
    status = main(["generate", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def puzzle_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln and not ln.startswith("#")]


def test_lines_are_unique_puzzles_with_a_replayable_header(capsys):
    status, out, err = run(capsys, "--count", "3", "--box", "2x3", "--seed", "9")
    assert status == 0
    assert err == ""
    header, *lines = out.splitlines()
    assert len(lines) == 3
    for line in lines:
        assert DLX.solve(Grid.parse(line), limit=2).unique
    replay = shlex.split(header.removeprefix("# "))[2:]  # after 'sudoku-bench generate'
    assert run(capsys, *replay)[1] == out


def test_without_seed_a_seed_is_drawn_and_printed(capsys):
    status, out, err = run(capsys, "--size", "4")
    assert status == 0
    seed = re.search(r"--seed (\d+) to repeat", err).group(1)
    assert run(capsys, "--size", "4", "--seed", seed)[1] == out


def test_solutions_and_ratings_in_csv(capsys):
    status, out, _ = run(
        capsys, "-n", "2", "--seed", "1", "--difficulty", "easy", "--solution", "--format", "csv"
    )
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["level"] for r in rows] == ["Easy", "Easy"]
    for row in rows:
        assert DLX.solve(Grid.parse(row["puzzle"])).solution == Grid.parse(row["solution"])


def test_json_and_pretty_formats(capsys, tmp_path):
    status, out, _ = run(capsys, "-n", "2", "--seed", "2", "--kind", "multiple", "--format", "json")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["truth"] for r in records] == ["MULTIPLE", "MULTIPLE"]
    path = tmp_path / "pictures.txt"
    status, out, _ = run(capsys, "-n", "2", "--seed", "2", "--format", "pretty", "--out", str(path))
    assert (status, out) == (0, "")
    assert len(list(read_puzzles(path))) == 2


def test_large_sizes_write_letters(capsys):
    status, out, _ = run(capsys, "--size", "16", "--seed", "3")
    (line,) = puzzle_lines(out)
    assert len(line) == 256
    assert Grid.parse(line).size == 16


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--box", "3by3"], "expected ROWSxCOLS"),
        (["--size", "3"], "smallest Sudoku"),
        (["--clues", "a..b"], "expected MIN..MAX"),
        (["--count", "-1"], "--count"),
        (["--jobs", "0"], "--jobs"),
        (["--format", "pretty", "--solution"], "--solution needs"),
        (["--difficulty", "brutal"], "unknown difficulty"),
        (["--require", "telepathy"], "unknown technique"),
        (["--clues", "5..8", "--attempts", "2", "--seed", "1"], "no puzzle met the target"),
    ],
)
def test_errors_are_one_line_with_status_2(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert "Traceback" not in err
