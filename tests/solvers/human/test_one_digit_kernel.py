"""The compiled nishio branches refute the cells the Python branches refute."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.human.techniques import one_digit
from solvers.human.techniques.closure import digit_cells, placed_units
from tests.human_fixtures import random_candidate_grid

pytest.importorskip("numba")


def _both(box_rows: int, box_cols: int, seed: int, keep: float, placed: float) -> list[tuple]:
    """Per digit of a random grid, (the Python search's refuted cells, the kernel's)."""
    grid_shape, cand, _, placed_units_ = random_candidate_grid(
        box_rows, box_cols, seed, keep, placed
    )
    n = grid_shape.size
    places = digit_cells(cand, n)
    done = placed_units(placed_units_, n)
    multi = sum(1 << c for c, m in enumerate(cand) if m & (m - 1))
    out = []
    for k in range(n):
        args = (grid_shape, places[k], done[k], places[k] & multi)
        out.append((one_digit.searched_conflicts(*args), one_digit.compiled_conflicts(*args)))
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.1, 0.7), placed=st.floats(0.0, 0.4))
def test_the_kernel_refutes_the_python_searchs_cells(seed, keep, placed):
    for python, compiled in _both(3, 3, seed, keep, placed):
        assert compiled == python


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_the_kernel_takes_every_size(box):
    refuted = 0
    for seed in range(6):
        for python, compiled in _both(*box, seed, 0.3, 0.1):
            assert compiled == python
            refuted += python != 0
    assert refuted  # (some branch fails: the comparison is not only between empty sets)
