"""`sudoku-bench generate --variant`: native JSON and f-puzzles output, combined kinds,
reproducibility, one-line errors."""

from __future__ import annotations

import json

import pytest

import solvers
from corpora import fpuzzles, rating
from corpora.corpus import read_puzzles
from corpora.variant_generate import make_many
from harness.cli import main
from solvers.variants import kinds

pytest.importorskip("ortools")

CPSAT = solvers.get("cpsat")


def run(capsys, *argv):
    status = main(["generate", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_native_output_reads_back_as_unique_puzzles_of_the_kind(capsys, tmp_path):
    status, out, err = run(
        capsys, "--variant", "thermometer", "--size", "4", "--count", "2", "--seed", "3"
    )
    assert (status, err) == (0, "")
    path = tmp_path / "thermo.json"
    path.write_text(out)
    puzzles = list(read_puzzles(path))
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert kinds(puzzle.grid) == {"thermometer"}
        assert CPSAT.solve(puzzle.grid, limit=2).unique
    assert [p.grid for p in puzzles] == [m.puzzle for m in make_many("thermometer", (2, 2), 2, "3")]


def test_several_kinds_go_into_one_puzzle_and_a_seed_repeats(capsys):
    argv = ("--variant", "killer", "--variant", "diagonal", "--box", "2x2", "--seed", "5")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    (data,) = json.loads(out)
    assert {c["kind"] for c in data["constraints"]} == {"killer", "diagonal"}
    assert run(capsys, *reversed_pairs(argv))[1] == out  # the order of --variant is no matter


def reversed_pairs(argv: tuple[str, ...]) -> list[str]:
    """The same options with the two --variant options swapped."""
    words = list(argv)
    words[1], words[3] = words[3], words[1]
    return words


def test_two_jobs_write_the_same_puzzles(capsys):
    argv = ("--variant", "parity", "--size", "4", "--count", "3", "--seed", "8")
    assert run(capsys, *argv, "--jobs", "2") == run(capsys, *argv)


def test_solution_is_written_on_request(capsys):
    status, out, _ = run(capsys, "--variant", "parity", "--size", "4", "--seed", "1", "--solution")
    assert status == 0
    (data,) = json.loads(out)
    (made,) = make_many("parity", (2, 2), 1, "1")
    assert data["solution"] == made.solution.format("line")


def test_fpuzzles_output_is_the_same_puzzle(capsys):
    argv = ("--variant", "kropki", "--size", "4", "--seed", "2")
    status, out, _ = run(capsys, *argv, "--format", "fpuzzles")
    assert status == 0
    (data,) = json.loads(out)
    native = json.loads(run(capsys, *argv)[1])[0]
    assert fpuzzles.is_fpuzzles(data)
    assert not fpuzzles.is_fpuzzles(native)
    (made,) = make_many("kropki", (2, 2), 1, "2")
    assert fpuzzles.from_fpuzzles(data) == made.puzzle


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "magic"], "--variant: unknown kind 'magic' (kinds: jigsaw,"),
        (["--variant", "xv", "--variant", "xv-negative"], "xv and xv-negative do not go together"),
        (["--variant", "anti-king", "--size", "4"], "finds no 4x4 grid that keeps these rules"),
        (["--variant", "killer", "--rating", "2..3"], "--rating is for classic puzzles"),
        (
            ["--variant", "thermometer", "--difficulty", "hard"],
            "--difficulty: the human engine, which rates puzzles, does not take thermometer",
        ),
        (["--variant", "killer", "--difficulty", "hardest"], "unknown difficulty 'hardest'"),
        (
            ["--variant", "killer", "--size", "6", "--difficulty", "extreme", "--attempts", "1"],
            "no draw rated Extreme in 1 attempts",
        ),
        (["--variant", "killer", "--format", "csv"], "written as native or fpuzzles"),
        (["--format", "native"], "--format native is for --variant puzzles"),
        (
            ["--variant", "greater-than", "--size", "4", "--format", "fpuzzles"],
            "f-puzzles has no greater-than sign",
        ),
    ],
)
def test_a_mistake_is_one_line_and_nothing_is_written(capsys, argv, message):
    status, out, err = run(capsys, *argv, "--seed", "1")
    assert status == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_difficulty_draws_until_the_engine_rates_each_puzzle_at_it(capsys):
    argv = ["--variant", "jigsaw", "--size", "6", "--difficulty", "medium", "--count", "2"]
    status, out, _ = run(capsys, *argv, "--seed", "1")
    assert status == 0
    puzzles = [p.grid for p in _read(out)]
    assert len(puzzles) == 2
    assert [rating.rate(p).level for p in puzzles] == ["Medium", "Medium"]
    for puzzle in puzzles:
        assert CPSAT.solve(puzzle, limit=2).unique
    # the same puzzles from two processes
    assert run(capsys, *argv, "--seed", "1", "--jobs", "2")[1] == out


def _read(text: str):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "made.json"
        path.write_text(text, encoding="utf-8")
        return list(read_puzzles(path))
