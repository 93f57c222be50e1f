"""`dlx` on puzzles with constraints: the matrix states each rule exactly, no more.

The built-in variant corpora are solved and checked against their truth; every
pair of cell rows of a small matrix conflicts exactly when the verifier says
the two placements break a rule; solution counts on 4x4 puzzles equal a brute
count over every 4x4 Sudoku grid (so a cage's combination rows never count a
grid twice); the kinds outside exact cover are refused with the reason.
"""

from __future__ import annotations

import itertools
import random

import pytest

import solvers
from corpora import open_corpus
from solvers.base import UnsupportedPuzzle
from solvers.exact_cover import matrix
from solvers.exact_cover.matrix import build, combination_count, combinations
from solvers.grid import Grid
from solvers.variants import (
    AntiKing,
    AntiKnight,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Jigsaw,
    Killer,
    NonConsecutive,
    Parity,
    Thermometer,
)
from solvers.verify import check, conflicts

DLX = solvers.get("dlx")

# A fixed sample of each corpus (the whole corpora: `sudoku-bench verify --solver dlx`).
SAMPLES = {"killer9": 5, "antiknight9": 10, "jigsaw9": 2, "x9": 1}


@pytest.mark.parametrize(("name", "step"), SAMPLES.items())
def test_dlx_solves_the_builtin_variant_corpora_as_their_truth_says(name, step):
    corpus = open_corpus(name)
    truth = corpus.truth()
    puzzles = list(corpus.puzzles())[::step]
    assert len(puzzles) >= 5
    for puzzle in puzzles:
        assert DLX.handles(puzzle.grid), puzzle.id
        result = DLX.solve(puzzle.grid, limit=2)
        assert result.unique, puzzle.id
        assert check(puzzle.grid, result.solution) == [], puzzle.id
        assert result.solution.format("line") == truth[puzzle.id].solution, puzzle.id


