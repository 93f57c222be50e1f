"""The generator: unique, minimal, symmetric, reproducible, rated, broken on request."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solvers
from corpora import rating
from corpora.fill import random_solution
from corpora.generate import (
    KINDS,
    Spec,
    TargetNotMet,
    carve,
    generate,
    is_minimal,
    make,
    spec_for_size,
)
from corpora.symmetry import SYMMETRIES, is_symmetric, orbits
from solvers.grid import Grid
from solvers.verify import check, conflicts

DLX = solvers.get("dlx")  # an independent check: the generator asks the oracle
BOXES = [(2, 2), (2, 3), (3, 3), (3, 4)]


def count(grid: Grid) -> int:
    return len(DLX.solve(grid, limit=2).solutions)


@pytest.mark.parametrize("box", [*BOXES, (4, 4), (2, 4), (5, 5)])
def test_random_solution_is_a_valid_complete_grid(box):
    grid = random_solution(*box, random.Random(11))
    assert grid.is_complete
    assert not check(Grid.empty(*box), grid)


def test_random_solution_depends_on_the_seed_alone():
    a = random_solution(3, 3, random.Random("x"))
    assert a == random_solution(3, 3, random.Random("x"))
    assert len({random_solution(3, 3, random.Random(s)) for s in range(20)}) == 20


@pytest.mark.parametrize("box", BOXES)
def test_generated_puzzles_are_unique_and_minimal(box):
    for made in generate(Spec(box=box), 3, seed="t"):
        assert made.status == "SOLVED"
        result = DLX.solve(made.puzzle, limit=2)
        assert result.unique
        assert result.solution == made.solution
        assert is_minimal(made.puzzle)  # one pass leaves no removable clue


def test_minimal_is_verified_cell_by_cell():
    puzzle = Grid.parse("1... 3..2 ...3 ..2.")
    assert count(puzzle) == 1
    assert not is_minimal(Grid.parse("12.. 3..2 ...3 ..2."))
    made = make(Spec(minimal=True), seed=5, index=0)
    assert made.minimal is True
    for i, v in enumerate(made.puzzle.cells):
        if v:
            cells = list(made.puzzle.cells)
            cells[i] = 0
            assert count(made.puzzle.replace(cells)) == 2


def test_same_seed_same_puzzles_any_order_any_jobs():
    spec = Spec(box=(2, 3))
    serial = [m.puzzle for m in generate(spec, 6, seed=42)]
    assert serial == [m.puzzle for m in generate(spec, 6, seed="42")]
    assert serial == [m.puzzle for m in generate(spec, 6, seed=42, jobs=2)]
    assert serial[3:] == [m.puzzle for m in generate(spec, 3, seed=42, start=3)]
    assert serial != [m.puzzle for m in generate(spec, 6, seed=43)]


def test_known_puzzles_pin_the_random_stream():
    """Changing how a seed becomes a puzzle would silently change every corpus."""
    made = make(Spec(box=(2, 2)), seed=1, index=0)
    assert (made.puzzle.format(), made.solution.format(), made.seed) == (
        "1...2.....2...3.",
        "1342241331244231",
        "1:0:0",
    )
    nine = make(Spec(), seed=1, index=0).puzzle.format()
    assert (
        nine == "91.5..6...5.61....3..........836.9.......2........1.84....5..4...6......4....372."
    )


@pytest.mark.parametrize("symmetry", list(SYMMETRIES))
def test_symmetric_clue_patterns(symmetry):
    for made in generate(Spec(symmetry=symmetry), 2, seed=symmetry):
        assert is_symmetric(made.puzzle.cells, 9, symmetry)
        assert DLX.solve(made.puzzle, limit=2).unique


def test_orbits_partition_the_cells():
    for kind in SYMMETRIES:
        for size in (4, 6, 9):
            groups = orbits(size, kind)
            assert sorted(c for g in groups for c in g) == list(range(size * size))
    assert orbits(4, "rot90")[0] == (0, 3, 12, 15)
    with pytest.raises(ValueError, match="unknown symmetry"):
        orbits(9, "spiral")


def test_clue_range_is_met():
    for made in generate(Spec(clues=(30, 34)), 4, seed=3):
        assert 30 <= made.puzzle.givens <= 34
        assert DLX.solve(made.puzzle, limit=2).unique


def test_unreachable_clue_target_says_why():
    with pytest.raises(TargetNotMet, match=r"no puzzle met the target in 3 attempts \(\d+ clues"):
        make(Spec(clues=(10, 12), attempts=3), seed=1, index=0)


def test_large_grids_stop_at_the_floor():
    spec = spec_for_size(16)
    low, high = spec.clue_range()
    assert (low, high) == (113, 256)
    made = make(spec, seed=0, index=0)
    assert made.puzzle.givens == low
    assert DLX.solve(made.puzzle, limit=2).unique


def test_carve_respects_budget_by_keeping_undecided_clues():
    solution = random_solution(3, 3, random.Random(2))
    puzzle, undecided = carve(solution, random.Random(3), budget=0)
    assert undecided > 0
    assert count(puzzle) == 1


@pytest.mark.parametrize(
    ("kind", "status"),
    [("invalid", "INVALID"), ("unsolvable", "UNSOLVABLE"), ("multiple", "MULTIPLE")],
)
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_broken_kinds_have_the_claimed_truth(kind, status, box):
    for made in generate(Spec(box=box, kind=kind), 2, seed=kind):
        assert made.status == status
        assert made.solution is None
        result = DLX.solve(made.puzzle, limit=2)
        assert result.status.value == status
        if kind != "invalid":
            assert not conflicts(made.puzzle)


def test_trivial_kinds():
    solved = make(Spec(kind="solved"), seed=1, index=0)
    assert solved.puzzle.is_complete
    assert solved.status == "SOLVED"
    empty = make(Spec(box=(2, 3), kind="empty"), seed=1, index=0)
    assert empty.puzzle == Grid.empty(2, 3)
    assert empty.status == "MULTIPLE"
    assert set(KINDS) == {"unique", "invalid", "unsolvable", "multiple", "solved", "empty"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"box": (1, 3)}, "the side must be >= 4"),
        ({"kind": "broken"}, "unknown kind"),
        ({"symmetry": "spiral"}, "unknown symmetry"),
        ({"clues": (30, 20)}, "MIN <= MAX"),
        ({"clues": (0, 100)}, "<= 81"),
        ({"difficulty": "insane"}, "unknown difficulty"),
        ({"rating": (5.0, 2.0)}, "MIN > MAX"),
        ({"attempts": 0}, "attempts"),
    ],
)
def test_bad_specs_are_clear_value_errors(options, message):
    with pytest.raises(ValueError, match=message):
        Spec(**options)


def test_generate_rejects_bad_counts():
    with pytest.raises(ValueError, match="count"):
        list(generate(Spec(), -1))
    with pytest.raises(ValueError, match="jobs"):
        list(generate(Spec(), 1, jobs=0))


@pytest.mark.parametrize("level", ["Easy", "Hard"])
def test_difficulty_targets_match_the_engine(level):
    for made in generate(Spec(difficulty=level.lower()), 2, seed=level):
        assert made.rated is not None
        assert made.rated.level == level
        assert rating.rate(made.puzzle).level == level


def test_rating_range_and_required_technique():
    made = make(Spec(rating=(3.0, 9.9), require=("Naked pair",), attempts=300), seed=2, index=0)
    assert 3.0 <= made.rated.er <= 9.9
    assert "naked_pair" in made.rated.techniques
    with pytest.raises(ValueError, match="unknown technique"):
        Spec(require=("telepathy",))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), box=st.sampled_from([(2, 2), (2, 3)]))
def test_any_seed_gives_a_unique_puzzle(seed, box):
    made = make(Spec(box=box), seed=seed, index=0)
    assert DLX.solve(made.puzzle, limit=2).unique
    assert all(g == s for g, s in zip(made.puzzle.cells, made.solution.cells, strict=True) if g)
