"""HoDoKu's forcing chains and nets compiled (numba; imported only when numba is installed).

The same tables, closure and pick as `solvers.human.hodoku_tabling` (read its doc first),
for grids of nine digits or fewer.  Literals are numbered as there, but the offs start at
``P``, the number of ons rounded up to whole 64-bit words, so a table's ons and offs are
two aligned runs of words; group nodes follow from ``2 * P``.  A table is a row of words.

A grid is one candidate mask per cell (`cand`, 0 for a placed cell) and its values;
units are rows, columns, then boxes, as `solvers.grid.Shape.units` lists them, and each
cell's units are in `Shape.cell_units` order (row, column, box).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel

# (cell, digit index, naked) entries a net's look-ahead queues in one round, at most
_QUEUE = 1 << 14


@kernel
def _low(word) -> int:
    """The index of the lowest set bit of a nonzero word."""
    return trailing_zeros(word)  # type: ignore[call-arg]  # (a numba intrinsic)


@kernel
def _set(rows, r, b) -> None:
    rows[r, b >> 6] |= np.uint64(1) << np.uint64(b & 63)


@kernel
def _has(rows, r, b) -> bool:
    return (rows[r, b >> 6] >> np.uint64(b & 63)) & np.uint64(1) != 0


@kernel
def _single_place(pos, d, units, u) -> int:
    """The one cell of unit u taking digit d, or -1 (none or several)."""
    found = -1
    for i in range(units.shape[1]):
        c = units[u, i]
        if pos[d, c]:
            if found >= 0:
                return -1
            found = c
    return found


@kernel
def _single_digit(m) -> int:
    """The digit index of a one-digit mask, or -1 (zero or several digits)."""
    if m == 0 or m & (m - 1):
        return -1
    d = 0
    while not m >> d & 1:
        d += 1
    return d


@kernel(inline="always")
def _push(queue, qlen, c, d, naked) -> int:
    if qlen < queue.shape[0]:
        queue[qlen, 0] = c
        queue[qlen, 1] = d
        queue[qlen, 2] = naked
    return qlen + 1


@kernel
def _place(succ, row, c, d, cand2, pos2, base_pos, queue, qlen, n, N, P, cell_units, units, peers):
    """A net's placement in the look-ahead copy: its on and offs into the table, the
    singles it may make queued (see ``Tables.look_ahead``); returns the queue's length."""
    _set(succ, row, d * N + c)
    for i in range(peers.shape[1]):
        p = peers[c, i]
        if base_pos[d, p]:
            _set(succ, row, P + d * N + p)
    m = cand2[c]
    cand2[c] = 0
    for e in range(n):
        if not m >> e & 1:
            continue
        pos2[e, c] = False
        if e == d:
            continue
        _set(succ, row, P + e * N + c)
        for j in range(3):
            s = _single_place(pos2, e, units, cell_units[c, j])
            if s >= 0:
                qlen = _push(queue, qlen, s, e, 0)
    npeers = peers.shape[1]
    gone = np.zeros(npeers, dtype=np.bool_)
    for i in range(npeers):
        p = peers[c, i]
        if pos2[d, p]:
            gone[i] = True
            pos2[d, p] = False
    keep = ~(1 << d)
    for i in range(npeers):
        if not gone[i]:
            continue
        p = peers[c, i]
        cand2[p] &= keep
        e = _single_digit(cand2[p])
        if e >= 0:
            qlen = _push(queue, qlen, p, e, 1)
        for j in range(3):
            s = _single_place(pos2, d, units, cell_units[p, j])
            if s >= 0:
                qlen = _push(queue, qlen, s, d, 0)
    return qlen


