"""The static forcing chains of a nested branch's grid, compiled (numba).

A nested forcing chain (`nested`) meets thousands of branch grids per step, and on each
looks for static forcing chains (level 2) and static cell and unit chains (level 3).  The
pure-Python route builds a `StaticGraph` (the reach of every node as a big integer) and
walks breadth first from the nodes it needs; this module does the same on arrays, in one
call per grid, and hands back only what the hints are made of:

- the nodes get compact numbers, on facts of the candidates first (cell by cell, digit by
  digit), then their off facts in the same order, so ascending numbers are ascending
  nodes;
- every node's reach is a row of 64-bit words: Tarjan's algorithm, iteratively, gives
  the strongly connected components in reverse topological order, each one's reach its
  members and the reach of the components its links enter; a node fails when its reach
  holds its negation.  The links it walks are rows too (per on fact the off facts it
  forces, from rows per cell, unit and digit), with per off fact its few on targets:
  most off facts force nothing and are taken a row at a time;
- level 2 (`chains`): per failed node, cell by cell and digit by digit, on before off,
  Sudoku Explainer's breadth-first chain to the negation (`nested._se_chain`'s order:
  the bivalue partner first, then the units box, row, column; from an on fact the cell's
  other digits, then the peers in `se_tables` order), and when that chain has several
  digits the chain on the seed's digit alone;
- level 3 (`agreements`): the groups `nested.static_agreements` tries, in its order (a
  cell with three digits or more, then per digit the units, box, row, column, whose
  first place it is), whose branches are all clean with a fact in common; per target
  with something to remove, per node its breadth-first path (`static_branch`'s first
  discoverer) over the links as an adjacency array (`StaticGraph.successors`, in its
  order), made only for a grid with an agreement.

Each level comes back as flat arrays (per record a head, and its paths in one array; see
`_chains`, `_agreements` and `Found`), so a grid costs three small conversions in and a
few out; `nested` builds the hints from the heads and reads a hint's singles from its
paths only when it is applied.  Paths run from the seed to the goal, as node numbers
(``cell * n + k``, plus ``ncells * n`` for off).

When a grid is not one the kernel vouches for (a unit's place without the candidate, a
static branch of a group ending in a contradiction), it returns `FALLBACK` and the caller
takes the pure-Python route, so the hints are the same either way.  Grids above 16x16
(`MAX_SIZE`) are left to that route too: the reach rows grow with the square of the
candidates.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from solvers.fast.kernels import kernel, popcount
from solvers.grid import Shape
from solvers.human.techniques.branches import se_tables

MAX_SIZE = 16  # the largest grid side the kernel takes

OK = 0
FALLBACK = 1  # a grid the kernel leaves to the pure-Python route

# kinds of chain records
Y_CHAIN = 0  # Sudoku Explainer's chain, through several digits (7.0)
X_ALONE = 1  # its chain, on one digit (6.6)
X_CHAIN = 2  # the chain on the seed's digit alone, after a Y_CHAIN (6.6)

# kinds of agreement records
CELL = 0
UNIT = 1


@cache
def geometry(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The shape as arrays: each unit's cells; each cell's units (row, column, box); its
    peers ascending; its peers in Sudoku Explainer's order (`se_tables`), both padded
    with -1."""
    units = np.array(shape.units, dtype=np.int64)
    cell_units = np.array(shape.cell_units, dtype=np.int64)
    return units, cell_units, _padded(shape.peers), _padded(se_tables(shape)[0])


