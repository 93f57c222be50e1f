"""The compiled static analysis of nested branch grids (`static_kernel`) gives the hints of
the pure-Python route (`StaticGraph`, `static_chains`, `static_agreements`): the same
ranks, removals, singles and seeds in the same order, so no rating or step changes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.grid import Grid, Shape, shape
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME
from solvers.human.techniques import nested
from solvers.human.techniques.branches import COMPILED, ancestors
from solvers.human.techniques.nested import (
    Hint,
    compiled_hints,
    path_set,
    static_agreements,
    static_chains,
    static_kernel,
)
from solvers.human.techniques.static_graph import StaticGraph, compiled_reach
from tests.human_fixtures import random_candidate_grid
from tests.solvers.human.test_human_path import (
    ALONE,
    GRID,
    NISHIO_GRID,
    STATIC_GRID,
    alone_fingerprint,
)
from tests.solvers.human.test_nested_levels import FORUM_GRID

pytest.importorskip("numba")

Grids = list[tuple[Shape, list[int], list[int], list[int]]]


def _pure(grid_shape: Shape, cand, pos, placed) -> list[list[Hint]]:
    """The pure-Python route's hints on a grid: [static chains, static agreements]."""
    state = CandidateState.from_grid(Grid.empty(grid_shape.box_rows, grid_shape.box_cols))
    state.cand, state.pos, state.placed = list(cand), list(pos), list(placed)
    token = COMPILED.set(False)  # (the graph's reach from its links, in Python)
    try:
        graph = StaticGraph(state)
    finally:
        COMPILED.reset(token)
    return [static_chains(state, graph), static_agreements(state, graph)]


def _signature(hints: list[Hint]) -> list[tuple]:
    return [(h.rank, h.removable, h.singles, h.seeds) for h in hints]


def _same(grid_shape: Shape, cand, pos, placed) -> tuple[int, int]:
    """Assert both routes agree on a grid; how many static chains and agreements it has."""
    fast = compiled_hints(grid_shape, cand, pos, placed, True, True)
    assert fast is not None
    assert fast[1] is not None
    pure = _pure(grid_shape, cand, pos, placed)
    assert _signature(fast[0]) == _signature(pure[0])
    assert _signature(fast[1]) == _signature(pure[1])
    only = compiled_hints(grid_shape, cand, pos, placed, False, True)
    assert only is not None
    assert only[0] == []
    assert only[1] is not None
    assert _signature(only[1]) == _signature(pure[1])
    return len(pure[0]), len(pure[1])


@pytest.fixture(scope="module")
def branch_grids() -> Grids:
    """The grids nested branches meet where the nested levels run alone on candidate grids
    the engine reached (gen9-extreme, and the forum puzzle of `test_nested_levels`)."""
    recorded: Grids = []
    compiled = nested.compiled_hints

    def record(grid_shape, cand, pos, placed, chains, agreements):
        recorded.append((grid_shape, cand[:], pos[:], placed[:]))
        return compiled(grid_shape, cand, pos, placed, chains, agreements)

    token = COMPILED.set(False)  # (the compiled branches call the kernel themselves)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(nested, "compiled_hints", record)
            for text in (GRID, STATIC_GRID, NISHIO_GRID, FORUM_GRID):
                for name in ("nested_forcing_chain", "nested_multiple_chain"):
                    BY_NAME[name].find(CandidateState.from_candidates(text))
    finally:
        COMPILED.reset(token)
    return recorded


def test_the_kernel_gives_the_pure_routes_hints_on_branch_grids(branch_grids):
    assert len(branch_grids) > 1000
    counts = [_same(*grid) for grid in branch_grids[::5]]
    assert sum(1 for chains, _ in counts if chains) > 30
    assert sum(1 for _, agreed in counts if agreed) > 30


@pytest.mark.parametrize("name", ["nested_forcing_chain", "nested_multiple_chain"])
def test_the_nested_levels_find_the_same_steps_without_the_kernel(name, monkeypatch):
    # `test_human_path` pins these steps with the kernels (when numba is installed)
    monkeypatch.setattr(nested, "static_kernel", lambda grid_shape: None)
    token = COMPILED.set(False)
    try:
        assert alone_fingerprint(name) == ALONE[name]
    finally:
        COMPILED.reset(token)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    keep=st.floats(0.15, 0.8),
    placed=st.floats(0.0, 0.4),
)
def test_the_kernel_gives_the_pure_routes_hints_on_random_grids(seed, keep, placed):
    _same(*random_candidate_grid(3, 3, seed, keep, placed))


@pytest.mark.parametrize(("box", "keep"), [((2, 2), 0.5), ((2, 3), 0.4), ((4, 4), 0.25)])
def test_the_kernel_takes_other_sizes(box, keep):
    found = [
        _same(*random_candidate_grid(*box, seed, keep, 0.1))
        for seed in range(6 if box[0] < 4 else 2)
    ]
    assert any(chains or agreed for chains, agreed in found)


