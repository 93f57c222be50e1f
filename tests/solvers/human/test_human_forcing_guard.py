"""Forcing chains are skipped where the placed digits prove there is no single solution."""

from __future__ import annotations

from corpora import open_corpus
from solvers.grid import Grid
from solvers.human import CandidateState
from solvers.human.techniques.forcing import cannot_be_unique, forcing_chain


def test_an_empty_grid_or_two_absent_digits_cannot_be_unique() -> None:
    assert cannot_be_unique(CandidateState.from_grid(Grid.empty(3)))
    assert cannot_be_unique(CandidateState.from_grid(Grid.empty(2)))
    # a full 4x4 solution with every 3 and 4 removed: 3 and 4 can be swapped
    solved = Grid.parse("1234341221434321")
    no_three_four = solved.replace([v if v in (1, 2) else 0 for v in solved.cells])
    assert cannot_be_unique(CandidateState.from_grid(no_three_four))
    assert forcing_chain(CandidateState.from_grid(Grid.empty(3))) is None


def test_sixteen_clues_never_make_a_unique_9x9_puzzle() -> None:
    puzzle = next(open_corpus("gen9-minimal").puzzles()).grid
    assert not cannot_be_unique(CandidateState.from_grid(puzzle))
    clues = [i for i, v in enumerate(puzzle.cells) if v]
    cells = list(puzzle.cells)
    for i in clues[16:]:
        cells[i] = 0
    fewer = puzzle.replace(cells)
    if len({v for v in fewer.cells if v}) >= 8:  # the digit rule alone would not tell
        assert cannot_be_unique(CandidateState.from_grid(fewer))


def test_every_unique_built_in_puzzle_passes_the_guard() -> None:
    for name in ("gen9-easy", "gen9-extreme", "gen9-minimal", "gen16"):
        for puzzle in open_corpus(name).puzzles():
            assert not cannot_be_unique(CandidateState.from_grid(puzzle.grid)), puzzle.id
