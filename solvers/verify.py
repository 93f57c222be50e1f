"""The independent verifier: it checks answers by the rules and never trusts a solver.

It recomputes rows, columns and boxes from plain arithmetic rather than from the
tables the solvers use, so a bug in those tables cannot hide a wrong answer.  A
puzzle's constraints are checked by their rules in `solvers.variants.rules`,
which work the same way; the jigsaw regions of a puzzle replace its boxes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from solvers.grid import Grid

if TYPE_CHECKING:
    from solvers.variants.constraints import Constraint


@dataclass(frozen=True)
class Violation:
    """One broken rule: its kind, the cells involved (0-based indices), a message,
    and the puzzle constraint it breaks, if it is one."""

    kind: str  # 'shape', 'empty', 'duplicate', 'changed-given', or a constraint kind
    cells: tuple[int, ...]
    message: str
    constraint: Constraint | None = None

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


Unit = tuple[str, tuple[int, ...], "Constraint | None"]  # a named group and its constraint


def _duplicates(grid: Grid, puzzle: Grid) -> list[Violation]:
    """Digits twice in a unit of `puzzle` (its groups too, when it has constraints)."""
    n = grid.size
    values = grid.cells
    units: list[Unit]
    if puzzle.constraints:
        units = _variant_units(puzzle)
    else:
        if not _has_duplicates(values, _gatherers(grid.box_rows, grid.box_cols)):
            return []  # the common case, tested at C speed
        units = [(name, cells, None) for name, cells in _units(grid.box_rows, grid.box_cols)]
    found = []
    for unit_name, cells, owner in units:
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
                        owner,
                    )
                )
            else:
                seen[digit] = cell
    return found


def _variant_units(puzzle: Grid) -> list[Unit]:
    """Rows, columns, boxes or the jigsaw regions instead, and every group a constraint
    makes all-different: each named, with the constraint that makes it, recomputed
    from the constraints' own cells."""
    from solvers.variants.rules import Board, groups

    n, br, bc = puzzle.size, puzzle.box_rows, puzzle.box_cols
    units: list[Unit] = [(name, cells, None) for name, cells in _units(br, bc)]
    board = Board(puzzle.cells, n, br, bc, puzzle.constraints)
    for constraint in puzzle.constraints:
        if constraint.kind == "jigsaw":
            regions = constraint.regions  # type: ignore[attr-defined]
            units = units[: 2 * n] + [
                (f"jigsaw region {i + 1} ({_name(r[0], n)}...)", r, constraint)
                for i, r in enumerate(regions)
            ]
    for constraint in puzzle.constraints:
        units += [(name, cells, constraint) for name, cells in groups(constraint, board)]
    return units


def _broken(puzzle: Grid, values: tuple[int, ...]) -> list[Violation]:
    """Every constraint of `puzzle` that `values` break (empty cells break nothing)."""
    if not puzzle.constraints:
        return []
    from solvers.variants.rules import RULES, Board

    board = Board(values, puzzle.size, puzzle.box_rows, puzzle.box_cols, puzzle.constraints)
    return [
        Violation(constraint.kind, cells, message, constraint)
        for constraint in puzzle.constraints
        for cells, message in RULES[constraint.kind](constraint, board)
    ]


def conflicts(puzzle: Grid) -> list[Violation]:
    """Givens that already break the rules (the same digit twice in a unit, a
    constraint its filled cells break)."""
    return _duplicates(puzzle, puzzle) + _broken(puzzle, puzzle.cells)


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
    return problems + _duplicates(solution, puzzle) + _broken(puzzle, solution.cells)


def is_solution(puzzle: Grid, solution: Grid) -> bool:
    """True when `solution` is complete, keeps every given and breaks no rule."""
    return not check(puzzle, solution)
