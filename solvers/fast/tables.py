"""Geometry of a box shape as NumPy arrays, the form the compiled kernels read.

`solvers.grid.Shape` holds units and peers as Python tuples; the kernels
need them as contiguous integer arrays.  Built once per shape and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from solvers.grid import shape as grid_shape

MAX_SIZE = 25
"""The largest side the kernels handle: candidate sets are bitmasks in 32 bits."""

INTERSECTIONS_FROM = 16
"""The smallest side where the intersection level pays for itself by default.

The level adds the intersection rule and scores bivalue cells by reach (see
`kernels._choose`).  From 16x16 up it cuts the guesses at about the same
time; at 12x12 it saves guesses but not time; at 9x9 it costs time and saves
no guesses against the pair-peer branching of the level below, so 9x9 uses
the `BANDS` level instead (see `rules`): the rule with tdoku's branching.
``python -m harness.bench.fast_ab`` measures it; the docs' benchmarks page
has the figures.
"""


def rules(size: int, locked: bool = True, intersections: bool | str | None = None) -> int:
    """The kernels' inference level: singles, + locked candidates, + intersections.

    The levels are `kernels.SINGLES`, `LOCKED` and `INTERSECTIONS` (0, 1, 2);
    each adds to the one before, so no locked candidates means singles only.
    ``"bands"`` is tdoku's method at 9x9 (`kernels.BANDS`, 3: the intersection
    rule, and branching on a digit's two placements in a band or stack; see
    `kernels9._band_choice`), the intersection level elsewhere.
    `intersections` None picks the measured default for the grid's side:
    ``"bands"`` at 9x9, the intersection level from `INTERSECTIONS_FROM`.
    """
    if not locked:
        return 0
    if intersections is None:
        intersections = "bands" if size == 9 else size >= INTERSECTIONS_FROM
    if intersections == "bands":
        return 3 if size == 9 else 2
    return 2 if intersections else 1


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

    @cached_property
    def bitboard_peers(self) -> np.ndarray:
        """For 9x9: each cell's peers as bits of the three band words (see `kernels9`)."""
        if (self.box_rows, self.box_cols) != (3, 3):
            raise ValueError("band bitboards exist for 3x3 boxes only")
        from solvers.fast.kernels9 import peer_masks

        masks = peer_masks()
        masks.setflags(write=False)
        return masks


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