def _padded(rows: tuple[tuple[int, ...], ...]) -> np.ndarray:
    width = max(len(r) for r in rows)
    out = np.full((len(rows), width), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


@kernel
def _bit_length(x):
    return 64 - leading_zeros(x)


@kernel
def _reserve(buf, size, extra):
    """`buf` with room for `extra` more values after `size` (grown by doubling)."""
    if size + extra <= buf.shape[0]:
        return buf
    cap = buf.shape[0] * 2
    while cap < size + extra:
        cap *= 2
    bigger = np.empty(cap, dtype=buf.dtype)
    bigger[:size] = buf[:size]
    return bigger


@kernel
def consistent(cand, pos, n, units):
    """Whether every place a unit lists for a digit is a candidate of its cell."""
    for u in range(units.shape[0]):
        for k in range(n):
            p = pos[u * n + k]
            while p:
                if not (cand[units[u, trailing_zeros(p)]] >> k) & 1:
                    return False
                p &= p - 1
    return True


@kernel
def _numbering(cand, n):
    """Compact numbers: per node its number (-1 for none), per number its node."""
    ncells = cand.shape[0]
    off_base = ncells * n
    ncand = 0
    for cell in range(ncells):
        ncand += popcount(cand[cell])
    comp = np.full(2 * off_base, -1, dtype=np.int64)
    node_of = np.empty(2 * ncand, dtype=np.int64)
    i = 0
    for cell in range(ncells):
        m = cand[cell]
        while m:
            x = cell * n + trailing_zeros(m)
            m &= m - 1
            comp[x] = i
            comp[off_base + x] = ncand + i
            node_of[i] = x
            node_of[ncand + i] = off_base + x
            i += 1
    return comp, node_of, ncand


@kernel
def _weak_rows(cand, n, units, cell_units, node_of, ncand):
    """Per on node (compact number i), the off facts its links force, as a row of words
    over the candidates (bit j: off node ``ncand + j``): its cell's other digits and its
    digit's places among its peers, from rows per cell, unit and digit."""
    words = (ncand + 63) >> 6
    one = np.uint64(1)
    cell_rows = np.zeros((cand.shape[0], words), dtype=np.uint64)
    digit_rows = np.zeros((n, words), dtype=np.uint64)
    for i in range(ncand):
        cell = node_of[i] // n
        bit = one << np.uint64(i & 63)
        cell_rows[cell, i >> 6] |= bit
        digit_rows[node_of[i] - cell * n, i >> 6] |= bit
    unit_rows = np.zeros((units.shape[0], words), dtype=np.uint64)
    for u in range(units.shape[0]):
        for c in units[u]:
            for w in range(words):
                unit_rows[u, w] |= cell_rows[c, w]
    weak = np.empty((ncand, words), dtype=np.uint64)
    for i in range(ncand):
        cell = node_of[i] // n
        k = node_of[i] - cell * n
        a, b, c = cell_units[cell, 0], cell_units[cell, 1], cell_units[cell, 2]
        for w in range(words):
            weak[i, w] = (unit_rows[a, w] | unit_rows[b, w] | unit_rows[c, w]) & digit_rows[
                k, w
            ] | cell_rows[cell, w]
        weak[i, i >> 6] &= ~(one << np.uint64(i & 63))
    return weak


@kernel
def _strong_targets(cand, pos, placed, n, units, cell_units, node_of, comp, ncand):
    """Per off node (by its candidate's compact number i), the on nodes its links force
    (compact numbers, in `StaticGraph.successors` order): ``targets[i, :count[i]]``."""
    targets = np.empty((ncand, 4), dtype=np.int64)
    count = np.zeros(ncand, dtype=np.int64)
    for i in range(ncand):
        cell = node_of[i] // n
        k = node_of[i] - cell * n
        m = cand[cell]
        e = 0
        if popcount(m) == 2:
            targets[i, e] = comp[cell * n + trailing_zeros(m & ~(1 << k))]
            e += 1
        for t in range(3):
            u = cell_units[cell, t]
            p = pos[u * n + k]
            if popcount(p) != 2 or (placed[u] >> k) & 1:
                continue
            a = units[u, trailing_zeros(p)]
            b = units[u, _bit_length(p) - 1]
            if cell == a:
                targets[i, e] = comp[b * n + k]
                e += 1
            elif cell == b:
                targets[i, e] = comp[a * n + k]
                e += 1
        count[i] = e
    return targets, count


@kernel
def _link_rows(cand, pos, placed, n, units, cell_units, comp, node_of, ncand):
    """The static links as `_reach_rows` and `_advance` read them: (`_weak_rows`, then
    `_strong_targets`' targets and counts)."""
    weak = _weak_rows(cand, n, units, cell_units, node_of, ncand)
    targets, count = _strong_targets(cand, pos, placed, n, units, cell_units, node_of, comp, ncand)
    return weak, targets, count


@kernel
def _reach_rows(weak, targets, count, ncand):
    """Per compact node, every node its links reach (itself included), as rows of 64-bit
    words: Tarjan's algorithm, iteratively; a component's reach is its members and the
    reach of the components its links enter, all known when it completes.  The links
    come as each on node's off facts in a row (`_weak_rows`) and each off node's few on
    targets (`_strong_targets`), not as lists: most off nodes force nothing (sinks, whose
    reach is their own bit), the search walks the others alone, and a component takes
    its members' off facts a row at a time."""
    total = 2 * ncand
    words = (total + 63) >> 6
    one = np.uint64(1)
    half = weak.shape[1]
    shift_words = ncand >> 6
    shift_bits = np.uint64(ncand & 63)
    live = np.zeros(half, dtype=np.uint64)  # off nodes with targets, by candidate
    for i in range(ncand):
        if count[i]:
            live[i >> 6] |= one << np.uint64(i & 63)
    sink = np.empty(total, dtype=np.bool_)
    reach = np.zeros((total, words), dtype=np.uint64)
    for i in range(ncand):
        forces = np.uint64(0)
        for q in range(half):
            forces |= weak[i, q]
        sink[i] = forces == 0
        sink[ncand + i] = count[i] == 0
    for x in range(total):
        if sink[x]:
            reach[x, x >> 6] = one << np.uint64(x & 63)
    index = np.full(total, -1, dtype=np.int64)
    low = np.zeros(total, dtype=np.int64)
    onstack = np.zeros(total, dtype=np.bool_)
    stack = np.empty(total, dtype=np.int64)
    work = np.empty(total, dtype=np.int64)
    # per node on the work stack, the successors still to visit: for an on node the
    # live off nodes left (a row), for an off node the next target's place
    pending = np.empty((total, half), dtype=np.uint64)
    edge = np.zeros(total, dtype=np.int64)
    acc = np.empty(words, dtype=np.uint64)
    counter = 0
    sp = 0
    for root in range(total):
        if index[root] >= 0 or sink[root]:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        onstack[root] = True
        work[0] = root
        if root < ncand:
            for q in range(half):
                pending[0, q] = weak[root, q] & live[q]
        else:
            edge[0] = 0
        wp = 1
        while wp:
            v = work[wp - 1]
            pushed = False
            while True:
                w = -1
                if v < ncand:
                    for q in range(half):
                        bits = pending[wp - 1, q]
                        if bits:
                            pending[wp - 1, q] = bits & (bits - one)
                            w = ncand + q * 64 + np.int64(trailing_zeros(bits))
                            break
                else:
                    e = edge[wp - 1]
                    if e < count[v - ncand]:
                        w = targets[v - ncand, e]
                        edge[wp - 1] = e + 1
                if w < 0:
                    break
                if sink[w]:
                    continue
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    onstack[w] = True
                    work[wp] = w
                    if w < ncand:
                        for q in range(half):
                            pending[wp, q] = weak[w, q] & live[q]
                    else:
                        edge[wp] = 0
                    wp += 1
                    pushed = True
                    break
                if onstack[w] and index[w] < low[v]:
                    low[v] = index[w]
            if pushed:
                continue
            wp -= 1
            if wp and low[v] < low[work[wp - 1]]:
                low[work[wp - 1]] = low[v]
            if low[v] != index[v]:
                continue
            top = sp
            while True:
                sp -= 1
                if stack[sp] == v:
                    break
            acc[:] = 0
            for s in range(sp, top):
                w = stack[s]
                onstack[w] = False
                acc[w >> 6] |= one << np.uint64(w & 63)
                if w < ncand:
                    # every off fact, sinks included: the row shifted past the on nodes
                    for q in range(half):
                        bits = weak[w, q]
                        if bits:
                            acc[q + shift_words] |= bits << shift_bits
                            if shift_bits and q + shift_words + 1 < words:
                                acc[q + shift_words + 1] |= bits >> (np.uint64(64) - shift_bits)
                    for q in range(half):
                        bits = weak[w, q] & live[q]
                        while bits:
                            x = ncand + q * 64 + np.int64(trailing_zeros(bits))
                            bits &= bits - one
                            for f in range(words):  # a member's row is still 0
                                acc[f] |= reach[x, f]
                else:
                    for e in range(count[w - ncand]):
                        x = targets[w - ncand, e]
                        if sink[x]:
                            acc[x >> 6] |= one << np.uint64(x & 63)
                            continue
                        for f in range(words):
                            acc[f] |= reach[x, f]
            for s in range(sp, top):
                reach[stack[s], :] = acc
    return reach


@kernel
def _has(reach, x, y):
    """Whether node `y` is in the reach of node `x` (compact numbers)."""
    return (reach[x, y >> 6] >> np.uint64(y & 63)) & np.uint64(1) != 0


@kernel
def _se_chain(seed, y_links, cand, pos, placed, n, units, cell_units, se_peers, par, queue, path):
    """`nested._se_chain` from `seed` (full node numbers): the length of the chain to the
    seed's negation, written into `path` seed first, or -1.  `par` is all -2 on entry and
    on return."""
    off_base = cand.shape[0] * n
    goal = seed - off_base if seed >= off_base else seed + off_base
    only = seed % off_base % n
    par[seed] = -1
    queue[0] = seed
    qlen = 1
    i = 0
    found = False
    while i < qlen and not found:
        node = queue[i]
        i += 1
        cell = node % off_base // n
        k = node % off_base - cell * n
        if not y_links and k != only:
            continue
        bit = 1 << k
        if node < off_base:
            if y_links:
                m = cand[cell] & ~bit
                while m and not found:
                    x = off_base + cell * n + trailing_zeros(m)
                    m &= m - 1
                    if par[x] == -2:
                        par[x] = node
                        found = x == goal
                        queue[qlen] = x
                        qlen += 1
            for p in se_peers[cell]:
                if p < 0 or found:
                    break
                if cand[p] & bit:
                    x = off_base + p * n + k
                    if par[x] == -2:
                        par[x] = node
                        found = x == goal
                        queue[qlen] = x
                        qlen += 1
            continue
        m = cand[cell]
        if y_links and popcount(m) == 2:
            x = cell * n + _bit_length(m & ~bit) - 1
            if par[x] == -2:
                par[x] = node
                found = x == goal
                queue[qlen] = x
                qlen += 1
        for t in (2, 0, 1):  # box, row, column
            if found:
                break
            u = cell_units[cell, t]
            p = pos[u * n + k]
            if popcount(p) != 2 or placed[u] & bit:
                continue
            a = units[u, trailing_zeros(p)]
            b = units[u, _bit_length(p) - 1]
            if cell != a and cell != b:
                continue
            x = (b if a == cell else a) * n + k
            if par[x] == -2:
                par[x] = node
                found = x == goal
                queue[qlen] = x
                qlen += 1
    length = 0
    if found:
        x = goal
        while x >= 0:
            length += 1
            x = par[x]
        x = goal
        for j in range(length - 1, -1, -1):
            path[j] = x
            x = par[x]
    for j in range(qlen):
        par[queue[j]] = -2
    return length if found else -1


@kernel
def _chains(cand, pos, placed, n, units, cell_units, se_peers, reach, node_of, ncand):
    """Level 2's records (`_chain_records`) of the nodes whose reach holds their
    negation."""
    off_base = cand.shape[0] * n
    tries = np.zeros(2 * off_base, dtype=np.bool_)
    for i in range(ncand):
        x = node_of[i]
        tries[x] = _has(reach, i, ncand + i)
        tries[off_base + x] = _has(reach, ncand + i, i)
    return _chain_records(cand, pos, placed, n, units, cell_units, se_peers, tries)


@kernel
def chains_of(cand, pos, placed, n, units, cell_units, se_peers, maybe, index):
    """Level 2's records (`_chain_records`) of the nodes a bound lets through (`maybe`, a
    row of words over the numbers `index` gives each full node: `chain_bound.failing`);
    the same as `analyse` gives when the bound holds every failing node."""
    off_base = cand.shape[0] * n
    tries = np.zeros(2 * off_base, dtype=np.bool_)
    one = np.uint64(1)
    for x in range(2 * off_base):
        b = index[x]
        if b >= 0 and (maybe[b >> 6] >> np.uint64(b & 63)) & one:
            tries[x] = True
    return _chain_records(cand, pos, placed, n, units, cell_units, se_peers, tries)


@kernel
def _chain_records(cand, pos, placed, n, units, cell_units, se_peers, tries):
    """Level 2's records: per node of `tries` (full numbers) that reaches its negation, in
    the order of the candidates (on fact, then off fact), Sudoku Explainer's chain, and
    when it has several digits the chain on the seed's digit alone, as (heads, paths):
    per chain ``seed, kind, start, end`` in `heads`, its path ``paths[start:end]``."""
    off_base = cand.shape[0] * n
    par = np.full(2 * off_base, -2, dtype=np.int64)
    queue = np.empty(2 * off_base, dtype=np.int64)
    path = np.empty(2 * off_base, dtype=np.int64)
    heads = np.empty(64, dtype=np.int64)
    nh = 0
    out = np.empty(256, dtype=np.int64)
    size = 0
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) < 2:
            continue
        while m:
            k = trailing_zeros(m)
            m &= m - 1
            x = cell * n + k
            for side in range(2):
                seed = x + side * off_base
                if not tries[seed]:
                    continue
                args = (cand, pos, placed, n, units, cell_units, se_peers, par, queue, path)
                length = _se_chain(seed, True, *args)
                if length < 0:
                    continue
                single = True
                for j in range(length):
                    if path[j] % off_base % n != k:
                        single = False
                for kind in range(2):
                    if kind == 1:
                        if single:
                            break
                        length = _se_chain(seed, False, *args)
                        if length < 0:
                            break
                    heads = _reserve(heads, nh, 4)
                    heads[nh] = seed
                    heads[nh + 1] = (X_ALONE if single else Y_CHAIN) if kind == 0 else X_CHAIN
                    heads[nh + 2] = size
                    heads[nh + 3] = size + length
                    nh += 4
                    out = _reserve(out, size, length)
                    out[size : size + length] = path[:length]
                    size += length
    return heads[:nh].copy(), out[:size].copy()


