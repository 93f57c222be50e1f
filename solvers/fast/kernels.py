"""The compiled core: bitmask propagation and an explicit-stack search (numba).

A *state* is one int32 per cell: the bitmask of its candidates (bit ``d-1``
for digit ``d``); a cell is placed when its mask has a single bit.  Inference:

- naked singles through a work list: a placed cell removes its digit from
  its peers, and a peer left with one candidate joins the list;
- hidden singles: per unit, the digits seen once (``once & ~twice``) are
  placed in the cell that holds them; a digit seen nowhere is a contradiction;
- locked candidates (optional): where a digit's cells in a box all lie on one
  line, it leaves the rest of the line (pointing), and where its cells on a
  line all lie in one box, it leaves the rest of the box (claiming).

Search branches on the unplaced cell with the fewest candidates, binary
style: try its lowest digit, and push the state without that digit as the
alternative.  The stack lives in arrays the caller owns, so a search can stop
after a node limit and be resumed later — that is how the Python side honours
a wall-clock limit without reading a clock inside compiled code.

Counters: ``nodes`` (states propagated after a guess; the root is free),
``guesses`` (branching decisions) and ``backtracks`` (contradictions met).
"""

from __future__ import annotations

import numpy as np
from numba import carray, config, njit, prange, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

# Kernel outcomes.
EXHAUSTED = 0  # the whole search space explored
LIMIT = 1  # `limit` solutions found
PAUSED = 2  # node limit reached; the stack holds the rest, resumable
INVALID = 3  # two givens conflict

# Slots of the counter array a search reads and updates.
NODES, GUESSES, BACKTRACKS, FOUND, DEPTH = 0, 1, 2, 3, 4
COUNTERS = 5
NO_LIMIT = 2**63 - 1  # a node limit that never stops a search

# The inference before a guess (`rules`): each level adds to the one before.
SINGLES = 0  # naked and hidden singles
LOCKED = 1  # locked candidates (pointing and claiming)
INTERSECTIONS = 2  # each box/line intersection holds as many digits as cells; reach branching
BANDS = 3  # 9x9 kernel only: tdoku's branching on a digit's placement in a band (`kernels9`)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (one machine instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _address(typingctx, arr):
    """The data pointer of an array, typed (what `carray` takes); C-contiguous arrays
    only (`carray` reads the memory in C order: anything else is a typing error, not
    wrong cells)."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen


@njit(cache=True, inline="always")
def borrow(a):
    """`a`'s memory as an array without a reference count.

    numba counts references to an array each time an inlined function
    takes it (an atomic add and a call), which inside the search loop
    was about a tenth of the time; the caller keeps `a` alive.  Without
    the compiler (``NUMBA_DISABLE_JIT``), `a` itself.
    """
    if config.DISABLE_JIT:
        return a
    return carray(_address(a), a.shape)


def kernel(func=None, /, **options):
    """numba's `njit` as the human engine's kernels compile: cached on disk, and with
    numpy's error model, which leaves out the zero-divisor check (and the code raising
    `ZeroDivisionError`) that numba adds to every ``//`` and ``%``; the kernels divide by
    grid sides and counts that are never zero.  ``@kernel`` or ``@kernel(inline="always")``."""
    decorate = njit(cache=True, error_model="numpy", **options)
    return decorate if func is None else decorate(func)


@kernel(inline="always")
def row_count(row):
    """How many bits a row of 64-bit words has set."""
    total = 0
    for w in range(row.shape[0]):
        total += popcount(row[w])
    return total


@kernel(inline="always")
def listed(values, count, x):
    """Whether ``values[:count]`` holds `x`."""
    for i in range(count):  # noqa: SIM110 (numba compiles no generator)
        if values[i] == x:
            return True
    return False


@kernel(inline="always")
def next_combination(idx, count, total) -> bool:
    """Step ``idx[:count]`` (ascending indices below `total`) to the next combination in
    lexicographic order; False after the last."""
    i = count - 1
    while i >= 0 and idx[i] == total - count + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, count):
        idx[j] = idx[j - 1] + 1
    return True


@intrinsic
def _borrow_each(typingctx, arrays):
    """The tuple `arrays` with every array's reference count dropped (`borrow`)."""
    if not isinstance(arrays, types.BaseTuple) or not all(
        isinstance(t, types.Array) for t in arrays
    ):
        return None

    def codegen(context, builder, signature, args):
        tuple_type = signature.args[0]
        items = []
        for i, array_type in enumerate(tuple_type):
            array = builder.extract_value(args[0], i)
            model = context.data_model_manager[array_type]
            for field in ("meminfo", "parent"):  # no owner: nothing to count
                at = model.get_field_position(field)
                array = builder.insert_value(
                    array, cgutils.get_null_value(array.type.elements[at]), at
                )
            items.append(array)
        return context.make_tuple(builder, tuple_type, items)

    return arrays(arrays), codegen


