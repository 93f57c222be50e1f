"""The compiled branch follower (`compiled_branches`, `branch_kernel`) gives the branches
the pure route gives: every fact with its causes in the same order, the same
contradiction, the same inner chains."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpora.corpus import read_puzzles
from solvers.human.state import CandidateState
from solvers.human.techniques import compiled_branches, forcing
from solvers.human.techniques.branches import (
    COMPILED,
    DYNAMIC,
    NESTED,
    NESTED_MULTIPLE,
    PLUS,
    Branch,
    Context,
)
from solvers.human.techniques.findings import conflict_chain
from tests.human_fixtures import first_puzzles, struck_state
from tests.paths import ROOT
from tests.solvers.human.test_human_path import GRID, STATIC_GRID
from tests.solvers.human.test_nested_levels import FORUM_GRID

pytest.importorskip("numba")

DATA = ROOT / "corpora" / "data"


def _first(name: str) -> Callable[[], CandidateState]:
    grid = next(iter(read_puzzles(DATA / name))).grid
    return lambda: CandidateState.from_grid(grid)


def _pencil(text: str) -> Callable[[], CandidateState]:
    return lambda: CandidateState.from_candidates(text)


# Candidate grids where (+) and nested branches have work to do (each made fresh when asked
# for): the forum puzzle before its first nested step, two grids the engine reached on
# gen9-extreme, and 4x4, 6x6 (boxes of 2x3), 12x12 (3x4) and 16x16 puzzles.
STATES = {
    "forum": _pencil(FORUM_GRID),
    "gen9-extreme step 26": _pencil(GRID),
    "gen9-extreme static": _pencil(STATIC_GRID),
    "gen4": _first("gen4.txt"),
    "gen6": _first("gen6.txt"),
    "gen12": _first("gen12.txt"),
    "gen16": _first("gen16.txt"),
}

MODES = {"plus": PLUS, "nested": NESTED, "nested multiple": NESTED_MULTIPLE}


def _seeds(state: CandidateState, most: int) -> list[int]:
    """Every candidate of an open cell on and off (a sample of `most` on large grids)."""
    n = state.n
    off = state.shape.ncells * n
    nodes = [
        x
        for cell, m in enumerate(state.cand)
        if m & (m - 1)
        for k in range(n)
        if m >> k & 1
        for x in (cell * n + k, off + cell * n + k)
    ]
    if len(nodes) > most:
        nodes = sorted(random.Random(7).sample(nodes, most))
    return nodes


def _pure(ctx: Context, seed: int, mode: int) -> Branch:
    token = COMPILED.set(False)
    try:
        return ctx.branch([seed], mode)
    finally:
        COMPILED.reset(token)


class Keys:
    """A one-to-one map between the two routes' keys of inner chains, built as branches are
    compared: the keys' values differ, but a chain must have one key in each route."""

    def __init__(self) -> None:
        self.there: dict[int, int] = {}
        self.back: dict[int, int] = {}

    def match(self, a: int, b: int) -> bool:
        return self.there.setdefault(a, b) == b and self.back.setdefault(b, a) == a


