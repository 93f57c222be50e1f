"""The ALS techniques' searches compiled (numba; imported only when numba is installed).

ALS-XZ, ALS-XY-Wing and the ALS chains run at most hard steps of the HoDoKu-order pass
and mostly come up empty; in Python their loops over pairs of sets and the chains'
breadth-first search over (set, digit) facts were the costliest searches of that pass.
The kernels here (and one for Death Blossom, where a configuration has it) walk the same
sets in the same order with the same tie-breaks (`als` keeps the pure-Python route, used
without numba) and hand back only the indices and digits a step is made of; `als` builds
the step from them.

Array conventions (S sets, n digits, W 64-bit words per cell mask):

- ``cells[s]``: the set's cell mask, a row of W uint64 words (bit ``c & 63`` of word
  ``c >> 6`` for cell c); ``digits[s]``, ``size[s]``: its digit mask and cell count;
- ``holding[s, k]``: its cells holding digit k+1; ``seen[s, k]``: the cells seeing all
  of them (rows of words, zero for digits not in the set), from `set_rows`;
- ``cw[k]``: the cells holding digit k+1; ``peers[c]``: cell c's peers;
- the RCC links as compressed rows: the links of set i at ``start[i]:start[i + 1]`` of
  ``other`` (the linked set, ascending) and ``rcc`` (the RCC digit mask).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, popcount, row_count

NEED_ROOM = -1  # `links`: the output arrays are too small; call again with bigger ones


@kernel
def find_sets(cand, units, cap, ncells):
    """Every ALS of up to `cap` cells in `als.almost_locked_sets`' order: (``cells``, each
    set's unit).  Per unit the same depth-first walk over its cells with at most cap + 1
    candidates; a set is kept under the first unit holding it (the unit order is rows,
    columns, boxes: a column's set lies in an earlier row only when it is one cell, a
    box's when its cells share a row or a column); then stably by cell count."""
    nunits, n = units.shape
    words = (ncells + 63) >> 6
    one = np.uint64(1)
    room = 256
    rows = np.zeros((room, words), dtype=np.uint64)
    set_unit = np.empty(room, dtype=np.int64)
    set_size = np.empty(room, dtype=np.int64)
    count = 0
    open_cells = np.empty(n, dtype=np.int64)
    open_masks = np.empty(n, dtype=np.int64)
    most = n * cap + 1
    stack_start = np.empty(most, dtype=np.int64)
    stack_cells = np.empty(most, dtype=np.int64)  # positions among the open cells
    stack_union = np.empty(most, dtype=np.int64)
    stack_size = np.empty(most, dtype=np.int64)
    for u in range(nunits):
        nopen = 0
        for i in range(n):
            c = units[u, i]
            m = cand[c]
            if m and popcount(m) <= cap + 1:
                open_cells[nopen] = c
                open_masks[nopen] = m
                nopen += 1
        stack_start[0] = stack_cells[0] = stack_union[0] = stack_size[0] = 0
        top = 1
        while top:
            top -= 1
            start, chosen = stack_start[top], stack_cells[top]
            union, size = stack_union[top], stack_size[top]
            for i in range(start, nopen):
                u2 = union | open_masks[i]
                digits = popcount(u2)
                if digits > cap + 1:
                    continue
                c2 = chosen | np.int64(1) << i
                if digits == size + 2 and not _found_before(c2, open_cells, u, n):
                    if count == room:
                        room *= 2
                        rows = _grown_rows(rows, room)
                        set_unit = _grown(set_unit, room)
                        set_size = _grown(set_size, room)
                    rows[count, :] = 0
                    rest = c2
                    while rest:
                        c = open_cells[trailing_zeros(rest)]
                        rest &= rest - 1
                        rows[count, c >> 6] |= one << np.uint64(c & 63)
                    set_unit[count] = u
                    set_size[count] = size + 1
                    count += 1
                if size + 1 < cap:
                    stack_start[top] = i + 1
                    stack_cells[top] = c2
                    stack_union[top] = u2
                    stack_size[top] = size + 1
                    top += 1
    order = np.argsort(set_size[:count], kind="mergesort")
    return rows[order], set_unit[order]


@kernel
def _found_before(chosen, open_cells, u, n):
    """Whether the set at positions `chosen` of unit u's open cells lies in an earlier
    unit too (so it was kept there)."""
    if u < n:
        return False
    first = open_cells[trailing_zeros(chosen)]
    same_row = same_col = True
    rest = chosen
    while rest:
        c = open_cells[trailing_zeros(rest)]
        rest &= rest - 1
        same_row = same_row and c // n == first // n
        same_col = same_col and c % n == first % n
    return same_row or (u >= 2 * n and same_col)


@kernel
def _grown_rows(rows, room):
    out = np.zeros((room, rows.shape[1]), dtype=rows.dtype)
    out[: rows.shape[0]] = rows
    return out


@kernel
def _grown(values, room):
    out = np.empty(room, dtype=values.dtype)
    out[: values.shape[0]] = values
    return out


@kernel
def set_rows(cells, cand, peers, n):
    """Each set's digits, cell count, and per digit its places and the cells seeing them
    all (``holding``, ``seen``)."""
    nsets, words = cells.shape
    one = np.uint64(1)
    holding = np.zeros((nsets, n, words), dtype=np.uint64)
    seen = np.zeros((nsets, n, words), dtype=np.uint64)
    digits = np.zeros(nsets, dtype=np.int64)
    size = np.zeros(nsets, dtype=np.int64)
    for s in range(nsets):
        for w in range(words):
            word = cells[s, w]
            while word:
                c = w * 64 + int(trailing_zeros(word))
                word &= word - one
                m = cand[c]
                size[s] += 1
                rest = m
                while rest:
                    k = int(trailing_zeros(rest))
                    rest &= rest - 1
                    if (digits[s] >> k) & 1:
                        for v in range(words):
                            seen[s, k, v] &= peers[c, v]
                    else:
                        for v in range(words):
                            seen[s, k, v] = peers[c, v]
                    holding[s, k, c >> 6] |= one << np.uint64(c & 63)
                digits[s] |= m
    return digits, size, holding, seen


@kernel
def _lowest(row):
    """The lowest cell of a row of words (-1 when empty)."""
    for w in range(row.shape[0]):
        if row[w]:
            return w * 64 + int(trailing_zeros(row[w]))
    return -1


@kernel
def _disjoint(a, b):
    """Whether rows a and b share no cell (numba compiles the loop, not `all`)."""
    common = np.uint64(0)
    for w in range(a.shape[0]):
        common |= a[w] & b[w]
    return common == 0


@kernel
def _within(a, b):
    """Whether row a is a subset of row b."""
    outside = np.uint64(0)
    for w in range(a.shape[0]):
        outside |= a[w] & ~b[w]
    return outside == 0


@kernel
def links(cells, digits, holding, seen, cw, start, other, rcc):
    """The RCC links (`als._find_links`'s): sets i and j share no cell and every place of
    a common digit k in j sees every place of it in i.  The candidates j of set i are
    looked up by their lowest place of k among the cells seeing i's places; fills
    `start`, `other`, `rcc` and returns the number of links, or `NEED_ROOM`."""
    nsets, words = cells.shape
    n = cw.shape[0]
    ncells = words * 64
    one = np.uint64(1)
    # the sets by (digit, lowest place), as compressed rows
    bucket_start = np.zeros(n * ncells + 1, dtype=np.int64)
    for i in range(nsets):
        rest = digits[i]
        while rest:
            k = int(trailing_zeros(rest))
            rest &= rest - 1
            bucket_start[k * ncells + _lowest(holding[i, k]) + 1] += 1
    for b in range(n * ncells):
        bucket_start[b + 1] += bucket_start[b]
    fill = bucket_start[:-1].copy()
    bucket = np.empty(bucket_start[-1], dtype=np.int64)
    for i in range(nsets):
        rest = digits[i]
        while rest:
            k = int(trailing_zeros(rest))
            rest &= rest - 1
            b = k * ncells + _lowest(holding[i, k])
            bucket[fill[b]] = i
            fill[b] += 1
    acc = np.zeros(nsets, dtype=np.int64)
    touched = np.empty(nsets, dtype=np.int64)
    total = 0
    start[0] = 0
    for i in range(nsets):
        nt = 0
        rest = digits[i]
        while rest:
            k = int(trailing_zeros(rest))
            rest &= rest - 1
            for w in range(words):
                word = seen[i, k, w] & cw[k, w]
                while word:
                    c = w * 64 + int(trailing_zeros(word))
                    word &= word - one
                    b = k * ncells + c
                    for p in range(bucket_start[b], bucket_start[b + 1]):
                        j = bucket[p]
                        if not _disjoint(cells[i], cells[j]):
                            continue
                        if not _within(holding[j, k], seen[i, k]):
                            continue
                        if acc[j] == 0:
                            touched[nt] = j
                            nt += 1
                        acc[j] |= 1 << k
        if total + nt > other.shape[0]:
            return NEED_ROOM
        found = np.sort(touched[:nt])
        for t in range(nt):
            j = found[t]
            other[total] = j
            rcc[total] = acc[j]
            acc[j] = 0
            total += 1
        start[i + 1] = total
    return total


@kernel
def _common_count(seen, cw, i, j, k):
    """How many cells holding k+1 see all its places in sets i and j."""
    out = 0
    for w in range(cw.shape[1]):
        out += popcount(seen[i, k, w] & seen[j, k, w] & cw[k, w])
    return out


@kernel
def best_xz(digits, size, seen, cw, start, other, rcc):
    """ALS-XZ's best pair (`als.als_xz`'s loop and key: fewest cells, then most
    eliminations, the first met on ties): (i, j, RCC mask used), or (-1, -1, 0)."""
    nsets = digits.shape[0]
    words = cw.shape[1]
    n = cw.shape[0]
    elim = np.zeros(words, dtype=np.uint64)
    best_i = -1
    best_j = -1
    best_rcc = 0
    best_size = 0
    best_count = 0
    for i in range(nsets):
        for p in range(start[i], start[i + 1]):
            j = other[p]
            if j < i:
                continue
            sz = size[i] + size[j]
            if best_i >= 0 and sz > best_size:
                continue
            r = rcc[p]
            both = digits[i] & digits[j]
            count = 0
            if r & (r - 1):  # doubly linked: two RCCs are enough
                x = r & -r
                rest = r ^ x
                r = x | (rest & -rest)
                for k in range(n):
                    bit = 1 << k
                    if not (digits[i] | digits[j]) & bit:
                        continue
                    elim[:] = 0
                    if r & both & bit:
                        for w in range(words):
                            elim[w] |= seen[i, k, w] & seen[j, k, w] & cw[k, w]
                    if digits[i] & ~r & bit:
                        for w in range(words):
                            elim[w] |= seen[i, k, w] & cw[k, w]
                    if digits[j] & ~r & bit:
                        for w in range(words):
                            elim[w] |= seen[j, k, w] & cw[k, w]
                    count += row_count(elim)
            else:
                rest = both & ~r
                while rest:
                    k = int(trailing_zeros(rest))
                    rest &= rest - 1
                    count += _common_count(seen, cw, i, j, k)
            if count == 0:
                continue
            if best_i < 0 or sz < best_size or (sz == best_size and count > best_count):
                best_i = i
                best_j = j
                best_rcc = r
                best_size = sz
                best_count = count
    return best_i, best_j, best_rcc


@kernel
def best_xy_wing(cells, digits, size, seen, cw, start, other, rcc):
    """ALS-XY-Wing's best (`als.als_xy_wing`'s loop and key): (pivot, a, b, x, y) with x,
    y digit indices, or all -1."""
    nsets = digits.shape[0]
    n = cw.shape[0]
    per_digit = np.zeros(n, dtype=np.int64)
    best = np.full(5, -1, dtype=np.int64)
    best_size = 0
    best_count = 0
    for c in range(nsets):
        for p in range(start[c], start[c + 1]):
            i = other[p]
            rcc_a = rcc[p]
            for q in range(p + 1, start[c + 1]):
                j = other[q]
                sz = size[i] + size[j] + size[c]
                if best[0] >= 0 and sz > best_size or not _disjoint(cells[i], cells[j]):
                    continue
                zs = 0
                rest = digits[i] & digits[j]
                while rest:
                    k = int(trailing_zeros(rest))
                    rest &= rest - 1
                    per_digit[k] = _common_count(seen, cw, i, j, k)
                    if per_digit[k]:
                        zs |= 1 << k
                if not zs:
                    continue
                xs = rcc_a
                while xs:
                    x = int(trailing_zeros(xs))
                    xs &= xs - 1
                    ys = rcc[q] & ~(1 << x)
                    while ys:
                        y = int(trailing_zeros(ys))
                        ys &= ys - 1
                        z = zs & ~(1 << x | 1 << y)
                        if not z:
                            continue
                        count = 0
                        while z:
                            k = int(trailing_zeros(z))
                            z &= z - 1
                            count += per_digit[k]
                        if (
                            best[0] < 0
                            or sz < best_size
                            or (sz == best_size and count > best_count)
                        ):
                            best[0] = c
                            best[1] = i
                            best[2] = j
                            best[3] = x
                            best[4] = y
                            best_size = sz
                            best_count = count
    return best


@kernel
def _seen_places(digits, seen, cw, i, k, out):
    """The cells holding k+1 that see all of set i's places of it, into `out`; how many."""
    words = cw.shape[1]
    one = np.uint64(1)
    count = 0
    for w in range(words):
        word = seen[i, k, w] & cw[k, w]
        while word:
            out[count] = w * 64 + int(trailing_zeros(word))
            word &= word - one
            count += 1
    return count


@kernel
def _seers(digits, seen, cw):
    """For each (digit k, cell t holding it), the sets whose places of k all see t, as
    compressed rows at ``k * ncells + t`` (sets ascending)."""
    nsets = digits.shape[0]
    n, words = cw.shape
    ncells = words * 64
    row_start = np.zeros(n * ncells + 1, dtype=np.int64)
    places = np.empty(ncells, dtype=np.int64)
    for i in range(nsets):
        rest = digits[i]
        while rest:
            k = int(trailing_zeros(rest))
            rest &= rest - 1
            for p in range(_seen_places(digits, seen, cw, i, k, places)):
                row_start[k * ncells + places[p] + 1] += 1
    for b in range(n * ncells):
        row_start[b + 1] += row_start[b]
    fill = row_start[:-1].copy()
    rows = np.empty(row_start[-1], dtype=np.int64)
    for i in range(nsets):
        rest = digits[i]
        while rest:
            k = int(trailing_zeros(rest))
            rest &= rest - 1
            for p in range(_seen_places(digits, seen, cw, i, k, places)):
                b = k * ncells + places[p]
                rows[fill[b]] = i
                fill[b] += 1
    return row_start, rows


@kernel
def best_chain(digits, size, seen, cw, start, other, rcc, max_sets):
    """The best ALS chain (`als.als_chain` and `als._chain_from`: per first set and
    digit z, the breadth-first search over the facts (set, digit not in it), bounded by
    the best length so far; the shortest, then the fewest cells, the first met on ties):
    its facts ``set * n + digit`` from first to last (the first digit is z), padded with
    -1."""
    nsets = digits.shape[0]
    n, words = cw.shape
    ncells = words * 64
    one = np.uint64(1)
    seer_start, seer_rows = _seers(digits, seen, cw)
    mark = np.zeros(nsets, dtype=np.int64)
    visited = np.zeros(nsets * n, dtype=np.int64)
    parent = np.empty(nsets * n, dtype=np.int64)
    queue = np.empty(nsets * n, dtype=np.int64)
    depth = np.empty(nsets * n, dtype=np.int64)
    targets = np.empty(words, dtype=np.uint64)
    best = np.full(max_sets, -1, dtype=np.int64)
    best_len = 0
    best_cells = 0
    stamp = 0
    for s in range(nsets):
        zs = digits[s]
        while zs:
            z = int(trailing_zeros(zs))
            zs &= zs - 1
            stamp += 1
            nends = 0
            for w in range(words):
                targets[w] = seen[s, z, w] & cw[z, w]
                word = targets[w]
                while word:
                    t = w * 64 + int(trailing_zeros(word))
                    word &= word - one
                    b = z * ncells + t
                    for p in range(seer_start[b], seer_start[b + 1]):
                        e = seer_rows[p]
                        if e > s and mark[e] != stamp:
                            mark[e] = stamp
                            nends += 1
            if nends == 0:
                continue
            limit = max_sets if best_len == 0 else best_len
            root = s * n + z
            visited[root] = stamp
            parent[root] = -1
            head = 0
            tail = 1
            queue[0] = root
            depth[0] = 1
            hit_node = -1
            hit_len = 0
            while head < tail and hit_node < 0:
                node = queue[head]
                length = depth[head]
                head += 1
                if length >= limit:
                    break
                i = node // n
                x = node % n
                for p in range(start[i], start[i + 1]):
                    j = other[p]
                    ys = rcc[p]
                    while ys:
                        y = int(trailing_zeros(ys))
                        ys &= ys - 1
                        if y == x:
                            continue
                        nd = j * n + y
                        if visited[nd] == stamp:
                            continue
                        visited[nd] = stamp
                        parent[nd] = node
                        if mark[j] == stamp and length >= 2 and y != z:
                            hit = False
                            for w in range(words):
                                if targets[w] & seen[j, z, w]:
                                    hit = True
                            if hit:
                                hit_node = nd
                                hit_len = length + 1
                                break
                        queue[tail] = nd
                        depth[tail] = length + 1
                        tail += 1
                    if hit_node >= 0:
                        break
            if hit_node < 0:
                continue
            cells = 0
            nd = hit_node
            while nd >= 0:
                cells += size[nd // n]
                nd = parent[nd]
            if best_len == 0 or hit_len < best_len or (hit_len == best_len and cells < best_cells):
                best_len = hit_len
                best_cells = cells
                best[:] = -1
                nd = hit_node
                at = hit_len - 1
                while nd >= 0:
                    best[at] = nd
                    at -= 1
                    nd = parent[nd]
    return best


@kernel
def _petals(cells, digits, holding, stem, m, stem_peers, petal):
    """Per stem digit (ascending), the sets that can be its petal (`als.death_blossom`'s
    test, sets ascending) into ``petal``'s rows; how many per digit (0 stops early)."""
    nsets = digits.shape[0]
    count = np.zeros(petal.shape[0], dtype=np.int64)
    sw = stem >> 6
    sb = np.uint64(1) << np.uint64(stem & 63)
    slot = 0
    rest = m
    while rest:
        d = int(trailing_zeros(rest))
        rest &= rest - 1
        for a in range(nsets):
            if (
                (digits[a] >> d) & 1
                and not cells[a, sw] & sb
                and digits[a] & ~m
                and _within(holding[a, d], stem_peers)
            ):
                petal[slot, count[slot]] = a
                count[slot] += 1
        if count[slot] == 0:
            return count
        slot += 1
    return count


@kernel
def _blossom(seen, z, opt, nopt, petals, targets, chosen):
    """`als._blossom`: one petal per stem digit whose places of z all see some cell of
    the targets left (``targets[0]`` the first), depth first, the first such choice;
    whether found (then ``chosen``, and ``targets[petals]`` the cells hit)."""
    words = targets.shape[1]
    pos = np.zeros(petals, dtype=np.int64)
    level = 0
    while True:
        if level == petals:
            return True
        if pos[level] >= nopt[level]:
            level -= 1
            if level < 0:
                return False
            continue
        a = opt[level, pos[level]]
        pos[level] += 1
        hit = np.uint64(0)
        for w in range(words):
            targets[level + 1, w] = targets[level, w] & seen[a, z, w]
            hit |= targets[level + 1, w]
        if hit:
            chosen[level] = a
            level += 1
            if level < petals:
                pos[level] = 0


@kernel
def best_blossom(cells, digits, size, holding, seen, cw, cand, peers, max_stem):
    """Death Blossom's best (`als.death_blossom`'s loop and key: fewest petal cells, then
    most eliminations, the first met on ties): [stem, z, petal per stem digit...] padded
    with -1, or all -1."""
    nsets, words = cells.shape
    n = cw.shape[0]
    petal = np.empty((max_stem, nsets), dtype=np.int64)
    opt = np.empty((max_stem, nsets), dtype=np.int64)
    nopt = np.zeros(max_stem, dtype=np.int64)
    targets = np.empty((max_stem + 1, words), dtype=np.uint64)
    chosen = np.empty(max_stem, dtype=np.int64)
    best = np.full(2 + max_stem, -1, dtype=np.int64)
    best_size = 0
    best_count = 0
    for stem in range(cand.shape[0]):
        m = cand[stem]
        petals = popcount(m)
        if not m or petals > max_stem or petals < 2:
            continue
        count = _petals(cells, digits, holding, stem, m, peers[stem], petal)
        if count[petals - 1] == 0:
            continue
        sw = stem >> 6
        sb = np.uint64(1) << np.uint64(stem & 63)
        for z in range(n):
            if (m >> z) & 1:
                continue
            left = np.uint64(0)
            for w in range(words):
                targets[0, w] = cw[z, w] & ~sb if w == sw else cw[z, w]
                left |= targets[0, w]
            if not left:
                continue
            missing = False
            for slot in range(petals):
                nopt[slot] = 0
                for p in range(count[slot]):
                    a = petal[slot, p]
                    if (digits[a] >> z) & 1:
                        opt[slot, nopt[slot]] = a
                        nopt[slot] += 1
                if nopt[slot] == 0:
                    missing = True
                    break
            if missing or not _blossom(seen, z, opt, nopt, petals, targets, chosen):
                continue
            sz = 0
            for slot in range(petals):
                sz += size[chosen[slot]]
            hits = row_count(targets[petals])
            if best[0] < 0 or sz < best_size or (sz == best_size and hits > best_count):
                best[:] = -1
                best[0] = stem
                best[1] = z
                best[2 : 2 + petals] = chosen[:petals]
                best_size = sz
                best_count = hits
    return best
