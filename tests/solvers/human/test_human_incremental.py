"""The incremental searches (memos kept in `CandidateState.fruitless` from one search to
the next) give the same step as a search from scratch at every state of a solve path."""

from __future__ import annotations

import pytest

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME
from solvers.human.trace import compact
from tests.paths import ROOT

DATA = ROOT / "corpora" / "data"

INCREMENTAL = (
    "direct_pointing",
    "direct_claiming",
    "pointing",
    "wxyz_wing",
    "bug_type_2",
    "bug_type_3",
    "bug_type_4",
    "vwxyz_wing",
    "aligned_pair_exclusion",
    "uvwxyz_wing",
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


# gen9-unfair, step 38 of the engine's path: a BUG with 2 beyond it in r7c7 and r9c6
# (test_human_se_patterns.BUG_2)
BUG_2 = (
    "2 9 6 13 13 8 7 4 5 4 3 5 7 29 6 12 8 19 1 8 7 5 4 29 3 29 6 "
    "7 2 8 4 6 5 9 1 3 9 6 4 18 18 3 5 7 2 3 5 1 2 79 79 4 6 8 "
    "8 7 9 36 23 24 126 5 14 6 4 2 9 5 1 8 3 7 5 1 3 68 78 247 26 29 49"
)


def test_a_stale_bug_witness_does_not_hide_the_pattern():
    state = CandidateState.from_candidates(BUG_2)
    for u in range(27):
        for k in range(9):
            state.fruitless["bug_pattern"] = (u, k)  # whatever ruled a pattern out before
            state.views_at = -1
            step = BY_NAME["bug_type_2"].find(state)
            assert step is not None
            assert compact(step) == compact(BY_NAME["bug_type_2"].find(_fresh(state)))


def test_the_bug_witness_rules_the_pattern_out_while_it_holds():
    state = CandidateState.from_grid(_puzzles("gen9-extreme.txt", 1)[0])
    while "bug_pattern" not in state.fruitless:  # the unit and digit that rule it out
        assert propagate(state, max_steps=1).stopped_by is not None
        assert BY_NAME["bug_type_2"].find(state) is None
    state.views_at = -1
    assert BY_NAME["bug_type_2"].find(state) is None


def test_the_als_memo_tells_box_shapes_apart():
    # A row of a 2x3 grid has the cells of a row of a 3x2 grid, but not the same peers:
    # the sets' "seen by all" cells and links must come from each grid's own boxes, even
    # where one memo serves both shapes.
    from solvers.human.techniques import als_wings

    wide = CandidateState.from_grid(Grid.empty(2, 3))
    tall = CandidateState.from_grid(Grid.empty(3, 2))
    tall.memo = wide.memo
    unit = wide.shape.units[0]
    assert unit in tall.shape.units
    masks = (0b11, 0b110, 0b101, 0b1001, 0b11000, 0b110000)
    alone = als_wings.unit_entry(unit, masks, 2, CandidateState.from_grid(Grid.empty(3, 2)))
    als_wings.unit_entry(unit, masks, 2, wide)
    after_wide = als_wings.unit_entry(unit, masks, 2, tall)
    assert after_wide == alone
    assert als_wings.unit_entry(unit, masks, 2, wide) != alone
