"""Aligned triple exclusion compiled (numba; imported only when numba is installed).

`first_triple` scans the triples of base cells in the scan order of
`aligned._triples` (by first pair, each triple where it is first met) and returns
the first whose digit triples leave some candidate of its cells in none of the
allowed ones (`aligned._triple`'s test), with nothing kept from call to call: the
compiled scan is quicker than the Python search's bookkeeping.  Cell sets are
boolean rows over the cells; ``sees[x, y]`` says whether cells x and y are peers,
``peers[x]`` lists x's peers.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import kernel, popcount


@kernel
def _seeing_two(cells, ncells, peers, count, out) -> None:
    """`out`: the cells that see two of the first `ncells` of `cells` or more (`count`:
    scratch)."""
    count[:] = 0
    for i in range(ncells):
        x = cells[i]
        for j in range(peers.shape[1]):
            count[peers[x, j]] += 1
    for y in range(out.shape[0]):
        out[y] = count[y] >= 2


@kernel
def _eliminates(ma, mb, mc, excluded, nex, ab, ac, bc) -> bool:
    """Whether some digit of the three cells (masks ma, mb, mc) takes part in no allowed
    triple: digits different where cells see each other, and no excluder's digits all
    among the three."""
    ok_a = 0
    ok_b = 0
    ok_c = 0
    rest_a = ma
    while rest_a:
        bit_a = rest_a & -rest_a
        rest_a ^= bit_a
        rest_b = mb & ~bit_a if ab else mb
        while rest_b:
            bit_b = rest_b & -rest_b
            rest_b ^= bit_b
            rest_c = mc
            if ac:
                rest_c &= ~bit_a
            if bc:
                rest_c &= ~bit_b
            while rest_c:
                bit_c = rest_c & -rest_c
                rest_c ^= bit_c
                held = bit_a | bit_b | bit_c
                allowed = True
                for e in range(nex):
                    if not excluded[e] & ~held:
                        allowed = False
                        break
                if allowed:
                    ok_a |= bit_a
                    ok_b |= bit_b
                    ok_c |= bit_c
        if ok_a == ma and ok_b == mb and ok_c == mc:
            return False
    return ok_a != ma or ok_b != mb or ok_c != mc


@kernel(inline="always")
def _shared(excluders, count, sees, out):
    """Into `out`: the first `count` of `excluders` that a cell sees (`sees`: its row of
    the peer matrix); how many."""
    found = 0
    for i in range(count):
        x = excluders[i]
        if sees[x]:
            out[found] = x
            found += 1
    return found


@kernel
def _excluders(cand, values, peers, largest):
    """Per open cell of two candidates or more, its excluders: the open peers with two
    candidates up to `largest`, in cell order (a row each, padded, and their count)."""
    N = cand.shape[0]
    small = np.zeros(N, dtype=np.bool_)
    for x in range(N):
        if values[x] == 0:
            k = popcount(cand[x])
            small[x] = 2 <= k <= largest
    exl = np.zeros((N, peers.shape[1]), dtype=np.int64)
    nexl = np.zeros(N, dtype=np.int64)
    for x in range(N):
        if values[x] == 0 and popcount(cand[x]) >= 2:
            for i in range(peers.shape[1]):
                y = peers[x, i]
                if small[y]:
                    exl[x, nexl[x]] = y
                    nexl[x] += 1
    return exl, nexl


@kernel
def first_triple(cand, values, sees, peers, before, stamps, stamp):
    """The first triple (cells ascending) of the scan that eliminates something, or
    (-1, -1, -1).

    With `stamps` (one per triple, ``(x * N + y) * N + z``; a single one for none) the
    scan is incremental: a triple whose stamp is ``stamp - 1`` found nothing at the last
    scan, on the candidates `before`, and is skipped unless a cell it reads changed since;
    every triple found to eliminate nothing gets `stamp`."""
    N = cand.shape[0]
    exl, nexl = _excluders(cand, values, peers, 3)
    # the base cells (with excluders) and their excluders as a matrix
    ex = np.zeros((N, N), dtype=np.bool_)
    base = nexl > 0
    for x in range(N):
        for i in range(nexl[x]):
            ex[x, exl[x, i]] = True
    # what changed since the last scan: the cells (`moved`), and per cell the changed
    # cells among its peers, as bits numbered in the order of change (`near`); with more
    # than 64 changed cells every triple counts as changed
    stamped = stamps.shape[0] > 1
    moved = np.zeros(N, dtype=np.bool_)
    near = np.zeros(N, dtype=np.uint64)
    nchanged = 0
    if stamped:
        for x in range(N):
            if cand[x] != before[x]:
                moved[x] = True
                if nchanged < 64:
                    for i in range(peers.shape[1]):
                        near[peers[x, i]] |= np.uint64(1) << np.uint64(nchanged)
                nchanged += 1
    everything = nchanged > 64
    seen = set()  # the triples met so far, without stamps
    seen.add(-1)
    partners = np.zeros(N, dtype=np.bool_)
    twice = np.zeros(N, dtype=np.bool_)
    pair = np.zeros(N, dtype=np.int64)  # the excluders of both a and b
    excluded = np.zeros(N, dtype=np.int64)
    count = np.zeros(N, dtype=np.int64)
    for a in range(N):
        if not base[a]:
            continue
        _seeing_two(exl[a], nexl[a], peers, count, partners)
        for b in range(a + 1, N):
            if not (partners[b] and base[b]):
                continue
            npair = _shared(exl[a], nexl[a], sees[b], pair)
            _seeing_two(pair, npair, peers, count, twice)
            for c in range(N):
                if c in (a, b) or not (base[c] and twice[c] and (ex[a, c] or ex[b, c])):
                    continue
                x, y, z = (a, b, c) if c > b else (a, c, b) if c > a else (c, a, b)
                key = (x * N + y) * N + z
                if stamped:
                    if stamps[key] == stamp:
                        continue  # met already in this scan
                    if (
                        stamps[key] == stamp - 1
                        and not everything
                        and not (moved[x] or moved[y] or moved[z])
                        and not near[x] & near[y] & near[z]
                    ):
                        # no cell of it changed, and none seeing all three (which could be,
                        # or stop being, an excluder): it still eliminates nothing
                        stamps[key] = stamp
                        continue
                elif key in seen:
                    continue
                else:
                    seen.add(key)
                nex = 0
                for i in range(npair):
                    e = pair[i]
                    if ex[c, e]:
                        excluded[nex] = cand[e]
                        nex += 1
                if _eliminates(
                    cand[x], cand[y], cand[z], excluded, nex, sees[x, y], sees[x, z], sees[y, z]
                ):
                    return x, y, z
                if stamped:
                    stamps[key] = stamp
    return -1, -1, -1


@kernel
def _pair_eliminates(cand, a, b, excluders, count, see):
    """Whether some digit of cells `a` or `b` takes part in no allowed pair: digits
    different where the cells see each other, and no excluder (the first `count` of
    `excluders`, bivalue cells seeing both) holding both."""
    partner = np.zeros(64, dtype=np.int64)  # per digit, the digits an excluder pairs it with
    for i in range(count):
        m = cand[excluders[i]]
        low = m & -m
        high = m ^ low
        partner[trailing_zeros(low)] |= high
        partner[trailing_zeros(high)] |= low
    ma = cand[a]
    mb = cand[b]
    allowed_a = 0
    allowed_b = 0
    rest = ma
    while rest:
        bit = rest & -rest
        rest ^= bit
        with_da = mb & ~partner[trailing_zeros(bit)]
        if see:
            with_da &= ~bit
        if with_da:
            allowed_a |= bit
            allowed_b |= with_da
    return allowed_a != ma or allowed_b != mb


@kernel
def first_pair(cand, values, sees, peers):
    """The first pair of base cells (cells ascending) of `aligned._pairs`' scan that
    eliminates something, or (-1, -1): base cells are open with two candidates or more
    and see a bivalue cell, and a pair's cells see two bivalue cells or more in common."""
    N = cand.shape[0]
    exl, nexl = _excluders(cand, values, peers, 2)
    partners = np.zeros(N, dtype=np.bool_)
    count = np.zeros(N, dtype=np.int64)
    common = np.zeros(peers.shape[1], dtype=np.int64)
    for a in range(N):
        if not nexl[a]:
            continue
        _seeing_two(exl[a], nexl[a], peers, count, partners)
        for b in range(a + 1, N):
            if not (partners[b] and nexl[b]):
                continue
            ncommon = _shared(exl[a], nexl[a], sees[b], common)
            if _pair_eliminates(cand, a, b, common, ncommon, sees[a, b]):
                return a, b
    return -1, -1
