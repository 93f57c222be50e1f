"""Which branch grids of a nested search can hold a static forcing chain, or a static cell
or region forcing chain (numba).

Level 2 of the nested chains (`nested`) looks for static forcing chains in every grid
its branches reach, and most of those grids hold none.  A static forcing chain of a
branch grid is a path of static links from a node to its negation (`static_kernel`).
Every link of a branch grid is a link of the search's start grid, except the strong
links of its new bivalue cells and of units where a digit has two places it had more
of (`branch_kernel.new_links`).  When no node of the start grid reaches its negation,
a chain of the branch grid must use a new link, so the node reaches the first new
link's tail in the start grid, and the negation is reached from that link's head in the
start grid with the new links added.  `failing` checks that bound from the start grid's
reach (`start_reach`, once per search); when no node of the branch grid passes, the grid
holds no static forcing chain and its analysis can be skipped, and otherwise only the
nodes that pass need following.

Level 3 looks for static cell and region forcing chains too (the agreements), where the
forcing chains add nothing.  Every fact a static branch of the branch grid reaches lies
in its seed's reach in the start grid joined with what each new link whose tail that
reach holds leads to; `may_agree` intersects those bounds over each cell's digits and
each unit's places of a digit, and where none holds a candidate fact besides the group,
the grid has no agreement.

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


@kernel(inline="always")
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
def links_of(cand, pos, placed, start_cand, start_pos, n, units, index):
    """(whether the branch grid's places agree with its candidates, the new links' tails,
    heads and count: `_new_links`), which `failing` and `may_agree` read."""
    most = 2 * (cand.shape[0] + placed.shape[0] * n)
    tails = np.empty(most, dtype=np.int64)
    heads = np.empty(most, dtype=np.int64)
    if not consistent(cand, pos, n, units):
        return False, tails, heads, 0
    count = _new_links(cand, pos, placed, start_cand, start_pos, n, units, index, tails, heads)
    return True, tails, heads, count


@kernel
def failing(cand, pos, placed, start_cand, start_pos, n, units, index, rows, back):
    """The nodes of the branch grid (`cand`, `pos`, `placed`; candidates of cells with two
    or more) that may reach their negation by static links (see the module's docstring;
    `index`, `rows` and `back` from `start_reach`, not empty): (whether the grid's places
    agree with its candidates, and if so those nodes as a row of words over the bound's
    numbers, a superset of the grid's failing nodes, which the static kernel then checks
    one by one, `static_kernel.chains_of`).  None there: the grid holds no static forcing
    chain.  A grid whose places disagree is left to the pure-Python route."""
    consistent_grid, tails, heads, count = links_of(
        cand, pos, placed, start_cand, start_pos, n, units, index
    )
    if not consistent_grid:
        return False, np.zeros(rows.shape[1], dtype=np.uint64)
    return True, failing_with(cand, n, index, rows, back, tails, heads, count, True)


@kernel
def failing_with(cand, n, index, rows, back, tails, heads, count, every):
    """`failing`'s nodes on a consistent grid whose new links are known (`links_of`); with
    `every` False, it stops at the first (enough to tell that one may fail)."""
    words = rows.shape[1]
    found = np.zeros(words, dtype=np.uint64)
    if count == 0:
        return found
    # the branch grid's nodes the bound looks at: both facts of each candidate of a cell
    # with two or more
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
        return found
    # what each link's head leads to: from the closed link graph when every link is
    # looked at, else link by link (most often the first few settle it)
    after = _link_graph(rows, tails, heads, count) if every else np.empty((0, 0), np.uint64)
    taken = np.empty(count, dtype=np.bool_)
    ahead = np.empty(words, dtype=np.uint64)
    for i in range(count):
        if not first[i]:
            continue
        # a node looked at that reaches the link's tail, and whose negation is reached
        # from the link's head (through later new links too)
        if every:
            _ahead(ahead, i, after, rows, heads)
        else:
            _reached(ahead, i, rows, tails, heads, count, taken)
        for w in range(words):
            found[w] |= back[tails[i], w] & alive[w] & ahead[(w + half) % words]
        if not every and found.any():
            break
    return found


@kernel
def _link_graph(rows, tails, heads, count):
    """The new links' graph, closed (Warshall): bit j of row i when link i's head reaches
    link j's tail in the start grid, directly or through other new links."""
    one = np.uint64(1)
    span = (count + 63) >> 6
    after = np.zeros((count, span), dtype=np.uint64)
    for i in range(count):
        head = heads[i]
        for j in range(count):
            tail = tails[j]
            if rows[head, tail >> 6] >> np.uint64(tail & 63) & one:
                after[i, j >> 6] |= one << np.uint64(j & 63)
    for k in range(count):
        word, bit = k >> 6, np.uint64(k & 63)
        for i in range(count):
            if after[i, word] >> bit & one:
                for v in range(span):
                    after[i, v] |= after[k, v]
    return after


