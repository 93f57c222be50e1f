"""The compiled search for puzzles with constraints (numba), beside the classic `kernels`.

The state is the classic one (one candidate mask per cell) and so is the
search (fewest candidates first, binary branching, a resumable stack the
caller owns; `kernels` describes it).  What changes is where the rules come
from: the arrays of `variant_tables` built for each puzzle, not a box shape.

- naked singles: a placed digit leaves the cell's peers (a flat list per cell:
  units, distinct groups, anti-knight or anti-king moves) and, under the
  non-consecutive rule, its neighbours lose the digits one above and below;
- hidden singles: over every unit of N cells (rows, columns, boxes or jigsaw
  regions, diagonals, whole extra regions, disjoint groups);
- killer cages: a digit set of the cage is *possible* when it contains every
  digit placed in the cage and every digit of it still has a cell of the cage
  to go to; the cage's open cells keep only digits of possible sets, and a
  digit every possible set holds, with one cell left for it, goes there.  No
  possible set is a contradiction, so a filled cage that misses its sum fails;
- locked candidates for any unit (`_pointing`): where a digit's open places
  in a unit all see one cell, that cell loses it; non-consecutive neighbours
  lose what no candidate of a cell allows (`_near`); and the classic kernel's
  box/line intersection rule (`kernels.intersections`) where the boxes are
  still units (no jigsaw).

Kept apart from `kernels`, so classic puzzles run exactly the code they ran
before, and this module compiles (or loads from numba's cache) only when a
puzzle with constraints comes.
"""

from __future__ import annotations

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import (
    BACKTRACKS,
    COUNTERS,
    DEPTH,
    EXHAUSTED,
    FOUND,
    GUESSES,
    INTERSECTIONS,
    LIMIT,
    NODES,
    PAUSED,
    SINGLES,
    eliminate,
    intersections,
    popcount,
)
from solvers.fast.variant_tables import BITS


@njit(cache=True)
def _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
    """Remove each queued cell's digit from its peers (and its neighbours' consecutive
    digits), cascading; False on a contradiction."""
    qi = 0
    while qi < qlen:
        cell = queue[qi]
        qi += 1
        d = cand[cell]
        for k in range(peer_start[cell], peer_start[cell + 1]):
            p = peers[k]
            if cand[p] & d:
                qlen = eliminate(cand, p, d, queue, qlen)
                if qlen < 0:
                    return False
        if near_start[cell] < near_start[cell + 1]:
            step = ((d << 1) | (d >> 1)) & full
            for k in range(near_start[cell], near_start[cell + 1]):
                p = near[k]
                if cand[p] & step:
                    qlen = eliminate(cand, p, step, queue, qlen)
                    if qlen < 0:
                        return False
    return True


@njit(cache=True)
def _cages(cand, queue, cage_start, cage_cells, combo_start, combos, full):
    """Restrict each killer cage to its possible digit sets (see the module docstring).

    Returns (queue length, changes): the new singles are on ``queue[:length]``;
    the length is -1 on a contradiction.
    """
    qlen = 0
    changes = 0
    for g in range(cage_start.shape[0] - 1):
        lo, hi = cage_start[g], cage_start[g + 1]
        placed = 0
        union = 0
        for j in range(lo, hi):
            m = cand[cage_cells[j]]
            union |= m
            if m & (m - 1) == 0:
                placed |= m
        allowed = 0
        required = full
        for k in range(combo_start[g], combo_start[g + 1]):
            c = combos[k]
            if c & placed == placed and c & ~union == 0:
                allowed |= c
                required &= c
        if allowed == 0:
            return -1, 0
        once = 0
        twice = 0
        for j in range(lo, hi):
            cell = cage_cells[j]
            m = cand[cell]
            if m & (m - 1) == 0:
                continue
            if m & ~allowed:
                qlen = eliminate(cand, cell, ~allowed, queue, qlen)
                if qlen < 0:
                    return -1, 0
                changes += 1
                m = cand[cell]
                if m & (m - 1) == 0:
                    placed |= m  # its digit is taken, though its peers do not know yet
                    continue
            twice |= once & m
            once |= m
        hidden = required & ~placed & once & ~twice
        if hidden:
            for j in range(lo, hi):
                cell = cage_cells[j]
                m = cand[cell]
                h = m & hidden
                if h and m & (m - 1):
                    if h & (h - 1):
                        return -1, 0  # one cell, two digits that must go there
                    cand[cell] = h
                    queue[qlen] = cell
                    qlen += 1
                    changes += 1
    return qlen, changes


