"""HoDoKu's naked subsets found compiled (numba; imported only when numba is installed).

The HoDoKu-order pass asks for naked pairs, triples, quads and locked subsets at nearly
every step, and mostly finds none: in Python each ask lists every unit's small cells and
tries their combinations.  `naked_sets` does that scan in one call and returns each set of
k cells holding k digits between them that clears some candidate of a unit they share
(the others are no step), in the Python scan's order (`hodoku_finders._naked`: units in
the order given, combinations as `itertools.combinations` makes them); the Python side
keeps the first one that is a step of the kind asked for.
"""

from __future__ import annotations

import numpy as np

from solvers.fast.kernels import kernel, next_combination


@kernel
def _count(m) -> int:
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@kernel
def naked_sets(cand, units, cell_units, order, k, out) -> int:
    """Rows of `out` (unit, k cells, then their digit mask) for each set of k cells of one
    unit holding k digits and clearing something, units in `order`; how many, or -1 when
    `out` has too few rows (the caller asks again with more)."""
    small = np.empty(units.shape[1], dtype=np.int64)
    index = np.empty(k, dtype=np.int64)
    size = 0
    for u in order:
        count = 0
        for c in units[u]:
            if cand[c] and _count(cand[c]) <= k:
                small[count] = c
                count += 1
        if count < k:
            continue
        for i in range(k):
            index[i] = i
        while True:
            m = 0
            for i in range(k):
                m |= cand[small[index[i]]]
            if _count(m) == k and _clears(cand, units, cell_units, small, index, m):
                if size == out.shape[0]:
                    return -1
                out[size, 0] = u
                for i in range(k):
                    out[size, 1 + i] = small[index[i]]
                out[size, 1 + k] = m
                size += 1
            if not next_combination(index, index.shape[0], count):
                break
    return size


@kernel
def _clears(cand, units, cell_units, small, index, m) -> bool:
    """Whether some cell outside the set, in a unit of all its cells, has a digit of m."""
    k = index.shape[0]
    first = small[index[0]]
    for j in range(cell_units.shape[1]):
        u = cell_units[first, j]
        shared = True
        for i in range(1, k):
            c = small[index[i]]
            if not _has(cell_units, c, u):
                shared = False
                break
        if not shared:
            continue
        for x in units[u]:
            if cand[x] & m and not _inside(x, small, index):
                return True
    return False


@kernel
def _inside(x, small, index) -> bool:
    """Whether cell x is in the set."""
    for i in range(index.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if small[index[i]] == x:
            return True
    return False


@kernel
def _has(cell_units, c, u) -> bool:
    """Whether unit u is one of cell c's."""
    for j in range(cell_units.shape[1]):  # noqa: SIM110 (numba compiles no generator)
        if cell_units[c, j] == u:
            return True
    return False
