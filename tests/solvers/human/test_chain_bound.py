"""The bounds that let the nested chains skip branch grids (`chain_bound`): level 2's never
skips a grid with a static forcing chain, level 3's never one with a static cell or region
forcing chain, and both do skip grids."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.human.state import CandidateState
from solvers.human.techniques import compiled_branches
from solvers.human.techniques.branches import NESTED, NESTED_MULTIPLE, Context
from tests.solvers.human.test_compiled_branches import STATES

pytest.importorskip("numba")

from solvers.human.techniques import chain_bound, static_kernel  # noqa: E402


def _branch_grids(
    state: CandidateState, monkeypatch, mode: int = NESTED
) -> tuple[Context, list[tuple]]:
    """The grids a nested search's branches (level 2, or 3 with `mode`) meet on `state`
    (every one the memo lacks, or at level 3 lacks the agreements of, taken through the
    pure route's door, where the workspace holds it)."""
    grids: list[tuple] = []
    original = compiled_branches.keep_pure_hints

    def record(ctx, kernel, start, level):
        arrays = start.workspace.arrays
        grids.append(
            tuple(arrays[w].copy() for w in (kernel.W_CAND, kernel.W_POS, kernel.W_PLACED))
        )
        return original(ctx, kernel, start, level)

    monkeypatch.setattr(compiled_branches, "keep_pure_hints", record)
    ctx = Context(state)
    token = compiled_branches.PURE_HINTS.set(True)
    try:
        assert compiled_branches.nested_ends(ctx, mode) is not None
    finally:
        compiled_branches.PURE_HINTS.reset(token)
    return ctx, grids


@pytest.mark.parametrize("name", ["forum", "gen9-extreme step 26"])
def test_the_bound_skips_only_grids_without_static_forcing_chains(name, monkeypatch):
    ctx, grids = _branch_grids(STATES[name](), monkeypatch)
    start = ctx.__dict__["compiled_start"]
    assert start.bound[1].shape[0]  # (the start grid has no static forcing chain)
    units, cell_units, peers, se_peers = start.static_geo
    n = ctx.n
    skipped = with_chains = 0
    for cand, pos, placed in grids:
        status, heads, *_ = static_kernel.analyse(
            cand, pos, placed, n, units, cell_units, peers, se_peers, True, False
        )
        ok, nodes = chain_bound.failing(
            cand, pos, placed, start.cand, start.pos, n, units, *start.bound
        )
        may = not ok or nodes.any()
        if status == static_kernel.OK and heads.shape[0]:
            with_chains += 1
            assert may, f"{name}: a grid with a static forcing chain was skipped"
        skipped += not may
    assert skipped
    if name in ("forum", "gen9-extreme step 26"):
        assert with_chains


@pytest.mark.parametrize("name", ["forum", "gen9-extreme step 26"])
def test_the_nodes_the_bound_lets_through_give_the_grids_chains(name, monkeypatch):
    """`chain_bound.failing` holds every node of a branch grid that reaches its negation,
    and the chains of those nodes alone (`static_kernel.chains_of`) are the grid's."""
    ctx, grids = _branch_grids(STATES[name](), monkeypatch)
    start = ctx.__dict__["compiled_start"]
    units, cell_units, peers, se_peers = start.static_geo
    n = ctx.n
    index = start.bound[0]
    with_chains = passed = 0
    for cand, pos, placed in grids:
        status, heads, paths, *_ = static_kernel.analyse(
            cand, pos, placed, n, units, cell_units, peers, se_peers, True, False
        )
        ok, maybe = chain_bound.failing(
            cand, pos, placed, start.cand, start.pos, n, units, *start.bound
        )
        assert ok == (status == static_kernel.OK)
        if not ok:
            continue
        failed = {int(x) for x in heads[0::4]}
        words = maybe.tolist()
        let_through = {
            x for x, b in enumerate(index.tolist()) if b >= 0 and words[b >> 6] >> (b & 63) & 1
        }
        assert failed <= let_through, f"{name}: a failing node was not let through"
        found = static_kernel.chains_of(
            cand, pos, placed, n, units, cell_units, se_peers, maybe, index
        )
        assert np.array_equal(found[0], heads)
        assert np.array_equal(found[1], paths)
        with_chains += bool(failed)
        passed += bool(let_through)
    assert with_chains
    assert passed < len(grids)  # (most grids let no node through)


@pytest.mark.parametrize("name", ["forum", "gen9-extreme step 26"])
def test_the_first_node_found_link_by_link_is_the_graphs(name, monkeypatch):
    """`failing_with` stopping at the first node (link by link, without the link graph)
    finds a node exactly where the full search does, and the nodes it gives are the
    full search's for the first link that gives any."""
    ctx, grids = _branch_grids(STATES[name](), monkeypatch)
    start = ctx.__dict__["compiled_start"]
    units = start.static_geo[0]
    n = ctx.n
    index, rows, back = start.bound
    found = settled = 0
    for cand, pos, placed in grids:
        ok, tails, heads, count = chain_bound.links_of(
            cand, pos, placed, start.cand, start.pos, n, units, index
        )
        if not ok:
            continue
        every = chain_bound.failing_with(cand, n, index, rows, back, tails, heads, count, True)
        first = chain_bound.failing_with(cand, n, index, rows, back, tails, heads, count, False)
        assert first.any() == every.any()
        assert not (first & ~every).any()
        found += bool(every.any())
        settled += not every.any() and count > 0
    assert found
    assert settled


def test_a_start_grid_with_a_static_forcing_chain_gives_no_bound():
    # gen9-extreme line 4 at step 19, where the engine takes a static forcing chain
    from tests.solvers.human.test_human_path import STATIC_GRID

    state = CandidateState.from_candidates(STATIC_GRID)
    units, cell_units, peers, _ = static_kernel.geometry(state.shape)
    cand, pos, placed = (np.array(a, dtype=np.int64) for a in (state.cand, state.pos, state.placed))
    status, heads, *_ = static_kernel.analyse(
        cand, pos, placed, state.n, units, cell_units, peers, peers, True, False
    )
    assert heads.shape[0]  # (the grid does have one)
    index, rows, back = chain_bound.start_reach(
        cand, pos, placed, state.n, units, cell_units, peers
    )
    assert index.shape[0] == rows.shape[0] == back.shape[0] == 0


@pytest.mark.parametrize("name", ["forum", "gen9-extreme step 26"])
def test_the_agreement_bound_skips_only_grids_without_cell_or_region_chains(name, monkeypatch):
    ctx, grids = _branch_grids(STATES[name](), monkeypatch, NESTED_MULTIPLE)
    start = ctx.__dict__["compiled_start"]
    assert start.bound[1].shape[0]
    units, cell_units, peers, se_peers = start.static_geo
    n = ctx.n
    skipped = with_agreements = 0
    for cand, pos, placed in grids:
        status, _, _, heads, _ = static_kernel.analyse(
            cand, pos, placed, n, units, cell_units, peers, se_peers, False, True
        )
        may = chain_bound.may_agree(
            cand, pos, placed, start.cand, start.pos, n, units, *start.bound[:2]
        )
        if status == static_kernel.OK and heads.shape[0]:
            with_agreements += 1
            assert may, f"{name}: a grid with a static cell or region chain was skipped"
        skipped += not may
    assert skipped
    assert with_agreements
