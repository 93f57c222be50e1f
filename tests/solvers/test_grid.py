"""Grid: parsing every notation, formatting back, and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers import Grid, PuzzleFormatError, shape
from solvers.testing import PUZZLE_9X9_EASY, PUZZLE_16X16

NINE = PUZZLE_9X9_EASY


def test_one_line_blanks_are_interchangeable():
    grids = {Grid.parse(NINE.replace(".", blank)) for blank in ".0-*_"}
    assert len(grids) == 1
    assert Grid.parse(NINE).givens == 81 - NINE.count(".")


def test_picture_with_separators():
    picture = Grid.parse(NINE).format("pretty")
    assert "|" in picture
    assert "+" in picture
    assert Grid.parse(picture) == Grid.parse(NINE)


def test_picture_with_outer_frame():
    rows = [NINE[r * 9 : r * 9 + 9] for r in range(9)]
    lines = ["+-------+-------+-------+"]
    for r, row in enumerate(rows):
        lines.append("| " + " | ".join(" ".join(row[c : c + 3]) for c in range(0, 9, 3)) + " |")
        if r % 3 == 2:
            lines.append("+-------+-------+-------+")
    assert Grid.parse("\n".join(lines)) == Grid.parse(NINE)


def test_integers_any_size_with_zero_or_minus_one_blank():
    grid = Grid.parse(PUZZLE_16X16)
    numbers = grid.format("numbers")
    assert Grid.parse(numbers) == grid
    assert Grid.parse(numbers.replace(" 0", " -1")) == grid
    assert Grid.parse(numbers.replace(" ", ",")) == grid


def test_sixteen_letters_both_conventions():
    grid = Grid.parse(PUZZLE_16X16)
    assert grid.size == 16
    assert grid.symbols == "123456789ABCDEFG"
    zero_based = "".join("." if v == 0 else "0123456789ABCDEF"[v - 1] for v in grid.cells)
    other = Grid.parse(zero_based)
    assert other.cells == grid.cells
    assert other.format() == zero_based  # written back in its own symbols


def test_twentyfive_letters():
    cells = tuple((r * 5 + r // 5 + c) % 25 + 1 for r in range(25) for c in range(25))
    text = "".join("ABCDEFGHIJKLMNOPQRSTUVWXY"[v - 1] for v in cells)
    grid = Grid.parse(text)
    assert (grid.box_rows, grid.box_cols) == (5, 5)
    assert grid.cells == cells
    assert Grid.parse(text.lower()).cells == cells


def test_six_and_twelve_have_rectangular_boxes():
    assert (Grid.empty(2, 3).box_rows, Grid.empty(2, 3).box_cols) == (2, 3)
    grid = Grid.parse("." * 144)
    assert (grid.box_rows, grid.box_cols) == (3, 4)


def test_explicit_box_overrides_the_guess():
    grid = Grid.parse("." * 36, box=(3, 2))
    assert (grid.box_rows, grid.box_cols) == (3, 2)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("123", "square number"),
        (NINE[:-1], "found 80"),
        (NINE[:40] + "x" + NINE[41:], "illegal character 'x'"),
        ("1 2 3 99 " + "0 " * 12, "illegal value '99'"),
        ("." * 49, "prime"),
    ],
)
def test_malformed_input_names_the_problem(text, words):
    with pytest.raises(PuzzleFormatError, match=words):
        Grid.parse(text)


def test_errors_name_file_line_and_column():
    with pytest.raises(PuzzleFormatError) as info:
        Grid.parse(NINE[:5] + "?" + NINE[6:], source="set.txt", first_line=12)
    assert str(info.value).startswith("set.txt:12:6: illegal character '?'")
    assert (info.value.line, info.value.column) == (12, 6)


def test_grid_rejects_bad_cells_with_value_error():
    with pytest.raises(ValueError, match="16 cells"):
        Grid(2, 2, (0,) * 15)
    with pytest.raises(ValueError, match="expected 0"):
        Grid(2, 2, (5,) + (0,) * 15)


def test_grid_is_immutable_and_hashable():
    grid = Grid.parse(NINE)
    with pytest.raises(AttributeError):
        grid.cells = ()  # type: ignore[misc]
    assert hash(grid) == hash(Grid.parse(NINE))


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_shape_tables(rows, cols):
    s = shape(rows, cols)
    n = rows * cols
    assert len(s.units) == 3 * n
    assert all(sorted(u) == sorted(set(u)) and len(u) == n for u in s.units)
    for cell in range(n * n):
        assert cell not in s.peers[cell]
        assert len(s.peers[cell]) == 3 * (n - 1) - (rows - 1) - (cols - 1)
        assert all(cell in s.units[u] for u in s.cell_units[cell])


@given(st.lists(st.integers(0, 9), min_size=81, max_size=81))
def test_line_format_round_trips(cells):
    grid = Grid(3, 3, tuple(cells))
    assert Grid.parse(grid.format()) == grid
    assert Grid.parse(grid.format("pretty")) == grid
    assert Grid.parse(grid.format("numbers")) == grid


def test_cells_from_lists_and_arrays_become_plain_int_tuples():
    np = pytest.importorskip("numpy")
    cells = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    for source in (cells, np.array(cells), np.array(cells, dtype=np.int8)):
        grid = Grid(2, 2, source)
        assert grid.cells == tuple(cells)
        assert {type(v) for v in grid.cells} == {int}
    with pytest.raises(ValueError, match="holds 1.5"):
        Grid(2, 2, [1.5] + cells[1:])
