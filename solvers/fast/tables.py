"""Geometry of a box shape as NumPy arrays, the form the compiled kernels read.

`solvers.grid.Shape` holds units and peers as Python tuples; the kernels
need them as contiguous integer arrays.  Built once per shape and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from solvers.grid import shape as grid_shape

MAX_SIZE = 25
"""The largest side the kernels handle: candidate sets are bitmasks in 32 bits."""


@dataclass(frozen=True)
class Tables:
    """Peers (ncells x peers per cell) and units (3N x N) of one box shape."""

    box_rows: int
    box_cols: int
    peers: np.ndarray
    units: np.ndarray

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols


@cache
def tables(box_rows: int, box_cols: int) -> Tables:
    """The arrays for a box shape (read-only, shared)."""
    shape = grid_shape(box_rows, box_cols)
    if shape.size > MAX_SIZE:
        raise ValueError(
            f"the fast kernels take grids up to {MAX_SIZE}x{MAX_SIZE}, not {shape.size}"
        )
    peers = np.array(shape.peers, dtype=np.int32)
    units = np.array(shape.units, dtype=np.int32)
    peers.setflags(write=False)
    units.setflags(write=False)
    return Tables(box_rows, box_cols, peers, units)
