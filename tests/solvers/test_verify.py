"""The verifier finds every kind of violation and accepts real solutions."""

from __future__ import annotations

import solvers
from solvers import Grid, check, conflicts
from solvers.testing import PUZZLE_6X6, PUZZLE_9X9_EASY


def _solved(text):
    puzzle = Grid.parse(text)
    return puzzle, solvers.get("dlx").solve(puzzle).solution


def test_accepts_a_solution():
    puzzle, solution = _solved(PUZZLE_9X9_EASY)
    assert check(puzzle, solution) == []
    puzzle, solution = _solved(PUZZLE_6X6)
    assert check(puzzle, solution) == []


def test_swapped_cells_are_duplicates():
    puzzle, solution = _solved(PUZZLE_9X9_EASY)
    cells = list(solution.cells)
    cells[0], cells[1] = cells[1], cells[0]  # breaks two columns and maybe a given
    kinds = {v.kind for v in check(puzzle, solution.replace(cells))}
    assert "duplicate" in kinds


def test_changed_given_and_empty_cell():
    puzzle, solution = _solved(PUZZLE_9X9_EASY)
    given = next(i for i, v in enumerate(puzzle.cells) if v)
    cells = list(solution.cells)
    cells[given] = 0
    problems = check(puzzle, solution.replace(cells))
    assert [p.kind for p in problems] == ["empty", "changed-given"]
    assert "r1c2" in problems[0].message


def test_wrong_shape():
    puzzle, _ = _solved(PUZZLE_6X6)
    other = Grid.parse("." * 36, box=(3, 2))
    assert [v.kind for v in check(puzzle, other)] == ["shape"]


def test_conflicts_name_unit_and_cells():
    found = conflicts(Grid.parse("5...5...." + "." * 72))
    assert [v.message for v in found] == ["5 twice in row 1 (r1c1, r1c5)"]
    assert conflicts(Grid.parse(PUZZLE_9X9_EASY)) == []


def test_box_duplicates_in_rectangular_boxes():
    cells = [0] * 36
    cells[0], cells[8] = 3, 3  # r1c1 and r2c3 share the first 2x3 box
    found = conflicts(Grid(2, 3, tuple(cells)))
    assert [v.message for v in found] == ["3 twice in box 1 (r1c1, r2c3)"]