@njit(cache=True, inline="always")
def borrow_each(arrays):
    """`borrow` for a tuple of arrays of any shapes and layouts: the same tuple whose arrays
    carry no reference count.

    A function that takes a tuple counts a reference for each of its arrays (and drops
    it on return), so helpers that take a workspace of many arrays pay two atomic
    operations per array and call.  The kernels' entry points borrow their tuples once;
    the caller keeps the arrays alive, and a borrowed array is never returned or kept.
    Without the compiler (``NUMBA_DISABLE_JIT``), `arrays` itself."""
    if config.DISABLE_JIT:
        return arrays
    return _borrow_each(arrays)


@njit(cache=True, inline="always")
def eliminate(cand, cell, bits, queue, qlen):
    """Remove `bits` from a cell; return the new queue length, or -1 if it empties."""
    m = cand[cell] & ~bits
    if m == 0:
        return -1
    cand[cell] = m
    if m & (m - 1) == 0:
        queue[qlen] = cell
        qlen += 1
    return qlen


@njit(cache=True, inline="always")
def _others(seg, line, s, nseg, first, group):
    """The digits of `line` outside segment `s`, and of the box's other lines in it."""
    line_other = 0
    for t in range(nseg):
        if t != s:
            line_other |= seg[line * nseg + t]
    box_other = 0
    for q in range(first, first + group):
        if q != line:
            box_other |= seg[q * nseg + s]
    return line_other, box_other


@njit(cache=True, inline="always")
def _clear_line_rest(cand, queue, qlen, bits, line, s, n, seglen, along, across):
    """Remove `bits` from `line` outside segment `s`: (queue length, eliminations),
    the length -1 on a contradiction."""
    removed = 0
    for pos in range(n):
        if pos // seglen == s:
            continue
        cell = line * along + pos * across
        if cand[cell] & bits:
            qlen = eliminate(cand, cell, bits, queue, qlen)
            if qlen < 0:
                return -1, removed
            removed += 1
    return qlen, removed


@njit(cache=True, inline="always")
def _clear_box_rest(cand, queue, qlen, bits, line, first, group, s, seglen, along, across):
    """Remove `bits` from segment `s` of the box's lines other than `line` (as above)."""
    removed = 0
    for q in range(first, first + group):
        if q == line:
            continue
        for j in range(seglen):
            cell = q * along + (s * seglen + j) * across
            if cand[cell] & bits:
                qlen = eliminate(cand, cell, bits, queue, qlen)
                if qlen < 0:
                    return -1, removed
                removed += 1
    return qlen, removed


