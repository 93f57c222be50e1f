"""Nishio's one-digit branches compiled (numba; imported only when numba is installed).

`conflicting_cells` is `one_digit.conflicting_cells`' search on rows of 64-bit words over
the cells (bit ``cell & 63`` of word ``cell >> 6``): the same branches, followed in the
same order, so the same cells come out.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, popcount
from solvers.grid import Shape


@cache
def geometry(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each unit's cells as a row of words, each cell's units (row, column, box), and each
    cell's peers as a row."""
    words = (shape.ncells + 63) >> 6
    one = np.uint64(1)
    units = np.zeros((len(shape.units), words), dtype=np.uint64)
    for u, cells in enumerate(shape.units):
        for c in cells:
            units[u, c >> 6] |= one << np.uint64(c & 63)
    peers = np.zeros((shape.ncells, words), dtype=np.uint64)
    for cell, ps in enumerate(shape.peers):
        for p in ps:
            peers[cell, p >> 6] |= one << np.uint64(p & 63)
    return units, np.array(shape.cell_units, dtype=np.int64), peers


@kernel(inline="always")
def _has(row, cell):
    return (row[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1)


@kernel
def _on_cells(cell, places, placed, units, cell_units, peers, left, on, fresh, pending, seen):
    """`one_digit._on_cells`: False when the branch of on(cell, d) reaches a
    contradiction, else True with the cells it puts d on in `on` (`left`, `fresh`,
    `pending`, `seen`: scratch)."""
    words = places.shape[0]
    one = np.uint64(1)
    left[:] = places
    on[:] = 0
    pending[0] = cell
    count = 1
    while count:
        fresh[:] = 0
        for i in range(count):
            c = pending[i]
            if _has(on, c):
                continue
            if not _has(left, c):
                return False  # on and off
            on[c >> 6] |= one << np.uint64(c & 63)
            for v in range(words):
                if on[v] & peers[c, v] & left[v]:
                    return False
            for v in range(words):
                pm = peers[c, v] & left[v]
                left[v] ^= pm
                fresh[v] |= pm
        count = 0
        seen[:] = placed
        for w in range(words):
            b = fresh[w]
            while b:
                c = 64 * w + np.int64(trailing_zeros(b))
                b &= b - one
                for t in range(cell_units.shape[1]):
                    u = cell_units[c, t]
                    if seen[u]:
                        continue
                    seen[u] = True
                    met = False
                    places_left = 0
                    last = -1
                    for v in range(words):
                        if on[v] & units[u, v]:
                            met = True
                            break
                        p = left[v] & units[u, v]
                        if p:
                            places_left += popcount(p)
                            last = 64 * v + np.int64(trailing_zeros(p))
                    if met:
                        continue
                    if not places_left:
                        return False  # no place left for the digit
                    if places_left == 1:
                        pending[count] = last
                        count += 1
    return True


@kernel
def conflicting_cells(places, placed, cells, units, cell_units, peers):
    """Of `cells`, those whose nishio branch reaches a contradiction, as a row of words:
    `places` the digit's cells, `placed` per unit whether the digit is placed there."""
    words = places.shape[0]
    ncells = peers.shape[0]
    left = np.empty(words, dtype=np.uint64)
    on = np.empty(words, dtype=np.uint64)
    fresh = np.empty(words, dtype=np.uint64)
    pending = np.empty(cell_units.shape[1] * ncells + 1, dtype=np.int64)
    seen = np.empty(placed.shape[0], dtype=np.bool_)
    safe = np.zeros(words, dtype=np.uint64)
    bad = np.zeros(words, dtype=np.uint64)
    one = np.uint64(1)
    for w in range(words):
        b = cells[w]
        while b:
            c = 64 * w + np.int64(trailing_zeros(b))
            b &= b - one
            if _has(safe, c):
                continue
            scratch = (left, on, fresh, pending, seen)
            if _on_cells(c, places, placed, units, cell_units, peers, *scratch):
                for v in range(words):
                    safe[v] |= on[v]
            else:
                bad[w] |= one << np.uint64(c & 63)
    return bad
