"""Forcing-chain branches from `PLUS` on, compiled (numba).

The dynamic forcing chains (+) and the nested levels follow thousands of branches per
step (`Context._se_branch`, the reference), most of them short: they end in a
contradiction after a dozen facts, and their cost is the rules' scans of the whole grid
each time the singles run dry.  This module follows such a branch on arrays, in the
same order and with the same causes:

- the singles, in Sudoku Explainer's order (`follow`): every on fact waiting before the
  next off fact, an off fact taking effect when it is taken, peers and units box first;
- when they run dry, locked candidates (`_locked`), then hidden pairs, naked pairs and
  X-Wings (`_other_rules`), each with its rule parents;
- in the nested modes, when those find nothing, `follow` returns `NEED_CHAINS`: the
  caller looks up the grid's inner chains (kept in the solve's memo) and hands them to
  `apply_hints`, which adds the removals that rest on facts of the branch, cheapest
  chain first (`nested._apply`), and `follow` goes on.

A branch lives in a `Workspace` (arrays reused from branch to branch of a search): a
fact's causes are a slice of one pool, the facts are listed in the order recorded (the
order of the reference's ``parents`` dict), and a nested fact keeps its inner chain's
key and complexity.  `parents`, `conflict` and `inner` turn it into a `Branch`'s
fields.  A branch whose causes outgrow the pool returns `OVERFLOW`: the caller grows the pool and
follows it again.  The entry points borrow their tuples of arrays (`borrow_each`): numba
would otherwise count a reference to every array of the workspace each time a helper
takes it, an atomic operation that was a large share of the branches' time.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from solvers.fast.kernels import borrow_each, kernel, popcount
from solvers.grid import Shape
from solvers.human.techniques.branches import se_tables
from solvers.human.techniques.chain_bound import (
    agrees_with,
    failing,
    failing_with,
    links_of,
    may_agree,
)
from solvers.human.techniques.common import crossings
from solvers.human.techniques.static_kernel import (
    CELL,
    FALLBACK,
    OK,
    Y_CHAIN,
    analyse,
    chains_of,
)

MAX_SIZE = 16  # the largest grid side the kernel takes (as `static_kernel`)

# what `follow` and `apply_hints` return
DONE = 0  # the branch ends without a contradiction
CONFLICT = 1  # the branch ends in a contradiction (`conflict`)
NEED_CHAINS = 2  # nested modes: the rules ran dry, the inner chains are wanted
OVERFLOW = 3  # the causes outgrew the pool: follow the branch another way
PROGRESS = 4  # `apply_hints`: facts were added, follow on

# what a rule returns inside the kernel
_NONE = -1
_ADDED = 0
_CLASH = 1
_FULL = 2

# the counters (`Workspace.cnt`)
(
    N_FACTS,
    POOL_USED,
    I_ON,
    N_ON,
    I_OFF,
    N_OFF,
    LOOKED,
    CLASH_LEN,
    CLASH_ON,
    CLASH_OFF,
    DEPTH,  # `_dynamic`: the breadth-first level it is at
) = range(11)

# the workspace's arrays, in `Workspace.arrays` order
(
    W_CAND,
    W_POS,
    W_PLACED,
    W_LOOKED,
    W_WHY_AT,
    W_WHY_LEN,
    W_FACTS,
    W_ONS,
    W_OFFS,
    W_PLACED_CELLS,
    W_INNER_KEY,
    W_INNER_SIZE,
    W_POOL,
    W_CNT,
    W_BUF,
    W_MARK,
    W_QUEUE,
    W_RULES,
) = range(18)


@cache
def geometry(shape: Shape) -> tuple[np.ndarray, ...]:
    """The shape as arrays: each unit's cells; each cell's units (row, column, box) and
    its position bit in each; its peers in Sudoku Explainer's order (padded with -1);
    per unit, the crossings `_locked` looks at (the boxes a line crosses, the lines a
    box crosses, rows first) as (unit, places in this unit, places in that one), padded
    with -1."""
    n = shape.size
    units = np.array(shape.units, dtype=np.int64)
    cell_units = np.array(shape.cell_units, dtype=np.int64)
    at = np.zeros((shape.ncells, 3), dtype=np.int64)
    for u, cells in enumerate(shape.units):
        for i, c in enumerate(cells):
            at[c, u // n] = 1 << i
    peers = se_tables(shape)[0]
    width = max(len(p) for p in peers)
    se_peers = np.full((shape.ncells, width), -1, dtype=np.int64)
    for c, ps in enumerate(peers):
        se_peers[c, : len(ps)] = ps
    box_lines, line_boxes = crossings(shape)
    rows = [*line_boxes, *box_lines]
    most = max(len(r) for r in rows)
    cross = np.full((3, 3 * n, most), -1, dtype=np.int64)
    for u, found in enumerate(rows):
        for j, (other, in_this, in_that) in enumerate(found):
            cross[0, u, j] = other
            cross[1, u, j] = in_this
            cross[2, u, j] = in_that
    return units, cell_units, at, se_peers, cross[0], cross[1], cross[2]


class Workspace:
    """The arrays one branch at a time is followed in (see the module's docstring)."""

    def __init__(self, shape: Shape) -> None:
        n = shape.size
        ncells = shape.ncells
        nodes = 2 * ncells * n
        ints = np.int64
        self.arrays: tuple[np.ndarray, ...] = (
            np.zeros(ncells, ints),  # cand
            np.zeros(3 * n * n, ints),  # pos
            np.zeros(3 * n, ints),  # placed
            np.zeros(3 * n * n, ints),  # looked
            np.full(nodes, -1, ints),  # why_at: where a fact's causes start (-1: no fact)
            np.zeros(nodes, ints),  # why_len
            np.zeros(nodes, ints),  # facts, in the order recorded
            np.zeros(nodes // 2, ints),  # ons: on facts found
            np.zeros(nodes // 2, ints),  # offs: off facts found
            np.zeros(ncells, ints),  # placed_cells
            np.full(nodes, -1, ints),  # inner_key (-1: not a nested fact)
            np.zeros(nodes, ints),  # inner_size
            np.zeros(8 * nodes, ints),  # pool of causes
            np.zeros(16, ints),  # counters
            np.zeros(nodes, ints),  # buf: one fact's causes being built
            np.zeros(nodes + 1, ints),  # mark: stamps for `_ancestors` (last: the stamp)
            np.zeros(nodes, ints),  # queue of the breadth-first route (`dynamic_branch`)
            # room for what the other rules find (`_other_rules`), kept from call to call
            np.zeros(3 * (nodes // 2 + 1) + 4 * nodes + 64, ints),
        )

    def grow(self) -> None:
        """Double the pool of causes (a branch outgrew it)."""
        arrays = list(self.arrays)
        pool = arrays[W_POOL]
        arrays[W_POOL] = np.zeros(2 * pool.shape[0], dtype=pool.dtype)
        self.arrays = tuple(arrays)


@kernel(inline="always")
def _high_bit(x):
    return 63 - leading_zeros(x)


@kernel(inline="always")
def _clear_facts(ws):
    """Forget the last branch's facts: unmark them and zero the counters."""
    why_at = ws[W_WHY_AT]
    inner_key = ws[W_INNER_KEY]
    facts = ws[W_FACTS]
    cnt = ws[W_CNT]
    for i in range(cnt[N_FACTS]):
        x = facts[i]
        why_at[x] = -1
        inner_key[x] = -1
    cnt[:] = 0


@kernel
def seed_array(cand, n, off_base):
    """`compiled_branches.search_seeds` on the candidates: cell by cell, digit by digit, on
    for every candidate of a cell with two or more, then off for those of cells with
    three or more."""
    out = np.empty(2 * cand.shape[0] * n, dtype=np.int64)
    size = 0
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if not m & (m - 1):
            continue
        many = popcount(m) > 2
        while m:
            x = cell * n + np.int64(trailing_zeros(m))
            m &= m - 1
            out[size] = x
            size += 1
            if many:
                out[size] = off_base + x
                size += 1
    return out[:size]


@kernel
def start(ws, seeds, start_cand, start_pos, start_placed):
    """Clear the workspace (the facts of the last branch) and assume `seeds`: `CONFLICT`
    when they clash, else `DONE` (follow on)."""
    _clear_facts(ws)
    ws[W_CAND][:] = start_cand
    ws[W_POS][:] = start_pos
    ws[W_PLACED][:] = start_placed
    ws[W_PLACED_CELLS][:] = 0
    n = start_pos.shape[0] // start_placed.shape[0]
    off_base = start_cand.shape[0] * n
    for seed in seeds:
        if seed < off_base:
            r = _on(ws, seed // n, seed % n, 0, n, off_base)
        else:
            r = _off(ws, (seed - off_base) // n, (seed - off_base) % n, 0, n, off_base)
        if r != _NONE and r != _ADDED:
            return CONFLICT if r == _CLASH else OVERFLOW
    return DONE


@kernel(inline="always")
def _put(ws, x, m):
    """Record fact `x` with the causes ``buf[:m]``; False when the pool is full."""
    pool = ws[W_POOL]
    cnt = ws[W_CNT]
    used = cnt[POOL_USED]
    if used + m > pool.shape[0]:
        return False
    buf = ws[W_BUF]
    for i in range(m):
        pool[used + i] = buf[i]
    ws[W_WHY_AT][x] = used
    ws[W_WHY_LEN][x] = m
    cnt[POOL_USED] = used + m
    ws[W_FACTS][cnt[N_FACTS]] = x
    cnt[N_FACTS] += 1
    return True


@kernel(inline="always")
def _clash(ws, on, off):
    cnt = ws[W_CNT]
    cnt[CLASH_LEN] = 2
    cnt[CLASH_ON] = on
    cnt[CLASH_OFF] = off


@kernel(inline="always")
def _off(ws, cell, k, m, n, off_base):
    """The reference's ``off``: off(cell, k) because of ``buf[:m]``."""
    why_at = ws[W_WHY_AT]
    node = off_base + cell * n + k
    if why_at[node] >= 0:
        return _NONE
    on_node = cell * n + k
    if why_at[on_node] >= 0:
        if not _put(ws, node, m):
            return _FULL
        _clash(ws, on_node, node)
        return _CLASH
    if not (ws[W_CAND][cell] >> k) & 1:
        return _NONE
    if not _put(ws, node, m):
        return _FULL
    cnt = ws[W_CNT]
    ws[W_OFFS][cnt[N_OFF]] = node
    cnt[N_OFF] += 1
    return _ADDED


@kernel(inline="always")
def _on(ws, cell, k, m, n, off_base):
    """The reference's ``on``: on(cell, k) because of ``buf[:m]``."""
    why_at = ws[W_WHY_AT]
    node = cell * n + k
    if why_at[node] >= 0:
        return _NONE
    if not _put(ws, node, m):
        return _FULL
    if why_at[off_base + node] >= 0:
        _clash(ws, node, off_base + node)
        return _CLASH
    ws[W_PLACED_CELLS][cell] = 1
    cnt = ws[W_CNT]
    ws[W_ONS][cnt[N_ON]] = node
    cnt[N_ON] += 1
    return _ADDED


@kernel(inline="always")
def _status(r):
    """A rule's outcome as what `follow` returns, or -1 to go on."""
    if r == _CLASH:
        return CONFLICT
    if r == _FULL:
        return OVERFLOW
    return -1


@kernel
def follow(ws, geo, start_cand, start_pos, open_counts, placed_count, nested):
    """Follow the branch in the workspace until it ends (`DONE`, `CONFLICT`, `OVERFLOW`)
    or, when `nested`, until its rules run dry (`NEED_CHAINS`)."""
    units, cell_units, at_bits, se_peers = geo[0], geo[1], geo[2], geo[3]
    n = units.shape[1]
    off_base = cell_units.shape[0] * n
    cand = ws[W_CAND]
    pos = ws[W_POS]
    placed = ws[W_PLACED]
    why_at = ws[W_WHY_AT]
    ons = ws[W_ONS]
    offs = ws[W_OFFS]
    placed_cells = ws[W_PLACED_CELLS]
    cnt = ws[W_CNT]
    buf = ws[W_BUF]
    while True:
        while True:
            if cnt[I_ON] < cnt[N_ON]:
                node = ons[cnt[I_ON]]
                cnt[I_ON] += 1
                cell = node // n
                k = node - cell * n
                bit = np.int64(1) << k
                rest = cand[cell] & ~bit
                at_on = cell * n
                at_off = off_base + at_on
                while rest:
                    j = trailing_zeros(rest)
                    rest &= rest - 1
                    x = at_off + j
                    if why_at[x] >= 0:
                        continue
                    buf[0] = node
                    if not _put(ws, x, 1):
                        return OVERFLOW
                    if why_at[at_on + j] >= 0:
                        _clash(ws, at_on + j, x)
                        return CONFLICT
                    offs[cnt[N_OFF]] = x
                    cnt[N_OFF] += 1
                for i in range(se_peers.shape[1]):
                    p = se_peers[cell, i]
                    if p < 0:
                        break
                    if cand[p] & bit:
                        on_node = p * n + k
                        off_node = off_base + on_node
                        if why_at[off_node] >= 0:
                            continue
                        buf[0] = node
                        if not _put(ws, off_node, 1):
                            return OVERFLOW
                        if why_at[on_node] >= 0:
                            _clash(ws, on_node, off_node)
                            return CONFLICT
                        offs[cnt[N_OFF]] = off_node
                        cnt[N_OFF] += 1
                for t in range(3):
                    u = cell_units[cell, t]
                    placed[u] |= bit
                    pos[u * n + k] &= ~at_bits[cell, t]
                continue
            if cnt[I_OFF] == cnt[N_OFF]:
                break
            node = offs[cnt[I_OFF]]
            cnt[I_OFF] += 1
            at = node - off_base
            cell = at // n
            k = at - cell * n
            bit = np.int64(1) << k
            m = cand[cell]
            if m & bit:  # the off fact takes effect now
                m ^= bit
                cand[cell] = m
                for t in range(3):
                    pos[cell_units[cell, t] * n + k] &= ~at_bits[cell, t]
            # the last digit of the cell
            if why_at[at] < 0 and not m & (m - 1) and not placed_cells[cell]:
                size = _lost(ws, start_cand[cell] & ~m, off_base + cell * n, 1)
                if not m:
                    return _status(_emptied(ws, size, n, off_base))
                r = _status(_on(ws, cell, _high_bit(m), size, n, off_base))
                if r >= 0:
                    return r
            # most often every unit of the cell still has two places for k
            alone = False
            for t in range(3):
                p = pos[cell_units[cell, t] * n + k]
                if not p & (p - 1):
                    alone = True
            if not alone:
                continue
            # the last place of the digit in each unit of the cell: box, row, column
            for t in (2, 0, 1):
                target, size = _last_place(ws, units, cell_units[cell, t], k, start_pos, off_base)
                if target == _NO_SINGLE:
                    continue
                if target == _NO_PLACE:
                    return _status(_emptied(ws, size, n, off_base))
                r = _status(_on(ws, target, k, size, n, off_base))
                if r >= 0:
                    return r
        if not cnt[LOOKED]:  # (a unit's places as the branch began hold nothing new)
            ws[W_LOOKED][:] = start_pos
            cnt[LOOKED] = 1
        r = _locked(ws, geo, start_pos, n, off_base)
        if r == _NONE:
            r = _other_rules(ws, geo, start_cand, start_pos, open_counts, placed_count)
        if r == _NONE:
            return NEED_CHAINS if nested else DONE
        s = _status(r)
        if s >= 0:
            return s


_NO_SINGLE = -1  # `_last_place`: the unit has more places, or its single is known
_NO_PLACE = -2  # `_last_place`: the unit has no place left for the digit


@kernel
def _last_place(ws, units, u, k, start_pos, off_base):
    """A hidden single of digit `k` in unit `u` (unless the branch placed k there): the cell
    of its last place, with its causes in ``buf`` (their count second), `_NO_PLACE` (and
    the causes) when no place is left, or `_NO_SINGLE`."""
    n = units.shape[1]
    if (ws[W_PLACED][u] >> k) & 1:
        return _NO_SINGLE, 0
    p = ws[W_POS][u * n + k]
    if p & (p - 1):
        return _NO_SINGLE, 0
    if p and ws[W_WHY_AT][units[u, _high_bit(p)] * n + k] >= 0:
        return _NO_SINGLE, 0  # found already
    size = _lost_in_unit(ws, start_pos[u * n + k] & ~p, units[u], off_base + k, n)
    if not p:
        return _NO_PLACE, size
    return units[u, _high_bit(p)], size


@kernel
def _lost(ws, gone, at, step):
    """Into ``buf``: the off facts ``at + step * i`` for the bits i of `gone` that the
    branch holds (a single's causes); their count."""
    why_at = ws[W_WHY_AT]
    buf = ws[W_BUF]
    size = 0
    while gone:
        x = at + step * trailing_zeros(gone)
        gone &= gone - 1
        if why_at[x] >= 0:
            buf[size] = x
            size += 1
    return size


@kernel
def _lost_in_unit(ws, gone, cells, at, n):
    """`_lost` for a unit's places (`cells`: its cells)."""
    why_at = ws[W_WHY_AT]
    buf = ws[W_BUF]
    size = 0
    while gone:
        x = at + cells[trailing_zeros(gone)] * n
        gone &= gone - 1
        if why_at[x] >= 0:
            buf[size] = x
            size += 1
    return size


@kernel
def _ancestors(ws, x, stamp, stack):
    """Mark with `stamp` the facts `x` rests on (itself included) not marked yet; how
    many were marked."""
    return _keyed_ancestors(ws, x, stamp, stack, None, 0)[0]


@kernel
def _new_stamp(ws):
    mark = ws[W_MARK]
    last = mark.shape[0] - 1
    mark[last] += 1
    return mark[last]


@kernel
def _emptied(ws, size, n, off_base):
    """The reference's `emptied`: a cell or unit without room, its off facts in
    ``buf[:size]``, read as the cheapest clash of an on and an off fact."""
    cnt = ws[W_CNT]
    if size == 0:
        cnt[CLASH_LEN] = 0
        return _CLASH
    buf = ws[W_BUF]
    offs = buf[:size].copy()
    stack = np.empty(ws[W_MARK].shape[0], dtype=np.int64)
    own = np.empty(size, dtype=np.int64)
    for i in range(size):
        own[i] = _ancestors(ws, offs[i], _new_stamp(ws), stack)
    best = -1
    best_size = 0
    for i in range(size):
        stamp = _new_stamp(ws)
        rest = 0
        for j in range(size):
            if j != i:
                rest += _ancestors(ws, offs[j], stamp, stack)
        if best < 0 or rest + own[i] < best_size:
            best = i
            best_size = rest + own[i]
    last = offs[best]
    m = 0
    for i in range(size):
        if i != best:
            buf[m] = offs[i]
            m += 1
    on = last - off_base
    if not _put(ws, on, m):
        return _FULL
    _clash(ws, on, last)
    return _CLASH


@kernel
def _locked(ws, geo, start_pos, n, off_base):
    """The reference's `Context._locked`: locked candidates on the places changed since
    last looked at, in Sudoku Explainer's order; `_NONE`, `_ADDED`, `_CLASH` or
    `_FULL`."""
    units = geo[0]
    cross_unit, cross_here, cross_there = geo[4], geo[5], geo[6]
    pos = ws[W_POS]
    looked = ws[W_LOOKED]
    placed = ws[W_PLACED]
    why_at = ws[W_WHY_AT]
    room = ws[W_RULES]  # (the room `_other_rules` takes too)
    size = 5 * pos.shape[0]
    found = room[:size].reshape((pos.shape[0], 5))  # key, k, inner, outside, why at
    whys = room[size : size + pos.shape[0] * (n + 1)]  # per record: its length, causes
    nf = 0
    used = 0
    for i in range(pos.shape[0]):
        if pos[i] == looked[i]:
            continue
        p = pos[i]
        looked[i] = p
        outer = i // n
        k = i - outer * n
        if not p or (placed[outer] >> k) & 1:
            continue
        hit = -1
        for j in range(cross_unit.shape[1]):
            if cross_unit[outer, j] < 0:
                break
            if not p & ~cross_here[outer, j]:
                hit = j
                break
        if hit < 0:
            continue
        inner = cross_unit[outer, hit]
        outside = pos[inner * n + k] & ~cross_there[outer, hit]
        if not outside:
            continue
        gone = start_pos[i] & ~p & ~cross_here[outer, hit]
        if not gone:
            continue  # true before the branch: the engine applies it itself
        at = used
        used += 1
        size = 0
        while gone:
            x = off_base + units[outer, trailing_zeros(gone)] * n + k
            gone &= gone - 1
            if why_at[x] >= 0:
                whys[used] = x
                used += 1
                size += 1
        if not size:
            used = at
            continue
        whys[at] = size
        # Sudoku Explainer's order: boxes on columns, boxes on rows, columns, rows; by
        # digit, then unit
        order = (1 if inner < n else 0) if outer >= 2 * n else 3 if outer < n else 2
        found[nf, 0] = (order * n + k) * 3 * n + outer
        found[nf, 1] = k
        found[nf, 2] = inner
        found[nf, 3] = outside
        found[nf, 4] = at
        nf += 1
    if not nf:
        return _NONE
    buf = ws[W_BUF]
    for f in np.argsort(found[:nf, 0]):
        k = found[f, 1]
        inner = found[f, 2]
        outside = found[f, 3]
        at = found[f, 4]
        size = whys[at]
        while outside:
            i = trailing_zeros(outside)
            outside &= outside - 1
            for s in range(size):
                buf[s] = whys[at + 1 + s]
            r = _off(ws, units[inner, i], k, size, n, off_base)
            if r in (_CLASH, _FULL):
                return r
    return _ADDED


@kernel
def _other_rules(ws, geo, start_cand, start_pos, open_counts, placed_count):
    """The reference's `inner_rules.other_rules`: hidden pairs, naked pairs, then
    X-Wings, the first that concludes anything adding its facts."""
    units, cell_units = geo[0], geo[1]
    n = units.shape[1]
    off_base = cell_units.shape[0] * n
    room = ws[W_RULES]
    size = 3 * (off_base + 1)
    found = room[:size].reshape((off_base + 1, 3))  # cell, k, where its causes are
    whys = room[size:]  # per group: its length, causes
    while True:  # (the finders say -1 when they need more room: rare)
        nf = hidden_pairs(ws, units, start_cand, start_pos, open_counts, found, whys)
        if not nf:
            nf = naked_pairs(ws, units, start_cand, open_counts, found, whys)
        if not nf:
            nf = x_wings(ws, units, start_pos, placed_count, found, whys)
        if nf >= 0:
            break
        found = np.empty((2 * found.shape[0], 3), dtype=np.int64)
        whys = np.empty(2 * whys.shape[0], dtype=np.int64)
    if not nf:
        return _NONE
    buf = ws[W_BUF]
    for f in range(nf):
        at = found[f, 2]
        size = whys[at]
        for s in range(size):
            buf[s] = whys[at + 1 + s]
        r = _off(ws, found[f, 0], found[f, 1], size, n, off_base)
        if r in (_CLASH, _FULL):
            return r
    return _ADDED


@kernel
def _grow(buf, size, extra):
    if size + extra <= buf.shape[0]:
        return buf
    bigger = np.empty(2 * (size + extra), dtype=buf.dtype)
    bigger[:size] = buf[:size]
    return bigger


@kernel
def _unit_order(t, n):
    """The t-th unit in Sudoku Explainer's order for subsets: boxes, columns, rows."""
    if t < n:
        return 2 * n + t
    if t < 2 * n:
        return t
    return t - 2 * n


@kernel
def hidden_pairs(ws, units, start_cand, start_pos, open_counts, found, whys):
    """Hidden pairs in the units whose places the branch changed (`inner_rules`): how
    many removals are in `found` (their causes in `whys`), or -1 when they need more room.
    (The finders never grow their arrays: an array assigned again in a loop costs numba
    reference counting at every turn.)"""
    n = units.shape[1]
    off_base = start_cand.shape[0] * n
    pos = ws[W_POS]
    cand = ws[W_CAND]
    why_at = ws[W_WHY_AT]
    nf = 0
    used = 0
    full = (np.int64(1) << n) - 1
    for t in range(3 * n):
        u = _unit_order(t, n)
        if open_counts[u] <= 4:
            continue
        at_u = u * n
        moved = False
        for k in range(n):
            if pos[at_u + k] != start_pos[at_u + k]:
                moved = True
                break
        if not moved:
            continue
        cells = units[u]
        for b in range(n):
            p = pos[at_u + b]
            if popcount(p) != 2:
                continue
            for a in range(b):
                if pos[at_u + a] != p:
                    continue
                keep = (np.int64(1) << a) | (np.int64(1) << b)
                removable = False
                q = p
                while q:
                    if cand[cells[trailing_zeros(q)]] & ~keep:
                        removable = True
                    q &= q - 1
                if not removable:
                    continue
                if used + 2 * n + 1 > whys.shape[0]:
                    return -1
                at = used
                used += 1
                rest = full & ~p
                while rest:
                    c = cells[trailing_zeros(rest)]
                    rest &= rest - 1
                    for d in (a, b):
                        x = off_base + c * n + d
                        if (start_cand[c] >> d) & 1 and why_at[x] >= 0:
                            whys[used] = x
                            used += 1
                size = used - at - 1
                if not size:
                    used = at
                    continue
                whys[at] = size
                q = p
                while q:
                    c = cells[trailing_zeros(q)]
                    q &= q - 1
                    nf = _removals(found, nf, c, cand[c] & ~keep, at)
                    if nf < 0:
                        return -1
    return nf


@kernel
def _removals(found, nf, cell, digits, at):
    """Add to `found` the removal of each of `digits` (a mask) from `cell`, their causes at
    `at`; the new count, or -1 when `found` is full."""
    while digits:
        if nf >= found.shape[0]:
            return -1
        found[nf, 0] = cell
        found[nf, 1] = trailing_zeros(digits)
        found[nf, 2] = at
        nf += 1
        digits &= digits - 1
    return nf


@kernel
def naked_pairs(ws, units, start_cand, open_counts, found, whys):
    """Naked pairs in the units holding a cell whose candidates the branch changed (as
    `hidden_pairs`)."""
    n = units.shape[1]
    off_base = start_cand.shape[0] * n
    cand = ws[W_CAND]
    why_at = ws[W_WHY_AT]
    nf = 0
    used = 0
    for t in range(3 * n):
        u = _unit_order(t, n)
        if open_counts[u] < 4:
            continue
        cells = units[u]
        moved = -1  # whether a cell of the unit changed: looked at when a pair is found
        for j in range(n):
            m = cand[cells[j]]
            if popcount(m) != 2:
                continue
            for i in range(j):
                if cand[cells[i]] != m:
                    continue
                if moved < 0:
                    moved = 0
                    for x in range(n):
                        if cand[cells[x]] != start_cand[cells[x]]:
                            moved = 1
                            break
                if not moved:
                    break
                removable = False
                for x in range(n):
                    if x != i and x != j and cand[cells[x]] & m:
                        removable = True
                        break
                if not removable:
                    continue
                if used + 2 * n + 1 > whys.shape[0]:
                    return -1
                at = used
                used += 1
                for c in (cells[i], cells[j]):
                    rest = start_cand[c] & ~m
                    while rest:
                        y = off_base + c * n + trailing_zeros(rest)
                        rest &= rest - 1
                        if why_at[y] >= 0:
                            whys[used] = y
                            used += 1
                size = used - at - 1
                if not size:
                    used = at
                    continue
                whys[at] = size
                for x in range(n):
                    if x in (i, j):
                        continue
                    c = cells[x]
                    nf = _removals(found, nf, c, cand[c] & m, at)
                    if nf < 0:
                        return -1
    return nf


@kernel
def x_wings(ws, units, start_pos, placed_count, found, whys):
    """X-Wings on the digits whose places in lines the branch changed: columns first,
    then rows; by pair of lines, then digit (as `hidden_pairs`)."""
    n = units.shape[1]
    off_base = units.shape[0] // 3 * n * n
    pos = ws[W_POS]
    why_at = ws[W_WHY_AT]
    nf = 0
    used = 0
    digits = np.empty(n, dtype=np.int64)  # the digits looked at, in order
    for base, cover in ((n, 0), (0, n)):
        count = 0
        for k in range(n):
            if placed_count[k + 1] + 4 > n:
                continue
            moved = False
            changed = False
            paired = False  # (two lines with the same two places: an X-Wing's lines)
            for line in range(n):
                at = (base + line) * n + k
                p = pos[at]
                two = popcount(p) == 2
                if p != start_pos[at]:
                    moved = True
                    if two:
                        changed = True
                if two and not paired:
                    for other in range(line):
                        if pos[(base + other) * n + k] == p:
                            paired = True
                            break
            if moved and changed and paired:
                digits[count] = k
                count += 1
        if not count:
            continue
        for b in range(n):
            for a in range(b):
                for j in range(count):
                    k = digits[j]
                    p = pos[(base + b) * n + k]
                    if popcount(p) != 2 or pos[(base + a) * n + k] != p:
                        continue
                    keep = (np.int64(1) << a) | (np.int64(1) << b)
                    removable = False
                    q = p
                    while q:
                        r = trailing_zeros(q)
                        q &= q - 1
                        if pos[(cover + r) * n + k] & ~keep:
                            removable = True
                    if not removable:
                        continue
                    if used + 2 * n + 1 > whys.shape[0]:
                        return -1
                    at = used
                    used += 1
                    for line in (a, b):
                        i_at = (base + line) * n + k
                        gone = start_pos[i_at] & ~pos[i_at] & ~p
                        while gone:
                            y = off_base + units[base + line, trailing_zeros(gone)] * n + k
                            gone &= gone - 1
                            if why_at[y] >= 0:
                                whys[used] = y
                                used += 1
                    size = used - at - 1
                    if not size:
                        used = at
                        continue
                    whys[at] = size
                    q = p
                    while q:
                        r = trailing_zeros(q)
                        q &= q - 1
                        extra = pos[(cover + r) * n + k] & ~keep
                        while extra:
                            if nf >= found.shape[0]:
                                return -1
                            found[nf, 0] = units[cover + r, trailing_zeros(extra)]
                            found[nf, 1] = k
                            found[nf, 2] = at
                            nf += 1
                            extra &= extra - 1
    return nf


NOTHING = 5  # `apply_hints`: no inner chain rests on a fact of the branch


@kernel
def new_links(ws, start_cand, start_pos):
    """`nested._new_links` on the workspace's grid: whether it has a bivalue cell or a
    unit with two places for a digit that the start grid had with more."""
    cand = ws[W_CAND]
    pos = ws[W_POS]
    placed = ws[W_PLACED]
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) == 2 and start_cand[cell] != m:
            return True
    n = pos.shape[0] // placed.shape[0]
    for u in range(placed.shape[0]):
        for k in range(n):
            p = pos[u * n + k]
            if popcount(p) == 2 and start_pos[u * n + k] != p and not (placed[u] >> k) & 1:
                return True
    return False


@kernel
def apply_hints(ws, geo, start_cand, start_pos, meta, removable, paths):
    """The reference's `nested._apply`: of the inner chains (`meta` rows, cheapest first:
    key, complexity, seeds' kind (-1 none, 0 cell, 1 unit), the seeds' two numbers,
    their paths' start and end in `paths`, whether each path comes with its length, and
    their removals' start and end in `removable`, as ``cell * n + k``), add as off facts
    the removals of every chain whose rule parents hold in the branch: `NOTHING`,
    `PROGRESS`, `CONFLICT` or `OVERFLOW`."""
    units = geo[0]
    n = units.shape[1]
    off_base = start_cand.shape[0] * n
    cand = ws[W_CAND]
    why_at = ws[W_WHY_AT]
    chosen = np.empty((meta.shape[0], 4), dtype=np.int64)  # hint, fresh at, why at, size
    room = 1
    for h in range(meta.shape[0]):  # (chains of one seed share their removals)
        room += meta[h, 9] - meta[h, 8]
    fresh = np.empty(room, dtype=np.int64)
    whys = np.empty(64, dtype=np.int64)
    nc = 0
    nfresh = 0
    used = 0
    for h in range(meta.shape[0]):
        first = nfresh
        for i in range(meta[h, 8], meta[h, 9]):
            r = removable[i]
            if why_at[off_base + r] < 0 and (cand[r // n] >> (r % n)) & 1:
                fresh[nfresh] = r
                nfresh += 1
        if nfresh == first:
            continue
        whys = _grow(whys, used, off_base)
        size = _rule_parents(ws, geo, start_cand, start_pos, meta[h], paths, whys[used:])
        if not size:
            nfresh = first
            continue
        chosen[nc, 0] = h
        chosen[nc, 1] = first
        chosen[nc, 2] = used
        chosen[nc, 3] = size
        nc += 1
        used += size
    if not nc:
        return NOTHING
    buf = ws[W_BUF]
    inner_key = ws[W_INNER_KEY]
    inner_size = ws[W_INNER_SIZE]
    for c in range(nc):
        h = chosen[c, 0]
        end = chosen[c + 1, 1] if c + 1 < nc else nfresh
        for i in range(chosen[c, 1], end):
            r = fresh[i]
            x = off_base + r
            if why_at[x] >= 0:
                continue
            size = chosen[c, 3]
            for s in range(size):
                buf[s] = whys[chosen[c, 2] + s]
            got = _off(ws, r // n, r % n, size, n, off_base)
            if got == _FULL:
                return OVERFLOW
            if why_at[x] >= 0:
                inner_key[x] = meta[h, 0]
                inner_size[x] = meta[h, 1]
            if got == _CLASH:
                return CONFLICT
    return PROGRESS


@kernel
def _rule_parents(ws, geo, start_cand, start_pos, row, paths, out):
    """The reference's `nested.rule_parents` into `out`, ascending: for every single of
    an inner chain (an on fact of a path and the fact before it) and for its seeds, the
    off facts of the branch among the candidates its cell lost (naked) or the places its
    unit lost (hidden); how many."""
    units, cell_units = geo[0], geo[1]
    n = units.shape[1]
    off_base = start_cand.shape[0] * n
    cand = ws[W_CAND]
    pos = ws[W_POS]
    stamp = _new_stamp(ws)
    size = 0
    if row[2] == 0:
        size = _naked(ws, row[3], start_cand, cand, n, off_base, stamp, out, size)
    elif row[2] == 1:
        size = _hidden(ws, units, row[3], row[4], start_pos, pos, n, off_base, stamp, out, size)
    i = row[5]
    end = row[6]
    counted = row[7]
    while i < end:
        if counted:
            first = i + 1
            last = first + paths[i]
            i = last
        else:
            first = i
            last = end
            i = end
        for j in range(first + 1, last):
            x = paths[j]
            if x >= off_base:
                continue
            cell = x // n
            k = x - cell * n
            w = paths[j - 1]
            other = (w - off_base) // n if w >= off_base else -1
            if other == cell:
                size = _naked(ws, cell, start_cand, cand, n, off_base, stamp, out, size)
                continue
            if other < 0:
                continue
            for t in (2, 0, 1):
                u = cell_units[cell, t]
                shared = False
                for s in range(3):
                    if cell_units[other, s] == u:
                        shared = True
                if shared and popcount(pos[u * n + k]) <= 2:
                    size = _hidden(ws, units, u, k, start_pos, pos, n, off_base, stamp, out, size)
                    break
    out[:size].sort()
    return size


@kernel
def _naked(ws, cell, start_cand, cand, n, off_base, stamp, out, size):
    why_at = ws[W_WHY_AT]
    mark = ws[W_MARK]
    gone = start_cand[cell] & ~cand[cell]
    while gone:
        y = off_base + cell * n + trailing_zeros(gone)
        gone &= gone - 1
        if why_at[y] >= 0 and mark[y] != stamp:
            mark[y] = stamp
            out[size] = y
            size += 1
    return size


@kernel
def _hidden(ws, units, u, k, start_pos, pos, n, off_base, stamp, out, size):
    why_at = ws[W_WHY_AT]
    mark = ws[W_MARK]
    gone = start_pos[u * n + k] & ~pos[u * n + k]
    while gone:
        y = off_base + units[u, trailing_zeros(gone)] * n + k
        gone &= gone - 1
        if why_at[y] >= 0 and mark[y] != stamp:
            mark[y] = stamp
            out[size] = y
            size += 1
    return size


# The inner chains of nested branches' grids, kept by grid for a solve (`Memo`): per grid
# its candidates, level 2's chains and level 3's (computed when first asked for), each as
# `apply_hints` reads them.
STEPS = np.array([4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128], dtype=np.int64)
FORCING_TENTHS = 70  # Sudoku Explainer's static forcing chain
X_FORCING_TENTHS = 66  # on one digit
MULTIPLE_TENTHS = 80  # its static cell and region forcing chains
NEED_PY = 6  # `follow_nested`: the static kernel left the grid to the pure route


@kernel
def bonus_tenths(nodes):
    """`chains.length_bonus` in tenths."""
    length = nodes - 2
    tenths = 0
    for t in STEPS:
        if length <= t:
            return tenths
        tenths += 1
    t = STEPS[STEPS.shape[0] - 1] * 3 // 2
    grow = False
    while length > t:
        tenths += 1
        t = t * 3 // 2 if grow else t * 4 // 3
        grow = not grow
    return tenths


@kernel
def _hash(cand):
    h = np.uint64(14695981039346656037)
    for v in cand:
        h = (h ^ np.uint64(v)) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(1))


@kernel
def lookup(table, cands, cand):
    """The memo's entry of the grid `cand`, or -1 (`table`: grid hashes to entries,
    `cands`: the entries' grids)."""
    h = _hash(cand)
    while h in table:
        e = table[h]
        if np.array_equal(cands[e], cand):
            return e
        h += 1
    return -1


@kernel
def insert(table, cands, l2, l3, done, counter, cand, chains, agreements, level3):
    """Keep a grid's inner chains (`chains`, `agreements`: (rows, removals, paths) as
    `apply_hints` reads them; `level3` False while the agreements are not known yet),
    with keys of their own (`counter`: the next, then the number of entries); the entry's
    number."""
    h = _hash(cand)
    while h in table:
        h += 1
    e = len(cands)
    table[h] = e
    cands.append(cand.copy())
    l2.append(_keyed(chains, counter))
    l3.append(_keyed(agreements, counter))
    done.append(1 if level3 else 0)
    counter[1] += 1
    return e


@kernel
def set_level3(l3, done, counter, e, agreements):
    """Keep the agreements of entry `e`, found late."""
    l3[e] = _keyed(agreements, counter)
    done[e] = 1


@kernel
def _keyed(hints, counter):
    """`hints` with fresh keys: an inner chain is counted once however many facts rest
    on it (`forcing.nested_sum`), so each has a number no other has."""
    meta = hints[0].copy()
    for i in range(meta.shape[0]):
        meta[i, 0] = counter[0]
        counter[0] += 1
    return (meta, hints[1], hints[2])


@kernel
def _ranked(meta, tenths):
    """The rows of `meta` cheapest first: by rating (`tenths`), complexity, then order."""
    keys = np.empty(meta.shape[0], dtype=np.int64)
    for i in range(meta.shape[0]):
        keys[i] = (tenths[i] << 40) | (meta[i, 1] << 20) | i
    return meta[np.argsort(keys)].copy()


@kernel
def _other_digits(removable, used, cand, cell, k, n):
    """Add to `removable` (from `used` on) every digit of `cell` but `k`; the new count."""
    m = cand[cell] & ~(np.int64(1) << k)
    while m:
        removable[used] = cell * n + trailing_zeros(m)
        used += 1
        m &= m - 1
    return used


@kernel
def chain_hints(heads, paths, cand, n):
    """Level 2's hints from the static kernel's chains (`nested._chain_hints`): rows as
    `apply_hints` reads them (keys left 0), removals, paths."""
    off_base = cand.shape[0] * n
    count = heads.shape[0] // 4
    meta = np.zeros((count, 10), dtype=np.int64)
    tenths = np.empty(count, dtype=np.int64)
    removable = np.empty(count * n + 1, dtype=np.int64)
    used = 0
    last = -1
    r0 = r1 = 0
    for i in range(count):
        seed, kind, start, end = heads[4 * i], heads[4 * i + 1], heads[4 * i + 2], heads[4 * i + 3]
        if seed != last:  # a seed's chain on its digit alone shares its removals
            last = seed
            node = seed % off_base
            cell = node // n
            k = node - cell * n
            r0 = used
            if seed < off_base:
                removable[used] = node
                used += 1
            else:
                used = _other_digits(removable, used, cand, cell, k, n)
            r1 = used
        c = end - start
        base = X_FORCING_TENTHS if kind != Y_CHAIN else FORCING_TENTHS
        tenths[i] = base + bonus_tenths(c)
        meta[i, 1] = c
        meta[i, 2] = -1
        meta[i, 5] = start
        meta[i, 6] = end
        meta[i, 8] = r0
        meta[i, 9] = r1
    return _ranked(meta, tenths), removable[:used].copy(), paths


@kernel
def agreement_hints(heads, paths, cand, n):
    """Level 3's hints from the static kernel's agreements (`nested._agreement_hints`)."""
    off_base = cand.shape[0] * n
    count = heads.shape[0] // 7
    meta = np.zeros((count, 10), dtype=np.int64)
    tenths = np.empty(count, dtype=np.int64)
    removable = np.empty(count * n + 1, dtype=np.int64)
    used = 0
    for i in range(count):
        row = heads[7 * i : 7 * i + 7]
        kind, a, b, t, c, start, end = row[0], row[1], row[2], row[3], row[4], row[5], row[6]
        meta[i, 8] = used
        if t < off_base:
            used = _other_digits(removable, used, cand, t // n, t % n, n)
        else:
            removable[used] = t - off_base
            used += 1
        meta[i, 9] = used
        tenths[i] = MULTIPLE_TENTHS + bonus_tenths(c)
        meta[i, 1] = c
        meta[i, 2] = 0 if kind == CELL else 1
        meta[i, 3] = a
        meta[i, 4] = b if kind != CELL else 0
        meta[i, 5] = start
        meta[i, 6] = end
        meta[i, 7] = 1
    return _ranked(meta, tenths), removable[:used].copy(), paths


@kernel
def _no_hints():
    return (
        np.zeros((0, 10), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
    )


@kernel
def nested_branch(
    ws,
    geo,
    sgeo,
    seeds,
    grid,
    level,
    resume,
    pure,
    table,
    cands,
    l2s,
    l3s,
    done,
    counter,
    bound,
):
    """A branch of the nested levels 2 and 3 (`level`) from the start (or, with `resume`,
    from where `NEED_PY` left it): its status and `flat` form.  `follow`, then, whenever
    the rules run dry, the grid's inner chains (from the memo, or found by the static
    kernel and kept) applied (`apply_hints`).  `NEED_PY` when the static kernel leaves a
    grid to the pure route: the caller keeps its chains (`insert`, `set_level3`) and calls
    again (with `pure`, for every grid: the tests' way to take that route).  `grid`: the
    start grid's arrays (`compiled_branches.Start.grid`); the memo comes in parts
    (`new_memo`): numba reads a tuple of its typed containers slowly.  `bound`: the
    start grid's reach (`chain_bound.start_reach`, or empty), which tells grids without
    static forcing chains, and (`chain_bound.may_agree`) grids without static cell and
    region chains.  Level 3 analyses a grid's agreements only when its chains add
    nothing: where they do, the branch goes on to another grid, and most of those
    agreements would never be read."""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    sgeo, bound = borrow_each(sgeo), borrow_each(bound)
    start_cand, start_pos, start_placed, open_counts, placed_count = grid
    if not resume:
        status = start(ws, seeds, start_cand, start_pos, start_placed)
        if status != DONE:
            return status, flat(ws)
    n = sgeo[0].shape[1]
    while True:
        status = follow(ws, geo, start_cand, start_pos, open_counts, placed_count, True)
        if status != NEED_CHAINS:
            return status, flat(ws)
        cand = ws[W_CAND]
        e = lookup(table, cands, cand)
        if e < 0 and pure:
            return NEED_PY, flat(ws)
        if e < 0:
            memo = (table, cands, l2s, l3s, done, counter)
            status, heads, paths = _chains_of(ws, start_cand, start_pos, sgeo, bound)
            if status != OK:
                return NEED_PY, flat(ws)
            chainless = heads.shape[0] == 0
            if chainless and level < 3:
                e = insert(*memo, cand, _no_hints(), _no_hints(), False)
            elif chainless:  # level 3: the agreements are wanted at once
                taken, agreed = _agreements_of(ws, grid, sgeo, bound, False)
                if not taken:
                    return NEED_PY, flat(ws)
                e = insert(*memo, cand, _no_hints(), agreed, True)
            else:  # level 3 finds the agreements only when the chains do nothing
                chains = chain_hints(heads, paths, cand, n)
                e = insert(*memo, cand, chains, _no_hints(), False)
        l2 = borrow_each(l2s[e])
        status = apply_hints(ws, geo, start_cand, start_pos, l2[0], l2[1], l2[2])
        if status == NOTHING and level == 3:
            if not done[e] and pure:
                return NEED_PY, flat(ws)
            if not done[e]:
                taken, agreed = _agreements_of(ws, grid, sgeo, bound, False)
                if not taken:
                    return NEED_PY, flat(ws)
                set_level3(l3s, done, counter, e, agreed)
            l3 = borrow_each(l3s[e])
            status = apply_hints(ws, geo, start_cand, start_pos, l3[0], l3[1], l3[2])
        if status == NOTHING:
            return DONE, flat(ws)
        if status != PROGRESS:
            return status, flat(ws)


@kernel
def _chains_of(ws, start_cand, start_pos, sgeo, bound):
    """The workspace grid's static forcing chains that rest on a fact of the branch, as
    `static_kernel.analyse` gives them (status, heads, paths): none without a strong link
    the start grid lacks (`new_links`); with the bound (`chain_bound.failing`), only the
    nodes it lets through are followed (most often none)."""
    cand, pos, placed = ws[W_CAND], ws[W_POS], ws[W_PLACED]
    units, cell_units, peers, se_peers = sgeo
    n = units.shape[1]
    none = np.empty(0, dtype=np.int64)
    if not new_links(ws, start_cand, start_pos):
        return OK, none, none
    if bound[1].shape[0] == 0:
        found = analyse(cand, pos, placed, n, units, cell_units, peers, se_peers, True, False)
        return found[0], found[1], found[2]
    ok, maybe = failing(cand, pos, placed, start_cand, start_pos, n, units, *bound)
    if not ok:
        return FALLBACK, none, none
    if not maybe.any():
        return OK, none, none
    heads, paths = chains_of(cand, pos, placed, n, units, cell_units, se_peers, maybe, bound[0])
    return OK, heads, paths


@kernel
def _agreements_of(ws, grid, sgeo, bound, bounded):
    """The workspace grid's level-3 agreements as `apply_hints` reads them: none where the
    bound (`chain_bound.may_agree`) rules them out (unless `bounded`: the caller has
    looked), else the static kernel's; and False when that kernel leaves the grid to the
    pure-Python route."""
    cand, pos, placed = ws[W_CAND], ws[W_POS], ws[W_PLACED]
    units, cell_units, peers, se_peers = sgeo
    n = units.shape[1]
    if (
        not bounded
        and bound[1].shape[0] > 0
        and not may_agree(cand, pos, placed, grid[0], grid[1], n, units, bound[0], bound[1])
    ):
        return True, _no_hints()
    found = analyse(cand, pos, placed, n, units, cell_units, peers, se_peers, False, True)
    if found[0] != OK:
        return False, _no_hints()
    return True, agreement_hints(found[3], found[4], cand, n)


@kernel
def nested_batch(
    ws,
    geo,
    sgeo,
    seeds,
    first,
    last,
    grid,
    level,
    resume,
    pure,
    out,
    used,
    spans,
    clash,
    rows,
    table,
    cands,
    l2s,
    l3s,
    done,
    counter,
    bound,
    plus_clash,
    plus_rows,
    plus_dry,
    costs,
):
    """The nested branches of ``seeds[first:last]``, one seed after another
    (`nested_branch`; `resume` for the first): each one's `flat` form appended to `out`
    from `used` (`out` grown when full), at ``out[spans[i, 0]:spans[i, 1]]``; whether it
    ends in a contradiction in ``clash[i]``, and if so the contradiction's complexity in
    ``costs[i]`` (`conflict_cost`), else its facts as row i of `rows` (bits over
    nodes).  Stops at a seed the caller must see to (`OVERFLOW`, `NEED_PY`): (its status,
    its index, `out`, `used`), or (`DONE`, `last`, `out`, `used`).

    `plus_clash` and `plus_rows`, when not empty, are the seeds' (+) branches
    (`branch_facts`): a nested branch is its (+) branch until the rules run dry, so where
    the inner chains add nothing on the grid the (+) branch ends on (`plus_ends_here`),
    the nested branch is that (+) branch: its facts are copied, it is not followed, and
    its span is (-1, -1) (the caller follows it when it wants the causes).  `plus_dry`
    keeps, per seed, whether level 2's inner chains add nothing there (-1: not known
    yet), for the other nested search of the same grid."""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    memo = (table, cands, l2s, l3s, done, counter)
    shortcut = plus_rows.shape[0] > 0 and not pure
    for i in range(first, last):
        if (
            shortcut
            and not (resume and i == first)
            and not plus_clash[i]
            and plus_ends_here(ws, plus_rows[i], geo, grid, sgeo, level, bound, memo, plus_dry, i)
        ):
            rows[i, :] = plus_rows[i]
            spans[i, 0] = spans[i, 1] = -1
            continue
        status, found = nested_branch(
            ws,
            geo,
            sgeo,
            seeds[i : i + 1],
            grid,
            level,
            resume and i == first,
            pure,
            table,
            cands,
            l2s,
            l3s,
            done,
            counter,
            bound,
        )
        if status in (OVERFLOW, NEED_PY):
            return status, i, out, used
        size = found.shape[0]
        out = _grow(out, used, size)
        out[used : used + size] = found
        spans[i, 0] = used
        used += size
        spans[i, 1] = used
        if status == CONFLICT:
            clash[i] = True
            costs[i] = conflict_cost(ws)
        else:
            _fact_row(ws, rows[i])
    return DONE, last, out, used


@kernel
def conflict_cost(ws):
    """The complexity of the contradiction the workspace's branch ends in, as
    `forcing.search_chains` counts a nested one (`findings.conflict_chain` and
    `forcing.nested_complexity`): the facts each side of the clash rests on, then each
    inner chain those facts rest on, once."""
    cnt = ws[W_CNT]
    if cnt[CLASH_LEN] != 2:
        return 0
    stack = np.empty(ws[W_MARK].shape[0], dtype=np.int64)
    keys = np.empty((ws[W_MARK].shape[0], 2), dtype=np.int64)
    on, used, inner = _keyed_ancestors(ws, cnt[CLASH_ON], _new_stamp(ws), stack, keys, 0)
    off, used, more = _keyed_ancestors(ws, cnt[CLASH_OFF], _new_stamp(ws), stack, keys, used)
    return on + off + inner + more


@kernel
def _keyed_ancestors(ws, x, stamp, stack, keys, used):
    """`_ancestors`, and (unless `keys` is None) the inner chains the marked facts rest
    on that ``keys[:used]`` lacks added to it (their complexity in `keys`' second
    column): (how many facts were marked, the new `used`, the added chains'
    complexity)."""
    mark = ws[W_MARK]
    why_at = ws[W_WHY_AT]
    why_len = ws[W_WHY_LEN]
    pool = ws[W_POOL]
    inner_key = ws[W_INNER_KEY]
    inner_size = ws[W_INNER_SIZE]
    if mark[x] == stamp:
        return 0, used, 0
    mark[x] = stamp
    stack[0] = x
    top = 1
    count = 1
    added = 0
    while top:
        top -= 1
        y = stack[top]
        key = inner_key[y]
        if keys is not None and key >= 0:
            known = False
            for i in range(used):
                if keys[i, 0] == key:
                    known = True
                    break
            if not known:
                keys[used, 0] = key
                keys[used, 1] = inner_size[y]
                used += 1
                added += inner_size[y]
        a = why_at[y]
        if a < 0:
            continue
        for i in range(a, a + why_len[y]):
            z = pool[i]
            if mark[z] != stamp:
                mark[z] = stamp
                stack[top] = z
                top += 1
                count += 1
    return count, used, added


@kernel
def plus_ends_here(ws, row, geo, grid, sgeo, level, bound, memo, dry, i):
    """Whether a nested branch of `level` whose (+) branch holds the facts `row` (without
    a contradiction) ends with them: on the grid those facts leave, rebuilt in the
    workspace as `follow` leaves it when the rules run dry, no inner chain can add
    anything.  Level 2's, for want of a strong link the start grid lacks (`new_links`) or
    by the bound (`chain_bound.failing`); level 3's, besides, when the grid has no
    static cell or region chain (by the bound, `chain_bound.may_agree`, or found and kept
    in the memo as `nested_branch` keeps it).  (The workspace's grid is overwritten: the
    next branch's `start` sets it again.)  ``dry[i]`` keeps level 2's answer for the seed
    (-1: not known yet): the nested searches of one grid share it."""
    if dry[i] == 0:
        return False
    start_cand, start_pos, start_placed = grid[0], grid[1], grid[2]
    cell_units, at_bits = geo[1], geo[2]
    units = sgeo[0]
    cand = ws[W_CAND]
    pos = ws[W_POS]
    placed = ws[W_PLACED]
    cand[:] = start_cand
    pos[:] = start_pos
    placed[:] = start_placed
    n = units.shape[1]
    off_base = cand.shape[0] * n
    one = np.uint64(1)
    for w in range(row.shape[0]):
        word = row[w]
        while word:
            x = 64 * w + np.int64(trailing_zeros(word))
            word &= word - one
            on = x < off_base
            at = x if on else x - off_base
            cell = at // n
            k = at - cell * n
            bit = np.int64(1) << k
            if on:
                for t in range(3):
                    placed[cell_units[cell, t]] |= bit
            elif cand[cell] & bit:
                cand[cell] ^= bit
            else:
                continue
            for t in range(3):
                pos[cell_units[cell, t] * n + k] &= ~at_bits[cell, t]
    index, rows, back = bound[0], bound[1], bound[2]
    bounded = rows.shape[0] > 0
    if bounded:
        consistent_grid, tails, heads, count = links_of(
            cand, pos, placed, start_cand, start_pos, n, units, index
        )
        if not consistent_grid or (
            dry[i] < 0
            and count
            and failing_with(cand, n, index, rows, back, tails, heads, count, False).any()
        ):
            dry[i] = 0
            return False
    elif new_links(ws, start_cand, start_pos):
        dry[i] = 0
        return False  # (without the bound, the grid's chains are not known)
    dry[i] = 1
    if level < 3:
        return True
    table, cands, l2s, l3s, done, counter = memo
    e = lookup(table, cands, cand)
    if e < 0:
        if bounded and not agrees_with(
            cand, pos, placed, n, units, index, rows, tails, heads, count
        ):
            return True  # (not kept: most such grids come once)
        taken, agreed = _agreements_of(ws, grid, sgeo, bound, bounded)
        if not taken:
            return False
        e = insert(*memo, cand, _no_hints(), agreed, True)
    elif not done[e]:
        taken, agreed = _agreements_of(ws, grid, sgeo, bound, False)
        if not taken:
            return False
        set_level3(l3s, done, counter, e, agreed)
    return l3s[e][0].shape[0] == 0


@kernel
def flat(ws):
    """The branch in the workspace as one array, for `compiled_branches.branch_of`: its
    contradiction's length and facts (0, -1, -1 for none), then per fact in the order
    recorded the fact, its inner chain's key (-1 for none) and complexity, how many causes
    it has, and its causes."""
    cnt = ws[W_CNT]
    count = cnt[N_FACTS]
    facts = ws[W_FACTS]
    why_at = ws[W_WHY_AT]
    why_len = ws[W_WHY_LEN]
    inner_key = ws[W_INNER_KEY]
    inner_size = ws[W_INNER_SIZE]
    pool = ws[W_POOL]
    out = np.empty(3 + 4 * count + cnt[POOL_USED], dtype=np.int64)
    out[0] = cnt[CLASH_LEN]
    out[1] = cnt[CLASH_ON]
    out[2] = cnt[CLASH_OFF]
    i = 3
    for j in range(count):
        x = facts[j]
        m = why_len[x]
        out[i] = x
        out[i + 1] = inner_key[x]
        out[i + 2] = inner_size[x]
        out[i + 3] = m
        a = why_at[x]
        for s in range(m):
            out[i + 4 + s] = pool[a + s]
        i += 4 + m
    return out


@kernel
def plus_branch(ws, geo, seeds, grid):
    """A (+) branch from the start: its status and `flat` form."""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    start_cand, start_pos, start_placed, open_counts, placed_count = grid
    status = start(ws, seeds, start_cand, start_pos, start_placed)
    if status == DONE:
        status = follow(ws, geo, start_cand, start_pos, open_counts, placed_count, False)
    return status, flat(ws)


@kernel(inline="always")
def _may_share(nodes, count, rows, clash, row_of, dynamic, common):
    """The search's filter for a group of seeds (`forcing.search_chains`' ``agree`` and
    ``shared``): False when a dynamic branch of the group ends in a contradiction, or when
    the branches, all known without one, share no fact besides the seeds."""
    if dynamic:
        for j in range(count):
            r = row_of[nodes[j]]
            if r >= 0 and clash[r]:
                return False
    common[:] = ~np.uint64(0)
    for j in range(count):
        r = row_of[nodes[j]]
        if r < 0 or clash[r]:
            return True  # (the branches will tell)
        for w in range(common.shape[0]):
            common[w] &= rows[r, w]
    for j in range(count):
        x = nodes[j]
        common[x >> 6] &= ~(np.uint64(1) << np.uint64(x & 63))
    return common.any()


@kernel
def sharing(rows, clash, row_of, cand, pos, units, dynamic):
    """`_may_share` for every group a forcing-chain search looks at, from its branches'
    facts (`branch_facts`, `nested_batch`; ``row_of``: per node its row, -1
    for none): per cell its digits, per unit and digit its places (with two or more), per
    candidate of a cell with three or more its on and off facts."""
    n = units.shape[1]
    off_base = cand.shape[0] * n
    common = np.empty(rows.shape[1], dtype=np.uint64)
    nodes = np.empty(n, dtype=np.int64)
    cells_ok = np.zeros(cand.shape[0], dtype=np.bool_)
    places_ok = np.zeros(pos.shape[0], dtype=np.bool_)
    both_ok = np.zeros(off_base, dtype=np.bool_)
    pair = np.empty(2, dtype=np.int64)
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if popcount(m) < 2:
            continue
        count = 0
        while m:
            nodes[count] = cell * n + trailing_zeros(m)
            m &= m - 1
            count += 1
        cells_ok[cell] = _may_share(nodes, count, rows, clash, row_of, dynamic, common)
        if count > 2:
            for j in range(count):
                x = nodes[j]
                pair[0] = x
                pair[1] = off_base + x
                both_ok[x] = _may_share(pair, 2, rows, clash, row_of, False, common)
    for i in range(pos.shape[0]):
        p = pos[i]
        if popcount(p) < 2:
            continue
        u = i // n
        k = i - u * n
        count = 0
        while p:
            nodes[count] = units[u, trailing_zeros(p)] * n + k
            p &= p - 1
            count += 1
        places_ok[i] = _may_share(nodes, count, rows, clash, row_of, dynamic, common)
    return cells_ok, places_ok, both_ok


@kernel
def branch_facts(ws, geo, peers, seeds, grid, dynamic):
    """Every seed's branch at once, one after another: (+) branches (`follow`) or, with
    `dynamic`, dynamic ones (`_dynamic`, no limit).  (False when a branch outgrew the
    pool, per seed whether its branch ends in a contradiction, per seed the facts its
    branch holds as a row of bits over nodes, and for the branches that end in one what
    it rests on (without a limit): per seed ``depth, start, middle, end`` in `spans`
    (all -1 for none), its on side at ``rest[start:middle]`` and its off side at
    ``rest[middle:end]``; for a dynamic branch, `depth` is the breadth-first level it
    was found at, which tells whether a limit would have stopped the branch first.)"""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    start_cand, start_pos, start_placed, open_counts, placed_count = grid
    n = start_pos.shape[0] // start_placed.shape[0]
    nodes = 2 * start_cand.shape[0] * n
    rows = np.zeros((seeds.shape[0], (nodes + 63) >> 6), dtype=np.uint64)
    clash = np.zeros(seeds.shape[0], dtype=np.bool_)
    spans = np.full((seeds.shape[0], 4), -1, dtype=np.int64)
    rest = np.empty(256, dtype=np.int64)
    used = 0
    stack = np.empty(ws[W_MARK].shape[0], dtype=np.int64)
    for i in range(seeds.shape[0]):
        seed = seeds[i : i + 1]
        if dynamic:
            status = _dynamic(ws, geo, peers, seed, grid, 0)
        else:
            status = start(ws, seed, start_cand, start_pos, start_placed)
            if status == DONE:
                status = follow(ws, geo, start_cand, start_pos, open_counts, placed_count, False)
        if status == OVERFLOW:
            return False, clash, rows, spans, rest[:used]
        if status != CONFLICT:
            _fact_row(ws, rows[i])
            continue
        clash[i] = True
        cnt = ws[W_CNT]
        spans[i, 0] = cnt[DEPTH]
        spans[i, 1] = spans[i, 2] = spans[i, 3] = used
        if cnt[CLASH_LEN] != 2:
            continue
        for side in range(2):
            facts = _resting(ws, cnt[CLASH_ON] if side == 0 else cnt[CLASH_OFF], stack)
            rest = _grow(rest, used, facts.shape[0])
            rest[used : used + facts.shape[0]] = facts
            used += facts.shape[0]
            spans[i, 2 + side] = used
    return True, clash, rows, spans, rest[:used]


# the branches `agreement` reads
PLUS_BRANCHES = 0
DYNAMIC_BRANCHES = 1
NESTED_BRANCHES = 2


@kernel
def agreement(ws, geo, peers, grid, nodes, kind, spans, out, rows, known, useful, limit):
    """The cheapest fact a group's branches agree on (the digits of a cell, the places of
    a digit in a unit, or a candidate's two states), as `forcing.agreed_facts` counts it: (its
    complexity, the fact), (-1, -1) for none, or (-2, -2) when a branch outgrew the pool.
    A fact counts when every branch holds it (a branch ending in a contradiction with the
    facts it had by then), it is not one of `nodes`, and `useful` (a row of bits over
    nodes) holds it; its complexity adds the facts it rests on in each branch, and the
    inner chains those rest on, once each; the lowest complexity wins, then the lowest
    node (the order `forcing.finding_rank` gives the group's facts).  The branches
    (`kind`): (+) ones, dynamic ones (none ending in a contradiction: the caller sees to
    that), or a nested search's, each at ``out[spans[j, 0]:spans[j, 1]]`` in its `flat`
    form (`nested_batch`), or for a span of -1 its (+) branch (`_branch_into`).  Where
    ``known[j]``, ``rows[j]`` holds branch j's facts as a row of bits over nodes (the
    search's ends): they are read from there until the group turns out to share a fact.
    With a `limit` (0: none), a fact resting on more facts than that cannot win, and
    (-1, -1) comes as soon as none is left that can."""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    words = useful.shape[0]
    one = np.uint64(1)
    common = useful.copy()
    row = np.empty(words, dtype=np.uint64)
    for j in range(nodes.shape[0]):
        if known[j]:
            row[:] = rows[j]
        elif _branch_into(ws, geo, peers, grid, nodes[j : j + 1], kind, spans[j], out):
            row[:] = 0
            _fact_row(ws, row)
        else:
            return -2, -2
        for w in range(words):
            common[w] &= row[w]
    for j in range(nodes.shape[0]):
        x = nodes[j]
        common[x >> 6] &= ~(one << np.uint64(x & 63))
    count = 0
    for w in range(words):
        count += popcount(common[w])
    if count == 0:
        return -1, -1
    targets = np.empty(count, dtype=np.int64)
    t = 0
    for w in range(words):
        word = common[w]
        while word:
            targets[t] = 64 * w + np.int64(trailing_zeros(word))
            word &= word - one
            t += 1
    cost = np.zeros(count, dtype=np.int64)
    stack = np.empty(ws[W_MARK].shape[0], dtype=np.int64)
    keys = np.empty((ws[W_MARK].shape[0], 2), dtype=np.int64)
    # per target, the inner chains its facts rest on in any branch: (target, key, size)
    found = np.empty((64, 3), dtype=np.int64)
    size = 0
    for j in range(nodes.shape[0]):
        if not _branch_into(ws, geo, peers, grid, nodes[j : j + 1], kind, spans[j], out):
            return -2, -2
        alive = False
        for t in range(count):
            if limit and cost[t] > limit:
                continue  # (past the limit already: the facts of its inner chains add more)
            c, used, _ = _keyed_ancestors(ws, targets[t], _new_stamp(ws), stack, keys, 0)
            cost[t] += c
            alive |= not limit or cost[t] <= limit
            if size + used > found.shape[0]:
                bigger = np.empty((2 * (size + used), 3), dtype=np.int64)
                bigger[:size] = found[:size]
                found = bigger
            for i in range(used):
                found[size, 0] = t
                found[size, 1] = keys[i, 0]
                found[size, 2] = keys[i, 1]
                size += 1
        if not alive:
            return -1, -1
    for i in range(size):  # each target's inner chains, once each
        duplicate = False
        for e in range(i):
            if found[e, 0] == found[i, 0] and found[e, 1] == found[i, 1]:
                duplicate = True
                break
        if not duplicate:
            cost[found[i, 0]] += found[i, 2]
    best = 0
    for t in range(1, count):
        if cost[t] < cost[best]:
            best = t
    return cost[best], targets[best]


@kernel
def _branch_into(ws, geo, peers, grid, seeds, kind, span, out):
    """A branch of `agreement`'s into the workspace: False when it outgrew the pool."""
    if kind == DYNAMIC_BRANCHES:
        return _dynamic(ws, geo, peers, seeds, grid, 0) != OVERFLOW
    if kind == NESTED_BRANCHES and span[0] >= 0:
        return _load(ws, out[span[0] : span[1]])
    start_cand, start_pos, start_placed, open_counts, placed_count = grid
    status = start(ws, seeds, start_cand, start_pos, start_placed)
    if status == DONE:
        status = follow(ws, geo, start_cand, start_pos, open_counts, placed_count, False)
    return status != OVERFLOW


@kernel
def _load(ws, found):
    """Put a branch's `flat` form back into the workspace, as far as its facts and their
    causes go (not its grid); False when its causes outgrow the pool."""
    _clear_facts(ws)
    why_at = ws[W_WHY_AT]
    inner_key = ws[W_INNER_KEY]
    facts = ws[W_FACTS]
    cnt = ws[W_CNT]
    pool = ws[W_POOL]
    why_len = ws[W_WHY_LEN]
    inner_size = ws[W_INNER_SIZE]
    cnt[CLASH_LEN] = found[0]
    cnt[CLASH_ON] = found[1]
    cnt[CLASH_OFF] = found[2]
    i = 3
    used = 0
    count = 0
    while i < found.shape[0]:
        x = found[i]
        m = found[i + 3]
        if used + m > pool.shape[0]:
            cnt[N_FACTS] = count
            return False
        for j in range(m):
            pool[used + j] = found[i + 4 + j]
        why_at[x] = used
        why_len[x] = m
        inner_key[x] = found[i + 1]
        inner_size[x] = found[i + 2]
        facts[count] = x
        count += 1
        used += m
        i += 4 + m
    cnt[N_FACTS] = count
    cnt[POOL_USED] = used
    return True


@kernel
def _fact_row(ws, row):
    """The workspace branch's facts into `row`, as bits over nodes."""
    facts = ws[W_FACTS]
    one = np.uint64(1)
    for j in range(ws[W_CNT][N_FACTS]):
        x = facts[j]
        row[x >> 6] |= one << np.uint64(x & 63)


STOPPED = 7  # `dynamic_branch`: stopped before a contradiction could beat the limit


@kernel
def _take_off(ws, cell, k, n, cell_units, at_bits):
    """Remove candidate k from `cell` now (the breadth-first route's off facts take effect
    when found)."""
    ws[W_CAND][cell] ^= np.int64(1) << k
    pos = ws[W_POS]
    for t in range(3):
        pos[cell_units[cell, t] * n + k] &= ~at_bits[cell, t]


@kernel
def dynamic_branch(ws, geo, peers, seeds, grid, limit):
    """A dynamic forcing chain's branch (`_dynamic`): its status and `flat` form."""
    ws, geo, grid = borrow_each(ws), borrow_each(geo), borrow_each(grid)
    status = _dynamic(ws, geo, peers, seeds, grid, limit)
    return status, flat(ws)


@kernel
def _resting(ws, x, stack):
    """The facts of the branch `x` rests on, itself included, in the order recorded."""
    stamp = _new_stamp(ws)
    size = _ancestors(ws, x, stamp, stack)
    mark = ws[W_MARK]
    facts = ws[W_FACTS]
    out = np.empty(size, dtype=np.int64)
    m = 0
    for j in range(ws[W_CNT][N_FACTS]):
        if mark[facts[j]] == stamp:
            out[m] = facts[j]
            m += 1
    return out[:m]


@kernel
def _dynamic(ws, geo, peers, seeds, grid, limit):
    """A dynamic forcing chain's branch (`Context.steps` in mode `DYNAMIC`): breadth
    first, level by level, an off fact taking effect when found, peers ascending, units
    row, column, box; with a `limit`, `STOPPED` before taking the facts `depth` links away
    when a contradiction from there would rest on more than `limit` facts.  Its status
    (the branch stays in the workspace)."""
    start_cand, start_pos, start_placed = grid[0], grid[1], grid[2]
    units, cell_units, at_bits = geo[0], geo[1], geo[2]
    n = units.shape[1]
    off_base = start_cand.shape[0] * n
    status = start(ws, seeds, start_cand, start_pos, start_placed)
    if status != DONE:
        return status
    cand = ws[W_CAND]
    pos = ws[W_POS]
    placed = ws[W_PLACED]
    why_at = ws[W_WHY_AT]
    placed_cells = ws[W_PLACED_CELLS]
    buf = ws[W_BUF]
    cnt = ws[W_CNT]
    queue = ws[W_QUEUE]
    # `start` queued the seeds as `follow` wants them; here an off seed takes effect now
    size = 0
    for i in range(cnt[N_FACTS]):
        x = ws[W_FACTS][i]
        queue[size] = x
        size += 1
        if x >= off_base:
            _take_off(ws, (x - off_base) // n, (x - off_base) % n, n, cell_units, at_bits)
    qi = 0
    level_end = size
    depth = 0
    while qi < size:
        if qi == level_end:
            depth += 1
            cnt[DEPTH] = depth
            level_end = size
            if limit and depth + 1 > limit:
                return STOPPED
        node = queue[qi]
        qi += 1
        if node < off_base:  # on(cell, k)
            cell = node // n
            k = node - cell * n
            bit = np.int64(1) << k
            buf[0] = node
            m = cand[cell]
            rest = m & ~bit
            if rest:
                cand[cell] = m ^ rest
                at_on = cell * n
                while rest:
                    j = trailing_zeros(rest)
                    rest &= rest - 1
                    x = off_base + at_on + j
                    if not _put(ws, x, 1):
                        return OVERFLOW
                    if why_at[at_on + j] >= 0:
                        _clash(ws, at_on + j, x)
                        return CONFLICT
                    for t in range(3):
                        pos[cell_units[cell, t] * n + j] &= ~at_bits[cell, t]
                    queue[size] = x
                    size += 1
            for i in range(peers.shape[1]):
                p = peers[cell, i]
                if p < 0:
                    break
                if cand[p] & bit:
                    on_node = p * n + k
                    off_node = off_base + on_node
                    if not _put(ws, off_node, 1):
                        return OVERFLOW
                    if why_at[on_node] >= 0:
                        _clash(ws, on_node, off_node)
                        return CONFLICT
                    _take_off(ws, p, k, n, cell_units, at_bits)
                    queue[size] = off_node
                    size += 1
            for t in range(3):
                u = cell_units[cell, t]
                placed[u] |= bit
                pos[u * n + k] &= ~at_bits[cell, t]
            continue
        at = node - off_base
        cell = at // n
        k = at - cell * n
        bit = np.int64(1) << k
        # the last digit of the cell
        if why_at[at] < 0:
            m = cand[cell]
            if not m & (m - 1) and not placed_cells[cell]:
                got = _lost(ws, start_cand[cell] & ~m, off_base + cell * n, 1)
                if not m:
                    return _status(_emptied(ws, got, n, off_base))
                r = _on(ws, cell, _high_bit(m), got, n, off_base)
                if r == _CLASH:
                    return CONFLICT
                if r == _FULL:
                    return OVERFLOW
                if r == _ADDED:
                    queue[size] = cell * n + _high_bit(m)
                    size += 1
        alone = False
        for t in range(3):
            p = pos[cell_units[cell, t] * n + k]
            if not p & (p - 1):
                alone = True
        if not alone:
            continue
        # the last place of the digit in each unit of the cell: row, column, box
        for t in range(3):
            target, got = _last_place(ws, units, cell_units[cell, t], k, start_pos, off_base)
            if target == _NO_SINGLE:
                continue
            if target == _NO_PLACE:
                return _status(_emptied(ws, got, n, off_base))
            r = _on(ws, target, k, got, n, off_base)
            if r == _CLASH:
                return CONFLICT
            if r == _FULL:
                return OVERFLOW
            if r == _ADDED:
                queue[size] = target * n + k
                size += 1
    return DONE
