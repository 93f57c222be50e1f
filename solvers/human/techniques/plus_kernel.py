"""The compiled closures of `plus_closure` (numba; imported only when numba is installed).

A grid is one candidate mask per cell (`cand`, a placed cell keeps its digit's bit) and
whether the cell is placed (`done`); units are rows, columns, then boxes, as
`solvers.grid.Shape.units` lists them.  `close_all` closes each seed's branch under
singles, locked candidates, hidden and naked pairs and X-Wings, all of them, and packs
the facts it holds as bits of nodes (``cell * n + digit - 1`` on, plus ``ncells * n``
off).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import popcount


@njit(cache=True)
def _count(m: int) -> int:
    """The number of set bits."""
    return popcount(m)  # type: ignore[call-arg]  # (a numba intrinsic: mypy sees its typer)


@njit(cache=True)
def _low(m: int) -> int:
    """The lowest set bit's index (`m` nonzero)."""
    return trailing_zeros(m)  # type: ignore[call-arg]  # (a numba intrinsic)


@njit(cache=True)
def _place(cand, done, placed, c, k, cell_units, peers) -> bool:
    """Place digit index `k` in cell `c`: True on a contradiction."""
    bit = 1 << k
    if done[c]:
        return cand[c] != bit
    if not cand[c] & bit:
        return True
    cand[c] = bit
    done[c] = True
    for i in range(cell_units.shape[1]):
        u = cell_units[c, i]
        if placed[u] & bit:
            return True
        placed[u] |= bit
    for i in range(peers.shape[1]):
        p = peers[c, i]
        if cand[p] & bit:
            if done[p]:
                return True
            cand[p] &= ~bit
            if cand[p] == 0:
                return True
    return False


@njit(cache=True)
def _singles(cand, done, placed, units, cell_units, peers, n) -> int:
    """One pass of naked and hidden singles: -1 on a contradiction, else how many placed."""
    count = 0
    for c in range(cand.shape[0]):
        if not done[c]:
            m = cand[c]
            if m == 0:
                return -1
            if not m & (m - 1):
                if _place(cand, done, placed, c, _low(m), cell_units, peers):
                    return -1
                count += 1
    for u in range(units.shape[0]):
        for k in range(n):
            bit = 1 << k
            if placed[u] & bit:
                continue
            seen = 0
            last = -1
            for i in range(n):
                c = units[u, i]
                if not done[c] and cand[c] & bit:
                    seen += 1
                    last = c
                    if seen > 1:
                        break
            if seen == 0:
                return -1
            if seen == 1:
                if _place(cand, done, placed, last, k, cell_units, peers):
                    return -1
                count += 1
    return count


@njit(cache=True)
def _positions(cand, done, units, u, k, n) -> int:
    """The places (unit positions, as a bitmask) of digit index `k` in unit `u`."""
    bit = 1 << k
    p = 0
    for i in range(n):
        c = units[u, i]
        if not done[c] and cand[c] & bit:
            p |= 1 << i
    return p


@njit(cache=True)
def _locked(cand, done, placed, units, in_unit, crossings, n) -> bool:
    """Every locked candidate: the places of a digit in one unit all inside another clear
    it from the rest of that one.  True when it removed anything."""
    changed = False
    for j in range(crossings.shape[0]):
        u = crossings[j, 0]
        v = crossings[j, 1]
        for k in range(n):
            bit = 1 << k
            if placed[u] & bit or placed[v] & bit:
                continue
            inside = True
            any_place = False
            for i in range(n):
                c = units[u, i]
                if not done[c] and cand[c] & bit:
                    any_place = True
                    if not in_unit[v, c]:
                        inside = False
                        break
            if not inside or not any_place:
                continue
            for i in range(n):
                c = units[v, i]
                if not done[c] and cand[c] & bit and not in_unit[u, c]:
                    cand[c] &= ~bit
                    changed = True
    return changed


