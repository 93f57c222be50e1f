"""python-constraint models of puzzles with constraints: one encoding per constraint kind.

`post` adds, to a `constraint.Problem` whose variables are the cells (0 ..
N*N-1, domains 1..N), the houses (rows, columns, and boxes or the jigsaw
regions) and each constraint of the puzzle.  The library's own constraints
where they fit, since they prune before a constraint's cells are all
assigned: ``AllDifferentConstraint`` (houses, extra regions, diagonals,
disjoint groups, cages, and the pairs of the anti-knight and anti-king
rules), ``ExactSumConstraint`` (killer cages and little killers),
``InSetConstraint`` (parity).  The rest are ``FunctionConstraint`` checks of
the rule, which the library applies once every cell they name is assigned:
thermometers, greater-than signs, Kropki dots, XV and the negative rules on
each pair; arrows (the circle read as a number against the path's sum) and
sandwiches (the digits between the 1 and the N of the line) on all their cells.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.grid import Grid
from solvers.variants import distinct_groups, houses
from solvers.variants.constraints import (
    KING,
    KNIGHT,
    ORTHOGONAL,
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
    pairs,
)

Encoder = Callable[[Any, Any, Grid], None]


def post(problem: Any, puzzle: Grid) -> None:
    """Add the houses and every constraint of `puzzle` to `problem` (its cells as variables)."""
    import constraint as lib

    for unit in houses(puzzle):
        problem.addConstraint(lib.AllDifferentConstraint(), unit)
    for _, cells in distinct_groups(puzzle):
        problem.addConstraint(lib.AllDifferentConstraint(), cells)
    for item in puzzle.constraints:
        ENCODERS[item.kind](problem, item, puzzle)


def _ordered_pairs(n: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    return sorted((min(p), max(p)) for p in pairs(n, steps))


def _on_pair(problem: Any, a: int, b: int, rule: Callable[[int, int], bool]) -> None:
    import constraint as lib

    problem.addConstraint(lib.FunctionConstraint(rule), (a, b))


def _nothing(problem: Any, item: Constraint, puzzle: Grid) -> None:
    """A kind fully encoded as a house or an all-different group."""


def _differ(steps: tuple[tuple[int, int], ...]) -> Encoder:
    def encode(problem: Any, item: Constraint, puzzle: Grid) -> None:
        import constraint as lib

        for a, b in _ordered_pairs(puzzle.size, steps):
            problem.addConstraint(lib.AllDifferentConstraint(), (a, b))

    return encode


def _non_consecutive(problem: Any, item: Constraint, puzzle: Grid) -> None:
    for a, b in _ordered_pairs(puzzle.size, ORTHOGONAL):
        _on_pair(problem, a, b, lambda p, q: abs(p - q) != 1)


def _sum(problem: Any, item: Killer | LittleKiller, puzzle: Grid) -> None:
    import constraint as lib

    if item.total is not None:
        problem.addConstraint(lib.ExactSumConstraint(item.total), item.cells)


def _thermometer(problem: Any, item: Thermometer, puzzle: Grid) -> None:
    for a, b in zip(item.cells, item.cells[1:], strict=False):
        _on_pair(problem, a, b, lambda p, q: p < q)


def _arrow(problem: Any, item: Arrow, puzzle: Grid) -> None:
    import constraint as lib

    m = len(item.circle)

    def holds(*digits: int) -> bool:
        number = int("".join(map(str, digits[:m])))
        return number == sum(digits[m:])

    problem.addConstraint(lib.FunctionConstraint(holds), item.circle + item.path)


def _kropki(problem: Any, item: Kropki, puzzle: Grid) -> None:
    a, b = item.cells
    value = item.value or 0
    if item.colour == "white":
        _on_pair(problem, a, b, lambda p, q: abs(p - q) == value)
    else:
        _on_pair(problem, a, b, lambda p, q: p == value * q or q == value * p)


def _unmarked(puzzle: Grid, kind: str) -> list[tuple[int, int]]:
    marked = {c.cells for c in puzzle.constraints if c.kind == kind}  # type: ignore[attr-defined]
    return [p for p in _ordered_pairs(puzzle.size, ORTHOGONAL) if p not in marked]


def _kropki_negative(problem: Any, item: KropkiNegative, puzzle: Grid) -> None:
    white = item.colour == "white"
    for a, b in _unmarked(puzzle, "kropki"):
        if white:
            _on_pair(problem, a, b, lambda p, q: abs(p - q) != 1)
        else:
            _on_pair(problem, a, b, lambda p, q: p != 2 * q and q != 2 * p)


def _xv(problem: Any, item: XV, puzzle: Grid) -> None:
    a, b = item.cells
    total = item.total
    _on_pair(problem, a, b, lambda p, q: p + q == total)


def _xv_negative(problem: Any, item: Constraint, puzzle: Grid) -> None:
    for a, b in _unmarked(puzzle, "xv"):
        _on_pair(problem, a, b, lambda p, q: p + q not in (5, 10))


def _parity(problem: Any, item: Parity, puzzle: Grid) -> None:
    import constraint as lib

    remainder = 1 if item.parity == "odd" else 0
    digits = [d for d in range(1, puzzle.size + 1) if d % 2 == remainder]
    problem.addConstraint(lib.InSetConstraint(digits), (item.cell,))


def _greater_than(problem: Any, item: GreaterThan, puzzle: Grid) -> None:
    greater, smaller = item.cells
    _on_pair(problem, greater, smaller, lambda p, q: p > q)


def _sandwich(problem: Any, item: Sandwich, puzzle: Grid) -> None:
    import constraint as lib

    n, total = puzzle.size, item.total

    def holds(*digits: int) -> bool:
        if 1 not in digits or n not in digits:  # the line's own rule fails: not for us
            return False
        low, high = sorted((digits.index(1), digits.index(n)))
        return sum(digits[low + 1 : high]) == total

    problem.addConstraint(lib.FunctionConstraint(holds), sorted(item.cells))


ENCODERS: dict[str, Encoder] = {
    "jigsaw": _nothing,  # its regions are houses
    "extra-region": _nothing,  # all-different groups
    "disjoint-groups": _nothing,
    "diagonal": _nothing,
    "anti-knight": _differ(KNIGHT),
    "anti-king": _differ(KING),
    "non-consecutive": _non_consecutive,
    "killer": _sum,  # and an all-different group
    "little-killer": _sum,
    "thermometer": _thermometer,
    "arrow": _arrow,
    "kropki": _kropki,
    "kropki-negative": _kropki_negative,
    "xv": _xv,
    "xv-negative": _xv_negative,
    "parity": _parity,
    "greater-than": _greater_than,
    "sandwich": _sandwich,
}

KINDS = frozenset(ENCODERS)
"""The constraint kinds these models encode."""
