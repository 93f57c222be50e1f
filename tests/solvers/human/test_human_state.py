"""The candidate state: incremental bookkeeping equals recomputation; contradictions; copies."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, digits, mask_of, pencilmarks, propagate

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4)]


def _recount(state: CandidateState) -> None:
    """Check every counter of the state against a count from scratch."""
    shape = state.shape
    n = state.n
    for u, cells in enumerate(shape.units):
        placed = 0
        for c in cells:
            if state.values[c]:
                placed |= 1 << (state.values[c] - 1)
        assert state.placed[u] == placed
        assert state.free[u] == sum(1 for c in cells if not state.values[c])
        for d in range(1, n + 1):
            where = [i for i, c in enumerate(cells) if state.cand[c] >> (d - 1) & 1]
            assert state.count[u * n + d - 1] == len(where)
            assert state.unit_positions()[u * n + d - 1] == sum(1 << i for i in where)
    assert state.empty == sum(1 for v in state.values if not v)
    for cell, v in enumerate(state.values):
        if v:
            assert state.cand[cell] == 0
            for p in shape.peers[cell]:
                assert not state.cand[p] >> (v - 1) & 1


def _expected_candidates(grid: Grid) -> list[int]:
    shape = grid.shape
    out = []
    for cell, v in enumerate(grid.cells):
        if v:
            out.append(0)
            continue
        seen = {grid.cells[p] for p in shape.peers[cell]}
        out.append(mask_of([d for d in range(1, grid.size + 1) if d not in seen]))
    return out


@pytest.mark.parametrize("box", SHAPES)
def test_from_grid_candidates_are_the_digits_no_peer_holds(box):
    solution = solvers.get("dlx").solve(Grid.empty(*box)).solution
    rng = random.Random(7)
    puzzle = solution.replace([v if rng.random() < 0.4 else 0 for v in solution.cells])
    state = CandidateState.from_grid(puzzle)
    assert state.cand == _expected_candidates(puzzle)
    assert state.contradiction is None
    _recount(state)
    assert state.to_grid() == puzzle


@settings(max_examples=40, deadline=None)
@given(
    box=st.sampled_from(SHAPES),
    seed=st.integers(0, 10**6),
    moves=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6)), max_size=40),
)
def test_incremental_updates_match_a_recount(box, seed, moves):
    """Any sequence of placements and eliminations keeps every counter exact."""
    rng = random.Random(seed)
    solution = solvers.get("dlx").solve(Grid.empty(*box)).solution
    puzzle = solution.replace([v if rng.random() < 0.3 else 0 for v in solution.cells])
    state = CandidateState.from_grid(puzzle)
    for place, r in moves:
        open_cells = [c for c, m in enumerate(state.cand) if m]
        if not open_cells or state.contradiction:
            break
        cell = open_cells[r % len(open_cells)]
        digit = digits(state.cand[cell])[r % state.cand[cell].bit_count()]
        if place:
            state.place(cell, digit)
        else:
            state.eliminate(cell, digit)
        if not state.contradiction:
            _recount(state)


def test_placement_of_a_non_candidate_is_a_contradiction():
    state = CandidateState.from_grid(Grid.parse("1... .... .... ...."))
    state.place(1, 1)
    assert state.contradiction == "1 is not a candidate of r1c2"
    assert state.values[1] == 0


def test_conflicting_givens_flag_a_contradiction():
    state = CandidateState.from_grid(Grid.parse("11.. .... .... ...."))
    assert state.contradiction


def test_a_cell_without_candidates_is_a_contradiction():
    state = CandidateState.from_grid(Grid.parse("12.. 3... .... ...."))
    # r2c2 sees 1, 2 and 3: only 4 is left; removing it leaves nothing.
    state.eliminate(5, 4)
    assert state.contradiction == "no candidate left in r2c2"


def test_a_digit_without_a_place_in_a_unit_is_a_contradiction():
    state = CandidateState.from_grid(Grid.empty(2))
    for cell in range(4):
        state.eliminate(cell, 3)
    assert state.contradiction == "no place for 3 in row 1"


def test_eliminate_reports_whether_the_candidate_was_there():
    state = CandidateState.from_grid(Grid.parse("1... .... .... ...."))
    assert state.eliminate(1, 2) is True
    assert state.eliminate(1, 2) is False
    assert state.eliminate(1, 1) is False  # already gone: 1 is in the row


def test_copy_is_independent():
    state = CandidateState.from_grid(Grid.parse("1... .... .... ...."))
    other = state.copy()
    other.place(5, 2)
    assert state.values[5] == 0
    assert state.cand[4] >> 1 & 1  # 2 is still a candidate of r2c1 in the original
    _recount(state)
    _recount(other)


def test_solved_and_to_grid():
    grid = Grid.parse("1234341221434321")
    state = CandidateState.from_grid(grid)
    assert state.solved
    assert state.to_grid() == grid
    assert state.to_grid().symbols == grid.symbols


def test_from_candidates_reads_pencilmarks_back():
    # At a fixpoint of the singles no open cell has one candidate, which the
    # notation would read as placed. corpora/data/gen9-hard.txt line 4:
    puzzle = Grid.parse(
        "58.........71.4........645...6.3...8.7.5....11..6...4..4....39...3.7.1...9.....7."
    )
    state = CandidateState.from_grid(puzzle)
    assert propagate(state, "singles").stuck
    again = CandidateState.from_candidates(pencilmarks(state.snapshot()))
    assert again.cand == state.cand
    assert again.values == state.values
    _recount(again)


def test_from_candidates_rejects_bad_tokens():
    with pytest.raises(ValueError, match="square number"):
        CandidateState.from_candidates("12 34 5")
    with pytest.raises(ValueError, match="r1c2"):
        CandidateState.from_candidates("1 x9 " + "1234 " * 14)
