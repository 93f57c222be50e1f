"""The ALS wings (`als_wings.als_wing`) and the finned fish scan (`fish_search`),
compiled (numba; imported only when numba is installed).

`als_wing` runs at nearly every hard step and, in Python, spends its time walking each
unit's almost locked sets against the bivalue cells, set by set and cell by cell.  One
call of `wing_search` does the whole search of one state: per unit the sets (the same
depth-first walk as `als_wings.unit_entry`, in its order), per set the bivalue cells
ascending, with `als_wing`'s rules for the best wing (lowest rating, then most
eliminations, the first met on a tie) and for skipping a set or a unit:

- a set met in an earlier unit (a set inside a line's part of a box) is searched once;
  a later unit holding it is not fruitless when it found something or was outrated;
- a unit marked fruitless is skipped while no new bivalue cell could link to one of its
  sets and its candidates are those of the mark; when they are not, only the sets
  holding a changed cell are searched;
- a unit whose sets all came up empty is marked with its candidates, the bivalue cells
  and, per digit, the cells that could link to one of its sets through that digit.

The marks are arrays (per unit: marked or not, the candidates, the bivalue cells, the
links) that the caller copies before each call, as the state's copies share them.  Cell
sets are rows of 64-bit words (bit ``c & 63`` of word ``c >> 6``); digit sets are
int64 masks.  Grids up to 16x16 (`MAX_SIZE`): the caller takes the Python route above.

The finned fish scan (`finned_fish.python_search`) walks combinations of base lines,
their bands, fin boxes and covers, building lists and tuples at each turn; `fish_search`
walks them on position masks in the same order and returns only where the first finned
and the first sashimi fish stand, which `finned_fish` builds into steps.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, next_combination, popcount

MAX_SIZE = 16  # the largest grid side the kernel takes (as the other kernels)


@kernel
def _cell_rows(cand, n, words):
    """The bivalue cells ascending (and their count), as a row, and per digit the cells
    holding it as rows."""
    ncells = cand.shape[0]
    one = np.uint64(1)
    biv = np.empty(ncells, dtype=np.int64)
    nbiv = 0
    biv_row = np.zeros(words, dtype=np.uint64)
    holding = np.zeros((n, words), dtype=np.uint64)
    for c in range(ncells):
        m = cand[c]
        bit = one << np.uint64(c & 63)
        if m and popcount(m) == 2:
            biv[nbiv] = c
            nbiv += 1
            biv_row[c >> 6] |= bit
        while m:
            holding[trailing_zeros(m), c >> 6] |= bit
            m &= m - 1
    return biv, nbiv, biv_row, holding


@kernel
def _may_link(u, cand, biv, nbiv, rows):
    """Whether a bivalue cell that was not bivalue at unit u's mark could link to one of
    its sets."""
    one = np.uint64(1)
    for j in range(nbiv):
        c = biv[j]
        w = c >> 6
        bit = one << np.uint64(c & 63)
        if rows[u, 0, w] & bit:
            continue
        m = cand[c]
        if (rows[u, trailing_zeros(m) + 1, w] | rows[u, trailing_zeros(m & (m - 1)) + 1, w]) & bit:
            return True
    return False


@kernel
def _shared(cells, size, cell_units):
    """Whether the set's cells share a second unit (a line's part of a box)."""
    common = 0
    for k in range(3):
        same = True
        for i in range(1, size):
            if cell_units[cells[i], k] != cell_units[cells[0], k]:
                same = False
                break
        if same:
            common += 1
    return common >= 2


@kernel
def _restricted(yz, b, cells, size, cand, sees):
    """Whether every set cell holding digit b sees cell yz."""
    for i in range(size):
        a = cells[i]
        if (cand[a] >> b) & 1 and not sees[yz, a]:
            return False
    return True


@kernel
def _targets(yz, m, z, union, double, als, seen, holding, peers, out):
    """The wing's eliminations as rows per digit in `out`, and how many: digit z's from
    the cells seeing yz and every set cell holding z; when doubly linked, every digit's
    from the cells seeing all its places in the set (and yz, for its own digits)."""
    n = out.shape[0]
    words = out.shape[1]
    one = np.uint64(1)
    count = 0
    for b in range(n):
        take = ((union >> b) & 1) != 0 if double else b == z
        for w in range(words):
            if not take:
                out[b, w] = 0
                continue
            t = seen[b, w] & ~als[w] & holding[b, w]
            if not double or (m >> b) & 1:
                t &= peers[yz, w]
            if w == yz >> 6:
                t &= ~(one << np.uint64(yz & 63))
            out[b, w] = t
            count += popcount(t)
    return count


@kernel
def wing_search(cand, size, units, sees, peers, cell_units, rates, cap, old, rows):
    """The best ALS wing of `size` set cells: its rating and, as one array, its bivalue
    cell, its set's cells and its eliminations as (cell, digit) pairs ascending (empty
    when there is none).  `old` and `rows` are the units' fruitless marks, updated in
    place: per unit its candidates and whether it is marked (last column); its bivalue
    cells (row 0) and per digit d the cells that could link through it (row d + 1).
    `cap` bounds the sets inside a line's part of a box."""
    ncells = cand.shape[0]
    nunits = units.shape[0]
    n = units.shape[1]
    words = peers.shape[1]
    one = np.uint64(1)
    biv, nbiv, biv_row, holding = _cell_rows(cand, n, words)
    if nbiv == 0:
        return 0.0, np.empty(0, dtype=np.int64)
    limit = size + 1
    masks = np.empty(n, dtype=np.int64)
    opn = np.empty(n, dtype=np.int64)
    small = np.empty(n, dtype=np.int64)
    idx = np.empty(size, dtype=np.int64)
    unions = np.empty(size, dtype=np.int64)
    cells = np.empty(size, dtype=np.int64)
    als = np.empty(words, dtype=np.uint64)
    seen = np.empty((n, words), dtype=np.uint64)  # per digit: the cells seeing its places
    unit_links = np.empty((n, words), dtype=np.uint64)
    targets = np.empty((n, words), dtype=np.uint64)
    best = np.empty((n, words), dtype=np.uint64)
    best_cells = np.empty(size, dtype=np.int64)
    changed = np.zeros(ncells, dtype=np.bool_)
    shared_keys = np.empty(max(cap, 1), dtype=np.int64)
    shared_unsettled = np.empty(max(cap, 1), dtype=np.bool_)
    nshared = 0
    found = False
    best_rating = 0.0
    best_count = 0
    best_yz = -1
    for u in range(nunits):
        for i in range(n):
            masks[i] = cand[units[u, i]]
        every = True  # search every set (else those holding a changed cell)
        if old[u, n] and not _may_link(u, cand, biv, nbiv, rows):
            same = True
            for i in range(n):
                changed[units[u, i]] = old[u, i] != masks[i]
                if old[u, i] != masks[i]:
                    same = False
            if same:
                continue
            every = False
        clean = True
        unit_links[:, :] = 0
        total = 0
        for i in range(n):
            m = masks[i]
            if m & (m - 1) and popcount(m) <= limit:
                opn[total] = units[u, i]
                small[total] = m
                total += 1
        # the sets of `size` cells of `opn` with `limit` digits, depth first
        k = 0
        idx[0] = 0
        while total >= size:
            if idx[k] > total - (size - k):
                k -= 1
                if k < 0:
                    break
                idx[k] += 1
                continue
            union = small[idx[k]]
            if k:
                union |= unions[k - 1]
            if popcount(union) > limit:
                idx[k] += 1
                continue
            if k < size - 1:
                unions[k] = union
                k += 1
                idx[k] = idx[k - 1] + 1
                continue
            idx[k] += 1
            if popcount(union) != limit:
                continue
            # a set: its cells ascending, its cell row, largest cell, the cells seeing
            # each digit's places
            for i in range(size):
                c = opn[idx[i]] if i < k else opn[idx[k] - 1]
                j = i
                while j and cells[j - 1] > c:
                    cells[j] = cells[j - 1]
                    j -= 1
                cells[j] = c
            als[:] = 0
            biggest = 0
            for b in range(n):
                if (union >> b) & 1:
                    for w in range(words):
                        seen[b, w] = ~np.uint64(0)
            for i in range(size):
                c = cells[i]
                als[c >> 6] |= one << np.uint64(c & 63)
                m = cand[c]
                biggest = max(biggest, popcount(m))
                while m:
                    b = trailing_zeros(m)
                    m &= m - 1
                    for w in range(words):
                        seen[b, w] &= peers[c, w]
            for b in range(n):
                if (union >> b) & 1:
                    for w in range(words):
                        unit_links[b, w] |= seen[b, w] & ~als[w]
            slot = -1
            if _shared(cells, size, cell_units):
                key = 0
                for i in range(size):
                    key = key * ncells + cells[i]
                met = -1
                for s in range(nshared):
                    if shared_keys[s] == key:
                        met = s
                        break
                if met >= 0:
                    if shared_unsettled[met]:
                        clean = False
                    continue
                slot = nshared
                shared_keys[slot] = key
                shared_unsettled[slot] = False
                nshared += 1
            if not every:
                touched = False
                for i in range(size):
                    if changed[cells[i]]:
                        touched = True
                if not touched:
                    continue
            rated = False
            rating = 0.0
            for j in range(nbiv):
                yz = biv[j]
                m = cand[yz]
                if m & ~union or als[yz >> 6] & (one << np.uint64(yz & 63)):
                    continue
                b1 = trailing_zeros(m)
                b2 = trailing_zeros(m & (m - 1))
                r1 = _restricted(yz, b1, cells, size, cand, sees)
                r2 = _restricted(yz, b2, cells, size, cand, sees)
                if not (r1 or r2):
                    continue
                if not rated:
                    rated = True
                    rating = rates[biggest]
                    if found and rating > best_rating:
                        clean = False  # not searched: outrated
                        if slot >= 0:
                            shared_unsettled[slot] = True
                        break
                z = b2 if r1 else b1
                count = _targets(yz, m, z, union, r1 and r2, als, seen, holding, peers, targets)
                if not count:
                    continue
                clean = False
                if slot >= 0:
                    shared_unsettled[slot] = True
                if (
                    not found
                    or rating < best_rating
                    or (rating == best_rating and count > best_count)
                ):
                    found = True
                    best_rating = rating
                    best_count = count
                    best_yz = yz
                    best_cells[:] = cells
                    best[:, :] = targets
        if clean:
            old[u, n] = 1
            for i in range(n):
                old[u, i] = masks[i]
            for w in range(words):
                rows[u, 0, w] = biv_row[w]
            for b in range(n):
                for w in range(words):
                    rows[u, b + 1, w] = unit_links[b, w]
    if not found:
        return 0.0, np.empty(0, dtype=np.int64)
    return best_rating, _found(best_yz, best_cells, best, best_count)


