"""Every constraint kind in small sets, and every Latin square of side 4: the ground
truth an encoding of the constraints is checked against by brute force.

The project's tests check each paradigm's encoding with these (an encoding of
your own can be checked the same way): for each set, the squares `accepted`
lists are exactly the grids a solver asked for every solution must find.

There are 576 Latin squares of side 4 (288 of them are Sudoku solutions; a
jigsaw keeps others).  For each set of constraints, the squares the verifier
accepts are the truth; an encoding that is too strict misses some, one too
loose adds some, an auxiliary variable left free lists a grid twice.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from solvers.grid import Grid
from solvers.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)

# AAAB / ABBB / CCDD / CCDD
JIGSAW = Jigsaw(((0, 1, 2, 4), (3, 5, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)))
SETS: dict[str, list[tuple[Constraint, ...]]] = {
    "jigsaw": [(JIGSAW,), (Jigsaw(tuple(tuple(r * 4 + c for r in range(4)) for c in range(4))),)],
    "extra-region": [(ExtraRegion((0, 5, 10, 15)),), (ExtraRegion((1, 6)), ExtraRegion((8, 13)))],
    "disjoint-groups": [(DisjointGroups(),)],
    "diagonal": [(Diagonal("main"),), (Diagonal("main"), Diagonal("anti"))],
    "anti-knight": [(AntiKnight(),)],
    "anti-king": [(AntiKing(),), (AntiKing(), JIGSAW)],
    "non-consecutive": [(NonConsecutive(),), (NonConsecutive(), JIGSAW)],
    "killer": [(Killer((0, 1), 3),), (Killer((0, 1, 4), 7), Killer((0, 5)))],
    "little-killer": [
        (LittleKiller((0, 5, 10, 15), 10),),
        (LittleKiller((1, 6, 11), 6), LittleKiller((12,), 3)),
    ],
    "thermometer": [(Thermometer((0, 1, 2)),), (Thermometer((4, 9, 14)), Thermometer((3, 7)))],
    "arrow": [
        (Arrow((0,), (5,)),),
        (Arrow((3,), (6, 9)),),
        (Arrow((0, 1), (4, 8, 12, 13, 14, 15, 11, 7)),),
    ],
    "kropki": [
        (Kropki((0, 1)),),
        (Kropki((0, 4), "black"), Kropki((1, 2), "white", 2)),
    ],
    "kropki-negative": [
        (KropkiNegative("white"), Kropki((0, 1)), Kropki((5, 6)), Kropki((10, 14))),
        (KropkiNegative("black"), Kropki((0, 4), "black")),
        (KropkiNegative("white"), KropkiNegative("black"), Kropki((0, 1), "black")),
    ],
    "xv": [(XV((0, 1), 5),), (XV((0, 1), 5), XV((4, 8), 5))],
    "xv-negative": [(XVNegative(), XV((0, 1), 5), XV((10, 11), 5))],
    "parity": [(Parity(0, "odd"), Parity(5, "even")), (Parity(0, "even"), Parity(1, "even"))],
    "greater-than": [(GreaterThan((0, 1)), GreaterThan((4, 0)))],
    "sandwich": [
        (Sandwich((0, 1, 2, 3), 0),),
        (Sandwich((1, 5, 9, 13), 5), Sandwich((4, 5, 6, 7), 2)),
    ],
}


def latin_squares() -> list[Grid]:
    """Every Latin square of side 4 (576), built from row permutations alone."""
    rows = list(itertools.permutations(range(1, 5)))
    squares = [
        Grid(2, 2, sum(choice, ()))
        for choice in itertools.product(rows, repeat=4)
        if all(len({row[c] for row in choice}) == 4 for c in range(4))
    ]
    return squares


def accepted(constraints: tuple[Constraint, ...], squares: Iterable[Grid]) -> set[tuple[int, ...]]:
    """The cells of every square the verifier accepts under `constraints`."""
    from solvers.verify import check  # the verifier builds on this package

    puzzle = Grid.empty(2).with_constraints(constraints)
    return {g.cells for g in squares if not check(puzzle, g)}