@kernel
def _advance(bpar, queue, ends, goal, weak, targets, count, cell_first, ncand):
    """Go on with a static branch's breadth-first walk (`static_branch`, in
    `StaticGraph.successors` order) until it reaches `goal` or ends: each reached node's
    parent in `bpar` (-1 for the seed, -2 for none), the walk's queue in `queue` and its
    head and tail in `ends`, so that a later goal resumes it.  An on node's off facts are
    its cell's other digits, then its peers' (ascending: `cell_first` is the first
    candidate of each on node's cell).  False when the branch ends in a contradiction."""
    one = np.uint64(1)
    qi = ends[0]
    qlen = ends[1]
    while bpar[goal] == -2 and qi < qlen:
        node = queue[qi]
        qi += 1
        if node < ncand:
            lo = cell_first[node]
            for side in range(2):
                for q in range(weak.shape[1]):
                    bits = weak[node, q]
                    while bits:
                        j = q * 64 + np.int64(trailing_zeros(bits))
                        bits &= bits - one
                        if (side == 0) != (cell_first[j] == lo):
                            continue
                        nxt = ncand + j
                        if bpar[nxt] != -2:
                            continue
                        bpar[nxt] = node
                        if bpar[j] != -2:
                            return False
                        queue[qlen] = nxt
                        qlen += 1
        else:
            for e in range(count[node - ncand]):
                nxt = targets[node - ncand, e]
                if bpar[nxt] != -2:
                    continue
                bpar[nxt] = node
                if bpar[nxt + ncand] != -2:
                    return False
                queue[qlen] = nxt
                qlen += 1
    ends[0] = qi
    ends[1] = qlen
    return True


