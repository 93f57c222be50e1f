"""The engine's cross-step memo (`solvers.human.memo`): one per puzzle lineage, keyed by
shape, one budget, and nothing kept at module level."""

from __future__ import annotations

import sys

import pytest

import solvers
from solvers.grid import Grid, shape
from solvers.human import CandidateState, PropagationResult, propagate
from solvers.human.memo import EngineMemo
from solvers.human.table import BY_NAME
from tests.paths import ROOT

DATA = ROOT / "corpora" / "data"


def _puzzles(name: str, count: int) -> list[Grid]:
    lines = [line.strip() for line in (DATA / name).read_text().splitlines()]
    return [Grid.parse(line) for line in lines if line and not line.startswith("#")][:count]


def test_tables_are_kept_apart_by_kind_and_shape():
    memo = EngineMemo()
    wide, tall = shape(2, 3), shape(3, 2)
    memo.table("sets", wide, 10)[1] = "wide"
    assert memo.table("sets", tall, 10) == {}
    assert memo.table("links", wide, 10) == {}
    assert memo.table("sets", wide, 10) == {1: "wide"}


def test_size_is_the_entries_times_their_bytes():
    memo = EngineMemo()
    memo.table("a", shape(2, 2), 10).update({1: 1, 2: 2})
    memo.table("b", shape(2, 2), 100)[1] = 1
    assert memo.size() == 120


def test_trim_empties_the_largest_tables_until_within_the_budget():
    memo = EngineMemo(budget=250)
    small = memo.table("small", shape(2, 2), 10)
    middle = memo.table("middle", shape(2, 2), 100)
    large = memo.table("large", shape(2, 2), 100)
    small.update({1: 1, 2: 2})
    middle.update({1: 1, 2: 2})
    assert memo.trim() == 0  # 220 bytes: within the budget
    large.update({1: 1, 2: 2, 3: 3})
    assert memo.trim() == 1  # 520: the largest goes, 220 left
    assert large == {}
    assert small
    assert middle
    assert memo.evictions == 1
    memo.budget = 0
    assert memo.trim() == 2
    assert memo.size() == 0
    assert memo.evictions == 3


def test_a_negative_budget_is_refused():
    with pytest.raises(ValueError, match="budget"):
        EngineMemo(budget=-1)


def test_one_memo_per_lineage():
    grid = _puzzles("gen9-extreme.txt", 1)[0]
    state = CandidateState.from_grid(grid)
    assert state.copy().memo is state.memo
    assert CandidateState.from_grid(grid).memo is not state.memo


def _path(state: CandidateState) -> list[tuple]:
    result = propagate(state)
    return [(s.technique, s.placements, s.eliminations, s.rating) for s in result.steps]


def test_evictions_between_steps_change_no_step():
    # gen9-extreme puzzles: ALS wings, aligned exclusions and forcing chains fill the memo
    for grid in _puzzles("gen9-extreme.txt", 3):
        kept = CandidateState.from_grid(grid)
        starved = CandidateState.from_grid(grid)
        starved.memo = EngineMemo(budget=0)  # emptied before every step
        assert _path(starved) == _path(kept)
        assert starved.memo.evictions > 0
        assert kept.memo.evictions == 0
        assert kept.memo.size() > 0


def _module_state() -> dict[tuple[str, str], int]:
    """The sizes of the containers and function caches the engine's modules hold."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("solvers.human"):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, dict | list | set):
                sizes[(name, attr)] = len(value)
            elif callable(getattr(value, "cache_info", None)):  # a functools cache
                sizes[(name, attr)] = value.cache_info().currsize
    return sizes


def test_a_solve_leaves_nothing_behind_in_the_modules():
    # Once a solve has met the shape, with every technique another solve will try (the
    # geometry tables are made once per shape), that other puzzle's solve changes no
    # module-level container or cache.
    measured, warm = _puzzles("gen9-extreme.txt", 2)
    order = list(BY_NAME)

    def last_tried(result: PropagationResult) -> int:
        return max(order.index(s.technique) for s in result.steps)

    warm_tried = last_tried(propagate(CandidateState.from_grid(warm)))
    before = _module_state()
    result = propagate(CandidateState.from_grid(measured))
    assert _module_state() == before
    assert last_tried(result) <= warm_tried


def test_a_search_on_the_engine_leaves_nothing_behind_in_the_modules():
    # `assume` runs the engine on the puzzle and on each assumption's copy: one memo per
    # solve.  The warm solve makes assumptions, so its engine ran out of logic and tried
    # every technique of its configuration: the geometry tables are all made.
    solver = solvers.get("assume")
    measured, warm = _puzzles("gen9-extreme.txt", 2)
    assert solver.solve(warm).stats["assumptions"] > 0
    before = _module_state()
    solver.solve(measured)
    assert _module_state() == before
