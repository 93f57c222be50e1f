"""Every way `Grid.parse` refuses text says where: line and column, and sizes stay sane."""

from __future__ import annotations

import pytest

from harness.cli import main
from solvers.grid import MAX_SIDE, Grid, PuzzleFormatError

NINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize(
    ("text", "options", "line", "column", "words"),
    [
        ("", {}, 1, 1, "the text is empty"),
        ("123", {}, 1, 3, "found 3; the last cell"),
        (NINE[:80], {}, 1, 80, "found 80; the last cell"),
        (NINE + "1", {"size": 9}, 1, 82, "found 82; the first extra cell"),
        ("1234\n123", {}, 2, 3, "found 7"),
        ("." * 25, {}, 1, 1, "it is prime"),
        ("." * 49, {}, 1, 1, "it is prime"),
        ("." * 36 * 36, {}, 1, 1, "no one-character notation"),
        ("." * 10**6, {}, 1, 1, "a 1000x1000 grid; the largest side read is 100"),
        ("0 " * 10**6, {}, 1, 1, "the largest side read is 100"),
        (NINE, {"zero_based": True}, 1, 1, "found 1"),
        (NINE, {"symbols": "123456789A"}, 1, 1, "names 10 digits; a 9x9 grid has 9"),
        (NINE[:40] + "x" + NINE[41:], {}, 1, 41, "illegal character 'x'"),
    ],
    ids=lambda v: v[:12] if isinstance(v, str) else None,
)
def test_text_errors_carry_line_and_column(text, options, line, column, words) -> None:
    with pytest.raises(PuzzleFormatError, match=words) as info:
        Grid.parse(text, **options)
    assert (info.value.line, info.value.column) == (line, column)
    assert f"(line {line}, column {column})" in str(info.value)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"size": 2}, "size=2: a side is 4 to 100"),
        ({"size": 1000}, "size=1000: a side is 4 to 100"),
        ({"size": 9, "box": (2, 2)}, "box=2x2 makes a side of 4, not 9"),
        ({"box": (0, 9)}, "box=0x9: no Sudoku has such boxes"),
        ({"symbols": "113456789"}, "names a digit twice"),
    ],
)
def test_contradictory_options_are_refused_as_such(options, words) -> None:
    with pytest.raises(PuzzleFormatError, match=words):
        Grid.parse(NINE, **options)


def test_in_a_file_the_place_is_file_line_column() -> None:
    with pytest.raises(PuzzleFormatError) as info:
        Grid.parse(NINE[:80], source="set.txt", first_line=7)
    assert str(info.value).startswith("set.txt:7:80: expected a square number")


def test_the_largest_side_still_round_trips() -> None:
    grid = Grid.empty(10, 10)
    assert grid.size == MAX_SIDE
    assert Grid.parse(grid.format()) == grid


@pytest.mark.parametrize("argv", [["--size", "1000"], ["--size", "36"], ["--box", "7x7"]])
def test_generate_refuses_sizes_it_cannot_make_in_reasonable_time(argv, capsys) -> None:
    assert main(["generate", "--count", "2", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "generate makes grids up to 25x25" in err