@njit(cache=True)
def _near(cand, queue, near_start, near, full):
    """Non-consecutive beyond placements: a digit next to (or equal to, the
    neighbours sharing a row or column) every candidate of a cell leaves its
    orthogonal neighbours: ``{4, 5}`` removes 4 and 5 from them, ``{4, 6}``
    removes 5.  Returns (queue length, eliminations), -1 on a contradiction."""
    qlen = 0
    removed = 0
    for cell in range(cand.shape[0]):
        lo, hi = near_start[cell], near_start[cell + 1]
        m = cand[cell]
        if lo == hi or m & (m - 1) == 0:
            continue  # a placed cell's neighbours were cleared when it was placed
        out = full
        rest = m
        while rest and out:
            x = rest & -rest
            rest ^= x
            out &= (x << 1) | x | (x >> 1)
        if out == 0:
            continue
        for k in range(lo, hi):
            p = near[k]
            if cand[p] & out:
                qlen = eliminate(cand, p, out, queue, qlen)
                if qlen < 0:
                    return -1, 0
                removed += 1
    return qlen, removed


@njit(cache=True)
def _pointing(cand, queue, units, peer_bits, acc, most):
    """Where a unit's cells for a digit all see one cell, that cell loses the digit.

    Locked candidates for any units and peers: pointing and claiming between
    boxes (or jigsaw regions) and lines, and whatever else the extra peers make
    of a unit's last places (a digit confined to two cells of a row leaves
    every cell a knight's move from both).  Returns (queue length, eliminations);
    the length is -1 on a contradiction.  `acc` is scratch for one bitset;
    digits with more than `most` places in a unit are passed over (a common
    peer of many cells is rare, and looking for it was most of the rule's cost).
    """
    n = units.shape[1]
    words = peer_bits.shape[1]
    qlen = 0
    removed = 0
    for u in range(units.shape[0]):
        # bit-sliced counts of each digit's open places: 1+, 2+, 3+, 4+
        one = 0
        two = 0
        three = 0
        four = 0
        placed = 0  # placed here, perhaps not yet removed from the unit's other cells
        for i in range(n):
            m = cand[units[u, i]]
            if m & (m - 1):
                four |= three & m
                three |= two & m
                two |= one & m
                one |= m
            else:
                placed |= m
        digits = two & ~placed  # 2 or more places (more than `most`: passed over below)
        if most <= 3:
            digits &= ~four
        while digits:
            d = digits & -digits
            digits ^= d
            count = 0
            seen = 0  # any cell still seeing every place so far
            for i in range(n):
                cell = units[u, i]
                m = cand[cell]
                if m & d and m & (m - 1):
                    seen = 0
                    if count == 0:
                        for w in range(words):
                            acc[w] = peer_bits[cell, w]
                            seen |= acc[w]
                    else:
                        for w in range(words):
                            acc[w] &= peer_bits[cell, w]
                            seen |= acc[w]
                    count += 1
                    if seen == 0 or count > most:
                        break
            if count < 2 or count > most or seen == 0:
                continue  # one place is a hidden single; none, a contradiction they find
            for w in range(words):
                bits = acc[w]
                while bits:
                    b = trailing_zeros(bits)
                    bits &= bits - 1
                    cell = w * BITS + b
                    if cand[cell] & d:
                        qlen = eliminate(cand, cell, d, queue, qlen)
                        if qlen < 0:
                            return -1, 0
                        removed += 1
    return qlen, removed


@njit(cache=True)
def propagate(
    cand, queue, qlen, units, peer_start, peers, peer_bits, near_start, near,
    cage_start, cage_cells, combo_start, combos, n, br, bc, boxes, rules, seg, acc,
):  # fmt: skip
    """Apply the rules to a fixpoint; False on a contradiction.

    `queue[:qlen]` lists the placed cells whose digit has not yet left their
    peers.  `rules` is `kernels.SINGLES`, `LOCKED` (adds `_pointing`) or
    `INTERSECTIONS` (adds `kernels.intersections`, when `boxes` says the
    boxes are units).
    """
    full = (1 << n) - 1
    nunits = units.shape[0]
    if not _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
        return False
    while True:
        progress = False
        for u in range(nunits):
            once = 0
            twice = 0
            placed = 0
            for i in range(n):
                m = cand[units[u, i]]
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    placed |= m
            if once != full:
                return False
            hidden = once & ~twice & ~placed
            if hidden:
                for i in range(n):
                    cell = units[u, i]
                    m = cand[cell]
                    h = m & hidden
                    if h and m & (m - 1):
                        if h & (h - 1):
                            return False
                        cand[cell] = h
                        queue[0] = cell
                        if not _naked(cand, queue, 1, peer_start, peers, near_start, near, full):
                            return False
                        progress = True
        if progress:
            continue
        if near.shape[0]:
            qlen, changes = _near(cand, queue, near_start, near, full)
            if qlen < 0 or not _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
                return False
            if changes:
                continue
        qlen, changes = _cages(cand, queue, cage_start, cage_cells, combo_start, combos, full)
        if qlen < 0 or not _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
            return False
        if changes:
            continue
        if rules == SINGLES:
            return True
        qlen, removed = _pointing(cand, queue, units, peer_bits, acc, max(br, bc))
        if qlen < 0 or not _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
            return False
        if removed:
            continue
        if rules < INTERSECTIONS or not boxes:
            return True
        qlen, removed = intersections(cand, queue, n, br, bc, seg)
        if qlen < 0 or not _naked(cand, queue, qlen, peer_start, peers, near_start, near, full):
            return False
        if removed == 0:
            return True


