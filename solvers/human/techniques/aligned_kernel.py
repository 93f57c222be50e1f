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

from solvers.fast.kernels import kernel


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


@kernel
def first_triple(cand, values, sees, peers):
    """The first triple (cells ascending) of the scan that eliminates something, or
    (-1, -1, -1)."""
    N = cand.shape[0]
    small = np.zeros(N, dtype=np.bool_)
    multi = np.zeros(N, dtype=np.bool_)
    for x in range(N):
        if values[x] == 0:
            k = 0
            m = cand[x]
            while m:
                m &= m - 1
                k += 1
            if k >= 2:
                multi[x] = True
                if k <= 3:
                    small[x] = True
    # the base cells (open, two candidates or more, seeing a small cell) and their excluders
    ex = np.zeros((N, N), dtype=np.bool_)
    exl = np.zeros((N, peers.shape[1]), dtype=np.int64)  # the excluders in cell order
    nexl = np.zeros(N, dtype=np.int64)
    base = np.zeros(N, dtype=np.bool_)
    for x in range(N):
        if multi[x]:
            for i in range(peers.shape[1]):
                y = peers[x, i]
                if small[y]:
                    ex[x, y] = True
                    exl[x, nexl[x]] = y
                    nexl[x] += 1
                    base[x] = True
    seen = set()
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
            npair = 0
            for i in range(nexl[a]):
                x = exl[a, i]
                if ex[b, x]:
                    pair[npair] = x
                    npair += 1
            _seeing_two(pair, npair, peers, count, twice)
            for c in range(N):
                if c in (a, b) or not (base[c] and twice[c] and (ex[a, c] or ex[b, c])):
                    continue
                x, y, z = (a, b, c) if c > b else (a, c, b) if c > a else (c, a, b)
                key = (x * N + y) * N + z
                if key in seen:
                    continue
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
    return -1, -1, -1