def test_grids_above_16x16_take_the_pure_route():
    assert static_kernel(shape(4, 4)) is not None
    assert static_kernel(shape(5, 5)) is None
    cand = [(1 << 25) - 1] * 625
    assert compiled_hints(shape(5, 5), cand, [(1 << 25) - 1] * 1875, [0] * 75, True, True) is None


def test_a_place_without_its_candidate_takes_the_pure_route():
    grid_shape, cand, pos, placed = random_candidate_grid(3, 3, 1, 0.5, 0.0)
    k = (cand[0] & -cand[0]).bit_length() - 1
    cand[0] &= ~(1 << k)
    assert pos[k] & 1  # row 1 still lists r1c1 for the digit it lost
    assert compiled_hints(grid_shape, cand, pos, placed, True, True) is None


@pytest.mark.parametrize("seed", range(20))
def test_a_chains_set_is_built_as_ancestors_builds_it(seed):
    rng = random.Random(seed)
    path = rng.sample(range(1458), rng.randint(1, 60))
    parents = {path[0]: ()} | {y: (x,) for x, y in zip(path, path[1:], strict=False)}
    assert list(path_set(path)) == list(ancestors(parents, (path[-1],)))


def _graph_both_ways(grid_shape: Shape, cand, pos, placed) -> tuple[CandidateState, StaticGraph]:
    """The grid's state and its static graph by the links' search in Python."""
    state = CandidateState.from_grid(Grid.empty(grid_shape.box_rows, grid_shape.box_cols))
    state.cand, state.pos, state.placed = list(cand), list(pos), list(placed)
    token = COMPILED.set(False)
    try:
        return state, StaticGraph(state)
    finally:
        COMPILED.reset(token)


def _reach_both_ways(grid_shape: Shape, cand, pos, placed) -> tuple[dict, dict | None]:
    state, pure = _graph_both_ways(grid_shape, cand, pos, placed)
    return pure.reach, compiled_reach(state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.15, 0.8), placed=st.floats(0.0, 0.4))
def test_the_static_graphs_compiled_reach_is_the_links_reach(seed, keep, placed):
    pure, fast = _reach_both_ways(*random_candidate_grid(3, 3, seed, keep, placed))
    assert fast is not None
    assert list(fast.items()) == list(pure.items())  # (the same order too)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.15, 0.8), placed=st.floats(0.0, 0.4))
def test_the_static_graph_reads_failures_and_clean_branches_from_the_kernel(seed, keep, placed):
    state, pure = _graph_both_ways(*random_candidate_grid(3, 3, seed, keep, placed))
    fast = StaticGraph(state)
    assert fast.failed == pure.failed
    assert fast.clean() == pure.clean()  # (read before the whole reach is)
    assert fast.strong == pure.strong
    assert fast.reach == pure.reach


def _groups_by_clean(state: CandidateState, pure: StaticGraph, by_cell: bool) -> list:
    """`StaticGraph.shared_groups` worked out from `clean`, group by group."""
    clean = pure.clean()
    n = state.n
    if by_cell:
        groups = [
            [cell * n + k for k in range(n) if m >> k & 1]
            for cell, m in enumerate(state.cand)
            if m.bit_count() >= 3
        ]
    else:
        groups = [
            [cells[i] * n + k for i in range(n) if p >> i & 1]
            for u, cells in enumerate(state.shape.units)
            for k in range(n)
            if (p := state.pos[u * n + k]).bit_count() >= 2
            and state.cand[cells[(p & -p).bit_length() - 1]].bit_count() >= 3
        ]
    out = []
    for nodes in groups:
        common = -1
        for x in nodes:
            common &= clean[x]
        if common:
            out.append((nodes, common))
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.15, 0.8), placed=st.floats(0.0, 0.4))
def test_the_kernel_finds_the_groups_whose_clean_branches_share_a_fact(seed, keep, placed):
    state, pure = _graph_both_ways(*random_candidate_grid(3, 3, seed, keep, placed))
    assert pure.shared_groups(True) is None  # (the links' search leaves it to `clean`)
    fast = StaticGraph(state)
    for by_cell in (True, False):
        assert fast.shared_groups(by_cell) == _groups_by_clean(state, pure, by_cell)


@pytest.mark.parametrize(
    ("box", "keep"), [((2, 2), 0.5), ((2, 3), 0.4), ((3, 4), 0.3), ((4, 4), 0.25)]
)
def test_the_static_graphs_compiled_reach_takes_other_sizes(box, keep):
    for seed in range(3):
        pure, fast = _reach_both_ways(*random_candidate_grid(*box, seed, keep, 0.1))
        assert fast is not None
        assert list(fast.items()) == list(pure.items())
    state = CandidateState.from_grid(Grid.empty(5, 5))
    assert compiled_reach(state) is None  # (above 16x16: the links' search)