@njit(cache=True)
def _choose(cand, peer_start, peers, n):
    """The cell to branch on (-1 when every cell is placed): fewest candidates, then
    the most open peers, then the first in reading order."""
    best = -1
    fewest = n + 1
    score = -1
    for i in range(cand.shape[0]):
        m = cand[i]
        if m & (m - 1) == 0:
            continue
        k = popcount(m)
        if k > fewest:
            continue
        s = 0
        for j in range(peer_start[i], peer_start[i + 1]):
            v = cand[peers[j]]
            if v & (v - 1):
                s += 1
        if k < fewest or s > score:
            best, fewest, score = i, k, s
    return best


@njit(cache=True)
def start(cells, initial, stack, pending, ctr):
    """Put a puzzle (digits, and each cell's initial candidates) on an empty stack."""
    for i in range(cells.shape[0]):
        d = cells[i]
        stack[0, i] = (1 << (d - 1)) & initial[i] if d else initial[i]
    pending[0] = -1
    for k in range(COUNTERS):
        ctr[k] = 0
    ctr[DEPTH] = 1


@njit(cache=True)
def search(
    stack, pending, cur, queue, seg, acc, units, peer_start, peers, peer_bits, near_start,
    near, cage_start, cage_cells, combo_start, combos, br, bc, boxes, rules, limit, keep,
    node_limit, sols, ctr,
):  # fmt: skip
    """Run (or resume) the search held on `stack`; return an outcome code
    (`kernels.search` with this module's rules)."""
    n = br * bc
    ncells = n * n
    nodes = ctr[NODES]
    guesses = ctr[GUESSES]
    backtracks = ctr[BACKTRACKS]
    found = ctr[FOUND]
    sp = ctr[DEPTH]
    outcome = EXHAUSTED
    while sp > 0:
        sp -= 1
        cell = pending[sp]
        for i in range(ncells):
            cur[i] = stack[sp, i]
        while True:
            if cell >= 0:
                if nodes >= node_limit:
                    for i in range(ncells):
                        stack[sp, i] = cur[i]
                    pending[sp] = cell
                    sp += 1
                    outcome = PAUSED
                    break
                nodes += 1
            qlen = 0
            empty = False
            if cell < 0:
                for i in range(ncells):
                    m = cur[i]
                    if m == 0:
                        empty = True
                    elif m & (m - 1) == 0:
                        queue[qlen] = i
                        qlen += 1
            elif cur[cell] & (cur[cell] - 1) == 0:
                queue[0] = cell
                qlen = 1
            if empty or not propagate(
                cur, queue, qlen, units, peer_start, peers, peer_bits, near_start, near,
                cage_start, cage_cells, combo_start, combos, n, br, bc, boxes, rules, seg, acc,
            ):  # fmt: skip
                backtracks += 1
                break
            best = _choose(cur, peer_start, peers, n)
            if best < 0:
                if found < keep:
                    for i in range(ncells):
                        sols[found, i] = trailing_zeros(cur[i]) + 1
                found += 1
                if found >= limit:
                    outcome = LIMIT
                break
            m = cur[best]
            d = m & -m
            for i in range(ncells):
                stack[sp, i] = cur[i]
            stack[sp, best] = m ^ d
            pending[sp] = best
            sp += 1
            cur[best] = d
            cell = best
            guesses += 1
        if outcome != EXHAUSTED:
            break
    ctr[NODES] = nodes
    ctr[GUESSES] = guesses
    ctr[BACKTRACKS] = backtracks
    ctr[FOUND] = found
    ctr[DEPTH] = sp
    return outcome