@kernel
def _ahead(out, i, after, rows, heads):
    """Into `out`: what new link i's head reaches in the start grid, through later new
    links too (`after` from `_link_graph`)."""
    one = np.uint64(1)
    for w in range(rows.shape[1]):
        out[w] = rows[heads[i], w]
    for v in range(after.shape[1]):
        later = after[i, v]
        while later:
            j = 64 * v + np.int64(trailing_zeros(later))
            later &= later - one
            for w in range(rows.shape[1]):
                out[w] |= rows[heads[j], w]


@kernel
def _reached(out, i, rows, tails, heads, count, taken):
    """`_ahead` without the link graph: into `out`, what new link i's head reaches in the
    start grid, taking in each new link whose tail that holds until none is left."""
    one = np.uint64(1)
    for w in range(rows.shape[1]):
        out[w] = rows[heads[i], w]
    taken[:] = False
    grew = True
    while grew:
        grew = False
        for j in range(count):
            tail = tails[j]
            if taken[j] or not out[tail >> 6] >> np.uint64(tail & 63) & one:
                continue
            taken[j] = True
            grew = True
            for w in range(rows.shape[1]):
                out[w] |= rows[heads[j], w]


@kernel
def may_agree(cand, pos, placed, start_cand, start_pos, n, units, index, rows):
    """Whether the branch grid may hold a static cell or region forcing chain (level 3's
    agreements: the static branches of a cell's digits, or of a digit's places in a unit,
    all reaching one candidate fact): False only when none can (`index` and `rows` from
    `start_reach`, not empty).  A static branch of the branch grid takes links of the
    start grid and new strong links (`_new_links`), so what it reaches lies in the start
    grid's reach of its seed joined with what each new link it meets leads to
    (`_ahead`); where no group's bound holds a common fact besides the group, there is
    no agreement.  True for a grid the static kernel leaves to the pure-Python route."""
    consistent_grid, tails, heads, count = links_of(
        cand, pos, placed, start_cand, start_pos, n, units, index
    )
    if not consistent_grid:
        return True
    return agrees_with(cand, pos, placed, n, units, index, rows, tails, heads, count)


@kernel
def agrees_with(cand, pos, placed, n, units, index, rows, tails, heads, count):
    """`may_agree` on a consistent grid whose new links are known (`links_of`)."""
    after = _link_graph(rows, tails, heads, count)
    words = rows.shape[1]
    ahead = np.empty((count, words), dtype=np.uint64)
    for i in range(count):
        _ahead(ahead[i], i, after, rows, heads)
    one = np.uint64(1)
    off_base = cand.shape[0] * n
    # the facts an agreement may conclude: an on fact of a cell with other digits, an off
    # fact of a candidate
    wanted = np.zeros(words, dtype=np.uint64)
    for cell in range(cand.shape[0]):
        m = cand[cell]
        several = popcount(m) > 1
        while m:
            x = cell * n + trailing_zeros(m)
            m &= m - 1
            y = index[off_base + x]
            wanted[y >> 6] |= one << np.uint64(y & 63)
            if several:
                y = index[x]
                wanted[y >> 6] |= one << np.uint64(y & 63)
    # per on node, its bound (made when a group first needs it)
    bound = np.empty((rows.shape[0], words), dtype=np.uint64)
    made = np.zeros(rows.shape[0], dtype=np.bool_)
    # the groups `static_kernel._agreements` looks at, one after another in `nodes`: each
    # cell with three digits or more, and each digit's places in a unit where it has two
    # or more, the first in such a cell
    nodes = np.empty(cand.shape[0] * n + placed.shape[0] * n * n, dtype=np.int64)
    ends = np.empty(cand.shape[0] + placed.shape[0] * n, dtype=np.int64)
    size = groups = 0
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) < 3:
            continue
        while m:
            nodes[size] = index[cell * n + trailing_zeros(m)]
            m &= m - 1
            size += 1
        ends[groups] = size
        groups += 1
    for u in range(units.shape[0]):
        for k in range(n):
            p = pos[u * n + k]
            if not p & (p - 1) or popcount(cand[units[u, trailing_zeros(p)]]) < 3:
                continue
            while p:
                nodes[size] = index[units[u, trailing_zeros(p)] * n + k]
                p &= p - 1
                size += 1
            ends[groups] = size
            groups += 1
    common = np.empty(words, dtype=np.uint64)
    start = 0
    for g in range(groups):
        common[:] = wanted
        for j in range(start, ends[g]):
            x = nodes[j]
            common[x >> 6] &= ~(one << np.uint64(x & 63))
        for j in range(start, ends[g]):
            x = nodes[j]
            if not made[x]:
                _bound_of(bound[x], x, rows, tails, ahead, count)
                made[x] = True
            left = np.uint64(0)
            for w in range(words):
                common[w] &= bound[x, w]
                left |= common[w]
            if not left:
                break
        else:
            return True
        start = ends[g]
    return False


@kernel
def _bound_of(out, x, rows, tails, ahead, count):
    """Into `out`: node `x`'s reach in the start grid joined with what every new link whose
    tail it reaches leads to."""
    for w in range(rows.shape[1]):
        out[w] = rows[x, w]
    for i in range(count):
        if _bit(rows, x, tails[i]):
            for w in range(rows.shape[1]):
                out[w] |= ahead[i, w]
