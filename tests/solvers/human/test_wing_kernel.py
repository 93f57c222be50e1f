"""The compiled ALS wings and finned fish (numba) find the steps of the Python searches,
which run where numba is missing (and above 16x16), at every state of solve paths and on
states with candidates taken away at random, the wings' routes each with its fruitless
marks kept from state to state."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import als_wings, finned_fish
from solvers.human.trace import compact
from tests.human_fixtures import first_puzzles
from tests.paths import ROOT

pytest.importorskip("numba")

DATA = ROOT / "corpora" / "data"

WINGS: tuple[Callable[[CandidateState], Step | None], ...] = (
    als_wings.wxyz_wing,
    als_wings.vwxyz_wing,
    als_wings.uvwxyz_wing,
)


def both(state: CandidateState, monkeypatch: pytest.MonkeyPatch) -> int:
    """Each wing found by the kernel and by the Python search at `state` (each with its
    marks from the states before): the same step.  How many found one."""
    found = 0
    for find in WINGS:
        monkeypatch.setattr(als_wings, "COMPILED", True)
        compiled = find(state)
        monkeypatch.setattr(als_wings, "COMPILED", False)
        python = find(state)
        assert compiled == python, (find.__name__, state.snapshot())
        if compiled is not None and python is not None:
            assert compact(compiled) == compact(python)
            found += 1
    return found


def fish_both(state: CandidateState) -> int:
    """Each finned and sashimi fish search (sizes 2-4, digits, rows and columns) by the
    kernel and by Python at `state`: the same fish.  How many found one."""
    found = 0
    for k in (2, 3, 4):
        for d in range(1, state.n + 1):
            for rows in (True, False):
                compiled = finned_fish.compiled_search(state, d, rows, k)
                assert compiled == finned_fish.python_search(state, d, rows, k), (k, d, rows)
                found += sum(fish is not None for fish in compiled)
    return found


def along_the_path(grid: Grid, monkeypatch: pytest.MonkeyPatch) -> int:
    """`both` and `fish_both` at each state of the engine's path; how many were found."""
    state = CandidateState.from_grid(grid)
    found = 0
    while state.empty and not state.contradiction:
        found += both(state, monkeypatch) + fish_both(state)
        if propagate(state, max_steps=1).stopped_by is None:
            break
    return found