@kernel
def _look_ahead(
    succ,
    row,
    c0,
    d0,
    on,
    cand,
    base_pos,
    depth,
    queue,
    picks,
    marks,
    n,
    N,
    P,
    cell_units,
    units,
    peers,
) -> None:
    """A net's table (``Tables.look_ahead``) into row `row` of `succ`."""
    cand2 = cand.copy()
    pos2 = base_pos.copy()
    qlen = 0
    if on:
        qlen = _place(
            succ, row, c0, d0, cand2, pos2, base_pos, queue, qlen, n, N, P, cell_units, units, peers
        )
    else:
        _set(succ, row, P + d0 * N + c0)
        cand2[c0] &= ~(1 << d0)
        pos2[d0, c0] = False
        e = _single_digit(cand2[c0])
        if e >= 0:
            qlen = _push(queue, qlen, c0, e, 1)
        for j in range(3):
            s = _single_place(pos2, d0, units, cell_units[c0, j])
            if s >= 0:
                qlen = _push(queue, qlen, s, d0, 0)
        if e >= 0:
            qlen = _place(
                succ,
                row,
                c0,
                e,
                cand2,
                pos2,
                base_pos,
                queue,
                qlen,
                n,
                N,
                P,
                cell_units,
                units,
                peers,
            )
    for _ in range(depth):
        if qlen > queue.shape[0]:
            raise ValueError("look-ahead queue overflow")
        # the round's singles: naked ones in queue order, then hidden ones (one per cell)
        nnaked = 0
        nhidden = 0
        seen = np.zeros(N, dtype=np.bool_)
        hidden = np.empty((qlen, 2), dtype=np.int64)
        for i in range(qlen):
            c = queue[i, 0]
            d = queue[i, 1]
            m = cand2[c]
            if not m >> d & 1:
                continue
            if queue[i, 2]:
                if not m & (m - 1):
                    picks[nnaked, 0] = c
                    picks[nnaked, 1] = d
                    nnaked += 1
            elif not seen[c]:
                for j in range(3):
                    if _single_place(pos2, d, units, cell_units[c, j]) == c:
                        seen[c] = True
                        hidden[nhidden, 0] = c
                        hidden[nhidden, 1] = d
                        nhidden += 1
                        break
        if nnaked == 0 and nhidden == 0:
            break
        for i in range(nhidden):
            picks[nnaked + i, 0] = hidden[i, 0]
            picks[nnaked + i, 1] = hidden[i, 1]
        total = nnaked + nhidden
        qlen = 0
        marks[:] = False
        for i in range(total):  # each (cell, digit) once, in order
            c = picks[i, 0]
            d = picks[i, 1]
            if marks[c * n + d]:
                continue
            marks[c * n + d] = True
            qlen = _place(
                succ,
                row,
                c,
                d,
                cand2,
                pos2,
                base_pos,
                queue,
                qlen,
                n,
                N,
                P,
                cell_units,
                units,
                peers,
            )


@kernel
def _chain_links(succ, cand, pos, n, N, P, cell_units, units, peers) -> None:
    """A forcing chain's tables: every candidate's direct links (``Tables.chain_on`` and
    ``Tables.chain_off``)."""
    for c in range(N):
        m = cand[c]
        for d in range(n):
            if not m >> d & 1:
                continue
            on = d * N + c
            off = P + on
            for i in range(peers.shape[1]):
                p = peers[c, i]
                if pos[d, p]:
                    _set(succ, on, P + d * N + p)
            for e in range(n):
                if e != d and m >> e & 1:
                    _set(succ, on, P + e * N + c)
            _chain_off(succ, off, c, d, cand, pos, n, N, cell_units, units)


@kernel
def _chain_off(succ, row, c, d, cand, pos, n, N, cell_units, units) -> bool:
    """An off's direct links (``Tables.chain_off``) into `row`; whether it has any."""
    any_link = False
    e = _single_digit(cand[c] & ~(1 << d))
    if e >= 0:
        _set(succ, row, e * N + c)
        any_link = True
    for j in range(3):
        u = cell_units[c, j]
        count = 0
        other = -1
        for i in range(units.shape[1]):
            x = units[u, i]
            if pos[d, x]:
                count += 1
                if x != c:
                    other = x
        if count == 2:
            _set(succ, row, d * N + other)
            any_link = True
    return any_link