@kernel(inline="always")
def _group_common(nodes, count, reach, comp, ncand, common):
    """Into `common`: the facts the static branches of `nodes` (on nodes, full numbers)
    all hold besides the nodes, none failing; False when there are none."""
    common[:] = ~np.uint64(0)
    for j in range(count):
        i = comp[nodes[j]]
        if i < 0 or _has(reach, i, ncand + i):
            return False
        common &= reach[i]
    for j in range(count):
        i = comp[nodes[j]]
        common[i >> 6] &= ~(np.uint64(1) << np.uint64(i & 63))
    return common.any()


@kernel
def _more_walks(parents, queues, ends, used):
    """`_agreements`' walks with room for twice as many."""
    rows = max(8, 2 * used)
    bigger = np.empty((rows, parents.shape[1]), dtype=np.int64)
    bigger[:used] = parents[:used]
    longer = np.empty((rows, queues.shape[1]), dtype=np.int64)
    longer[:used] = queues[:used]
    more = np.empty((rows, 2), dtype=np.int64)
    more[:used] = ends[:used]
    return bigger, longer, more


@kernel
def _agreements(cand, n, units, cell_units, pos, reach, links, comp, node_of, ncand):
    """Level 3's records, in `nested.static_agreements` order, as (whether the kernel
    vouches for them, heads, paths): per agreement ``kind, cell or unit, digit or -1,
    target, complexity, start, end`` in `heads`, and in ``paths[start:end]`` per node its
    path's length and the path (False: a branch ends in a contradiction, or misses a
    target).  A node's breadth-first walk (`_advance`, over `links` from `_link_rows`)
    goes only as far as its targets so far need."""
    weak, targets, forced = links
    ncells = cand.shape[0]
    off_base = ncells * n
    total = 2 * ncand
    words = reach.shape[1]
    common = np.empty(words, dtype=np.uint64)
    nodes = np.empty(n, dtype=np.int64)
    cell_first = np.empty(ncand, dtype=np.int64)
    for i in range(ncand):
        cell = node_of[i] // n
        cell_first[i] = comp[cell * n + trailing_zeros(cand[cell])]
    slot = np.full(ncand, -1, dtype=np.int64)  # per on node, its rows in `parents`...
    parents = np.empty((0, total), dtype=np.int64)
    queues = np.empty((0, total), dtype=np.int64)
    ends = np.empty((0, 2), dtype=np.int64)
    used = 0
    heads = np.empty(64, dtype=np.int64)
    nh = 0
    out = np.empty(256, dtype=np.int64)
    size = 0
    for cell in range(ncells):
        m = cand[cell]
        if popcount(m) < 3:
            continue
        # the cell, then per digit its units (box, row, column) whose first place it is
        for g in range(-1, 3 * n):
            if g < 0:
                kind, a, b = CELL, cell, -1
                count = 0
                ms = m
                while ms:
                    nodes[count] = cell * n + trailing_zeros(ms)
                    ms &= ms - 1
                    count += 1
            else:
                k = g // 3
                if not (m >> k) & 1:
                    continue
                u = cell_units[cell, (2, 0, 1)[g % 3]]
                p = pos[u * n + k]
                if not p & (p - 1) or units[u, trailing_zeros(p)] != cell:
                    continue
                kind, a, b = UNIT, u, k
                count = 0
                while p:
                    nodes[count] = units[u, trailing_zeros(p)] * n + k
                    p &= p - 1
                    count += 1
            if not _group_common(nodes, count, reach, comp, ncand, common):
                continue
            for q in range(words):
                bits = common[q]
                while bits:
                    t = q * 64 + np.int64(trailing_zeros(bits))
                    bits &= bits - np.uint64(1)
                    target = node_of[t]
                    tcell = target % off_base // n
                    tk = target % off_base - tcell * n
                    if target < off_base:
                        if not cand[tcell] & ~(1 << tk):
                            continue
                    elif not (cand[tcell] >> tk) & 1:
                        continue
                    heads = _reserve(heads, nh, 7)
                    heads[nh] = kind
                    heads[nh + 1] = a
                    heads[nh + 2] = b
                    heads[nh + 3] = target
                    heads[nh + 5] = size
                    c = 0
                    for j in range(count):
                        x = comp[nodes[j]]
                        if slot[x] < 0:
                            if used == parents.shape[0]:
                                parents, queues, ends = _more_walks(parents, queues, ends, used)
                            parents[used, :] = -2
                            parents[used, x] = -1
                            queues[used, 0] = x
                            ends[used, 0] = 0
                            ends[used, 1] = 1
                            slot[x] = used
                            used += 1
                        at = slot[x]
                        row = parents[at]
                        if not _advance(
                            row, queues[at], ends[at], t, weak, targets, forced, cell_first, ncand
                        ):
                            return False, heads[:0].copy(), out[:0].copy()
                        if row[t] == -2:
                            return False, heads[:0].copy(), out[:0].copy()
                        length = 0
                        y = t
                        while y >= 0:
                            length += 1
                            y = row[y]
                        out = _reserve(out, size, length + 1)
                        out[size] = length
                        y = t
                        for i in range(size + length, size, -1):
                            out[i] = node_of[y]
                            y = row[y]
                        size += length + 1
                        c += length
                    heads[nh + 4] = c
                    heads[nh + 6] = size
                    nh += 7
    return True, heads[:nh].copy(), out[:size].copy()


