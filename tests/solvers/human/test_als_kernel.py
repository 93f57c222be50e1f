"""The compiled ALS searches (numba) find the steps of the Python searches, which run
where numba is missing: at every state of engine paths, on states with candidates
struck at random, and on 4x4 to 25x25 grids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import als
from tests.human_fixtures import first_puzzles, struck_state
from tests.paths import ROOT

pytest.importorskip("numba")

DATA = ROOT / "corpora" / "data"
KERNELS = (
    "find_sets",
    "set_rows",
    "links",
    "best_xz",
    "best_xy_wing",
    "best_chain",
    "best_blossom",
)
SEARCHES = ("als_xz", "als_xy_wing", "als_chain", "death_blossom")


def both(state: CandidateState, name: str, monkeypatch: pytest.MonkeyPatch) -> Step | None:
    """The step of search `name`, compiled and in Python (on copies: each its own memo),
    checked equal."""
    search = getattr(als, name)
    monkeypatch.setattr(als, "COMPILED", True)
    compiled = search(state.copy())
    monkeypatch.setattr(als, "COMPILED", False)
    python = search(state.copy())
    assert compiled == python, (name, state.snapshot())
    if compiled is not None and python is not None:
        assert compiled.detail == python.detail
    return compiled


def same_sets(state: CandidateState) -> None:
    """The kernel's sets (`als.als_arrays`) are the Python enumeration's, in its order."""
    arr = als.als_arrays(state.copy())
    kernel_sets = [als.set_at(state, arr, i) for i in range(len(arr.unit))]
    assert kernel_sets == als.almost_locked_sets(state.copy()), state.snapshot()


def along_the_path(grid: Grid, monkeypatch: pytest.MonkeyPatch, found: dict[str, int]) -> None:
    """At each state of the engine's path, the kernel enumerates the same sets and every
    search finds the same step both ways."""
    state = CandidateState.from_grid(grid)
    while state.empty and not state.contradiction:
        same_sets(state)
        for name in SEARCHES:
            if both(state, name, monkeypatch) is not None:
                found[name] = found.get(name, 0) + 1
        if propagate(state, max_steps=1).stopped_by is None:
            break


def test_the_compiled_searches_find_the_python_searches_steps(monkeypatch):
    found: dict[str, int] = {}
    for grid in first_puzzles("gen9-extreme", 6):
        along_the_path(grid, monkeypatch, found)
    assert all(found.get(name) for name in SEARCHES), found


@pytest.mark.parametrize(("name", "count"), [("gen4", 4), ("gen6", 6), ("gen12", 1)])
def test_the_compiled_searches_agree_on_small_and_wide_grids(monkeypatch, name, count):
    for grid in first_puzzles(name, count):
        along_the_path(grid, monkeypatch, {})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 19), st.integers(0, 2**32), st.floats(0.2, 0.7))
def test_the_compiled_searches_agree_on_struck_states(index, seed, share):
    state = struck_state(first_puzzles("gen9-extreme", 20)[index], seed, share)
    same_sets(state)
    with pytest.MonkeyPatch.context() as monkeypatch:
        for name in SEARCHES:
            both(state, name, monkeypatch)


@pytest.mark.parametrize(("name", "count", "share"), [("gen16", 4, 0.4), ("gen25", 2, 0.25)])
def test_the_compiled_searches_agree_on_16x16_and_25x25_grids(monkeypatch, name, count, share):
    found: dict[str, int] = {}
    for seed, grid in enumerate(first_puzzles(name, count)):
        state = struck_state(grid, seed, share)  # (more sets: the Python searches take seconds)
        same_sets(state)
        for name in SEARCHES:
            if both(state, name, monkeypatch) is not None:
                found[name] = found.get(name, 0) + 1
    assert all(found.get(name) for name in SEARCHES), found


def test_the_kernels_are_taken(monkeypatch):
    """With numba the engine's searches go through the kernels."""
    from solvers.human.techniques import als_kernel

    assert als.COMPILED
    called: list[str] = []
    for name in KERNELS:
        kernel = getattr(als_kernel, name)
        monkeypatch.setattr(als_kernel, name, recording(kernel, name, called))
    state = CandidateState.from_grid(first_puzzles("gen9-extreme", 1)[0])
    for name in SEARCHES:
        getattr(als, name)(state)
    assert called == list(KERNELS)


def test_the_kernels_are_warmed_up(monkeypatch):
    """`load_kernels` calls every ALS kernel, so no puzzle's time holds their loading."""
    from solvers.human.solver import load_kernels
    from solvers.human.techniques import als_kernel

    called: list[str] = []
    for name in KERNELS:
        kernel = getattr(als_kernel, name)
        monkeypatch.setattr(als_kernel, name, recording(kernel, name, called))
    load_kernels()
    assert sorted(set(called)) == sorted(KERNELS)


def recording(kernel, name: str, called: list[str]):
    def record(*args):
        called.append(name)
        return kernel(*args)

    return record
