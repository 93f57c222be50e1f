"""The verifier on puzzles with constraints: each kind checked with a right and a wrong answer.

The grids are hand-checked: S is a classic solution (its rows are written
below), PATTERN and SPREAD are formula grids whose properties are argued in
their docstrings, so no solver's answer is trusted here.
"""

from __future__ import annotations

import pytest

from solvers.grid import Grid
from solvers.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
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
from solvers.verify import check, conflicts

S = Grid.parse(
    "974518326"  # r1
    "263497518"  # r2
    "815326497"  # r3
    "182635749"  # r4
    "497281635"  # r5
    "356749281"  # r6
    "631974852"  # r7
    "528163974"  # r8
    "749852163"  # r9
)


def _pattern() -> Grid:
    """(3r + r//3 + c) mod 9 + 1: a solution with no repeat a knight's or a king's move
    apart (neighbours differ by 2..5 mod 9) and with disjoint groups (R + 3C mod 9
    differs across boxes)."""
    return Grid(3, 3, tuple((3 * r + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)))


def _spread() -> Grid:
    """(2c + s[r]) mod 9 + 1 with s = 0 6 3 7 4 1 5 2 8: no orthogonal neighbours are
    consecutive (row steps of 2, column steps of 3, 4 or 6 mod 9)."""
    s = (0, 6, 3, 7, 4, 1, 5, 2, 8)
    return Grid(3, 3, tuple((2 * c + s[r]) % 9 + 1 for r in range(9) for c in range(9)))


# X4: a 4x4 solution whose two diagonals hold 1..4 (1 4 2 3 and 4 1 3 2).
X4 = Grid.parse("1234 3412 4321 2143")
COLUMNS4 = tuple(tuple(r * 4 + c for r in range(4)) for c in range(4))
LATIN4 = Grid.parse("1234 2341 3412 4123")  # rows and columns fine, boxes not

PATTERN, SPREAD = _pattern(), _spread()
# S's pairs of orthogonal neighbours in ratio 2, and those summing to 5 or 10.
HALVES = [
    (a, b)
    for a in range(81)
    for b in (a + 1, a + 9)
    if b < 81
    and (b == a + 9 or b % 9)
    and {S.cells[a], S.cells[b]} in ({1, 2}, {2, 4}, {3, 6}, {4, 8})
]
FIVES_TENS = [
    (a, b)
    for a in range(81)
    for b in (a + 1, a + 9)
    if b < 81 and (b == a + 9 or b % 9) and S.cells[a] + S.cells[b] in (5, 10)
]