def test_the_classic_matrix_is_the_four_constraint_matrix():
    m = build(Grid.empty(2, 3))
    n = 6
    assert (m.primary, m.secondary) == (4 * n * n, 0)
    assert m.labels == tuple(range(n**3))
    for cell, d in itertools.product(range(n * n), range(n)):
        r, c = divmod(cell, n)
        box = (r // 2) * 2 + c // 3
        expected = (cell, n * n + r * n + d, 2 * n * n + c * n + d, 3 * n * n + box * n + d)
        assert m.rows[cell * n + d] == expected


COLUMNS4 = tuple(tuple(r * 4 + c for r in range(4)) for c in range(4))
PAIRWISE = {
    "non-consecutive": (NonConsecutive(),),
    "anti-knight": (AntiKnight(),),
    "anti-king": (AntiKing(),),
    "regions": (Diagonal("anti"), ExtraRegion((0, 5, 15)), DisjointGroups()),
    "jigsaw": (Jigsaw(COLUMNS4), ExtraRegion((0, 1, 2, 3))),
    "killer without a sum": (Killer((0, 1, 4)), Killer((5, 6, 9, 10))),
    "parity": (Parity(0, "odd"), Parity(5, "even")),
}


@pytest.mark.parametrize("rules", PAIRWISE.values(), ids=PAIRWISE.keys())
def test_two_cell_rows_conflict_exactly_when_the_rules_forbid_both(rules):
    puzzle = Grid.empty(2).with_constraints(rules)
    m = build(puzzle)
    n = puzzle.size
    row_of = {label: cols for cols, label in zip(m.rows, m.labels, strict=True)}
    assert set(m.labels) == {
        cell * n + d
        for cell, d in itertools.product(range(n * n), range(n))
        if not conflicts(_placed(puzzle, (cell, d)))
    }
    for a, b in itertools.combinations(sorted(row_of), 2):
        if a // n == b // n:
            continue  # one cell, two digits: the cell's column
        shared = set(row_of[a]) & set(row_of[b])
        assert bool(shared) == bool(conflicts(_placed(puzzle, divmod(a, n), divmod(b, n))))


def _placed(puzzle: Grid, *placements: tuple[int, int]) -> Grid:
    cells = list(puzzle.cells)
    for cell, d in placements:
        cells[cell] = d + 1
    return puzzle.replace(cells)


def test_consecutive_neighbours_share_exactly_one_column_and_others_none():
    puzzle = Grid.empty(2, 3).with_constraints((NonConsecutive(),))
    m = build(puzzle)
    n = puzzle.size
    row_of = {label: cols for cols, label in zip(m.rows, m.labels, strict=True)}
    a, b = 8, 9  # r2c3 and r2c4: orthogonal neighbours in one row, two boxes
    c = 15  # r3c4: below b, diagonal to a
    for x, y in itertools.product(range(n), repeat=2):
        shared = {m.keys[k] for k in set(row_of[a * n + x]) & set(row_of[b * n + y])}
        if abs(x - y) == 1:
            assert shared == {("consecutive", a, b, min(x, y))}
        elif x == y:  # conflicting already: the row's column, and the pairs with x
            pairs = {("consecutive", a, b, e) for e in (x - 1, x) if 0 <= e < n - 1}
            assert shared == {("row", 1, x)} | pairs
        else:
            assert shared == set()
        diagonal = {m.keys[k] for k in set(row_of[a * n + x]) & set(row_of[c * n + y])}
        assert diagonal == set()
    assert len(m.keys) == m.primary + m.secondary
    assert {k[0] for k in m.keys[m.primary :]} == {"consecutive"}


ALL4 = DLX.solve(Grid.empty(2), limit=1000).solutions


def _random_rules(seed: int) -> tuple:
    """Killer cages (some with sums) cut from a random 4x4 grid, with parity or a diagonal."""
    rng = random.Random(seed)
    grid = rng.choice(ALL4)
    cells = list(range(16))
    rng.shuffle(cells)
    rules: list = []
    while cells:
        cage = []
        for cell in cells:
            if len(cage) < rng.randint(1, 4) and all(
                abs(cell // 4 - o // 4) + abs(cell % 4 - o % 4) == 1 for o in cage[-1:]
            ):
                cage.append(cell)
        cells = [c for c in cells if c not in cage]
        digits = [grid.cells[c] for c in cage]
        distinct = len(set(digits)) == len(digits)
        total = sum(digits) if distinct and rng.random() < 0.7 else None
        rules.append(Killer(tuple(cage), total))
    rules += rng.sample([Parity(rng.randrange(16), "even"), Diagonal(), NonConsecutive()], 1)
    return tuple(rules)


@pytest.mark.parametrize("seed", range(25))
def test_solution_counts_equal_a_count_over_every_4x4_grid(seed):
    assert len(ALL4) == 288
    puzzle = Grid.empty(2).with_constraints(_random_rules(seed))
    expected = {g.cells for g in ALL4 if not check(puzzle, g)}
    result = DLX.solve(puzzle, limit=1000)
    assert result.exhausted
    assert len(result.solutions) == len(expected)
    assert {g.cells for g in result.solutions} == expected


def test_a_cage_holds_exactly_its_combination():
    puzzle = Grid.empty(2).with_constraints((Killer((0, 1, 4), 7), Killer((2, 3), 7)))
    result = DLX.solve(puzzle, limit=1000)
    assert result.solved
    assert result.exhausted
    for g in result.solutions:
        assert sorted(g.cells[c] for c in (0, 1, 4)) == [1, 2, 4]
        assert sorted(g.cells[c] for c in (2, 3)) == [3, 4]
    m = build(puzzle)
    primary = [k for k in m.keys[: m.primary] if k[0] == "cage"]
    assert primary == [("cage", 0), ("cage", 0, 0), ("cage", 0, 1), ("cage", 0, 3)] + [
        ("cage", 1),
        ("cage", 1, 2),
        ("cage", 1, 3),
    ]
    assert m.labels.count(-1) == 2  # one combination each: {1, 2, 4} and {3, 4}


def test_a_given_no_combination_holds_is_unsolvable_not_invalid():
    puzzle = Grid.parse("4... .... .... ....").with_constraints((Killer((0, 1), 3),))
    assert conflicts(puzzle) == []
    result = DLX.solve(puzzle, limit=2)
    assert result.status is solvers.Status.UNSOLVABLE
    assert result.exhausted
    assert "given 4 at r1c1" in result.message


def test_combinations_are_the_digit_sets_with_the_sum():
    for k, total in itertools.product(range(10), range(50)):
        brute = [s for s in itertools.combinations(range(1, 10), k) if sum(s) == total]
        assert list(combinations(9, k, total)) == brute
        assert combination_count(9, k, total) == len(brute)


def test_the_kinds_outside_exact_cover_are_refused_with_the_reason():
    assert solvers.solver_class("dlx").constraint_kinds == matrix.KINDS
    puzzle = Grid.empty(2).with_constraints((Thermometer((0, 1, 2)), Killer((4, 5), 3)))
    ok, reason = DLX.handles(puzzle)
    assert not ok
    assert reason == "dlx does not take thermometer constraints"
    with pytest.raises(UnsupportedPuzzle, match="thermometer"):
        DLX.solve(puzzle)


def test_a_cage_with_too_many_combinations_is_refused_with_the_reason():
    cage = Killer(tuple(range(12)), 150)
    assert combination_count(25, 12, 150) > matrix.MAX_COMBINATIONS
    ok, reason = DLX.handles(Grid.empty(5).with_constraints((cage,)))
    assert not ok
    assert "digit combinations, more than" in reason