def _same(a: Branch, b: Branch, keys: Keys | None = None) -> bool:
    keys = keys or Keys()
    if list(a.parents.items()) != list(b.parents.items()) or a.conflict != b.conflict:
        return False
    if a.inner is None or b.inner is None:
        return a.inner is b.inner
    if a.inner.keys() != b.inner.keys():
        return False
    return all(
        a.inner[x][1] == b.inner[x][1] and keys.match(a.inner[x][0], b.inner[x][0]) for x in a.inner
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", STATES)
def test_the_compiled_branches_are_the_pure_ones(name, mode):
    state = STATES[name]()
    ctx = Context(state)
    seeds = _seeds(state, 160)
    conflicts = nested_facts = longest = 0
    keys = Keys()  # (one search: a grid's chains keep their keys from branch to branch)
    for seed in seeds:
        compiled = compiled_branches.follow(ctx, [seed], MODES[mode])
        assert compiled is not None, f"{name}: seed {seed} left to the pure route"
        pure = _pure(ctx, seed, MODES[mode])
        assert _same(compiled, pure, keys), f"{name}, {mode}: seed {seed}"
        conflicts += compiled.conflict is not None
        nested_facts += bool(compiled.inner)
        longest = max(longest, len(compiled.parents))
    assert longest > 10  # branches that go somewhere
    if name in ("gen9-extreme step 26", "gen4"):
        assert conflicts  # contradictions to compare
    if name == "forum" and MODES[mode] >= NESTED:
        assert nested_facts  # inner chains to compare


def test_a_branch_whose_causes_outgrow_the_pool_is_followed_again_with_more_room():
    from solvers.human.techniques.branch_kernel import W_POOL

    state = STATES["forum"]()
    ctx = Context(state)
    seed = next(s for s in _seeds(state, 400) if len(_pure(ctx, s, NESTED).parents) > 20)
    assert compiled_branches.follow(ctx, [seed], NESTED) is not None
    workspace = ctx.__dict__["compiled_start"].workspace
    arrays = list(workspace.arrays)
    arrays[W_POOL] = arrays[W_POOL][:2]  # room for the causes of a fact or two
    workspace.arrays = tuple(arrays)
    compiled = compiled_branches.follow(ctx, [seed], NESTED)
    assert compiled is not None
    assert _same(compiled, _pure(ctx, seed, NESTED))
    assert workspace.arrays[W_POOL].shape[0] > 2


def test_without_the_kernel_the_pure_route_follows(monkeypatch):
    state = STATES["forum"]()
    seed = _seeds(state, 10)[0]
    expected = _pure(Context(state), seed, NESTED)
    monkeypatch.setattr(compiled_branches, "branch_kernel", lambda _shape: None)
    ctx = Context(state)
    assert compiled_branches.follow(ctx, [seed], NESTED) is None
    assert compiled_branches.plus_ends(ctx) is None
    assert _same(ctx.branch([seed], NESTED), expected)


def test_the_nested_search_concludes_the_same_either_way():
    from solvers.human.techniques import forcing

    compiled = forcing.nested_multiple_chain(STATES["forum"]())  # (level 2 finds none)
    token = COMPILED.set(False)
    try:
        pure = forcing.nested_multiple_chain(STATES["forum"]())
    finally:
        COMPILED.reset(token)
    assert compiled is not None
    assert compiled == pure


def test_the_solver_warms_the_branch_kernel_up():
    code = (
        "import solvers\n"
        "from solvers.human.techniques import branch_kernel, chain_bound, static_kernel\n"
        "from solvers.human.techniques import aligned_kernel, one_digit_kernel, wing_kernel\n"
        "from solvers.human.techniques import sue_de_coq_kernel, x_forcing_kernel\n"
        "assert not branch_kernel.nested_branch.signatures\n"
        "assert not wing_kernel.wing_search.signatures\n"
        "solvers.get('human').warm_up()\n"
        "for entry in ('plus_branch', 'nested_branch', 'nested_batch', 'branch_facts', 'lookup',\n"
        "              'insert', 'set_level3', 'new_links', 'dynamic_branch',\n"
        "              'sharing', 'agreement', 'seed_array'):\n"
        "    assert getattr(branch_kernel, entry).signatures, entry\n"
        "assert chain_bound.start_reach.signatures\n"
        "assert static_kernel.full_reach.signatures\n"
        "assert static_kernel.shared_groups.signatures\n"
        "assert x_forcing_kernel.digit_best.signatures\n"
        "assert one_digit_kernel.conflicting_cells.signatures\n"
        "assert aligned_kernel.first_pair.signatures\n"
        "assert sue_de_coq_kernel.first_crossing.signatures\n"
        "assert wing_kernel.wing_search.signatures\n"
        "assert wing_kernel.fish_search.signatures\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_the_kernels_length_bonus_is_the_engines():
    from solvers.human.techniques.branch_kernel import bonus_tenths
    from solvers.human.techniques.chains import length_bonus

    for nodes in [*range(0, 3000), 5000, 20_000, 150_000]:
        assert bonus_tenths(nodes) == round(10 * length_bonus(nodes)), nodes


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 19), st.integers(0, 2**32), st.floats(0.0, 0.7))
def test_the_kernels_seeds_are_the_searchs(index, seed, share):
    """The seeds the kernel lists (`branch_kernel.seed_array`) are `search_seeds`', in order."""
    ctx = Context(struck_state(first_puzzles("gen9-extreme", 20)[index], seed, share))
    start = compiled_branches.Start(ctx, compiled_branches.branch_kernel(ctx.state.shape))
    seeds, array, index_of = start.seeds
    assert seeds == compiled_branches.search_seeds(ctx) == array.tolist()
    assert all(seeds[i] == x for x, i in index_of.items())