# kind: (solution, constraints it satisfies, constraints it breaks)
CASES = {
    "jigsaw": (
        S,
        # boxes 1 and 2 trade r1c3 and r2c4, which both hold 4
        [
            Jigsaw(
                ((0, 1, 9, 10, 11, 18, 19, 20, 12), (2, 3, 4, 5, 13, 14, 21, 22, 23))
                + tuple(
                    tuple(r * 9 + c for r in range(R, R + 3) for c in range(C, C + 3))
                    for R in range(0, 9, 3)
                    for C in range(0, 9, 3)
                    if (R, C) not in ((0, 0), (0, 3))
                )
            )
        ],
        # boxes 1 and 2 trade r1c3 (4) and r1c4 (5): 5 twice in the first
        [
            Jigsaw(
                ((0, 1, 9, 10, 11, 18, 19, 20, 3), (2, 4, 5, 12, 13, 14, 21, 22, 23))
                + tuple(
                    tuple(r * 9 + c for r in range(R, R + 3) for c in range(C, C + 3))
                    for R in range(0, 9, 3)
                    for C in range(0, 9, 3)
                    if (R, C) not in ((0, 0), (0, 3))
                )
            )
        ],
    ),
    "extra-region": (S, [ExtraRegion((0, 10, 20))], [ExtraRegion((0, 37))]),
    "disjoint-groups": (PATTERN, [DisjointGroups()], []),
    "diagonal": (X4, [Diagonal("main"), Diagonal("anti")], []),
    "anti-knight": (PATTERN, [AntiKnight()], []),
    "anti-king": (PATTERN, [AntiKing()], []),
    "non-consecutive": (SPREAD, [NonConsecutive()], []),
    "killer": (
        S,
        [Killer((0, 1), 16), Killer((0, 1, 9))],
        [Killer((0, 1), 15), Killer((0, 37))],
    ),
    "little-killer": (S, [LittleKiller((6, 16, 26), 11)], [LittleKiller((6, 16, 26), 12)]),
    "thermometer": (S, [Thermometer((4, 3, 13))], [Thermometer((3, 4))]),
    "arrow": (
        S,
        [Arrow((0,), (1, 9)), Arrow((27, 28), (37, 45, 54))],  # 9 = 7 + 2; 18 = 9 + 3 + 6
        [Arrow((0,), (1, 10))],
    ),
    "kropki": (
        S,
        [Kropki((2, 3)), Kropki((7, 16), "black"), Kropki((0, 1), "white", 2)],
        [Kropki((0, 1)), Kropki((0, 1), "black")],
    ),
    "kropki-negative": (
        S,
        [KropkiNegative("black"), *(Kropki(p, "black") for p in HALVES)],
        [KropkiNegative("black"), *(Kropki(p, "black") for p in HALVES[1:])],
    ),
    "xv": (S, [XV((4, 13), 10), XV((27, 36), 5)], [XV((0, 1), 10)]),
    "xv-negative": (
        S,
        [XVNegative(), *(XV(p, S.cells[p[0]] + S.cells[p[1]]) for p in FIVES_TENS)],
        [XVNegative(), *(XV(p, S.cells[p[0]] + S.cells[p[1]]) for p in FIVES_TENS[1:])],
    ),
    "parity": (S, [Parity(0, "odd"), Parity(1, "odd"), Parity(2, "even")], [Parity(0, "even")]),
    "greater-than": (S, [GreaterThan((0, 1))], [GreaterThan((1, 0))]),
    "sandwich": (
        S,
        [Sandwich(tuple(range(9)), 16), Sandwich(tuple(range(0, 81, 9)), 10)],
        [Sandwich(tuple(range(9)), 15)],
    ),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_solution_keeping_every_constraint_passes(kind):
    solution, kept, _ = CASES[kind]
    puzzle = solution.with_constraints(tuple(kept))
    assert check(puzzle.replace((0,) * len(solution.cells)), solution) == []


def _broken_cases():
    for kind, (solution, kept, broken) in sorted(CASES.items()):
        if not broken:  # a global rule: the classic solution S breaks it
            yield pytest.param(kind, S, [kept[0]], id=f"{kind}-on-S")
        elif kind.endswith("-negative"):  # the rule with every mark but one
            yield pytest.param(kind, solution, broken, id=kind)
        else:
            for i, constraint in enumerate(broken):
                yield pytest.param(kind, solution, [constraint], id=f"{kind}-{i}")


@pytest.mark.parametrize(("kind", "solution", "broken"), list(_broken_cases()))
def test_a_broken_constraint_is_named(kind, solution, broken):
    empty = Grid(solution.box_rows, solution.box_cols, (0,) * len(solution.cells))
    problems = check(empty.with_constraints(tuple(broken)), solution)
    assert problems
    named = {p.constraint.kind for p in problems if p.constraint is not None}
    duplicates = [p.message for p in problems if p.kind == "duplicate"]
    assert kind in named or any(kind.replace("-", " ") in m for m in duplicates), problems


def test_messages_name_the_constraint_and_the_cells():
    puzzle = Grid(3, 3, (0,) * 81, constraints=(Killer((0, 1), 15), Thermometer((3, 4))))
    messages = [str(p) for p in check(puzzle, S)]
    assert "killer cage r1c1 r1c2 (sum 15): digits sum to 16" in messages
    assert "thermometer r1c4 r1c5: 1 at r1c5 is not above 5 at r1c4" in messages


def test_jigsaw_regions_replace_the_boxes():
    puzzle = Grid(2, 2, (0,) * 16, constraints=(Jigsaw(COLUMNS4),))
    assert check(puzzle, LATIN4) == []  # its boxes repeat digits: no longer a rule
    assert check(Grid(2, 2, (0,) * 16), LATIN4) != []


def test_a_sandwich_reads_the_line_in_order_whichever_end_the_nine_is():
    column = Sandwich(tuple(range(0, 81, 9)), 10)  # 9 2 8 1 ...: 2 + 8 between the 9 and the 1
    assert check(Grid(3, 3, (0,) * 81, constraints=(column,)), S) == []


def test_givens_that_break_a_constraint_are_conflicts():
    givens = [0] * 81
    givens[0], givens[1] = 9, 7
    puzzle = Grid(3, 3, tuple(givens), constraints=(Killer((0, 1, 2), 15), GreaterThan((1, 0))))
    found = conflicts(puzzle)
    assert [p.kind for p in found] == ["greater-than"]  # the cage is not full: no verdict yet
    full = Grid(3, 3, tuple(givens), constraints=(Killer((0, 1), 15),))
    assert [p.kind for p in conflicts(full)] == ["killer"]
    repeat = Grid(3, 3, tuple(givens), constraints=(ExtraRegion((0, 80)),))
    assert conflicts(repeat.replace(givens[:80] + [9])) != []


def test_a_classic_puzzle_is_checked_as_before():
    puzzle = S.replace([0] * 81)
    assert check(puzzle, S) == []
    assert [p.kind for p in check(puzzle, S.replace((7, 9) + S.cells[2:]))] == ["duplicate"] * 2