@kernel
def static_reach(cand, pos, placed, n, units, cell_units, peers):
    """A grid's static links' reach: (per full node its compact number, -1 for none; the
    count of candidates; per compact number its reach as a row of words)."""
    comp, node_of, ncand = _numbering(cand, n)
    links = _link_rows(cand, pos, placed, n, units, cell_units, comp, node_of, ncand)
    return comp, ncand, _reach_rows(*links, ncand)


@kernel
def full_reach(cand, pos, placed, n, units, cell_units, peers):
    """`static_reach` over full node numbers: (per compact number its node; per compact
    number its reach as a row of words, bit ``node``; the on facts, then the off facts,
    whose reach holds their negation, as two rows of words, bit ``cell * n + k``)."""
    comp, ncand, reach = static_reach(cand, pos, placed, n, units, cell_units, peers)
    total = 2 * ncand
    nodes = np.empty(total, dtype=np.int64)
    for x in range(comp.shape[0]):
        if comp[x] >= 0:
            nodes[comp[x]] = x
    rows = np.zeros((total, (comp.shape[0] + 63) >> 6), dtype=np.uint64)
    one = np.uint64(1)
    for c in range(total):
        for w in range(reach.shape[1]):
            bits = reach[c, w]
            while bits:
                y = nodes[64 * w + np.int64(trailing_zeros(bits))]
                bits &= bits - one
                rows[c, y >> 6] |= one << np.uint64(y & 63)
    off = comp.shape[0] // 2
    failed = np.zeros((2, (off + 63) >> 6), dtype=np.uint64)
    for c in range(total):
        x = nodes[c]
        side = 0 if c < ncand else 1
        bit = x - side * off
        negation = x + off if side == 0 else bit
        if (rows[c, negation >> 6] >> np.uint64(negation & 63)) & one:
            failed[side, bit >> 6] |= one << np.uint64(bit & 63)
    return nodes, rows, failed