def calls_to(monkeypatch, module, name: str) -> list[tuple]:
    """The arguments of every call to ``module.name`` from now on (the calls still run)."""
    calls: list[tuple] = []
    search = getattr(module, name)

    def counted(*args):
        calls.append(args)
        return search(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_the_kernel_finds_the_python_search_s_wings_along_solve_paths(monkeypatch):
    grids = first_puzzles("gen9-extreme", 5) + first_puzzles("gen9-unfair", 3)
    assert sum(along_the_path(grid, monkeypatch) for grid in grids) > 0


@pytest.mark.parametrize(
    ("name", "box"),
    [("gen4", None), ("gen6", None), ("gen6-tall", (3, 2)), ("gen12", None)],
)
def test_the_kernel_agrees_on_other_shapes(monkeypatch, name, box):
    if box is None:
        grids = first_puzzles(name, 6)
    else:  # the 2x3-box puzzles transposed: 3x2 boxes
        grids = [
            Grid.parse("".join(line[c::6] for c in range(6)), box=box)
            for line in (DATA / "gen6.txt").read_text().splitlines()
            if line and not line.startswith("#")
        ][:6]
    for grid in grids:
        along_the_path(grid, monkeypatch)


def test_the_kernel_agrees_on_16x16_states(monkeypatch):
    # random candidates taken away from a 16x16 puzzle, twice (the marks of the first)
    import random

    rng = random.Random(16)
    for grid in first_puzzles("gen16", 2):
        state = CandidateState.from_grid(grid)
        for _ in range(3):
            both(state, monkeypatch)
            fish_both(state)
            for cell in rng.sample(range(state.shape.ncells), 60):
                digits = [d for d in range(1, 17) if state.cand[cell] >> (d - 1) & 1]
                if len(digits) > 2:
                    state.eliminate(cell, rng.choice(digits))


@st.composite
def thinned(draw: st.DrawFn) -> tuple[Grid, list[list[tuple[int, int]]]]:
    """A hard 9x9 puzzle and two rounds of candidates to take away (cell, digit)."""
    grid = draw(st.sampled_from(first_puzzles("gen9-extreme", 40)))
    pair = st.tuples(st.integers(0, 80), st.integers(1, 9))
    return grid, [draw(st.lists(pair, max_size=40)) for _ in range(3)]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(thinned())
def test_the_kernel_agrees_on_thinned_states(monkeypatch, case):
    grid, rounds = case
    state = CandidateState.from_grid(grid)
    propagate(state, max_steps=5)
    for cuts in rounds:
        both(state, monkeypatch)
        fish_both(state)
        for cell, digit in cuts:
            m = state.cand[cell]
            if m >> (digit - 1) & 1 and m.bit_count() > 2:  # keep the cells open
                state.eliminate(cell, digit)
    both(state, monkeypatch)
    fish_both(state)


def test_the_kernel_route_is_taken_where_numba_is(monkeypatch):
    from solvers.human.techniques import wing_kernel

    assert als_wings.COMPILED
    from tests.solvers.human.test_human_techniques import CASES

    _, candidates, _ = CASES["wxyz_wing"]
    state = CandidateState.from_candidates(candidates)
    calls = calls_to(monkeypatch, wing_kernel, "wing_search")
    step = als_wings.wxyz_wing(state)
    assert step is not None
    assert len(calls) == 1
    monkeypatch.setattr(als_wings, "COMPILED", False)
    assert step == als_wings.wxyz_wing(state.copy())


def test_the_kernel_called_directly_gives_the_wing(monkeypatch):
    import numpy as np

    from solvers.human.techniques.wing_kernel import wing_search
    from tests.solvers.human.test_human_techniques import CASES

    _, candidates, _ = CASES["wxyz_wing"]
    state = CandidateState.from_candidates(candidates)
    units, sees, peers, cell_units, caps = als_wings.wing_geometry(state.shape)
    old, rows = als_wings.fresh_marks(len(units), 9, peers.shape[1])
    cand = np.array(state.cand, dtype=np.int64)
    rates = als_wings.wing_rates(3, 9)
    rating, found = wing_search(cand, 3, units, sees, peers, cell_units, rates, caps[3], old, rows)
    monkeypatch.setattr(als_wings, "COMPILED", False)
    python = als_wings.wxyz_wing(state)
    assert python is not None
    values = found.tolist()
    assert rating == python.rating
    assert (*values[1:4], values[0]) == python.cells
    assert list(zip(values[4::2], values[5::2], strict=True)) == list(python.eliminations)


def test_the_fish_kernel_route_is_taken_where_numba_is(monkeypatch):
    assert finned_fish.COMPILED
    calls = calls_to(monkeypatch, finned_fish, "compiled_search")
    state = CandidateState.from_grid(first_puzzles("gen9-extreme", 1)[0])
    propagate(state, max_steps=5)
    finned_fish.finned_fish(state, 2, False, 3.4)
    assert calls


def test_grids_above_16x16_take_the_python_route(monkeypatch):
    from solvers.human.techniques import wing_kernel

    def refused(*args):
        raise AssertionError("the kernel was called on a 25x25 grid")

    monkeypatch.setattr(wing_kernel, "wing_search", refused)
    monkeypatch.setattr(finned_fish, "compiled_search", refused)
    state = CandidateState.from_grid(first_puzzles("gen25", 1)[0])
    for find in WINGS:
        find(state)
    finned_fish.finned_fish(state, 2, False, 3.4)
