"""Forcing X-chains compiled (numba; imported only when numba is installed).

`digit_best` is `x_forcing._digit_best`'s search on rows of 64-bit words over the cells
(bit ``cell & 63`` of word ``cell >> 6``): per start cell of the digit, assumed on and
then off, a breadth-first search a layer at a time, each layer's cells as one row,
cut at the best chain found so far.  The strong links are read from the units'
positions of the digit, as `wings.strong_links` reads them.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, popcount
from solvers.grid import Shape
from solvers.human.techniques.one_digit_kernel import geometry as row_geometry
from solvers.human.techniques.static_kernel import geometry as static_geometry

NO_BOUND = 1 << 30


@cache
def geometry(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Each unit's cells, and each cell's peers as a row of words over the cells."""
    return static_geometry(shape)[0], row_geometry(shape)[2]


@kernel(inline="always")
def _length(start, on, with_d, peers, partners, bound, seen, frontier, nxt):
    """`x_forcing._length`: the candidates of the shortest chain from (start, on) to
    (start, not on), or -1 when there is none shorter than `bound` (`seen`, `frontier`,
    `nxt`: scratch rows)."""
    words = with_d.shape[0]
    one = np.uint64(1)
    seen[:, :] = 0
    frontier[:] = 0
    at = start >> 6
    bit = one << np.uint64(start & 63)
    seen[1 if on else 0, at] = bit
    frontier[at] = bit
    state = on
    nodes = 1
    while nodes + 1 < bound and frontier.any():
        nxt[:] = 0
        for w in range(words):
            b = frontier[w]
            while b:
                c = 64 * w + np.int64(trailing_zeros(b))
                b &= b - one
                if state:
                    for v in range(words):
                        nxt[v] |= peers[c, v]
                else:
                    for v in range(words):
                        nxt[v] |= partners[c, v]
        if state:
            for v in range(words):
                nxt[v] &= with_d[v]
        state = not state
        nodes += 1
        if state != on and nxt[at] & bit:
            return nodes
        side = 1 if state else 0
        for v in range(words):
            f = nxt[v] & ~seen[side, v]
            frontier[v] = f
            seen[side, v] |= f
    return -1


@kernel
def digit_best(with_d, k, pos, units, peers):
    """(candidates, start, on) of the shortest forcing X-chain of digit ``k + 1`` (the
    lowest start, assumed on first, on a tie), candidates -1 for none: `with_d` the
    digit's cells as a row of words, `pos` the units' positions per unit and digit
    (``unit * n + k``), `units` their cells, `peers` each cell's peers as a row."""
    ncells, words = peers.shape
    n = units.shape[1]
    one = np.uint64(1)
    partners = np.zeros((ncells, words), dtype=np.uint64)
    linked = np.zeros(ncells, dtype=np.bool_)
    links = 0
    for u in range(units.shape[0]):
        p = pos[u * n + k]
        if popcount(p) == 2:
            a = units[u, trailing_zeros(p)]
            b = units[u, trailing_zeros(p & (p - 1))]
            partners[a, b >> 6] |= one << np.uint64(b & 63)
            partners[b, a >> 6] |= one << np.uint64(a & 63)
            linked[a] = True
            linked[b] = True
            links += 1
    best = -1
    best_start = -1
    best_on = False
    if not links:
        return best, best_start, best_on
    seen = np.zeros((2, words), dtype=np.uint64)
    frontier = np.zeros(words, dtype=np.uint64)
    nxt = np.zeros(words, dtype=np.uint64)
    for w in range(words):
        cells = with_d[w]
        while cells:
            start = 64 * w + np.int64(trailing_zeros(cells))
            cells &= cells - one
            for side in range(2):
                on = side == 0
                if not on and not linked[start]:
                    continue  # off leads nowhere without a strong link
                bound = best if best >= 0 else NO_BOUND
                nodes = _length(start, on, with_d, peers, partners, bound, seen, frontier, nxt)
                if nodes >= 0:
                    best = nodes
                    best_start = start
                    best_on = on
    return best, best_start, best_on