ENDS = {
    "plus": (PLUS, compiled_branches.plus_ends),
    "dynamic": (DYNAMIC, compiled_branches.dynamic_ends),
}


@pytest.mark.parametrize("which", ENDS)
@pytest.mark.parametrize("name", STATES)
def test_the_ends_are_the_branches_facts(name, which):
    mode, ends_of = ENDS[which]
    state = STATES[name]()
    ctx = Context(state)
    ends = ends_of(ctx)
    assert ends
    assert list(ends) == compiled_branches.search_seeds(ctx)
    conflicts = 0
    for seed, facts in ends.items():
        branch = _pure(ctx, seed, mode)
        if branch.conflict is not None:
            conflicts += 1
            assert facts is None, f"{name}: seed {seed} ends in a contradiction"
            expected = conflict_chain({}, seed, branch, mode)
            assert ends.conflict(seed)[:2] == expected, f"{name}: seed {seed}"
        else:
            assert facts == sum(1 << x for x in branch.parents), f"{name}: seed {seed}"
    if name == "gen9-extreme step 26" or (name == "gen4" and mode == DYNAMIC):
        assert conflicts  # contradictions to tell apart
    assert any(f is not None and f.bit_count() > 20 for f in ends.values())


@pytest.mark.parametrize("name", list(STATES)[:3])
def test_the_plus_search_concludes_the_same_with_and_without_the_ends(name, monkeypatch):
    with_ends = forcing.dynamic_forcing_chain_plus(STATES[name]())
    monkeypatch.setattr(forcing, "plus_ends", lambda _ctx: None)
    assert forcing.dynamic_forcing_chain_plus(STATES[name]()) == with_ends


@pytest.mark.parametrize("name", STATES)
def test_the_compiled_dynamic_branches_are_the_pure_ones(name):
    state = STATES[name]()
    ctx = Context(state)
    stopped = conflicts = 0
    for seed in _seeds(state, 200):
        done, compiled = compiled_branches.follow_dynamic(ctx, [seed], 0)
        assert done
        assert compiled is not None
        pure = _pure(ctx, seed, DYNAMIC)
        assert _same(compiled, pure), f"{name}: seed {seed}"
        conflicts += compiled.conflict is not None
        for limit in (2, 5, 9):
            _, limited = compiled_branches.follow_dynamic(ctx, [seed], limit)
            token = COMPILED.set(False)
            try:
                expected = ctx.follow([seed], DYNAMIC, limit)
            finally:
                COMPILED.reset(token)
            if expected is None:
                stopped += 1
                assert limited is None, f"{name}: seed {seed}, limit {limit}"
            else:
                assert limited is not None
                assert _same(limited, expected), f"{name}: seed {seed}, limit {limit}"
    assert stopped  # limits that stop branches
    if name in ("gen9-extreme step 26", "gen4"):
        assert conflicts


