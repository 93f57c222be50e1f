"""Grouped strong links compiled (numba; imported only when numba is installed).

`best_chain` is `grouped_links.best_chain` for one digit: the digit's strong links,
plain and grouped, in `grouped_links.digit_links`' order; the links that can follow
each one; and the chain of two or three links that removes the most candidates, the
first found on a tie, by the same loops.  Cells are rows of 64-bit words (bit
``cell & 63`` of word ``cell >> 6``); sets of oriented links are rows of words too.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, listed, popcount, row_count
from solvers.grid import Shape
from solvers.human.techniques.one_digit_kernel import geometry as row_geometry


@cache
def geometry(shape: Shape) -> tuple[np.ndarray, ...]:
    """Each unit's cells as a row; each line's parts (its cells in each box it crosses,
    in the order it meets them) as rows, and how many; each cell's units; each cell's
    peers as a row."""
    units, cell_units, peers = row_geometry(shape)
    n = shape.size
    box_of = [cell_units[c][2] for c in range(shape.ncells)]
    most = max(n // shape.box_rows, n // shape.box_cols)
    parts = np.zeros((2 * n, most, units.shape[1]), dtype=np.uint64)
    counts = np.zeros(2 * n, dtype=np.int64)
    one = np.uint64(1)
    for u, cells in enumerate(shape.units[: 2 * n]):
        order: dict[int, int] = {}
        for c in cells:
            p = order.setdefault(int(box_of[c]), len(order))
            parts[u, p, c >> 6] |= one << np.uint64(c & 63)
        counts[u] = len(order)
    return units, parts, counts, cell_units, peers


@kernel(inline="always")
def _has(row, cell):
    return (row[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != 0


@kernel
def digit_links(with_d, units, parts, counts, n):
    """`grouped_links.digit_links`: each link's unit, its two nodes as rows, whether it
    is grouped; how many."""
    words = with_d.shape[0]
    one = np.uint64(1)
    most = 2 * n + 2 * n * n + 2
    link_unit = np.empty(most, dtype=np.int64)
    first = np.zeros((most, words), dtype=np.uint64)
    second = np.zeros((most, words), dtype=np.uint64)
    grouped = np.zeros(most, dtype=np.bool_)
    places = np.empty(words, dtype=np.uint64)
    found = 0
    rows = np.empty(n, dtype=np.int64)
    cols = np.empty(n, dtype=np.int64)
    for u in range(units.shape[0]):
        for w in range(words):
            places[w] = units[u, w] & with_d[w]
        count = row_count(places)
        if count < 2:
            continue
        if count == 2:
            low = -1
            for w in range(words):
                if places[w]:
                    low = 64 * w + np.int64(trailing_zeros(places[w]))
                    break
            link_unit[found] = u
            first[found, low >> 6] = one << np.uint64(low & 63)
            second[found, :] = places
            second[found, low >> 6] &= ~(one << np.uint64(low & 63))
            found += 1
            continue
        if u < 2 * n:  # a line: two boxes
            met = 0
            for p in range(counts[u]):
                met += _meets(places, parts[u, p])
            if met != 2:
                continue
            side = 0
            for p in range(counts[u]):
                if not _meets(places, parts[u, p]):
                    continue
                for w in range(words):
                    if side == 0:
                        first[found, w] = places[w] & parts[u, p, w]
                    else:
                        second[found, w] = places[w] & parts[u, p, w]
                side += 1
            link_unit[found] = u
            grouped[found] = True
            found += 1
            continue
        # a box: each row and column of it that holds all its places between them
        nrows = ncols = 0
        for w in range(words):
            word = places[w]
            while word:
                c = 64 * w + np.int64(trailing_zeros(word))
                word &= word - one
                r, col = c // n, c % n
                if nrows == 0 or not listed(rows, nrows, r):
                    rows[nrows] = r
                    nrows += 1
                if ncols == 0 or not listed(cols, ncols, col):
                    cols[ncols] = col
                    ncols += 1
        # (with three places or more, one row and column at most hold them all and leave
        # some to each: the order they are tried in does not matter)
        for r in rows[:nrows]:
            for col in cols[:ncols]:
                covered = True
                for w in range(words):
                    if (places[w] & (units[r, w] | units[n + col, w])) != places[w]:
                        covered = False
                if not covered:
                    continue
                heart = r * n + col
                hw, hb = heart >> 6, one << np.uint64(heart & 63)
                row_rest = col_rest = False
                for w in range(words):
                    in_row = places[w] & units[r, w]
                    in_col = places[w] & units[n + col, w]
                    if w == hw:
                        in_row &= ~hb
                        in_col &= ~hb
                    row_rest = row_rest or in_row != 0
                    col_rest = col_rest or in_col != 0
                if not row_rest or not col_rest:
                    continue
                # the heart (where they cross) with the row, then (if a place) the column
                for heart_in_row in (True, False):
                    if not heart_in_row and not places[hw] & units[r, hw] & hb:
                        break
                    _split(
                        places,
                        units[r],
                        units[n + col],
                        hw,
                        hb,
                        heart_in_row,
                        first[found],
                        second[found],
                    )
                    link_unit[found] = u
                    grouped[found] = True
                    found += 1
    return link_unit, first, second, grouped, found


@kernel(inline="always")
def _meets(a, b):
    """Whether rows a and b share a cell."""
    for w in range(a.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if a[w] & b[w]:
            return True
    return False


@kernel(inline="always")
def _split(places, row, col, hw, hb, heart_in_row, first, second):
    """Into `first` and `second`: the places in the row and in the column, the cell where
    they cross (word `hw`, bit `hb`) left to the row or to the column."""
    for w in range(places.shape[0]):
        first[w] = places[w] & row[w]
        second[w] = places[w] & col[w]
    if heart_in_row:
        second[hw] &= ~hb
    else:
        first[hw] &= ~hb


@kernel
def _seen_by(node, peers, out):
    """Into `out`: the cells seeing every cell of `node`."""
    out[:] = ~np.uint64(0)
    one = np.uint64(1)
    for w in range(node.shape[0]):
        word = node[w]
        while word:
            c = 64 * w + np.int64(trailing_zeros(word))
            word &= word - one
            for v in range(out.shape[0]):
                out[v] &= peers[c, v]


@kernel
def _node_units(node, cell_units, out):
    """Into `out`: the units holding every cell of `node` (row, column, box); how many."""
    one = np.uint64(1)
    first = -1
    same = 0b111  # bit t: every cell so far shares the first cell's unit t
    for w in range(node.shape[0]):
        word = node[w]
        while word:
            c = 64 * w + np.int64(trailing_zeros(word))
            word &= word - one
            if first < 0:
                first = c
            for t in range(3):
                if cell_units[c, t] != cell_units[first, t]:
                    same &= ~(1 << t)
    count = 0
    for t in range(3):
        if same >> t & 1:
            out[count] = cell_units[first, t]
            count += 1
    return count


@kernel
def best_chain(with_d, k, units, parts, counts, cell_units, peers):
    """`grouped_links.best_chain` on the digit whose cells are `with_d`: (the candidates
    the best chain of `k` links removes, 0 for none; the chain's units, whether each
    link is grouped, its start nodes and end nodes as rows; the cells it removes the
    digit from)."""
    n = counts.shape[0] // 2
    words = with_d.shape[0]
    one = np.uint64(1)
    link_unit, first, second, grouped, nlinks = digit_links(with_d, units, parts, counts, n)
    chain_unit = np.zeros(k, dtype=np.int64)
    chain_grouped = np.zeros(k, dtype=np.bool_)
    chain_start = np.zeros((k, words), dtype=np.uint64)
    chain_end = np.zeros((k, words), dtype=np.uint64)
    targets = np.zeros(words, dtype=np.uint64)
    chain = (chain_unit, chain_grouped, chain_start, chain_end)
    ends = 2 * nlinks
    any_grouped = False
    for i in range(nlinks):
        any_grouped = any_grouped or grouped[i]
    if ends < 2 * k or not any_grouped:
        return 0, chain_unit, chain_grouped, chain_start, chain_end, targets
    # the oriented links: each link, then each reversed
    unit_of = np.empty(ends, dtype=np.int64)
    start = np.empty((ends, words), dtype=np.uint64)
    end = np.empty((ends, words), dtype=np.uint64)
    is_grouped = np.empty(ends, dtype=np.bool_)
    for i in range(nlinks):
        for j, a, b in ((i, first, second), (nlinks + i, second, first)):
            unit_of[j] = link_unit[i]
            start[j, :] = a[i]
            end[j, :] = b[i]
            is_grouped[j] = grouped[i]
    span = (ends + 63) >> 6
    nunits = units.shape[0]
    starting_in = np.zeros((nunits, span), dtype=np.uint64)
    in_unit = np.zeros((nunits, span), dtype=np.uint64)
    holding = np.zeros((peers.shape[0], span), dtype=np.uint64)
    grouped_row = np.zeros(span, dtype=np.uint64)
    seen_start = np.empty((ends, words), dtype=np.uint64)
    far = np.empty((ends, words), dtype=np.uint64)
    node_units = np.empty(3, dtype=np.int64)
    for j in range(ends):
        jw, jb = j >> 6, one << np.uint64(j & 63)
        for t in range(_node_units(start[j], cell_units, node_units)):
            starting_in[node_units[t], jw] |= jb
        in_unit[unit_of[j], jw] |= jb
        for w in range(words):
            word = start[j, w]
            while word:
                c = 64 * w + np.int64(trailing_zeros(word))
                word &= word - one
                holding[c, jw] |= jb
        if is_grouped[j]:
            grouped_row[jw] |= jb
        _seen_by(start[j], peers, seen_start[j])
        _seen_by(end[j], peers, far[j])
    # nxt[i]: the links that can follow link i (through a weak link, in another unit)
    nxt = np.zeros((ends, span), dtype=np.uint64)
    for i in range(ends):
        for t in range(_node_units(end[i], cell_units, node_units)):
            for v in range(span):
                nxt[i, v] |= starting_in[node_units[t], v]
        for w in range(words):
            word = end[i, w]
            while word:
                c = 64 * w + np.int64(trailing_zeros(word))
                word &= word - one
                for v in range(span):
                    nxt[i, v] &= ~holding[c, v]
        for v in range(span):
            nxt[i, v] &= ~in_unit[unit_of[i], v]
    # what the end nodes of the links that can follow each link see (three links)
    ahead = far
    if k == 3:
        ahead = np.zeros((ends, words), dtype=np.uint64)
        for i in range(ends):
            for v in range(span):
                follow = nxt[i, v]
                while follow:
                    j = 64 * v + np.int64(trailing_zeros(follow))
                    follow &= follow - one
                    for w in range(words):
                        ahead[i, w] |= far[j, w]
    top = 0
    reach = np.empty(words, dtype=np.uint64)
    follow_row = np.empty(span, dtype=np.uint64)
    last_row = np.empty(span, dtype=np.uint64)
    picked = np.empty(3, dtype=np.int64)
    total = np.empty(words, dtype=np.uint64)
    hit = np.empty(words, dtype=np.uint64)
    for i in range(ends):
        for w in range(words):
            reach[w] = seen_start[i, w] & with_d[w]
        if row_count(reach) <= top:
            continue
        for v in range(span):
            follow_row[v] = nxt[i, v]
            if k == 2 and not is_grouped[i]:
                follow_row[v] &= grouped_row[v]
        for v in range(span):
            follow = follow_row[v]
            while follow:
                j = 64 * v + np.int64(trailing_zeros(follow))
                follow &= follow - one
                if _common(reach, ahead[j]) <= top:
                    continue
                if k == 2:
                    picked[0], picked[1] = i, j
                    c = _chain(picked, 2, start, end, seen_start, far, with_d, total, hit)
                    if c > top:
                        top = c
                        _keep(picked, 2, unit_of, is_grouped, start, end, hit, chain, targets)
                    continue
                for x in range(span):
                    last_row[x] = nxt[j, x] & ~in_unit[unit_of[i], x]
                    if not is_grouped[i] and not is_grouped[j]:
                        last_row[x] &= grouped_row[x]
                for x in range(span):
                    last = last_row[x]
                    while last:
                        h = 64 * x + np.int64(trailing_zeros(last))
                        last &= last - one
                        if _common(reach, far[h]) > top:
                            picked[0], picked[1], picked[2] = i, j, h
                            c = _chain(picked, 3, start, end, seen_start, far, with_d, total, hit)
                            if c > top:
                                top = c
                                _keep(
                                    picked, 3, unit_of, is_grouped, start, end, hit, chain, targets
                                )
    return top, chain_unit, chain_grouped, chain_start, chain_end, targets


@kernel(inline="always")
def _common(a, b):
    total = 0
    for w in range(a.shape[0]):
        total += popcount(a[w] & b[w])
    return total


@kernel
def _chain(picked, k, start, end, seen_start, far, with_d, total, hit):
    """`grouped_links._chain`: how many candidates the chain of links ``picked[:k]``
    removes (0 when its nodes overlap or it removes none), the cells into `hit`."""
    words = with_d.shape[0]
    total[:] = 0
    for t in range(k):
        j = picked[t]
        for node in (start[j], end[j]):
            if _meets(total, node):
                return 0
            for w in range(words):
                total[w] |= node[w]
    a, b = picked[0], picked[k - 1]
    for w in range(words):
        hit[w] = seen_start[a, w] & far[b, w] & with_d[w] & ~(start[a, w] | end[b, w])
    return row_count(hit)


@kernel
def _keep(picked, k, unit_of, is_grouped, start, end, hit, chain, targets):
    """The chain of ``picked[:k]`` and its targets, as the best so far (into `chain`: its
    links' units, whether grouped, start and end nodes)."""
    chain_unit, chain_grouped, chain_start, chain_end = chain
    for t in range(k):
        j = picked[t]
        chain_unit[t] = unit_of[j]
        chain_grouped[t] = is_grouped[j]
        chain_start[t, :] = start[j]
        chain_end[t, :] = end[j]
    targets[:] = hit
