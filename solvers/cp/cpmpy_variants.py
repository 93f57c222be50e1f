"""CPMpy models of puzzles with constraints: one encoding per constraint kind.

`variant_model` gives, for one puzzle, the cell variables (one integer 1..N
per cell, in reading order) and the constraints: the houses (rows, columns,
and boxes or the jigsaw regions), then each constraint through `ENCODERS`.
CPMpy's global constraints where it has them: ``AllDifferent`` (houses,
extra regions, diagonals, disjoint groups, cages), ``IncreasingStrict``
(thermometers), ``Table`` (Kropki dots), ``NegativeTable`` (the all-dots-given
rules), ``InDomain`` (parity); sums as linear equalities, an arrow's pill
circle weighted by powers of ten; ``!=`` and ``abs`` for the neighbour rules.
A sandwich has one Boolean per cell of its line, true exactly when the cell
holds 1 or N; both ends true enforce the sum of the cells between them.
Every Boolean is a function of the cells, so no grid is listed twice.

Each backend compiles these as it can (CPMpy decomposes what a backend has
no native form for); one that cannot raises, and `cpmpy` answers ERROR.
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

Encoder = Callable[[Any, Any, Grid], list[Any]]


def variant_model(puzzle: Grid) -> tuple[Any, list[Any]]:
    """The cell variables of a puzzle with constraints and its constraints (no givens)."""
    import cpmpy as cp

    n = puzzle.size
    x = cp.intvar(1, n, shape=n * n, name="x")
    out = [cp.AllDifferent([x[c] for c in unit]) for unit in houses(puzzle)]
    out += [cp.AllDifferent([x[c] for c in cells]) for _, cells in distinct_groups(puzzle)]
    for constraint in puzzle.constraints:
        out += ENCODERS[constraint.kind](x, constraint, puzzle)
    return x, out


def _ordered_pairs(n: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    return sorted((min(p), max(p)) for p in pairs(n, steps))


def _nothing(x: Any, constraint: Constraint, puzzle: Grid) -> list[Any]:
    """A kind fully encoded as a house or an all-different group."""
    return []


def _differ(steps: tuple[tuple[int, int], ...]) -> Encoder:
    def encode(x: Any, constraint: Constraint, puzzle: Grid) -> list[Any]:
        return [x[a] != x[b] for a, b in _ordered_pairs(puzzle.size, steps)]

    return encode


def _non_consecutive(x: Any, constraint: Constraint, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    return [cp.abs(x[a] - x[b]) != 1 for a, b in _ordered_pairs(puzzle.size, ORTHOGONAL)]


def _sum(x: Any, constraint: Killer | LittleKiller | XV, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    if constraint.total is None:
        return []
    return [cp.sum([x[c] for c in constraint.cells]) == constraint.total]


def _thermometer(x: Any, constraint: Thermometer, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    return [cp.IncreasingStrict([x[c] for c in constraint.cells])]


def _arrow(x: Any, constraint: Arrow, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    m = len(constraint.circle)
    circle = cp.sum([10 ** (m - 1 - k) * x[c] for k, c in enumerate(constraint.circle)])
    return [circle == cp.sum([x[c] for c in constraint.path])]


def _dot_pairs(colour: str, value: int, n: int) -> list[tuple[int, int]]:
    digits = range(1, n + 1)
    if colour == "white":
        return [(p, q) for p in digits for q in digits if abs(p - q) == value]
    return [(p, q) for p in digits for q in digits if p == value * q or q == value * p]


def _kropki(x: Any, constraint: Kropki, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    a, b = constraint.cells
    allowed = _dot_pairs(constraint.colour, constraint.value or 0, puzzle.size)
    return [cp.Table([x[a], x[b]], allowed)]


def _unmarked(puzzle: Grid, kind: str) -> list[tuple[int, int]]:
    marked = {c.cells for c in puzzle.constraints if c.kind == kind}  # type: ignore[attr-defined]
    return [p for p in _ordered_pairs(puzzle.size, ORTHOGONAL) if p not in marked]


def _kropki_negative(x: Any, constraint: KropkiNegative, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    default = 1 if constraint.colour == "white" else 2
    forbidden = _dot_pairs(constraint.colour, default, puzzle.size)
    return [cp.NegativeTable([x[a], x[b]], forbidden) for a, b in _unmarked(puzzle, "kropki")]


def _xv_negative(x: Any, constraint: Constraint, puzzle: Grid) -> list[Any]:
    found = []
    for a, b in _unmarked(puzzle, "xv"):
        found += [x[a] + x[b] != 5, x[a] + x[b] != 10]
    return found


def _parity(x: Any, constraint: Parity, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    remainder = 1 if constraint.parity == "odd" else 0
    digits = [d for d in range(1, puzzle.size + 1) if d % 2 == remainder]
    return [cp.InDomain(x[constraint.cell], digits)]


def _greater_than(x: Any, constraint: GreaterThan, puzzle: Grid) -> list[Any]:
    greater, smaller = constraint.cells
    return [x[greater] > x[smaller]]


def _sandwich(x: Any, constraint: Sandwich, puzzle: Grid) -> list[Any]:
    import cpmpy as cp

    n, line = puzzle.size, sorted(constraint.cells)
    end = cp.boolvar(shape=len(line))
    out = [end[i] == ((x[c] == 1) | (x[c] == n)) for i, c in enumerate(line)]
    for i in range(len(line)):
        if constraint.total:  # neighbours hold nothing between them
            out.append(~(end[i] & end[i + 1]) if i + 1 < len(line) else end[i] | ~end[i])
        for j in range(i + 2, len(line)):
            between = cp.sum([x[c] for c in line[i + 1 : j]])
            out.append((end[i] & end[j]).implies(between == constraint.total))
    return out


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
    "xv": _sum,
    "xv-negative": _xv_negative,
    "parity": _parity,
    "greater-than": _greater_than,
    "sandwich": _sandwich,
}

KINDS = frozenset(ENCODERS)
"""The constraint kinds these models encode."""
