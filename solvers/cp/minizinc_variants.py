"""MiniZinc models of puzzles with constraints: one model item per constraint kind.

`model_text` writes, for one puzzle, the model a MiniZinc user would: the
classic declarations (the same data ``BR``, ``BC``, ``givens`` and the cell
array ``x``, so `solvers.cp.minizinc.dzn` serves as its data file), rows and
columns, the boxes or the jigsaw regions, then one item per constraint with
its cells written in.  ``c[i]`` is cell ``i`` in reading order, from 0, as
everywhere in the project.  Every variable introduced is a function of the
cells, so listing solutions never lists one grid twice.

Global constraints where MiniZinc has them: ``alldifferent`` (houses, extra
regions, diagonals, disjoint groups, cages), ``strictly_increasing``
(thermometers), ``table`` (Kropki dots: the digit pairs a dot allows);
``sum`` for killer cages, little killers and arrows (a pill circle weighted
by powers of ten); ``!=``, ``<`` and ``abs`` for the neighbour, order and
negative rules; ``mod`` for parity.  A sandwich finds the positions of the 1
and the N of its line and sums the cells strictly between them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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

HEAD = """\
% Sudoku with constraints: BR rows by BC columns per box, side N = BR * BC.
include "alldifferent.mzn";
include "strictly_increasing.mzn";
include "table.mzn";
int: BR;
int: BC;
int: N = BR * BC;
array[1..N, 1..N] of 0..N: givens;  % 0 = empty
array[1..N, 1..N] of var 1..N: x;
array[0..N * N - 1] of var 1..N: c = array1d(0..N * N - 1, x);  % cell i, reading order
constraint forall(r, k in 1..N where givens[r, k] > 0)(x[r, k] = givens[r, k]);
constraint forall(r in 1..N)(alldifferent(x[r, ..]));
constraint forall(k in 1..N)(alldifferent(x[.., k]));
"""


def model_text(puzzle: Grid) -> str:
    """The MiniZinc model of a puzzle with constraints (data: `solvers.cp.minizinc.dzn`)."""
    n = puzzle.size
    lines = [HEAD, "% boxes, or the jigsaw regions"]
    lines += [f"constraint alldifferent({_cells(unit)});" for unit in houses(puzzle)[2 * n :]]
    for name, cells in distinct_groups(puzzle):
        lines.append(f"constraint alldifferent({_cells(cells)});  % {name}")
    for constraint in puzzle.constraints:
        items = ENCODERS[constraint.kind](constraint, puzzle)
        if items:
            lines.append(f"% {constraint.describe(n)}")
            lines += [f"constraint {item};" for item in items]
    lines.append("solve satisfy;\n")
    return "\n".join(lines)


def _cells(cells: Iterable[int]) -> str:
    return "[" + ", ".join(f"c[{i}]" for i in cells) + "]"


def _ordered_pairs(n: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    return sorted((min(p), max(p)) for p in pairs(n, steps))


# -- encoders: each returns the constraint items of one constraint -------------------
def _nothing(constraint: Constraint, puzzle: Grid) -> list[str]:
    """A kind fully encoded as a house or an all-different group."""
    return []


def _differ(steps: tuple[tuple[int, int], ...]) -> Callable[[Constraint, Grid], list[str]]:
    def encode(constraint: Constraint, puzzle: Grid) -> list[str]:
        return [f"c[{a}] != c[{b}]" for a, b in _ordered_pairs(puzzle.size, steps)]

    return encode


def _non_consecutive(constraint: Constraint, puzzle: Grid) -> list[str]:
    return [f"abs(c[{a}] - c[{b}]) != 1" for a, b in _ordered_pairs(puzzle.size, ORTHOGONAL)]


def _sum(constraint: Killer | LittleKiller | XV, puzzle: Grid) -> list[str]:
    if constraint.total is None:
        return []
    return [f"sum({_cells(constraint.cells)}) = {constraint.total}"]


def _thermometer(constraint: Thermometer, puzzle: Grid) -> list[str]:
    return [f"strictly_increasing({_cells(constraint.cells)})"]


def _arrow(constraint: Arrow, puzzle: Grid) -> list[str]:
    m = len(constraint.circle)
    circle = " + ".join(
        f"{10 ** (m - 1 - k)} * c[{cell}]" if k < m - 1 else f"c[{cell}]"
        for k, cell in enumerate(constraint.circle)
    )
    return [f"{circle} = sum({_cells(constraint.path)})"]


def _kropki(constraint: Kropki, puzzle: Grid) -> list[str]:
    a, b = constraint.cells
    value, n = constraint.value or 0, puzzle.size
    digits = range(1, n + 1)
    if constraint.colour == "white":
        allowed = [(p, q) for p in digits for q in digits if abs(p - q) == value]
    else:
        allowed = [(p, q) for p in digits for q in digits if p == value * q or q == value * p]
    rows = " | ".join(f"{p}, {q}" for p, q in allowed)
    return [f"table([c[{a}], c[{b}]], [| {rows} |])"]


def _unmarked(puzzle: Grid, kind: str) -> list[tuple[int, int]]:
    marked = {c.cells for c in puzzle.constraints if c.kind == kind}  # type: ignore[attr-defined]
    return [p for p in _ordered_pairs(puzzle.size, ORTHOGONAL) if p not in marked]


def _kropki_negative(constraint: KropkiNegative, puzzle: Grid) -> list[str]:
    if constraint.colour == "white":
        return [f"abs(c[{a}] - c[{b}]) != 1" for a, b in _unmarked(puzzle, "kropki")]
    return [
        f"c[{a}] != 2 * c[{b}] /\\ c[{b}] != 2 * c[{a}]" for a, b in _unmarked(puzzle, "kropki")
    ]


def _xv_negative(constraint: Constraint, puzzle: Grid) -> list[str]:
    return [f"not (c[{a}] + c[{b}] in {{5, 10}})" for a, b in _unmarked(puzzle, "xv")]


def _parity(constraint: Parity, puzzle: Grid) -> list[str]:
    return [f"c[{constraint.cell}] mod 2 = {1 if constraint.parity == 'odd' else 0}"]


def _greater_than(constraint: GreaterThan, puzzle: Grid) -> list[str]:
    greater, smaller = constraint.cells
    return [f"c[{greater}] > c[{smaller}]"]


def _sandwich(constraint: Sandwich, puzzle: Grid) -> list[str]:
    line = _cells(sorted(constraint.cells))
    return [
        f"let {{ array[1..N] of var 1..N: l = {line}; var 1..N: p; var 1..N: q; "
        "constraint l[p] = 1; constraint l[q] = N } in "
        f"sum(i in 1..N)((i > min(p, q) /\\ i < max(p, q)) * l[i]) = {constraint.total}"
    ]


ENCODERS: dict[str, Callable[[Any, Grid], list[str]]] = {
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