@njit(cache=True)
def _pairs(cand, done, placed, units, n) -> bool:
    """Every hidden pair and naked pair.  True when it removed anything."""
    changed = False
    pos = np.zeros(n, dtype=np.int64)
    for u in range(units.shape[0]):
        for k in range(n):
            pos[k] = 0 if placed[u] & (1 << k) else _positions(cand, done, units, u, k, n)
        for i in range(n):
            if _count(pos[i]) != 2:
                continue
            for j in range(i + 1, n):
                if pos[j] != pos[i]:
                    continue
                keep = (1 << i) | (1 << j)
                m = pos[i]
                while m:
                    a = _low(m)
                    m &= m - 1
                    c = units[u, a]
                    if cand[c] & ~keep:
                        cand[c] &= keep
                        changed = True
        for a in range(n):
            ca = units[u, a]
            if done[ca] or _count(cand[ca]) != 2:
                continue
            for b in range(a + 1, n):
                cb = units[u, b]
                if done[cb] or cand[cb] != cand[ca]:
                    continue
                pair = cand[ca]
                for i in range(n):
                    c = units[u, i]
                    if c != ca and c != cb and not done[c] and cand[c] & pair:
                        cand[c] &= ~pair
                        changed = True
    return changed


@njit(cache=True)
def _x_wings(cand, done, placed, units, cell_units, in_unit, n) -> bool:
    """Every X-Wing: two rows (columns) whose places for a digit are the same two columns
    (rows) clear it from the rest of those.  True when it removed anything."""
    changed = False
    for first, cross in ((0, 1), (n, 0)):  # rows, crossed by columns; then the reverse
        for k in range(n):
            bit = 1 << k
            for a in range(first, first + n):
                if placed[a] & bit:
                    continue
                pa = _positions(cand, done, units, a, k, n)
                if _count(pa) != 2:
                    continue
                for b in range(a + 1, first + n):
                    if placed[b] & bit or _positions(cand, done, units, b, k, n) != pa:
                        continue
                    m = pa
                    while m:
                        i = _low(m)
                        m &= m - 1
                        line = cell_units[units[a, i], cross]
                        for t in range(n):
                            c = units[line, t]
                            if in_unit[a, c] or in_unit[b, c]:
                                continue
                            if not done[c] and cand[c] & bit:
                                cand[c] &= ~bit
                                changed = True
    return changed


@njit(cache=True)
def _close(cand, done, placed, units, cell_units, peers, in_unit, crossings, n) -> bool:
    """Apply every rule until none changes anything: True on a contradiction."""
    while True:
        got = _singles(cand, done, placed, units, cell_units, peers, n)
        if got < 0:
            return True
        if got:
            continue
        if _locked(cand, done, placed, units, in_unit, crossings, n):
            continue
        if _pairs(cand, done, placed, units, n):
            continue
        if _x_wings(cand, done, placed, units, cell_units, in_unit, n):
            continue
        return False


@njit(cache=True)
def close_all(cand0, done0, seeds, units, cell_units, peers, in_unit, crossings, n, nwords):
    """Per seed, its closure's facts packed in `nwords` 64-bit words, and whether it met a
    contradiction."""
    ncells = cand0.shape[0]
    off_base = ncells * n
    facts = np.zeros((seeds.shape[0], nwords), dtype=np.uint64)
    failed = np.zeros(seeds.shape[0], dtype=np.bool_)
    placed0 = np.zeros(units.shape[0], dtype=np.int64)
    for c in range(ncells):
        if done0[c]:
            for i in range(cell_units.shape[1]):
                placed0[cell_units[c, i]] |= cand0[c]
    for s in range(seeds.shape[0]):
        cand = cand0.copy()
        done = done0.copy()
        placed = placed0.copy()
        node = seeds[s]
        if node < off_base:
            bad = _place(cand, done, placed, node // n, node % n, cell_units, peers)
        else:
            c = (node - off_base) // n
            cand[c] &= ~(1 << ((node - off_base) % n))
            bad = cand[c] == 0
        if not bad:
            bad = _close(cand, done, placed, units, cell_units, peers, in_unit, crossings, n)
        if bad:
            failed[s] = True
            continue
        for c in range(ncells):
            if done0[c]:
                continue
            if done[c]:
                x = c * n + _low(cand[c])
                facts[s, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
            gone = cand0[c] & ~cand[c]
            while gone:
                x = off_base + c * n + _low(gone)
                gone &= gone - 1
                facts[s, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return facts, failed