@pytest.mark.parametrize("name", ["forum", "gen9-extreme static", "gen6"])
def test_inner_chains_from_the_pure_route_give_the_same_branches(name):
    """The route for grids the static kernel leaves to the pure-Python route (kept in the
    compiled memo from `nested.pure_hints`), taken here for every grid."""
    state = STATES[name]()
    ctx = Context(state)
    keys = Keys()
    token = compiled_branches.PURE_HINTS.set(True)
    try:
        for seed in _seeds(state, 120):
            for mode in (NESTED, NESTED_MULTIPLE):
                compiled = compiled_branches.follow(ctx, [seed], mode)
                assert compiled is not None
                assert _same(compiled, _pure(ctx, seed, mode), keys), f"{name}: seed {seed}"
    finally:
        compiled_branches.PURE_HINTS.reset(token)
    assert len(ctx.__dict__["compiled_start"].memo[1]) > 10  # grids kept from the pure route


def _ends_match_branches(
    state: CandidateState, mode: int, name: str, after: int | None = None
) -> int:
    """Compare each seed of `nested_ends` with its branch followed alone (those taken from
    the (+) branches too), optionally after a search of mode `after` on the same grid
    (whose level-2 verdicts the search reads); the conflicts."""
    ctx = Context(state)
    if after is not None:
        assert compiled_branches.nested_ends(ctx, after) is not None
        dry = ctx.__dict__["compiled_start"].plus_dry
        assert (dry == 1).any(), f"{name}: no dry grid kept"
        assert (dry == 0).any(), f"{name}: no grid with inner chains kept"
    ends = compiled_branches.nested_ends(ctx, mode)
    assert ends is not None
    if not compiled_branches.PURE_HINTS.get():
        assert ends.from_plus > 0, f"{name}, mode {mode}: no branch taken from the (+) ones"
    alone = Context(state)
    keys = Keys()
    conflicts = 0
    for seed in compiled_branches.search_seeds(ctx):
        made = ends.branch(seed)
        expected = compiled_branches.follow(alone, [seed], mode)
        assert expected is not None
        assert _same(made, expected, keys), f"{name}, mode {mode}: seed {seed}"
        facts = ends.facts[seed]
        if made.conflict is not None:
            conflicts += 1
            assert facts is None, f"{name}: seed {seed} ends in a contradiction"
            chain, c = conflict_chain({}, seed, made, mode)
            assert ends.conflict_cost(seed) == c + forcing.nested_complexity(made, chain)
        else:
            assert facts == sum(1 << x for x in made.parents), f"{name}: seed {seed}"
    return conflicts


@pytest.mark.parametrize("mode", [NESTED, NESTED_MULTIPLE])
@pytest.mark.parametrize("name", [s for s in STATES if s != "gen16"])
def test_the_nested_ends_are_the_branches_followed_one_by_one(name, mode):
    conflicts = _ends_match_branches(STATES[name](), mode, name)
    if name in ("gen9-extreme step 26", "gen4"):
        assert conflicts


@pytest.mark.parametrize("name", ["forum", "gen9-extreme step 26"])
def test_level_3_reads_level_2s_verdicts_on_the_same_grid(name):
    _ends_match_branches(STATES[name](), NESTED_MULTIPLE, name, after=NESTED)


def test_the_nested_ends_follow_again_a_branch_that_outgrew_the_pool(monkeypatch):
    from solvers.human.techniques.branch_kernel import W_POOL, Workspace

    made = Workspace.__init__

    def small(self, shape):  # a pool with room for the causes of a fact or two
        made(self, shape)
        arrays = list(self.arrays)
        arrays[W_POOL] = arrays[W_POOL][:2]
        self.arrays = tuple(arrays)

    monkeypatch.setattr(Workspace, "__init__", small)
    monkeypatch.setattr(compiled_branches, "BATCH", 5)  # (and several calls of the kernel)
    _ends_match_branches(STATES["forum"](), NESTED, "forum")