@kernel(inline="always")
def _clean_and(rows, row_of, x, off, common):
    """`common` &= the facts the static branch of on node `x` holds besides `x`; False
    when the branch ends in a contradiction (its reach holds off for `x`)."""
    j = row_of[x]
    negation = x + off
    one = np.uint64(1)
    if (rows[j, negation >> 6] >> np.uint64(negation & 63)) & one:
        return False
    common &= rows[j]
    common[x >> 6] &= ~(one << np.uint64(x & 63))
    return True


@kernel
def shared_groups(rows, nodes, n, cand, pos, units, by_cell):
    """The groups whose static branches all end without a contradiction and share a fact
    besides their seeds (`forcing._agreeing`'s): with `by_cell` the cells with three
    digits or more, else per unit and digit (group ``unit * n + k``) its places, where
    the first place's cell has three digits or more.  (`rows`, `nodes`: `full_reach`'s.)
    Returns the groups ascending and per group the shared facts as a row of words."""
    ncells = cand.shape[0]
    off = ncells * n
    ncand = nodes.shape[0] // 2
    row_of = np.full(off, -1, dtype=np.int64)
    for j in range(ncand):
        row_of[nodes[j]] = j
    words = rows.shape[1]
    size = ncells if by_cell else units.shape[0] * n
    ids = np.empty(size, dtype=np.int64)
    commons = np.empty((size, words), dtype=np.uint64)
    common = np.empty(words, dtype=np.uint64)
    count = 0
    for g in range(size):
        common[:] = ~np.uint64(0)
        clean = True
        if by_cell:
            m = cand[g]
            if popcount(m) < 3:
                continue
            while m and clean:
                clean = _clean_and(rows, row_of, g * n + trailing_zeros(m), off, common)
                m &= m - 1
        else:
            u = g // n
            k = g - u * n
            p = pos[g]
            if popcount(p) < 2 or popcount(cand[units[u, trailing_zeros(p)]]) < 3:
                continue
            while p and clean:
                clean = _clean_and(rows, row_of, units[u, trailing_zeros(p)] * n + k, off, common)
                p &= p - 1
        if clean and common.any():
            ids[count] = g
            commons[count] = common
            count += 1
    return ids[:count].copy(), commons[:count].copy()


