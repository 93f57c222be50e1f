"""The verifier's rule for each constraint kind: plain arithmetic on the digits.

`solvers.verify` calls these; no solver does.  Each rule recomputes what it
needs (neighbours, diagonals, the 1 and the N of a row) from the cell indices
rather than from any table a solver builds, so a bug in an encoding cannot
hide a wrong answer.  Rules read partial grids too (0 = empty) and then report
only what the filled cells already break: `solvers.verify.conflicts` uses that
on givens.

A rule answers ``[(cells, message), ...]``, one pair per broken instance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solvers.variants.constraints import (
    XV,
    Arrow,
    Constraint,
    GreaterThan,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    Parity,
    Sandwich,
    Thermometer,
)

Broken = list[tuple[tuple[int, ...], str]]


@dataclass(frozen=True)
class Board:
    """The digits under check and the puzzle they belong to."""

    values: tuple[int, ...]
    size: int
    box_rows: int
    box_cols: int
    constraints: tuple[Constraint, ...]


def name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def _filled(board: Board, cells: tuple[int, ...]) -> list[int] | None:
    """The digits of `cells`, or None while one of them is empty."""
    digits = [board.values[c] for c in cells]
    return None if 0 in digits else digits


# -- groups whose digits differ ------------------------------------------------------
def groups(constraint: Constraint, board: Board) -> list[tuple[str, tuple[int, ...]]]:
    """The named cell groups a constraint makes all-different (none for most kinds)."""
    n, kind = board.size, constraint.kind
    if kind in ("extra-region", "killer"):
        return [(constraint.describe(n), constraint.cells)]  # type: ignore[attr-defined]
    if kind == "diagonal":
        if constraint.direction == "main":  # type: ignore[attr-defined]
            return [("main diagonal", tuple(i * (n + 1) for i in range(n)))]
        return [("anti diagonal", tuple((i + 1) * (n - 1) for i in range(n)))]
    if kind == "disjoint-groups":
        br, bc = board.box_rows, board.box_cols
        return [
            (
                f"disjoint group {i * bc + j + 1}",
                tuple((R + i) * n + C + j for R in range(0, n, br) for C in range(0, n, bc)),
            )
            for i in range(br)
            for j in range(bc)
        ]
    return []


# -- rules about neighbours --------------------------------------------------------
def _offsets_pairs(n: int, offsets: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    found = []
    for r in range(n):
        for c in range(n):
            for dr, dc in offsets:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    found.append((r * n + c, (r + dr) * n + c + dc))
    return found


def _same_digit(title: str, offsets: tuple[tuple[int, int], ...]) -> Callable[..., Broken]:
    def rule(constraint: Constraint, board: Board) -> Broken:
        n, v = board.size, board.values
        return [
            ((a, b), f"{title}: {v[a]} at {name(a, n)} and {name(b, n)}")
            for a, b in _offsets_pairs(n, offsets)
            if v[a] and v[a] == v[b]
        ]

    return rule


anti_knight = _same_digit("anti-knight", ((1, 2), (2, 1), (1, -2), (2, -1)))
anti_king = _same_digit("anti-king", ((1, 1), (1, -1)))  # orthogonal ones share a row or column


def non_consecutive(constraint: Constraint, board: Board) -> Broken:
    n, v = board.size, board.values
    return [
        ((a, b), f"non-consecutive: {v[a]} at {name(a, n)} next to {v[b]} at {name(b, n)}")
        for a, b in _offsets_pairs(n, ((0, 1), (1, 0)))
        if v[a] and v[b] and abs(v[a] - v[b]) == 1
    ]


# -- arithmetic and order ----------------------------------------------------------
def _sum_rule(constraint: Killer | LittleKiller, board: Board) -> Broken:
    if constraint.total is None:
        return []
    digits = _filled(board, constraint.cells)
    if digits is None or sum(digits) == constraint.total:
        return []
    return [(constraint.cells, f"{constraint.describe(board.size)}: digits sum to {sum(digits)}")]


def thermometer(constraint: Thermometer, board: Board) -> Broken:
    n, v = board.size, board.values
    return [
        (
            (a, b),
            f"{constraint.describe(n)}: {v[b]} at {name(b, n)} is not above {v[a]} at {name(a, n)}",
        )
        for a, b in zip(constraint.cells, constraint.cells[1:], strict=False)
        if v[a] and v[b] and not v[b] > v[a]
    ]


def arrow(constraint: Arrow, board: Board) -> Broken:
    circle, path = _filled(board, constraint.circle), _filled(board, constraint.path)
    if circle is None or path is None:
        return []
    number = int("".join(map(str, circle)))
    if number == sum(path):
        return []
    cells = constraint.circle + constraint.path
    return [(cells, f"{constraint.describe(board.size)}: circle {number}, arrow sum {sum(path)}")]


def kropki(constraint: Kropki, board: Board) -> Broken:
    digits = _filled(board, constraint.cells)
    if digits is None:
        return []
    a, b = digits
    value = constraint.value or 0
    white = constraint.colour == "white"
    if (abs(a - b) == value) if white else (value * b == a or value * a == b):
        return []
    return [(constraint.cells, f"{constraint.describe(board.size)}: holds {a} and {b}")]


def _unmarked_pairs(board: Board, kinds: tuple[str, ...]) -> list[tuple[int, int]]:
    """Orthogonal neighbours with no constraint of `kinds` between them."""
    marked = {
        frozenset(c.cells)  # type: ignore[attr-defined]
        for c in board.constraints
        if c.kind in kinds
    }
    return [
        (a, b)
        for a, b in _offsets_pairs(board.size, ((0, 1), (1, 0)))
        if frozenset((a, b)) not in marked
    ]


def kropki_negative(constraint: KropkiNegative, board: Board) -> Broken:
    n, v = board.size, board.values
    found: Broken = []
    for a, b in _unmarked_pairs(board, ("kropki",)):
        x, y = v[a], v[b]
        if not (x and y):
            continue
        if (abs(x - y) == 1) if constraint.colour == "white" else (x == 2 * y or y == 2 * x):
            found.append(
                (
                    (a, b),
                    f"{constraint.describe(n)}: {x} at {name(a, n)} and {y} at "
                    f"{name(b, n)} need a {constraint.colour} dot",
                )
            )
    return found


def xv(constraint: XV, board: Board) -> Broken:
    digits = _filled(board, constraint.cells)
    if digits is None or sum(digits) == constraint.total:
        return []
    return [(constraint.cells, f"{constraint.describe(board.size)}: digits sum to {sum(digits)}")]


def xv_negative(constraint: Constraint, board: Board) -> Broken:
    n, v = board.size, board.values
    return [
        (
            (a, b),
            f"{constraint.describe(n)}: {v[a]} at {name(a, n)} and {v[b]} at "
            f"{name(b, n)} sum to {v[a] + v[b]} with no sign",
        )
        for a, b in _unmarked_pairs(board, ("xv",))
        if v[a] and v[b] and v[a] + v[b] in (5, 10)
    ]


def parity(constraint: Parity, board: Board) -> Broken:
    digit = board.values[constraint.cell]
    if not digit or (digit % 2 == 1) == (constraint.parity == "odd"):
        return []
    return [((constraint.cell,), f"{constraint.describe(board.size)}: holds {digit}")]


def greater_than(constraint: GreaterThan, board: Board) -> Broken:
    digits = _filled(board, constraint.cells)
    if digits is None or digits[0] > digits[1]:
        return []
    return [
        (constraint.cells, f"{constraint.describe(board.size)}: holds {digits[0]} and {digits[1]}")
    ]


def sandwich(constraint: Sandwich, board: Board) -> Broken:
    n = board.size
    digits = _filled(board, constraint.cells)
    if digits is None or 1 not in digits or n not in digits:
        return []  # a line without a 1 or an N breaks its row or column rule instead
    low, high = sorted((digits.index(1), digits.index(n)))
    between = sum(digits[low + 1 : high])
    if between == constraint.total:
        return []
    return [
        (
            constraint.cells,
            f"{constraint.describe(n)}: the digits between 1 and {n} sum to {between}",
        )
    ]


def _none(constraint: Constraint, board: Board) -> Broken:
    return []


RULES: dict[str, Callable[[Any, Board], Broken]] = {
    "jigsaw": _none,  # its regions replace the boxes: checked as houses
    "extra-region": _none,  # all-different: `groups`
    "disjoint-groups": _none,
    "diagonal": _none,
    "anti-knight": anti_knight,
    "anti-king": anti_king,
    "non-consecutive": non_consecutive,
    "killer": _sum_rule,  # and all-different: `groups`
    "little-killer": _sum_rule,
    "thermometer": thermometer,
    "arrow": arrow,
    "kropki": kropki,
    "kropki-negative": kropki_negative,
    "xv": xv,
    "xv-negative": xv_negative,
    "parity": parity,
    "greater-than": greater_than,
    "sandwich": sandwich,
}
"""The rule of every kind in `solvers.variants.constraints.KINDS`."""
