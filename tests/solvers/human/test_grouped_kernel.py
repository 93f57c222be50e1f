"""The compiled grouped strong-link search (numba) finds the Python search's chain, which
runs where numba is missing: at every state of engine paths, on states with candidates
struck at random, and on 4x4 to 25x25 grids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.techniques import grouped_links
from solvers.human.techniques.common import cells_with
from tests.human_fixtures import first_puzzles, struck_state

pytest.importorskip("numba")


def same_chains(state: CandidateState) -> int:
    """Every digit's best chain of two and of three links, compiled and in Python, checked
    equal; how many were found."""
    found = 0
    for d in range(1, state.n + 1):
        with_d = cells_with(state, d)
        for k in (2, 3):
            compiled = grouped_links.compiled_chain(state, d, k, with_d)
            python = grouped_links.searched_chain(state, d, k, with_d)
            assert compiled == python, (d, k, state.snapshot())
            found += compiled is not None
    return found


def same_links(state: CandidateState) -> None:
    """Every digit's strong links from the kernel are `grouped_links.digit_links`' in its
    order (the order the search meets them, which breaks its ties)."""
    import numpy as np

    from solvers.human.techniques import grouped_kernel

    units, parts, counts, _, peers = grouped_kernel.geometry(state.shape)
    for d in range(1, state.n + 1):
        with_d = cells_with(state, d).to_bytes(8 * peers.shape[1], "little")
        row = np.frombuffer(with_d, dtype="<u8")
        unit, first, second, grouped, count = grouped_kernel.digit_links(
            row, units, parts, counts, state.n
        )
        kernel_links = [
            (int(unit[i]), mask(first[i]), mask(second[i]), bool(grouped[i])) for i in range(count)
        ]
        assert kernel_links == grouped_links.digit_links(state, d), (d, state.snapshot())


def mask(row) -> int:
    return int.from_bytes(row.tobytes(), "little")


def along_the_path(grid: Grid) -> int:
    """`same_chains` at each state of the engine's path; how many chains were found."""
    state = CandidateState.from_grid(grid)
    found = 0
    while state.empty and not state.contradiction:
        same_links(state)
        found += same_chains(state)
        if propagate(state, max_steps=1).stopped_by is None:
            break
    return found


def test_the_compiled_search_finds_the_python_chains_along_paths():
    assert sum(along_the_path(grid) for grid in first_puzzles("gen9-extreme", 4)) > 0


@pytest.mark.parametrize(("name", "count"), [("gen4", 4), ("gen6", 6), ("gen12", 1)])
def test_the_compiled_search_agrees_on_small_and_wide_grids(name, count):
    for grid in first_puzzles(name, count):
        along_the_path(grid)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 19), st.integers(0, 2**32), st.floats(0.1, 0.6))
def test_the_compiled_search_agrees_on_struck_states(index, seed, share):
    state = struck_state(first_puzzles("gen9-extreme", 20)[index], seed, share)
    same_links(state)
    same_chains(state)


@pytest.mark.parametrize(("name", "count", "share"), [("gen16", 3, 0.3), ("gen25", 2, 0.2)])
def test_the_compiled_search_agrees_on_16x16_and_25x25_grids(name, count, share):
    found = 0
    for seed, grid in enumerate(first_puzzles(name, count)):
        state = struck_state(grid, seed, share)
        same_links(state)
        found += same_chains(state)
    assert found > 0


def test_the_engine_takes_the_kernel(monkeypatch):
    """With numba the grouped turbot fish and three-link chains go through the kernel."""
    assert grouped_links.COMPILED
    called: list[int] = []
    kernel = grouped_links.compiled_chain

    def record(state, d, k, with_d):
        called.append(k)
        return kernel(state, d, k, with_d)

    monkeypatch.setattr(grouped_links, "compiled_chain", record)
    state = CandidateState.from_grid(first_puzzles("gen9-extreme", 1)[0])
    grouped_links.grouped_turbot_fish(state)
    grouped_links.grouped_three_strong_links(state)
    assert sorted(set(called)) == [2, 3]


def test_the_kernel_is_warmed_up(monkeypatch):
    """`load_kernels` calls the kernel, so no puzzle's time holds its loading."""
    from solvers.human.solver import load_kernels
    from solvers.human.techniques import grouped_kernel

    called: list[int] = []
    kernel = grouped_kernel.best_chain

    def record(*args):
        called.append(args[1])
        return kernel(*args)

    monkeypatch.setattr(grouped_kernel, "best_chain", record)
    load_kernels()
    assert called
