"""The compiled chains of the HoDoKu-order pass (`hodoku_chain_kernel`) choose the chain of
the Python search, which runs where numba is missing: the same key (eliminations, index
sum, length, ends, eliminations) for every kind and digit, so the same step, at the states
of engine and HoDoKu paths and at random candidate grids of every size the kernel takes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from solvers.human import hodoku_chains
from solvers.human.hodoku_chains import best_chain, compiled_best, compiled_fits, python_best
from solvers.human.hodoku_path import hodoku_path
from solvers.human.memo import EngineMemo
from solvers.human.state import CandidateState
from tests.human_fixtures import engine_states, first_puzzles, hodoku_states, thinned_states

pytest.importorskip("numba")

from solvers.human import hodoku_chain_kernel  # noqa: E402 (after the numba check)

KINDS = ("x", "xy", "aic")


def fresh(state: CandidateState) -> CandidateState:
    """A copy with a memo of its own (the X-chains keep their answers in it)."""
    copy = state.copy()
    copy.memo = EngineMemo()
    return copy


def same_chains(state: CandidateState, monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert both routes agree on every kind (X-chains per digit too); how many found a
    chain."""
    found = 0
    for kind in KINDS:
        for digit in range(state.n) if kind == "x" else (-1,):
            compiled = compiled_best(state, kind, digit)
            assert compiled == python_best(state, kind, digit), (kind, digit, state.snapshot())
            found += compiled is not None
        with monkeypatch.context() as patch:
            patch.setattr(hodoku_chains, "COMPILED", False)
            python = best_chain(fresh(state), kind)
        assert best_chain(fresh(state), kind) == python, (kind, state.snapshot())
    return found


def test_both_routes_agree_along_engine_paths(monkeypatch):
    found = sum(
        same_chains(state, monkeypatch)
        for grid in first_puzzles("gen9-extreme", 10)
        for state in engine_states(grid)
    )
    assert found > 50


def test_both_routes_agree_along_hodoku_paths(monkeypatch):
    states = hodoku_states(first_puzzles("gen9-extreme", 16), "best_chain", monkeypatch)
    assert len(states) > 20
    assert sum(same_chains(state, monkeypatch) for state in states) > 10


SIZES = [("gen4", 5, 50), ("gen6", 5, 50), ("gen12", 2, 12), ("gen16", 1, 4)]
"""(corpus, puzzles, states per puzzle at most): the Python search is slow on big grids."""


@pytest.mark.parametrize(("name", "count", "limit"), SIZES)
def test_both_routes_agree_on_other_sizes(name, count, limit, monkeypatch):
    for grid in first_puzzles(name, count):
        for state in engine_states(grid, limit):
            assert compiled_fits(state)
            same_chains(state, monkeypatch)


@settings(max_examples=60, deadline=None)
@given(state=thinned_states())
def test_both_routes_agree_on_random_candidate_grids(state):
    """Random puzzles, then random eliminations of candidates off the solution (up to four
    per cell): states rich in bivalue cells and conjugate pairs, most with chains."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        same_chains(state, monkeypatch)


def test_the_pass_takes_the_compiled_route(monkeypatch):
    """Where numba is installed, the chains of a 9x9 pass are searched by the kernel."""
    calls = []
    kernel = hodoku_chain_kernel.best_key

    def counting(*args):
        calls.append(args[4])
        return kernel(*args)

    monkeypatch.setattr(hodoku_chain_kernel, "best_key", counting)
    grid = first_puzzles("gen9-extreme", 1)[0]
    state = CandidateState.from_grid(grid)
    assert compiled_fits(state)
    for kind in KINDS:
        best_chain(state, kind)
    assert set(calls) == {hodoku_chain_kernel.X, hodoku_chain_kernel.XY, hodoku_chain_kernel.AIC}
    calls.clear()
    hodoku_path(grid)
    assert calls


def test_load_kernels_warms_the_chains_and_subsets_up(monkeypatch):
    """Each worker's warm-up calls the chain kernel and the subset scan, so that no
    puzzle's time holds their loading."""
    from solvers.human import hodoku_subset_kernel
    from solvers.human.solver import load_kernels

    called = []
    for module, name in ((hodoku_chain_kernel, "best_key"), (hodoku_subset_kernel, "naked_sets")):
        kernel = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, k=kernel, n=name: called.append(n) or k(*a))
    load_kernels()
    assert sorted(called) == ["best_key", "naked_sets"]