def test_the_nested_ends_take_inner_chains_from_the_pure_route_when_told():
    state = STATES["gen6"]()
    token = compiled_branches.PURE_HINTS.set(True)
    try:
        _ends_match_branches(state, NESTED_MULTIPLE, "gen6")
    finally:
        compiled_branches.PURE_HINTS.reset(token)


@pytest.mark.parametrize("name", list(STATES)[:3])
def test_the_nested_searches_conclude_the_same_with_and_without_the_ends(name, monkeypatch):
    with_ends = [
        forcing.nested_forcing_chain(STATES[name]()),
        forcing.nested_multiple_chain(STATES[name]()),
    ]
    monkeypatch.setattr(forcing, "nested_ends", lambda _ctx, _mode: None)
    without = [
        forcing.nested_forcing_chain(STATES[name]()),
        forcing.nested_multiple_chain(STATES[name]()),
    ]
    assert with_ends == without
    assert any(with_ends)


def _finders(start, found: np.ndarray, whys: np.ndarray) -> tuple[int, int, int]:
    """What the kernel's hidden pair, naked pair and X-Wing finders say on the workspace."""
    from solvers.human.techniques import branch_kernel as kernel

    ws = start.workspace.arrays
    units = start.geo[0]
    cand, pos, opens = start.cand, start.pos, start.open_counts
    return (
        kernel.hidden_pairs(ws, units, cand, pos, opens, found, whys),
        kernel.naked_pairs(ws, units, cand, opens, found, whys),
        kernel.x_wings(ws, units, pos, start.placed_count, found, whys),
    )


def test_the_pair_and_x_wing_finders_ask_for_room_rather_than_overrun():
    state = STATES["gen9-extreme step 26"]()
    ctx = Context(state)
    checked = 0
    for seed in _seeds(state, 200):
        compiled_branches.follow(ctx, [seed], PLUS)  # (the workspace keeps the branch's end)
        start = ctx.__dict__["compiled_start"]
        ints = np.int64
        roomy = _finders(start, np.empty((800, 3), dtype=ints), np.empty(8000, dtype=ints))
        tight = _finders(start, np.empty((0, 3), dtype=ints), np.empty(0, dtype=ints))
        for got, cramped in zip(roomy, tight, strict=True):
            assert got >= 0
            assert cramped == (-1 if got else 0)
            checked += bool(got)
    assert checked > 20  # finders that found something, with and without room


@pytest.mark.parametrize("name", ["gen9-extreme step 26", "gen4", "gen6", "gen12"])
def test_the_dynamic_ends_contradictions_are_the_pure_branches(name):
    """Per seed, the dynamic ends' contradiction is what the pure-Python branch's rests on
    (the same facts and complexity), and at every limit from 1 to 7 the pure branch is
    stopped exactly when ``limit and level + 1 > limit`` says so."""
    from solvers.human.techniques.findings import conflict_chain

    state = STATES[name]()
    ctx = Context(state)
    ends = compiled_branches.dynamic_ends(ctx)
    assert ends is not None
    seeds = set(_seeds(state, 200))
    conflicts = stopped = 0
    for seed in ends.seeds:
        if seed not in seeds:
            continue
        pure = _pure(ctx, seed, DYNAMIC)
        found = ends.conflict(seed)
        if pure.conflict is None:
            assert ends[seed] is not None, f"{name}: seed {seed}"
            assert found is None, f"{name}: seed {seed}"
            continue
        conflicts += 1
        assert ends[seed] is None, f"{name}: seed {seed}"
        assert found is not None, f"{name}: seed {seed}"
        facts, size, depth = found
        assert (facts, size) == conflict_chain({}, seed, pure, DYNAMIC), f"{name}: seed {seed}"
        for limit in range(1, 8):
            token = COMPILED.set(False)
            try:
                limited = ctx.follow([seed], DYNAMIC, limit)
            finally:
                COMPILED.reset(token)
            stopped += limited is None
            assert (limited is None) == (depth + 1 > limit), f"{name}: seed {seed}, {limit}"
    assert conflicts
    if name != "gen4":
        assert stopped


