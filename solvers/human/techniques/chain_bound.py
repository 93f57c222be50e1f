"""Which branch grids of a nested search can hold a static forcing chain (numba).

Level 2 of the nested chains (`nested`) looks for static forcing chains in every grid
its branches reach, and most of those grids hold none.  A static forcing chain of a
branch grid is a path of static links from a node to its negation (`static_kernel`).
Every link of a branch grid is a link of the search's start grid, except the strong
links of its new bivalue cells and of units where a digit has two places it had more
of (`branch_kernel.new_links`).  When no node of the start grid reaches its negation,
a chain of the branch grid must use a new link, so the node reaches the first new
link's tail in the start grid, and the negation is reached from that link's head in the
start grid with the new links added.  `may_fail` checks that bound from the start
grid's reach (`start_reach`, once per search); when no node of the branch grid passes,
the grid holds no static forcing chain and its analysis can be skipped.

Nodes are numbered as in `static_kernel` (the start grid's candidates, on facts then off
facts), except that the off facts begin on a word boundary, so that swapping the two
halves of a row of words turns every node into its negation.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, popcount
from solvers.human.techniques.static_kernel import consistent, static_reach


@kernel
def start_reach(cand, pos, placed, n, units, cell_units, peers):
    """The start grid's reach in the bound's numbering: (per full node its number, -1 for
    none; per number its reach as a row of words; per number the nodes that reach it, as
    a row of words), or empty arrays when a node of the start grid reaches its negation
    (then the bound does not hold)."""
    comp, ncand, reach = static_reach(cand, pos, placed, n, units, cell_units, peers)
    half = (ncand + 63) >> 6
    none = (
        np.empty(0, dtype=np.int64),
        np.empty((0, 0), dtype=np.uint64),
        np.empty((0, 0), dtype=np.uint64),
    )
    for i in range(ncand):
        if _bit(reach, i, ncand + i) or _bit(reach, ncand + i, i):
            return none
    rows = np.zeros((2 * 64 * half, 2 * half), dtype=np.uint64)
    back = np.zeros((2 * 64 * half, 2 * half), dtype=np.uint64)
    index = np.full(comp.shape[0], -1, dtype=np.int64)
    one = np.uint64(1)
    for x in range(comp.shape[0]):
        c = comp[x]
        if c < 0:
            continue
        to = _padded(c, ncand, half)
        index[x] = to
        for w in range(reach.shape[1]):
            bits = reach[c, w]
            while bits:
                z = _padded(64 * w + np.int64(trailing_zeros(bits)), ncand, half)
                bits &= bits - one
                rows[to, z >> 6] |= one << np.uint64(z & 63)
                back[z, to >> 6] |= one << np.uint64(to & 63)
    return index, rows, back


@kernel
def _padded(c, ncand, half):
    return c if c < ncand else c - ncand + 64 * half


@kernel
def _bit(rows, x, y):
    return (rows[x, y >> 6] >> np.uint64(y & 63)) & np.uint64(1) != 0


@kernel
def _new_links(cand, pos, placed, start_cand, start_pos, n, units, index, tails, heads):
    """The branch grid's strong links the start grid lacks, as bound numbers: each from
    ``tails[i]`` (an off fact) to ``heads[i]`` (an on fact); how many."""
    off_base = cand.shape[0] * n
    count = 0
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) != 2 or start_cand[cell] == m:
            continue
        a = cell * n + trailing_zeros(m)
        b = cell * n + trailing_zeros(m & (m - 1))
        tails[count] = index[off_base + a]
        heads[count] = index[b]
        tails[count + 1] = index[off_base + b]
        heads[count + 1] = index[a]
        count += 2
    for u in range(placed.shape[0]):
        for k in range(n):
            p = pos[u * n + k]
            if popcount(p) != 2 or start_pos[u * n + k] == p or (placed[u] >> k) & 1:
                continue
            a = units[u, trailing_zeros(p)] * n + k
            b = units[u, trailing_zeros(p & (p - 1))] * n + k
            tails[count] = index[off_base + a]
            heads[count] = index[b]
            tails[count + 1] = index[off_base + b]
            heads[count + 1] = index[a]
            count += 2
    return count


@kernel
def may_fail(cand, pos, placed, start_cand, start_pos, n, units, index, rows, back):
    """Whether a node of the branch grid (`cand`, `pos`, `placed`; a candidate of a cell
    with two or more) may reach its negation by static links: False only when none can
    (see the module's docstring; `index`, `rows` and `back` from `start_reach`, not
    empty).  True for a grid the static kernel leaves to the pure-Python route."""
    if not consistent(cand, pos, n, units):
        return True
    most = 2 * (cand.shape[0] + placed.shape[0] * n)
    tails = np.empty(most, dtype=np.int64)
    heads = np.empty(most, dtype=np.int64)
    count = _new_links(cand, pos, placed, start_cand, start_pos, n, units, index, tails, heads)
    if count == 0:
        return False
    # the branch grid's nodes the bound looks at: both facts of each candidate of a cell
    # with two or more
    words = rows.shape[1]
    half = words // 2
    one = np.uint64(1)
    alive = np.zeros(words, dtype=np.uint64)
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) < 2:
            continue
        while m:
            x = index[cell * n + trailing_zeros(m)]
            m &= m - 1
            alive[x >> 6] |= one << np.uint64(x & 63)
            alive[(x >> 6) + half] |= one << np.uint64(x & 63)
    # the links a node looked at reaches in the start grid (a path's first new link)
    first = np.zeros(count, dtype=np.bool_)
    for i in range(count):
        for w in range(words):
            if back[tails[i], w] & alive[w]:
                first[i] = True
                break
    if not first.any():
        return False
    # the links' graph: bit j of row i of `after` when link i's head reaches link j's
    # tail, then closed (Warshall), so that it lists every new link a path from link i's
    # head may take
    span = (count + 63) >> 6
    after = np.zeros((count, span), dtype=np.uint64)
    for i in range(count):
        for j in range(count):
            if _bit(rows, heads[i], tails[j]):
                after[i, j >> 6] |= one << np.uint64(j & 63)
    for k in range(count):
        for i in range(count):
            if _bit(after, i, k):
                for v in range(span):
                    after[i, v] |= after[k, v]
    ahead = np.empty(words, dtype=np.uint64)
    for i in range(count):
        if not first[i]:
            continue
        # a node looked at that reaches the link's tail, and whose negation is reached
        # from the link's head (through later new links too)
        for w in range(words):
            ahead[w] = rows[heads[i], w]
        for v in range(span):
            later = after[i, v]
            while later:
                j = 64 * v + np.int64(trailing_zeros(later))
                later &= later - one
                for w in range(words):
                    ahead[w] |= rows[heads[j], w]
        for w in range(words):
            if back[tails[i], w] & alive[w] & ahead[(w + half) % words]:
                return True
    return False