@njit(cache=True)
def _locked_lines(cand, queue, qlen, n, along, across, seglen, group, seg):
    """Pointing and claiming between boxes and one kind of line (rows or columns).

    Cell ``line * along + position * across`` is on `line`; a line crosses
    ``n // seglen`` boxes in segments of `seglen` cells, and `group` lines
    share each box.  `seg` is scratch space for the segment masks.  Returns
    (queue length, eliminations), or (-1, 0) on a contradiction.
    """
    nseg = n // seglen
    removed = 0
    for line in range(n):
        for s in range(nseg):
            m = 0
            for j in range(seglen):
                v = cand[line * along + (s * seglen + j) * across]
                if v & (v - 1):
                    m |= v
            seg[line * nseg + s] = m
    for line in range(n):
        first = (line // group) * group
        for s in range(nseg):
            here = seg[line * nseg + s]
            if here == 0:
                continue
            line_other, box_other = _others(seg, line, s, nseg, first, group)
            claim = here & ~line_other  # only here on the line: leaves the rest of the box
            if claim:
                qlen, cut = _clear_box_rest(
                    cand, queue, qlen, claim, line, first, group, s, seglen, along, across
                )
                if qlen < 0:
                    return -1, 0
                removed += cut
            point = here & ~box_other  # only here in the box: leaves the rest of the line
            if point:
                qlen, cut = _clear_line_rest(
                    cand, queue, qlen, point, line, s, n, seglen, along, across
                )
                if qlen < 0:
                    return -1, 0
                removed += cut
    return qlen, removed


@njit(cache=True)
def _locked(cand, queue, n, br, bc, seg):
    """Pointing and claiming over every box/line intersection.

    Returns (queue length, eliminations), or (-1, 0) on a contradiction.
    Only unplaced cells take part: after singles have run, a placed digit
    is absent from every unplaced peer, so it can never look locked.
    """
    qlen, removed = _locked_lines(cand, queue, 0, n, n, 1, bc, br, seg)
    if qlen:  # new singles leave their peers before column masks (which skip them) are read
        return qlen, removed
    qlen, more = _locked_lines(cand, queue, qlen, n, 1, n, br, bc, seg)
    return qlen, removed + more


@njit(cache=True)
def _intersect_lines(cand, queue, qlen, n, along, across, seglen, group, seg):
    """Each box/line intersection (`seglen` cells) holds exactly `seglen` digits.

    Geometry as in `_locked_lines`.  A digit *may* go into an intersection
    when one of its cells (placed or not) holds it, and *must* when the rest
    of its line or the rest of its box lacks it.  Where exactly `seglen`
    digits may, each leaves the rest of the line and of the box; where
    `seglen` must, the others leave the intersection.  Returns (queue length,
    eliminations), or (-1, 0) on a contradiction (fewer may, or more must).
    """
    nseg = n // seglen
    removed = 0
    for line in range(n):
        for s in range(nseg):
            m = 0
            for j in range(seglen):
                m |= cand[line * along + (s * seglen + j) * across]
            seg[line * nseg + s] = m
    for line in range(n):
        first = (line // group) * group
        for s in range(nseg):
            here = seg[line * nseg + s]
            line_other, box_other = _others(seg, line, s, nseg, first, group)
            possible = popcount(here)
            forced = popcount(here & ~(line_other & box_other))
            if possible < seglen or forced > seglen:
                return -1, 0
            if possible == seglen:  # these digits fill it: out of the rest of line and box
                qlen, cut = _clear_line_rest(
                    cand, queue, qlen, here, line, s, n, seglen, along, across
                )
                if qlen < 0:
                    return -1, 0
                removed += cut
                qlen, cut = _clear_box_rest(
                    cand, queue, qlen, here, line, first, group, s, seglen, along, across
                )
                if qlen < 0:
                    return -1, 0
                removed += cut
            if forced == seglen and possible > seglen:  # they must: the others go
                out = here & line_other & box_other
                for j in range(seglen):
                    cell = line * along + (s * seglen + j) * across
                    if cand[cell] & out:
                        qlen = eliminate(cand, cell, out, queue, qlen)
                        if qlen < 0:
                            return -1, 0
                        removed += 1
    return qlen, removed


@njit(cache=True)
def intersections(cand, queue, n, br, bc, seg):
    """`_intersect_lines` over rows, then (without pending singles) over columns."""
    qlen, removed = _intersect_lines(cand, queue, 0, n, n, 1, bc, br, seg)
    if qlen:
        return qlen, removed
    qlen, more = _intersect_lines(cand, queue, qlen, n, 1, n, br, bc, seg)
    return qlen, removed + more


@njit(cache=True)
def _naked(cand, queue, qlen, peers):
    """Remove each queued cell's digit from its peers, cascading; False on a contradiction."""
    npeers = peers.shape[1]
    qi = 0
    while qi < qlen:
        cell = queue[qi]
        qi += 1
        d = cand[cell]
        for k in range(npeers):
            p = peers[cell, k]
            if cand[p] & d:
                qlen = eliminate(cand, p, d, queue, qlen)
                if qlen < 0:
                    return False
    return True


@njit(cache=True)
def propagate(cand, queue, qlen, peers, units, n, br, bc, rules, seg):
    """Apply singles (and locked candidates) to a fixpoint; False on a contradiction.

    `queue[:qlen]` lists the placed cells whose digit has not yet left their
    peers.  A hidden single found during a sweep is propagated at once, so
    the rest of the sweep sees its consequences.
    """
    full = (1 << n) - 1
    nunits = units.shape[0]
    if not _naked(cand, queue, qlen, peers):
        return False
    while True:
        progress = False
        # Hidden singles: a digit with one place left in a unit goes there.
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
                return False  # a digit with no place in the unit
            hidden = once & ~twice & ~placed
            if hidden:
                for i in range(n):
                    cell = units[u, i]
                    m = cand[cell]
                    h = m & hidden
                    if h and m & (m - 1):
                        if h & (h - 1):
                            return False  # one cell, two digits that must go there
                        cand[cell] = h
                        queue[0] = cell
                        if not _naked(cand, queue, 1, peers):
                            return False
                        progress = True
        if progress:
            continue
        if rules == SINGLES:
            return True
        qlen, removed = _locked(cand, queue, n, br, bc, seg)
        if qlen < 0 or not _naked(cand, queue, qlen, peers):
            return False
        if removed:
            continue
        if rules < INTERSECTIONS:
            return True
        qlen, removed = intersections(cand, queue, n, br, bc, seg)
        if qlen < 0 or not _naked(cand, queue, qlen, peers):
            return False
        if removed == 0:
            return True


@njit(cache=True)
def _choose(cand, peers, n, rules):
    """The cell to branch on (-1 when every cell is placed).

    Fewest candidates first; then the first in reading order with the best
    score.  A bivalue cell scores two per unplaced peer, whose guess reaches
    furthest, plus three per bivalue peer and digit they share, a single
    either branch of the guess is sure to make (against unplaced peers alone
    this cut the guesses by 12-25% at 9x9 and 12x12 for the same or less
    time).  A cell with more candidates scores its unplaced peers.  At the
    `INTERSECTIONS` level a bivalue cell is scored by its reach instead: how
    many candidates its two digits hold among its peers (with the
    intersection rule it halves the guesses at 25x25; without it, or at 9x9,
    it does not pay).
    """
    reach = rules >= INTERSECTIONS
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
        for j in range(peers.shape[1]):
            v = cand[peers[i, j]]
            if v & (v - 1):
                if k != 2:
                    s += 1
                elif reach:
                    s += popcount(v & m)
                else:  # an open peer, and each digit it would be left with on a guess here
                    s += 2 + 3 * popcount(v & m) if popcount(v) == 2 else 2
        if k < fewest or s > score:
            best, fewest, score = i, k, s
    return best


@njit(cache=True)
def givens_conflict(cells, peers):
    """True when two peers hold the same given."""
    for i in range(cells.shape[0]):
        d = cells[i]
        if d:
            for k in range(peers.shape[1]):
                if cells[peers[i, k]] == d:
                    return True
    return False


@njit(cache=True)
def start(cells, n, stack, pending, ctr):
    """Put a puzzle (digits) on an empty stack as the root state."""
    full = (1 << n) - 1
    for i in range(cells.shape[0]):
        d = cells[i]
        stack[0, i] = (1 << (d - 1)) if d else full
    pending[0] = -1  # the root: every given is pending
    for k in range(COUNTERS):
        ctr[k] = 0
    ctr[DEPTH] = 1


@njit(cache=True)
def search(
    stack,
    pending,
    cur,
    queue,
    seg,
    peers,
    units,
    br,
    bc,
    rules,
    limit,
    keep,
    node_limit,
    sols,
    ctr,
):
    """Run (or resume) the search held on `stack`; return an outcome code.

    Solutions are written to ``sols[:keep]`` as digits; ``ctr`` carries the
    counters and the stack depth between calls.
    """
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
                if nodes >= node_limit:  # put the state back for a later call
                    for i in range(ncells):
                        stack[sp, i] = cur[i]
                    pending[sp] = cell
                    sp += 1
                    outcome = PAUSED
                    break
                nodes += 1
            qlen = 0
            if cell < 0:
                for i in range(ncells):
                    m = cur[i]
                    if m & (m - 1) == 0:
                        queue[qlen] = i
                        qlen += 1
            elif cur[cell] & (cur[cell] - 1) == 0:
                queue[0] = cell
                qlen = 1
            if not propagate(cur, queue, qlen, peers, units, n, br, bc, rules, seg):
                backtracks += 1
                break
            best = _choose(cur, peers, n, rules)
            if best < 0:  # every cell placed: a solution
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


@njit(cache=True)
def _solve_range(
    puzzles, lo, hi, peers, units, br, bc, rules, limit, keep, node_limit, sols, stats, outcomes
):
    """Solve puzzles lo..hi-1 with one workspace."""
    ncells = puzzles.shape[1]
    stack = np.empty((ncells + 1, ncells), dtype=np.int32)
    pending = np.empty(ncells + 1, dtype=np.int32)
    cur = np.empty(ncells, dtype=np.int32)
    queue = np.empty(ncells, dtype=np.int32)
    seg = np.empty(ncells, dtype=np.int64)
    ctr = np.zeros(COUNTERS, dtype=np.int64)
    n = br * bc
    for p in range(lo, hi):
        start(puzzles[p], n, stack, pending, ctr)
        outcome = search(
            stack,
            pending,
            cur,
            queue,
            seg,
            peers,
            units,
            br,
            bc,
            rules,
            limit,
            keep,
            node_limit,
            sols[p],
            ctr,
        )
        if ctr[FOUND] == 0 and ctr[NODES] == 0 and givens_conflict(puzzles[p], peers):
            outcome = INVALID
        outcomes[p] = outcome
        for k in range(4):
            stats[p, k] = ctr[k]


@njit(cache=True)
def solve_serial(
    puzzles, peers, units, br, bc, rules, limit, keep, node_limit, sols, stats, outcomes
):
    """Solve a batch in this thread.  ``stats[p]`` = nodes, guesses, backtracks, found."""
    _solve_range(
        puzzles,
        0,
        puzzles.shape[0],
        peers,
        units,
        br,
        bc,
        rules,
        limit,
        keep,
        node_limit,
        sols,
        stats,
        outcomes,
    )


@njit(cache=True, parallel=True)
def solve_parallel(
    puzzles, peers, units, br, bc, rules, limit, keep, node_limit, sols, stats, outcomes, chunks
):
    """Solve a batch split into `chunks` contiguous parts spread over numba's threads."""
    total = puzzles.shape[0]
    for t in prange(chunks):
        _solve_range(
            puzzles,
            t * total // chunks,
            (t + 1) * total // chunks,
            peers,
            units,
            br,
            bc,
            rules,
            limit,
            keep,
            node_limit,
            sols,
            stats,
            outcomes,
        )
