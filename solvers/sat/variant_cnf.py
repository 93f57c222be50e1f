"""Puzzles with constraints as CNF: one clause generator per constraint kind.

Shared by `sat` and `dimacs`.  The cell variables are those of
`solvers.sat.cnf` (``cell * N + digit``); auxiliary variables are numbered
after them, so a model reads as a grid the same way.  The houses are rows,
columns, and boxes or the jigsaw regions, in the chosen classic encoding.

Encodings (exact: a grid satisfies the clauses, with some values of the
auxiliary variables, exactly when the verifier accepts it; counting blocks
cell literals only, so auxiliaries never list a grid twice):

- all-different groups (extra regions, diagonals, disjoint groups, cages):
  each digit at most once in the group, pairwise;
- relations between two cells (anti-knight, anti-king, non-consecutive,
  thermometers, greater-than, Kropki dots and their negative rules, XV and
  its negative rule): a clause ``-x(a,p) | -x(b,q)`` for every pair of
  digits ``(p, q)`` the relation forbids (direct encoding);
- parity: a unit clause removing each digit of the wrong parity;
- sums (killer cages, little killers, arrows, sandwiches): a *ladder of
  partial sums*.  For cells c1..ck, variable ``s(i, v)`` says the first i
  cells may sum to v (v up to the total; one variable ``over(i)`` for
  anything above), forced by ``s(i-1, v) & x(ci, d) -> s(i, v+d)``.  The
  true partial sums are therefore always true, so forbidding the wrong final
  states (``-s(k, v)`` for v != total, ``-over(k)``) is exact.  An arrow ties
  each final state v to the circle's digits of v; a sandwich builds one
  ladder from each cell of its line and, for every pair of cells holding 1
  or N, forbids the wrong sums between them.

``sums=combinations`` encodes killer cages with a total differently: one
variable per set of distinct digits that makes the total, one of them true,
each forcing every cell of the cage to a digit of its set (the cage's
all-different group makes the cells exactly that set).  Other sums, whose
digits may repeat, keep the ladder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from solvers.grid import Grid
from solvers.sat.cnf import literal, unit_clauses
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

Clause = list[int]
Relation = Callable[[int, int], bool]

SUMS: Mapping[str, str] = {
    "ladder": "sums as ladders of partial sums",
    "combinations": "killer cages as a choice among the digit sets that make the total "
    "(other sums: ladders)",
}
SUMS_HELP = "; ".join(f"{name}: {text}" for name, text in SUMS.items())


@dataclass
class Formula:
    """Clauses being built for one puzzle, and the next free variable."""

    size: int
    sums: str = "ladder"  # how killer cages are encoded (`SUMS`)
    clauses: list[Clause] = field(default_factory=list)
    top: int = 0  # the highest variable in use

    def __post_init__(self) -> None:
        self.top = max(self.top, self.size**3)

    def new(self) -> int:
        """A fresh auxiliary variable."""
        self.top += 1
        return self.top

    def x(self, cell: int, digit: int) -> int:
        """The literal "`cell` holds `digit`"."""
        return literal(self.size, cell, digit)


def formula(puzzle: Grid, encoding: str, sums: str = "ladder") -> Formula:
    """The CNF of a puzzle and its constraints (givens not included)."""
    if sums not in SUMS:
        raise ValueError(f"unknown sums encoding {sums!r}; choose one of: {', '.join(SUMS)}")
    out = Formula(puzzle.size, sums)
    out.clauses.extend(unit_clauses(puzzle.size, houses(puzzle), encoding))
    for _, cells in distinct_groups(puzzle):
        _all_different(out, cells)
    for constraint in puzzle.constraints:
        ENCODERS[constraint.kind](out, constraint, puzzle)
    return out


# -- building blocks ---------------------------------------------------------------
def _all_different(f: Formula, cells: Iterable[int]) -> None:
    group = list(cells)
    for d in range(1, f.size + 1):
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                f.clauses.append([-f.x(a, d), -f.x(b, d)])


def _relate(f: Formula, a: int, b: int, allowed: Relation) -> None:
    """Forbid every pair of digits of cells `a`, `b` that `allowed` rejects."""
    digits = range(1, f.size + 1)
    for p in digits:
        for q in digits:
            if not allowed(p, q):
                f.clauses.append([-f.x(a, p), -f.x(b, q)])


@dataclass
class Ladder:
    """Partial sums of a sequence of cells: ``states[i][v]`` for the first i cells
    summing to v (at most `cap`), ``over[i]`` for more than `cap`."""

    states: list[dict[int, int]]
    over: list[int]


def _ladder(f: Formula, cells: Iterable[int], cap: int) -> Ladder:
    start, nothing = f.new(), f.new()
    f.clauses += [[start], [-nothing]]
    states, over = [{0: start}], [nothing]
    for cell in cells:
        level: dict[int, int] = {}
        above = f.new()
        f.clauses.append([-over[-1], above])
        for v, s in states[-1].items():
            for d in range(1, f.size + 1):
                if v + d > cap:
                    f.clauses.append([-s, -f.x(cell, d), above])
                else:
                    if v + d not in level:
                        level[v + d] = f.new()
                    f.clauses.append([-s, -f.x(cell, d), level[v + d]])
        states.append(level)
        over.append(above)
    return Ladder(states, over)


def _require_sum(f: Formula, ladder: Ladder, level: int, total: int, unless: Clause) -> None:
    """The first `level` cells sum to `total`, unless a literal of `unless` is true."""
    f.clauses.append([*unless, -ladder.over[level]])
    for v, s in ladder.states[level].items():
        if v != total:
            f.clauses.append([*unless, -s])


# -- encoders ----------------------------------------------------------------------
def _nothing(f: Formula, constraint: Constraint, puzzle: Grid) -> None:
    """A kind fully encoded as a house or an all-different group."""


def _differ(steps: tuple[tuple[int, int], ...]) -> Callable[[Formula, Constraint, Grid], None]:
    def encode(f: Formula, constraint: Constraint, puzzle: Grid) -> None:
        for a, b in sorted(tuple(sorted(p)) for p in pairs(f.size, steps)):
            _relate(f, a, b, lambda p, q: p != q)

    return encode


def _non_consecutive(f: Formula, constraint: Constraint, puzzle: Grid) -> None:
    for a, b in sorted(tuple(sorted(p)) for p in pairs(f.size, ORTHOGONAL)):
        _relate(f, a, b, lambda p, q: abs(p - q) != 1)


def _sum(f: Formula, constraint: Killer | LittleKiller, puzzle: Grid) -> None:
    if constraint.total is None:
        return
    if f.sums == "combinations" and isinstance(constraint, Killer):
        _digit_sets(f, constraint.cells, constraint.total)
    else:
        ladder = _ladder(f, constraint.cells, constraint.total)
        _require_sum(f, ladder, len(constraint.cells), constraint.total, [])


def _digit_sets(f: Formula, cells: tuple[int, ...], total: int) -> None:
    """Distinct digits in `cells` summing to `total`: the cells take one allowed set."""
    chosen = []
    for digits in combinations(range(1, f.size + 1), len(cells)):
        if sum(digits) == total:
            choice = f.new()
            chosen.append(choice)
            for cell in cells:
                f.clauses.append([-choice, *(f.x(cell, d) for d in digits)])
    f.clauses.append(chosen)


def _thermometer(f: Formula, constraint: Thermometer, puzzle: Grid) -> None:
    for a, b in zip(constraint.cells, constraint.cells[1:], strict=False):
        _relate(f, a, b, lambda p, q: p < q)


def _arrow(f: Formula, constraint: Arrow, puzzle: Grid) -> None:
    circle = constraint.circle
    cap = f.size if len(circle) == 1 else 10 ** len(circle) - 1
    ladder = _ladder(f, constraint.path, cap)
    k = len(constraint.path)
    f.clauses.append([-ladder.over[k]])
    for v, s in ladder.states[k].items():
        digits = [int(ch) for ch in str(v)] if len(circle) > 1 else [v]
        if len(digits) != len(circle) or not all(1 <= d <= f.size for d in digits):
            f.clauses.append([-s])  # no circle reads v
            continue
        for cell, d in zip(circle, digits, strict=True):
            f.clauses.append([-s, f.x(cell, d)])


def kropki_allows(colour: str, value: int) -> Relation:
    """The digit pairs a dot allows: differing by `value` (white) or in ratio `value` (black)."""
    if colour == "white":
        return lambda p, q: abs(p - q) == value
    return lambda p, q: p == value * q or q == value * p


def _kropki(f: Formula, constraint: Kropki, puzzle: Grid) -> None:
    a, b = constraint.cells
    _relate(f, a, b, kropki_allows(constraint.colour, constraint.value or 0))


def _unmarked(puzzle: Grid, kind: str) -> list[tuple[int, int]]:
    marked = {c.cells for c in puzzle.constraints if c.kind == kind}  # type: ignore[attr-defined]
    found = sorted(tuple(sorted(p)) for p in pairs(puzzle.size, ORTHOGONAL))
    return [(a, b) for a, b in found if (a, b) not in marked]


def _kropki_negative(f: Formula, constraint: KropkiNegative, puzzle: Grid) -> None:
    dot = kropki_allows(constraint.colour, 1 if constraint.colour == "white" else 2)
    for a, b in _unmarked(puzzle, "kropki"):
        _relate(f, a, b, lambda p, q: not dot(p, q))


def _xv(f: Formula, constraint: XV, puzzle: Grid) -> None:
    a, b = constraint.cells
    _relate(f, a, b, lambda p, q: p + q == constraint.total)


def _xv_negative(f: Formula, constraint: Constraint, puzzle: Grid) -> None:
    for a, b in _unmarked(puzzle, "xv"):
        _relate(f, a, b, lambda p, q: p + q not in (5, 10))


def _parity(f: Formula, constraint: Parity, puzzle: Grid) -> None:
    wrong = 0 if constraint.parity == "odd" else 1
    for d in range(1, f.size + 1):
        if d % 2 == wrong:
            f.clauses.append([-f.x(constraint.cell, d)])


def _greater_than(f: Formula, constraint: GreaterThan, puzzle: Grid) -> None:
    greater, smaller = constraint.cells
    _relate(f, greater, smaller, lambda p, q: p > q)


def _sandwich(f: Formula, constraint: Sandwich, puzzle: Grid) -> None:
    n, line, total = f.size, sorted(constraint.cells), constraint.total
    for i, first in enumerate(line[:-1]):
        ladder = _ladder(f, line[i + 1 : -1], total)
        for level, last in enumerate(line[i + 1 :]):
            for p in (1, n):
                for q in (1, n):
                    _require_sum(f, ladder, level, total, [-f.x(first, p), -f.x(last, q)])


ENCODERS: dict[str, Callable[[Formula, Any, Grid], None]] = {
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
"""The constraint kinds these clauses encode."""