@kernel
def _groups(pos, n, units):
    """HoDoKu's group nodes (`hodoku_tabling.group_links`): per group its digit, line,
    box, and cells (-1 past the last)."""
    size = units.shape[1]
    out = np.empty((n * 2 * n * n, 6), dtype=np.int64)
    count = 0
    for d in range(n):
        for line in range(2 * n):
            in_line = 0
            for i in range(size):
                if pos[d, units[line, i]]:
                    in_line += 1
            if in_line < 2:
                continue
            for box in range(2 * n, 3 * n):
                k = 0
                cells = np.full(3, -1, dtype=np.int64)
                for i in range(size):
                    c = units[line, i]
                    if pos[d, c]:
                        for j in range(size):
                            if units[box, j] == c:
                                if k < 3:
                                    cells[k] = c
                                k += 1
                                break
                if k >= 2:
                    out[count, 0] = d
                    out[count, 1] = line
                    out[count, 2] = box
                    out[count, 3] = cells[0]
                    out[count, 4] = cells[1]
                    out[count, 5] = cells[2]
                    count += 1
    return out[:count]


@kernel
def _in_group(groups, g, c) -> bool:
    return groups[g, 3] == c or groups[g, 4] == c or groups[g, 5] == c


@kernel
def _disjoint(groups, g, h) -> bool:
    for k in range(3, 6):
        c = groups[h, k]
        if c >= 0 and _in_group(groups, g, c):
            return False
    return True


@kernel
def _group_links(succ, groups, pos, N, P, units) -> None:
    """The group nodes' links (``hodoku_tabling.group_links``)."""
    size = units.shape[1]
    G = groups.shape[0]
    base = 2 * P
    for g in range(G):
        d = groups[g, 0]
        line = groups[g, 1]
        box = groups[g, 2]
        g_on = base + 2 * g
        g_off = g_on + 1
        for house in (line, box):
            for i in range(size):
                v = units[house, i]
                if not pos[d, v] or _in_group(groups, g, v):
                    continue
                _set(succ, g_on, P + d * N + v)
                _set(succ, d * N + v, g_off)
        for house in (box, line):
            only = -1
            count = 0
            for i in range(size):
                v = units[house, i]
                if pos[d, v] and not _in_group(groups, g, v):
                    count += 1
                    only = v
            if count == 1:
                _set(succ, g_off, d * N + only)
                _set(succ, P + d * N + only, g_on)
        for house in (line, box):
            single = -1
            count = 0
            for h in range(G):
                if h == g or groups[h, 0] != d:
                    continue
                if groups[h, 1] != house and groups[h, 2] != house:
                    continue
                if _disjoint(groups, g, h):
                    count += 1
                    single = h
                    _set(succ, g_on, base + 2 * h + 1)
            if count == 1:
                rest = False
                for i in range(size):
                    v = units[house, i]
                    if (
                        pos[d, v]
                        and not _in_group(groups, g, v)
                        and not _in_group(groups, single, v)
                    ):
                        rest = True
                        break
                if not rest:
                    _set(succ, g_off, base + 2 * single)


@kernel
def _next_bit(rows, r, start, W) -> int:
    """The lowest set bit of row r at `start` or above, or -1."""
    w = start >> 6
    if w >= W:
        return -1
    word = rows[r, w] & (~np.uint64(0) << np.uint64(start & 63))
    while True:
        if word:
            return w * 64 + _low(word)
        w += 1
        if w >= W:
            return -1
        word = rows[r, w]


@kernel
def _closures(succ, nodes, W):
    """Every node's table closed (the nodes reachable from it): Tarjan's strongly
    connected components, each component's reach the union of those below it.
    Returns each node's component and the components' reaches."""
    L = succ.shape[0]
    index = np.full(L, -1, dtype=np.int64)
    low = np.zeros(L, dtype=np.int64)
    comp = np.full(L, -1, dtype=np.int64)
    onstack = np.zeros(L, dtype=np.bool_)
    stack = np.empty(L, dtype=np.int64)
    work = np.empty(L, dtype=np.int64)
    nxt = np.zeros(L, dtype=np.int64)
    reach = np.zeros((L, W), dtype=np.uint64)
    sp = 0
    counter = 0
    ncomp = 0
    for root in nodes:
        if index[root] >= 0:
            continue
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        onstack[root] = True
        work[0] = root
        nxt[root] = 0
        wp = 1
        while wp:
            v = work[wp - 1]
            w = _next_bit(succ, v, nxt[v], W)
            if w >= 0:
                nxt[v] = w + 1
                if index[w] < 0:
                    index[w] = counter
                    low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    onstack[w] = True
                    nxt[w] = 0
                    work[wp] = w
                    wp += 1
                elif onstack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            wp -= 1
            if wp:
                u = work[wp - 1]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] != index[v]:
                continue
            k = ncomp
            ncomp += 1
            first = sp - 1
            while stack[first] != v:
                first -= 1
            for i in range(first, sp):
                x = stack[i]
                onstack[x] = False
                comp[x] = k
                _set(reach, k, x)
            for i in range(first, sp):
                x = stack[i]
                y = _next_bit(succ, x, 0, W)
                while y >= 0:
                    cy = comp[y]
                    if cy != k:
                        for j in range(W):
                            reach[k, j] |= reach[cy, j]
                    y = _next_bit(succ, x, y + 1, W)
            sp = first
    return comp, reach[:ncomp]