@pytest.mark.parametrize("name", list(STATES)[:5])
def test_the_dynamic_search_concludes_the_same_with_the_ends_and_the_end_states(name):
    compiled = forcing.dynamic_forcing_chain(STATES[name]())
    token = COMPILED.set(False)  # (the end states of `carry`, the branches in Python)
    try:
        pure = forcing.dynamic_forcing_chain(STATES[name]())
    finally:
        COMPILED.reset(token)
    assert compiled == pure


def _may_share(ends: dict, nodes: list[int], dynamic: bool) -> bool:
    """The search's filter, written out: a dynamic group with a contradiction concludes
    nothing; else the group may conclude unless its branches, all known without a
    contradiction, share no fact besides the seeds."""
    if dynamic and any(x in ends and ends[x] is None for x in nodes):
        return False
    common = -1
    for x in nodes:
        facts = ends.get(x)
        if facts is None:
            return True
        common &= facts & ~(1 << x)
    return bool(common)


@pytest.mark.parametrize("name", ["gen9-extreme step 26", "gen4", "gen6", "gen12"])
@pytest.mark.parametrize("which", ["plus", "dynamic", "nested"])
def test_the_group_filters_are_the_searchs_own(name, which):
    state = STATES[name]()
    ctx = Context(state)
    if which == "plus":
        ends = compiled_branches.plus_ends(ctx)
    elif which == "dynamic":
        ends = compiled_branches.dynamic_ends(ctx)
    else:
        found = compiled_branches.nested_ends(ctx, NESTED)
        ends = found.facts if found else None
    assert ends is not None
    dynamic = which == "dynamic"
    groups = compiled_branches.filters(ctx, ends, dynamic)
    n, off = ctx.n, ctx.off
    passed = 0
    for cell, m in enumerate(state.cand):
        if m.bit_count() < 2:
            continue
        nodes = [cell * n + k for k in range(n) if m >> k & 1]
        assert groups.cells[cell] == _may_share(ends, nodes, dynamic), f"cell {cell}"
        passed += groups.cells[cell]
        if len(nodes) > 2:
            for x in nodes:
                assert groups.both[x] == _may_share(ends, [x, off + x], False), f"node {x}"
    for u, cells in enumerate(state.shape.units):
        for k in range(n):
            p = state.pos[u * n + k]
            if p.bit_count() < 2:
                continue
            nodes = [cells[i] * n + k for i in range(n) if p >> i & 1]
            assert groups.places[u * n + k] == _may_share(ends, nodes, dynamic), f"{u}, {k}"
            passed += groups.places[u * n + k]
    if name == "gen9-extreme step 26":
        assert passed  # (groups on both sides of the filter)
    assert not all(groups.cells) or not all(groups.places)
    # the cells where a seed's branches may conclude anything on their own
    busy = [
        cell
        for cell, m in enumerate(state.cand)
        if any(
            ends.failed(x) or ends.failed(off + x) or (m.bit_count() > 2 and groups.both[x])
            for x in (cell * n + k for k in range(n) if m >> k & 1)
        )
    ]
    assert groups.busy == busy
    if name == "gen9-extreme step 26":
        assert len(busy) < sum(m.bit_count() > 1 for m in state.cand)  # (cells left out)


def test_the_searches_of_one_state_share_its_start_grid():
    state = STATES["forum"]()
    first = _start_of(Context(state))
    assert _start_of(Context(state)) is first
    # a context on a branch's candidates has a start of its own
    ctx = Context(state)
    inner = ctx.within([m & ~1 if m & (m - 1) else m for m in ctx.cand], ctx.pos, ctx.placed)
    assert _start_of(inner) is not first
    # the state changed: a new start
    cell = next(c for c, m in enumerate(state.cand) if m & (m - 1))
    state.eliminate(cell, state.cand[cell].bit_length())
    after = _start_of(Context(state))
    assert after is not first
    assert after.memo is first.memo  # (the solve's memo goes on)
    assert first.memo[5][1] == len(first.memo[1])  # (the count of grids it keeps)