@kernel
def analyse(cand, pos, placed, n, units, cell_units, peers, se_peers, chains, agreements):
    """A branch grid's static chains: (status, level 2's heads and paths if `chains`,
    level 3's if `agreements`), empty when not asked for (see `_chains`, `_agreements`)."""
    empty = np.empty(0, dtype=np.int64)
    if not consistent(cand, pos, n, units):
        return FALLBACK, empty, empty, empty, empty
    comp, node_of, ncand = _numbering(cand, n)
    links = _link_rows(cand, pos, placed, n, units, cell_units, comp, node_of, ncand)
    reach = _reach_rows(*links, ncand)
    chain_heads = chain_paths = empty
    if chains:
        chain_heads, chain_paths = _chains(
            cand, pos, placed, n, units, cell_units, se_peers, reach, node_of, ncand
        )
    agreed_heads = agreed_paths = empty
    if agreements:
        ok, agreed_heads, agreed_paths = _agreements(
            cand, n, units, cell_units, pos, reach, links, comp, node_of, ncand
        )
        if not ok:
            return FALLBACK, empty, empty, empty, empty
    return OK, chain_heads, chain_paths, agreed_heads, agreed_paths


class Found(NamedTuple):
    """What `run` finds on a grid: level 2's chains as (seed, on one digit alone, start,
    end: its path is ``chain_paths[start:end]``), level 3's agreements as (seeds as
    `nested.Hint` has them, target, complexity, start, end: ``agreed_paths[start:end]``
    holds per node its path's length and the path).  Paths run from the seed."""

    chains: list[tuple[int, bool, int, int]]
    chain_paths: np.ndarray
    agreements: list[tuple[tuple, int, int, int, int]]
    agreed_paths: np.ndarray


def run(
    shape: Shape, cand: list[int], pos: list[int], placed: list[int], chains: bool, agreements: bool
) -> Found | None:
    """`analyse` on a branch grid's lists; None when it leaves the grid to the pure-Python
    route."""
    units, cell_units, peers, se_peers = geometry(shape)
    status, chain_heads, chain_paths, agreed_heads, agreed_paths = analyse(
        np.array(cand, dtype=np.int64),
        np.array(pos, dtype=np.int64),
        np.array(placed, dtype=np.int64),
        shape.size,
        units,
        cell_units,
        peers,
        se_peers,
        chains,
        agreements,
    )
    if status != OK:
        return None
    found = [(seed, kind != Y_CHAIN, a, b) for seed, kind, a, b in _rows(chain_heads, 4)]
    agreed = [
        (("cell", a) if kind == CELL else ("unit", a, b), target, c, start, end)
        for kind, a, b, target, c, start, end in _rows(agreed_heads, 7)
    ]
    return Found(found, chain_paths, agreed, agreed_paths)


def _rows(flat: np.ndarray, width: int) -> list[list[int]]:
    return flat.reshape(-1, width).tolist() if flat.shape[0] else []