@kernel
def _found(yz, cells, targets, count):
    """The wing as one array: the bivalue cell, the set's cells, the eliminations as
    (cell, digit) pairs ascending."""
    size = cells.shape[0]
    n = targets.shape[0]
    out = np.empty(1 + size + 2 * count, dtype=np.int64)
    out[0] = yz
    out[1 : 1 + size] = cells
    at = 1 + size
    for w in range(targets.shape[1]):
        for x in range(64):
            for b in range(n):
                if (targets[b, w] >> np.uint64(x)) & np.uint64(1):
                    out[at] = w * 64 + x
                    out[at + 1] = b + 1
                    at += 2
    return out


@kernel
def fish_search(lines, other, k, band, seg):
    """The first finned and the first sashimi fish of size k on one digit, in
    `finned_fish.python_search`'s scan order (line combinations, their bands ascending, fin
    boxes, covers): per kind (row 0 finned, row 1 sashimi) its base lines as a mask, its
    band, its fin box and its cover, or -1s.  `lines[i]` is the digit's places in base
    line i, `other[x]` in cross line x (position masks)."""
    n = lines.shape[0]
    out = np.full((2, 4), -1, dtype=np.int64)
    most = k + seg
    eligible = np.empty(n, dtype=np.int64)
    total = 0
    for i in range(n):
        c = popcount(lines[i])
        if 2 <= c <= most:
            eligible[total] = i
            total += 1
    if total < k:
        return out
    idx = np.empty(k, dtype=np.int64)
    for i in range(k):
        idx[i] = i
    places = np.empty(n, dtype=np.int64)
    extra = np.empty(k + 1, dtype=np.int64)
    nboxes = n // seg
    while True:
        base = 0
        bands = 0
        for i in range(k):
            line = eligible[idx[i]]
            base |= 1 << line
            bands |= 1 << (line // band)
        while bands:
            b = trailing_zeros(bands)
            bands &= bands - 1
            outside = 0
            joined = 0
            for i in range(k):
                line = eligible[idx[i]]
                if line // band == b:
                    joined |= lines[line]
                else:
                    outside |= lines[line]
            if popcount(outside) > k:
                continue
            band_lines = ((1 << band) - 1) << (b * band)
            for s in range(nboxes):
                box = ((1 << seg) - 1) << (s * seg)
                rest = outside | (joined & ~box)
                need = k - popcount(rest)
                if need < 0:
                    continue
                inside = joined & box
                free = inside & ~rest
                nfree = 0
                while free:
                    places[nfree] = trailing_zeros(free)
                    nfree += 1
                    free &= free - 1
                if need > nfree:
                    continue
                for i in range(need):
                    extra[i] = i
                while True:
                    cover = rest
                    for i in range(need):
                        cover |= 1 << places[extra[i]]
                    fins = inside & ~cover
                    if fins and cover & box:
                        kept = 64
                        for i in range(k):
                            kept = min(kept, popcount(lines[eligible[idx[i]]] & cover))
                        kind = 1 if kept == 1 else 0
                        if kept and out[kind, 0] < 0:
                            hit = cover & box
                            clears = False
                            while hit:
                                x = trailing_zeros(hit)
                                hit &= hit - 1
                                if other[x] & band_lines & ~base:
                                    clears = True
                                    break
                            if clears:
                                out[kind, 0] = base
                                out[kind, 1] = b
                                out[kind, 2] = s
                                out[kind, 3] = cover
                                if out[0, 0] >= 0 and out[1, 0] >= 0:
                                    return out
                    if not next_combination(extra, need, nfree):
                        break
        if not next_combination(idx, k, total):
            break
    return out
