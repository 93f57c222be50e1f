"""The incremental searches (memos kept in `CandidateState.fruitless` from one search to
the next) give the same step as a search from scratch at every state of a solve path."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME
from solvers.human.trace import compact

DATA = Path(__file__).resolve().parents[1] / "corpora" / "data"

INCREMENTAL = (
    "aligned_pair_exclusion",
    "aligned_triple_exclusion",
)


def _puzzles(name: str, count: int) -> list[Grid]:
    lines = [line.strip() for line in (DATA / name).read_text().splitlines()]
    return [Grid.parse(line) for line in lines if line and not line.startswith("#")][:count]


def _fresh(state: CandidateState) -> CandidateState:
    """A copy of `state` without the memos of earlier searches."""
    other = state.copy()
    other.fruitless = {}
    return other


def _same_along_the_path(grid: Grid, names: tuple[str, ...]) -> int:
    """Walk the engine's path one step at a time; at each state, each technique's step
    found with the memos of the searches before equals the one found from scratch.
    Returns how many of those searches found a step."""
    state = CandidateState.from_grid(grid)
    found = 0
    while state.empty and not state.contradiction:
        for name in names:
            find = BY_NAME[name].find
            kept = find(state)
            fresh = find(_fresh(state))
            assert (kept is None) == (fresh is None), (name, state.snapshot())
            if kept is not None and fresh is not None:
                assert compact(kept) == compact(fresh), name
                assert kept.cells == fresh.cells, name
                found += 1
        if propagate(state, max_steps=1).stopped_by is None:
            break
    return found


@pytest.mark.parametrize("puzzle", range(3))
def test_incremental_searches_match_a_search_from_scratch(puzzle):
    grid = _puzzles("gen9-extreme.txt", 3)[puzzle]
    _same_along_the_path(grid, INCREMENTAL)


def test_incremental_searches_find_steps_on_the_path():
    found = sum(_same_along_the_path(g, INCREMENTAL) for g in _puzzles("gen9-extreme.txt", 6))
    assert found > 0


def test_a_memo_from_another_state_does_not_leak():
    # the memo of a search on one state, handed to an unrelated state, must not hide a step
    for name in INCREMENTAL:
        grids = _puzzles("gen9-extreme.txt", 4)
        first = CandidateState.from_grid(grids[0])
        propagate(first, "tier1")
        BY_NAME[name].find(first)
        for grid in grids[1:]:
            other = CandidateState.from_grid(grid)
            propagate(other, "tier1")
            other.fruitless = dict(first.fruitless)
            kept = BY_NAME[name].find(other)
            fresh = BY_NAME[name].find(_fresh(other))
            assert (kept is None) == (fresh is None)
            if kept is not None and fresh is not None:
                assert compact(kept) == compact(fresh)
