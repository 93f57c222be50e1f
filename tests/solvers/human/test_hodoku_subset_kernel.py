"""The compiled scan of naked subsets (`hodoku_subset_kernel`) gives the HoDoKu pass the
steps of the Python scan, which runs where numba is missing: the same naked and locked
subsets at the states of engine and HoDoKu paths and at random candidate grids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from solvers.grid import Grid
from solvers.human import hodoku_finders
from solvers.human.hodoku_finders import locked_subset, naked_subset
from solvers.human.hodoku_path import hodoku_path
from solvers.human.state import CandidateState
from tests.human_fixtures import engine_states, first_puzzles, hodoku_states, thinned_states

pytest.importorskip("numba")

from solvers.human import hodoku_subset_kernel  # noqa: E402 (after the numba check)


def same_subsets(state: CandidateState, monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert both scans give the same naked and locked subsets; how many found one."""
    found = 0
    for k in (2, 3, 4):
        asks = [lambda s, k=k: naked_subset(s, k)]
        if k < 4:
            asks.append(lambda s, k=k: locked_subset(s, k))
        for ask in asks:
            compiled = ask(state)
            with monkeypatch.context() as patch:
                patch.setattr(hodoku_finders, "COMPILED", False)
                assert ask(state) == compiled, (k, state.snapshot())
            found += compiled is not None
    return found


def test_both_scans_agree_along_engine_and_hodoku_paths(monkeypatch):
    states = [s for name in ("gen9-hard", "gen9-extreme") for g in first_puzzles(name, 6)
              for s in engine_states(g)]  # fmt: skip
    recorded = hodoku_states(first_puzzles("gen9-extreme", 8), "naked_subset", monkeypatch)
    assert len(recorded) > 50
    assert sum(same_subsets(state, monkeypatch) for state in states + recorded) > 20


@settings(max_examples=60, deadline=None)
@given(state=thinned_states())
def test_both_scans_agree_on_random_candidate_grids(state):
    """Random puzzles, then random eliminations of candidates off the solution."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        same_subsets(state, monkeypatch)


def test_a_full_row_asks_again_with_more_room(monkeypatch):
    """Many sets at once (more than the first try's rows): all returned, in order."""
    state = CandidateState.from_grid(Grid.empty(3, 3))
    for c in range(81):
        for d in range(3, 10):
            state.eliminate(c, d)
    found = hodoku_finders.compiled_sets(state, 2, list(range(27)))
    assert len(found) == 27 * 36
    assert found[0] == ((0, 1), 0b11)


def test_the_pass_takes_the_compiled_scan(monkeypatch):
    calls = []
    kernel = hodoku_subset_kernel.naked_sets

    def counting(cand, units, cell_units, order, k, out):
        calls.append(k)
        return kernel(cand, units, cell_units, order, k, out)

    monkeypatch.setattr(hodoku_subset_kernel, "naked_sets", counting)
    hodoku_path(first_puzzles("gen9-extreme", 1)[0])
    assert set(calls) >= {2, 3}
