"""The static implication graph and the nishio refutations, against the slow paths they replace.

The grids are the forcing-chain cases of `test_human_forcing` (states the engine
reached on the generated corpora) and the empty grid, where nothing is forced.
"""

from __future__ import annotations

import pytest

from solvers.human import CandidateState
from solvers.human.techniques import forcing
from solvers.human.techniques.branches import STATIC, Context, ancestors
from solvers.human.techniques.closure import Closure
from solvers.human.techniques.one_digit import conflicting_cells
from solvers.human.techniques.static_graph import StaticGraph, static_branch, static_graph
from tests.human_fixtures import EMPTY
from tests.human_fixtures import FORCING_CASES as CASES

GRIDS = [pencilmarks for _, pencilmarks, _ in CASES.values()] + [EMPTY]


def _state(pencilmarks: str) -> CandidateState:
    return CandidateState.from_candidates(pencilmarks)


def _seeds(state: CandidateState) -> list[int]:
    n = state.n
    off = state.shape.ncells * n
    on = [cell * n + k for cell, m in enumerate(state.cand) for k in range(n) if m >> k & 1]
    return on + [off + x for x in on]


def _bfs(graph: StaticGraph, seed: int) -> dict[int, int]:
    """Distances from `seed` over the ordered links, the slow way."""
    dist = {seed: 0}
    queue = [seed]
    for node in queue:
        for x in graph.successors(node):
            if x not in dist:
                dist[x] = dist[node] + 1
                queue.append(x)
    return dist


@pytest.mark.parametrize("pencilmarks", GRIDS)
def test_links_are_those_a_static_branch_follows(pencilmarks):
    state = _state(pencilmarks)
    ctx = Context(state)
    graph = static_graph(state)
    for seed in _seeds(state)[::7]:
        slow = ctx.branch([seed], STATIC)
        fast = static_branch(graph, seed, 0)
        assert fast == slow


@pytest.mark.parametrize("pencilmarks", GRIDS)
def test_reach_levels_and_conflicts(pencilmarks):
    state = _state(pencilmarks)
    graph = static_graph(state)
    off = graph.off
    for seed in _seeds(state):
        dist = _bfs(graph, seed)
        assert graph.reach[seed] == sum(1 << x for x in dist)
        near = [x for x, d in dist.items() if d == 1]
        if near:  # levels found in part first, then resumed
            assert graph.levels(seed, 1 << near[0])[1] >> near[0] & 1
        levels = graph.levels(seed)
        assert levels == [
            sum(1 << x for x, d in dist.items() if d == k) for k in range(len(levels))
        ]
        both = any(x < off and x + off in dist for x in dist)
        assert graph.conflicting(seed) == both
        failed = graph.failed[0] if seed < off else graph.failed[1]
        assert bool(failed >> (seed % off) & 1) == both


def test_contradictions_are_found_and_not_on_an_empty_grid():
    assert not any(static_graph(_state(EMPTY)).conflicting(x) for x in _seeds(_state(EMPTY)))
    state = _state(CASES["forcing_chain"][1])
    assert any(static_graph(state).conflicting(x) for x in _seeds(state))


def _slow_agreement(state: CandidateState, nodes: list[int]) -> tuple[int, int] | None:
    ctx = Context(state)
    branches = [ctx.branch([x], STATIC) for x in nodes]
    if any(b.conflict for b in branches):
        return None
    common = set(branches[0].parents)
    for b in branches[1:]:
        common &= b.parents.keys()
    costs = [
        (sum(len(ancestors(b.parents, (t,))) for b in branches), t)
        for t in common
        if t not in nodes
    ]
    return min(costs) if costs else None


@pytest.mark.parametrize("pencilmarks", GRIDS)
def test_agreements_match_the_branches(pencilmarks):
    state = _state(pencilmarks)
    graph = static_graph(state)
    n = state.n
    found = 0
    for cell, m in enumerate(state.cand):
        if m.bit_count() < 3:
            continue
        nodes = [cell * n + k for k in range(n) if m >> k & 1]
        common = -1
        for x in nodes:
            common &= graph.clean()[x]
        fast = graph.agreement(nodes, common) if common else None
        assert fast == _slow_agreement(state, nodes)
        found += fast is not None
    if pencilmarks == EMPTY:
        assert found == 0


def test_a_cell_forcing_chain_agrees():
    state = _state(CASES["cell_forcing_chain"][1])
    step = forcing.cell_forcing_chain(state)
    assert step is not None
    assert step.technique == "cell_forcing_chain"


@pytest.mark.parametrize("pencilmarks", GRIDS)
def test_nishio_refutations_match_the_plain_nishio_branches(pencilmarks):
    state = _state(pencilmarks)
    closure = Closure(state.shape, state.cand, state.placed)
    refuted = 0
    for k in range(state.n):
        cells = closure.start[k]
        bad = conflicting_cells(state, cells, closure.placed[k], cells)
        for cell in range(state.shape.ncells):
            if cells >> cell & 1:
                assert bool(bad >> cell & 1) == (closure.facts(cell * state.n + k, False) is None)
        refuted |= bad
    if pencilmarks == EMPTY:
        assert not refuted
    if pencilmarks == CASES["nishio"][1]:
        assert refuted
