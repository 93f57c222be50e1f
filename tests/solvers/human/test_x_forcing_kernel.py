"""The compiled forcing X-chain search finds the chain the Python search finds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.grid import Grid
from solvers.human.state import CandidateState
from solvers.human.techniques import x_forcing
from solvers.human.techniques.common import cells_with
from tests.human_fixtures import random_candidate_grid

pytest.importorskip("numba")


def _state(box_rows: int, box_cols: int, seed: int, keep: float, placed: float) -> CandidateState:
    grid_shape, cand, pos, placed_units = random_candidate_grid(
        box_rows, box_cols, seed, keep, placed
    )
    state = CandidateState.from_grid(Grid.empty(grid_shape.box_rows, grid_shape.box_cols))
    state.cand, state.pos, state.placed = cand, pos, placed_units
    return state


def _both(state: CandidateState) -> list[tuple]:
    """Per digit, (the Python search's chain, the kernel's)."""
    out = []
    for d in range(1, state.n + 1):
        with_d = cells_with(state, d)
        out.append(
            (
                x_forcing.searched_best(state, with_d, d),
                x_forcing.compiled_best(state, with_d, d),
            )
        )
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.1, 0.7), placed=st.floats(0.0, 0.4))
def test_the_kernel_finds_the_python_searchs_chain(seed, keep, placed):
    for python, compiled in _both(_state(3, 3, seed, keep, placed)):
        assert compiled == python


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 4), (4, 4), (5, 5)])
def test_the_kernel_takes_every_size(box):
    found = 0
    for seed in range(4):
        for python, compiled in _both(_state(*box, seed, 0.4, 0.1)):
            assert compiled == python
            found += python is not None
    assert found  # (some digit has a chain: the comparison is not between two Nones)
