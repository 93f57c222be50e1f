"""The independent verifier: it checks answers by the rules and never trusts a solver.

It recomputes rows, columns and boxes from plain arithmetic rather than from the
tables the solvers use, so a bug in those tables cannot hide a wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from solvers.grid import Grid


@dataclass(frozen=True)
class Violation:
    """One broken rule: its kind, the cells involved (0-based indices), a message."""

    kind: str  # 'shape', 'empty', 'duplicate', 'changed-given'
    cells: tuple[int, ...]
    message: str

    def __str__(self) -> str:
        return self.message


@cache
def _units(box_rows: int, box_cols: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every unit's name and cells, from arithmetic alone (cached per shape)."""
    n = box_rows * box_cols
    units = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    units += [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    for b in range(n):
        top, left = (b // (n // box_cols)) * box_rows, (b % (n // box_cols)) * box_cols
        cells = tuple((top + i) * n + left + j for i in range(box_rows) for j in range(box_cols))
        units.append((f"box {b + 1}", cells))
    return tuple(units)


def _name(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


@cache
def _gatherers(box_rows: int, box_cols: int) -> tuple[itemgetter, ...]:
    """One C-level getter per unit, returning that unit's values as a tuple."""
    return tuple(itemgetter(*cells) for _, cells in _units(box_rows, box_cols))


def _has_duplicates(values: tuple[int, ...], gatherers: tuple[itemgetter, ...]) -> bool:
    """Whether any unit holds a digit twice (blanks ignored): the quick test."""
    for gather in gatherers:
        unit = gather(values)
        blanks = unit.count(0)
        if len(set(unit)) != len(unit) - blanks + (blanks > 0):
            return True
    return False


def _duplicates(grid: Grid) -> list[Violation]:
    n = grid.size
    values = grid.cells
    units = _units(grid.box_rows, grid.box_cols)
    if not _has_duplicates(values, _gatherers(grid.box_rows, grid.box_cols)):
        return []  # the common case, tested at C speed
    found = []
    for unit_name, cells in units:
        seen: dict[int, int] = {}
        for cell in cells:
            digit = grid.cells[cell]
            if not digit:
                continue
            if digit in seen:
                first = seen[digit]
                found.append(
                    Violation(
                        "duplicate",
                        (first, cell),
                        f"{digit} twice in {unit_name} ({_name(first, n)}, {_name(cell, n)})",
                    )
                )
            else:
                seen[digit] = cell
    return found


def conflicts(puzzle: Grid) -> list[Violation]:
    """Givens that already break the rules (the same digit twice in a unit)."""
    return _duplicates(puzzle)


def check(puzzle: Grid, solution: Grid) -> list[Violation]:
    """Every way `solution` fails to solve `puzzle`; empty when it is a solution."""
    if (puzzle.box_rows, puzzle.box_cols) != (solution.box_rows, solution.box_cols):
        return [
            Violation(
                "shape",
                (),
                f"solution is {solution.size}x{solution.size} with "
                f"{solution.box_rows}x{solution.box_cols} boxes; the puzzle is "
                f"{puzzle.size}x{puzzle.size} with {puzzle.box_rows}x{puzzle.box_cols} boxes",
            )
        ]
    n = puzzle.size
    problems = [
        Violation("empty", (i,), f"{_name(i, n)} is empty")
        for i, v in enumerate(solution.cells)
        if not v
    ]
    problems += [
        Violation("changed-given", (i,), f"{_name(i, n)} is {s}, but the given is {g}")
        for i, (g, s) in enumerate(zip(puzzle.cells, solution.cells, strict=True))
        if g and g != s
    ]
    return problems + _duplicates(solution)


def is_solution(puzzle: Grid, solution: Grid) -> bool:
    """True when `solution` is complete, keeps every given and breaks no rule."""
    return not check(puzzle, solution)