def _start_of(ctx: Context) -> compiled_branches.Start:
    """The start grid a search of `ctx` uses."""
    assert compiled_branches.plus_ends(ctx) is not None
    return ctx.__dict__["compiled_start"]


def _groups(state: CandidateState) -> list[list[int]]:
    """Every group a forcing-chain search asks to agree: each cell's digits, each unit's
    places of a digit, each candidate's two states (cells with three digits or more)."""
    n = state.n
    off = state.shape.ncells * n
    groups = []
    for cell, m in enumerate(state.cand):
        if m & (m - 1):
            digits = [cell * n + k for k in range(n) if m >> k & 1]
            groups.append(digits)
            if len(digits) > 2:
                groups.extend([x, off + x] for x in digits)
    for u, cells in enumerate(state.shape.units):
        for k in range(n):
            p = state.pos[u * n + k]
            if p & (p - 1):
                groups.append([cells[i] * n + k for i in range(len(cells)) if p >> i & 1])
    return groups


@pytest.mark.parametrize("mode", [DYNAMIC, PLUS])
@pytest.mark.parametrize("name", [s for s in STATES if s != "gen16"])
def test_the_kernels_cheapest_agreement_is_the_pure_routes(name, mode):
    """`group_agreement` gives, for every group, the cheapest finding `forcing.agreed_facts`
    makes from the pure route's branches (dynamic groups with a contradiction are left
    to the caller)."""
    state = STATES[name]()
    ctx = Context(state)
    ends = ENDS["dynamic" if mode == DYNAMIC else "plus"][1](ctx)
    agreed = 0
    for nodes in _groups(state):
        branches = [_pure(ctx, x, mode) for x in nodes]
        if mode == DYNAMIC and any(b.conflict is not None for b in branches):
            continue
        found: list = []
        forcing.agreed_facts(ctx, branches, nodes, "cell", found.append, lambda c: c, mode >= PLUS)
        expected = min(((f.complexity, f.target) for f in found), default=None)
        assert compiled_branches.group_agreement(ctx, ends, nodes, mode == DYNAMIC) == expected, (
            f"{name}: {nodes}"
        )
        agreed += expected is not None
        if expected is not None:  # a limit keeps the cheapest, or tells none is left
            c = expected[0]
            agree = compiled_branches.group_agreement
            assert agree(ctx, ends, nodes, mode == DYNAMIC, c) == expected
            below = agree(ctx, ends, nodes, mode == DYNAMIC, c - 1) if c > 1 else None
            assert below is None or below[0] > c - 1
    if name in ("gen9-extreme step 26", "gen12") or (mode == PLUS and name != "forum"):
        assert agreed


@pytest.mark.parametrize("mode", [NESTED, NESTED_MULTIPLE])
@pytest.mark.parametrize("name", ["gen9-extreme step 26", "gen9-extreme static"])
def test_the_nested_ends_cheapest_agreement_is_the_branches(name, mode):
    """`NestedEnds.agreement` gives, for every group, the cheapest finding
    `forcing.agreed_facts` makes from the branches (inner chains counted once each)."""
    state = STATES[name]()
    ctx = Context(state)
    ends = compiled_branches.nested_ends(ctx, mode)
    assert ends is not None
    agreed = inner = 0
    for nodes in _groups(state):
        branches = [ends.branch(x) for x in nodes]
        found: list = []
        forcing.agreed_facts(ctx, branches, nodes, "cell", found.append, lambda c: c, True)
        expected = min(((f.complexity, f.target) for f in found), default=None)
        assert ends.agreement(nodes, 0) == expected, f"{name}: {nodes}"
        agreed += expected is not None
        inner += any(f.complexity > len(f.chain) for f in found)
    assert agreed
    assert inner  # (agreements resting on inner chains)
