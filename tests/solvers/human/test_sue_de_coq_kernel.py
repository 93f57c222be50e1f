"""The compiled Sue de Coq search finds the step the Python search finds, crossing by
crossing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.grid import Grid
from solvers.human.state import CandidateState
from solvers.human.techniques import sue_de_coq
from solvers.human.techniques.common import crossings
from tests.human_fixtures import random_candidate_grid

pytest.importorskip("numba")


def _both(box_rows: int, box_cols: int, seed: int, keep: float) -> list[tuple]:
    """Per box and line of a random grid, (the Python search's step, the kernel's)."""
    grid_shape, cand, pos, placed = random_candidate_grid(box_rows, box_cols, seed, keep, 0.1)
    state = CandidateState.from_grid(Grid.empty(grid_shape.box_rows, grid_shape.box_cols))
    state.cand, state.pos, state.placed = cand, pos, placed
    n = state.n
    out = []
    for b, lines in enumerate(crossings(state.shape)[0]):
        for line, in_box, _ in lines:
            args = (state, 2 * n + b, line, in_box)
            out.append((sue_de_coq.searched_crossing(*args), sue_de_coq.compiled_crossing(*args)))
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.15, 0.6))
def test_the_kernel_finds_the_python_searchs_step(seed, keep):
    for python, compiled in _both(3, 3, seed, keep):
        assert compiled == python


@pytest.mark.parametrize("box", [(2, 3), (3, 3), (3, 4), (4, 4)])
def test_the_kernel_takes_other_sizes(box):
    found = 0
    for seed in range(4):
        for python, compiled in _both(*box, seed, 0.3):
            assert compiled == python
            found += python is not None
    assert found  # (the comparison is not only between two Nones)