@kernel
def _contradictory(reach, k, P, words, sets, starts) -> bool:
    """Whether a table holds an on and an off of one candidate, or every off of a filed
    set (a cell's candidates, a unit's places of a digit)."""
    for i in range(words):
        if reach[k, i] & reach[k, words + i]:
            return True
    for s in range(starts.shape[0] - 1):
        full = True
        for i in range(starts[s], starts[s + 1]):
            if not _has(reach, k, P + sets[i]):
                full = False
                break
        if full:
            return True
    return False


@kernel
def _better(best, c, d) -> None:
    """Keep (c, d) in `best` when it is lower (cell, then digit)."""
    if best[0] < 0 or c < best[0] or (c == best[0] and d < best[1]):
        best[0] = c
        best[1] = d


@kernel
def _conclude(row, n, N, P, placement, elimination) -> None:
    """Every on of `row` (among the literals) is a placement, every off an elimination."""
    W = (2 * P) >> 6
    for w in range(W):
        word = row[w]
        while word:
            x = w * 64 + _low(word)
            word &= word - np.uint64(1)
            if x < P:
                if x < n * N:
                    _better(placement, x % N, x // N)
            else:
                x -= P
                if x < n * N:
                    _better(elimination, x % N, x // N)


@kernel
def _filed_sets(cand, values, pos, units, peers):
    """The sets of offs (as on indices) that make a contradiction together
    (``hodoku_tabling.Conclusions``): each cell's candidates, and each unit's places of a
    digit where every place no placed copy sees is still a candidate; as the indices
    and each set's start."""
    N = cand.shape[0]
    n = units.shape[1]
    sets = np.empty(n * N * 4, dtype=np.int64)
    starts = np.zeros(N + 3 * n * n + 1, dtype=np.int64)
    nsets = 0
    top = 0
    for c in range(N):
        if cand[c]:
            for d in range(n):
                if cand[c] >> d & 1:
                    sets[top] = d * N + c
                    top += 1
            nsets += 1
            starts[nsets] = top
    allowed = np.zeros((n, N), dtype=np.bool_)
    for c in range(N):
        if values[c] == 0:
            for d in range(n):
                allowed[d, c] = True
    for c in range(N):
        if values[c]:
            d = values[c] - 1
            for i in range(peers.shape[1]):
                allowed[d, peers[c, i]] = False
    for d in range(n):
        for u in range(units.shape[0]):
            some = False
            ok = True
            for i in range(units.shape[1]):
                x = units[u, i]
                if allowed[d, x]:
                    some = True
                    if not pos[d, x]:
                        ok = False
            if some and ok:
                for i in range(units.shape[1]):
                    x = units[u, i]
                    if allowed[d, x]:
                        sets[top] = d * N + x
                        top += 1
                nsets += 1
                starts[nsets] = top
    starts = starts[: nsets + 1]
    return sets[:top], starts


@kernel
def _pick(cand, pos, comp, reach, sets, starts, units, P):
    """The lowest placement and the lowest elimination (cell, digit index; -1 for none)
    the closed tables conclude (``hodoku_tabling._conclusion``)."""
    N = cand.shape[0]
    n = units.shape[1]
    W = reach.shape[1]
    words = P >> 6
    placement = np.full(2, -1, dtype=np.int64)
    elimination = np.full(2, -1, dtype=np.int64)
    both = np.empty(W, dtype=np.uint64)
    common = np.empty(W, dtype=np.uint64)
    for c in range(N):
        if not cand[c]:
            continue
        common[:] = ~np.uint64(0)
        for d in range(n):
            if not cand[c] >> d & 1:
                continue
            k_on = comp[d * N + c]
            k_off = comp[P + d * N + c]
            first_c = placement[0]
            if first_c < 0:
                last_c = elimination[0]
                if (
                    last_c < 0 or c < last_c or (c == last_c and d < elimination[1])
                ) and _contradictory(reach, k_on, P, words, sets, starts):
                    _better(elimination, c, d)
            if (
                first_c < 0 or c < first_c or (c == first_c and d < placement[1])
            ) and _contradictory(reach, k_off, P, words, sets, starts):
                _better(placement, c, d)
            for j in range(W):
                both[j] = reach[k_on, j] & reach[k_off, j]
                common[j] &= reach[k_on, j]
            for e in range(n):  # not the cell's own literals
                b = e * N + c
                both[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
                b += P
                both[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
            _conclude(both, n, N, P, placement, elimination)
        _conclude(common, n, N, P, placement, elimination)
    for d in range(n):
        for u in range(units.shape[0]):
            common[:] = ~np.uint64(0)
            some = False
            for i in range(units.shape[1]):
                x = units[u, i]
                if pos[d, x]:
                    some = True
                    k = comp[d * N + x]
                    for j in range(W):
                        common[j] &= reach[k, j]
            if some:
                _conclude(common, n, N, P, placement, elimination)
    return placement, elimination


@kernel
def tabled(cand, values, nets, depth, units, cell_units, peers):
    """HoDoKu's pick among the forcing chains' (`nets` False) or nets' conclusions:
    (cell, digit, placed), cell -1 when there is none (``hodoku_tabling._conclusion``)."""
    N = cand.shape[0]
    n = units.shape[1]
    P = ((n * N + 63) >> 6) << 6
    pos = np.zeros((n, N), dtype=np.bool_)
    for c in range(N):
        for d in range(n):
            if cand[c] >> d & 1:
                pos[d, c] = True
    groups = _groups(pos, n, units)
    G = groups.shape[0]
    L = 2 * P + 2 * G
    W = (L + 63) >> 6
    succ = np.zeros((L, W), dtype=np.uint64)
    if nets:
        queue = np.empty((_QUEUE, 3), dtype=np.int64)
        picks = np.empty((_QUEUE, 2), dtype=np.int64)
        marks = np.zeros(N * n, dtype=np.bool_)
        for c in range(N):
            for d in range(n):
                if not cand[c] >> d & 1:
                    continue
                on = d * N + c
                # the premise taken true, then (when its chain table has anything to
                # refute) taken false
                for premise in (on, P + on):
                    if premise != on:
                        if not _chain_off(succ, premise, c, d, cand, pos, n, N, cell_units, units):
                            break
                        succ[premise, :] = 0
                    _look_ahead(
                        succ,
                        premise,
                        c,
                        d,
                        premise == on,
                        cand,
                        pos,
                        depth,
                        queue,
                        picks,
                        marks,
                        n,
                        N,
                        P,
                        cell_units,
                        units,
                        peers,
                    )
    else:
        _chain_links(succ, cand, pos, n, N, P, cell_units, units, peers)
    _group_links(succ, groups, pos, N, P, units)
    nodes = np.empty(2 * n * N + 2 * G, dtype=np.int64)
    count = 0
    for c in range(N):
        for d in range(n):
            if cand[c] >> d & 1:
                nodes[count] = d * N + c
                nodes[count + 1] = P + d * N + c
                count += 2
    for g in range(2 * G):
        nodes[count] = 2 * P + g
        count += 1
    comp, reach = _closures(succ, nodes[:count], W)
    sets, starts = _filed_sets(cand, values, pos, units, peers)
    placement, elimination = _pick(cand, pos, comp, reach, sets, starts, units, P)
    if placement[0] >= 0:
        return placement[0], placement[1] + 1, True
    if elimination[0] >= 0:
        return elimination[0], elimination[1] + 1, False
    return -1, 0, False
