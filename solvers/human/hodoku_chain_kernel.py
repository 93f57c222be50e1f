"""HoDoKu's X-chains, XY-chains and nice loops compiled (numba; imported only when numba
is installed).

The same search as `solvers.human.hodoku_chains` (read its doc first): from each starting
candidate, a breadth-first walk of what its falsity forces, and the pair of ends with the
least key ``(-eliminations, index sum, length, p, q, eliminations)``.  The Python search
spends its time on big-integer masks and the dictionaries of every walk; here every walk
runs in place over rows of 64-bit words and only the best key leaves the kernel.

The walks run over the open nodes alone (node ``cell * n + digit - 1`` with the digit
still a candidate), numbered in node order: a mask over them is a row of
``ceil(open / 64)`` words, a few where a mask over every node would take many.  The
numbering keeps node order, so ends and eliminations compare as they do over every node.

`chain_rows` builds the links of every kind at once, per open node: the same digit's
candidates it sees, its cell's other candidates, its conjugates, its cell's other
candidate when the cell is bivalue, and the same digit's candidates it sees among
bivalue cells.  `best_key` walks from the starts of one kind (``X``, ``XY`` or ``AIC``;
X-chains one digit at a time, as the Python search keeps them in the solve's memo).
Geometry is as `solvers.grid.Shape` lists it: units (cells per unit) and each cell's
peers.  The walk is written out in one loop: a call per forced node, with its arrays,
would cost more than the work it does.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from solvers.fast.kernels import kernel

X, XY, AIC = 0, 1, 2
"""The kinds of chain, as `best_key` takes them."""

SAME, CELL, CONJUGATE, PAIR, BIVALUE_SAME = 0, 1, 2, 3, 4
"""The link rows of `chain_rows`, in order."""

_ON, _OFF, _ON_SEEN, _OFF_SEEN, _TARGETS, _BEST = range(6)
"""The rows of a walk's masks: the nodes forced true at this length, those forced false
next, every node forced true so far, every node forced false so far, the eliminations of
the chain weighed, the best chain's eliminations."""


_ONE = np.uint64(1)


@kernel
def _low(word) -> int:
    """The index of the lowest set bit of a nonzero word."""
    return trailing_zeros(word)  # type: ignore[call-arg]  # (a numba intrinsic)


@kernel
def _set(rows, k, r, b) -> None:
    rows[k, r, b >> 6] |= _ONE << np.uint64(b & 63)


@intrinsic
def _ctpop(typingctx, word):  # type: ignore[no-untyped-def]
    """The number of set bits of a word (LLVM's ctpop, one instruction where the CPU has
    one)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return word(word), codegen


@kernel
def _popcount(word) -> int:
    return int(_ctpop(word))  # type: ignore[call-arg]  # (a numba intrinsic)


@kernel
def chain_rows(cand, n, units, peers):
    """The open nodes in order (node numbers) and the link rows (`SAME` ... `BIVALUE_SAME`)
    of each, over the open nodes: shape (5, open nodes, words)."""
    ncells = cand.shape[0]
    index = np.full(ncells * n, -1, dtype=np.int64)  # each node's place among the open
    kinds = np.zeros(ncells, dtype=np.int64)  # candidates per cell
    m = 0
    for c in range(ncells):
        for d in range(n):
            if cand[c] >> d & 1:
                index[c * n + d] = m
                m += 1
                kinds[c] += 1
    node_of = np.zeros(m, dtype=np.int64)
    for node in range(ncells * n):
        if index[node] >= 0:
            node_of[index[node]] = node
    rows = np.zeros((5, m, (m + 63) // 64), dtype=np.uint64)
    for i in range(m):
        c, d = divmod(node_of[i], n)
        for j in range(peers.shape[1]):
            other = index[peers[c, j] * n + d]
            if other >= 0:
                _set(rows, SAME, i, other)
                if kinds[peers[c, j]] == 2:
                    _set(rows, BIVALUE_SAME, i, other)
        for e in range(n):
            other = index[c * n + e]
            if e != d and other >= 0:
                _set(rows, CELL, i, other)
                if kinds[c] == 2:
                    _set(rows, PAIR, i, other)
    for u in range(units.shape[0]):
        for d in range(n):
            first = second = -1
            places = 0
            for k in range(units.shape[1]):
                here = index[units[u, k] * n + d]
                if here >= 0:
                    places += 1
                    if first < 0:
                        first = here
                    else:
                        second = here
            if places == 2:
                _set(rows, CONJUGATE, first, second)
                _set(rows, CONJUGATE, second, first)
    return node_of, rows


@kernel
def _index_sum(masks, node_of, n, ncells, scratch) -> int:
    """HoDoKu's index sum of the eliminations ``masks[_TARGETS]`` (`hodoku_chains.index_sum`):
    by digit, then cell, weighted 1, 81, 161 ... by rank."""
    k = 0
    for w in range(masks.shape[1]):
        word = masks[_TARGETS, w]
        while word:
            node = node_of[w * 64 + _low(word)]
            word &= word - _ONE
            scratch[k] = (node % n) * ncells + node // n
            k += 1
    scratch[:k].sort()
    total = 0
    for i in range(k):
        d, c = divmod(scratch[i], ncells)
        total += c * (1 + 80 * i) + d + 1
    return total


@kernel
def _better(count, isum, length, p, q, masks, best) -> bool:
    """Whether the key (-count, isum, length, p, q, ``masks[_TARGETS]``) is less than the
    best so far (``best[0]`` < 0: none yet); the eliminations compare as integers, the top
    word first (over the open nodes, in node order, so as over every node)."""
    if best[0] < 0:
        return True
    if count != best[0]:
        return count > best[0]
    if isum != best[1]:
        return isum < best[1]
    if length != best[2]:
        return length < best[2]
    if p != best[3]:
        return p < best[3]
    if q != best[4]:
        return q < best[4]
    for w in range(masks.shape[1] - 1, -1, -1):
        if masks[_TARGETS, w] != masks[_BEST, w]:
            return masks[_TARGETS, w] < masks[_BEST, w]
    return False


@kernel
def _links(rows, kind):
    """The strong and weak links of `kind`, and what each node sees."""
    if kind == X:
        strong = rows[CONJUGATE].copy()
        weak = rows[SAME].copy()
    elif kind == XY:
        strong = rows[PAIR].copy()
        weak = rows[BIVALUE_SAME].copy()
    else:
        strong = rows[CONJUGATE] | rows[PAIR]
        weak = rows[SAME] | rows[CELL]
    return strong, weak, rows[SAME] | rows[CELL]


@kernel
def best_key(node_of, rows, n, ncells, kind, digit, max_nodes, best, full_targets) -> bool:
    """The best chain of `kind` from every open node (of digit index `digit` only when it
    is 0 or more): its key into ``best`` (eliminations, index sum, length, p, q) and its
    eliminations into ``full_targets`` (a mask over every node); whether there is one."""
    m = rows.shape[1]
    words = rows.shape[2]
    strong, weak, sees = _links(rows, kind)
    cell = rows[CELL]
    masks = np.zeros((6, words), dtype=np.uint64)
    frontier = np.zeros(m, dtype=np.int64)
    scratch = np.zeros(m, dtype=np.int64)
    best[0] = -1
    for p in range(m):
        if (digit < 0 or node_of[p] % n == digit) and _any(strong, p):
            _walk(p, strong, weak, sees, cell, node_of, n, ncells, kind, max_nodes,
                  masks, frontier, scratch, best)  # fmt: skip
    full_targets[:] = 0
    if best[0] < 0:
        return False
    for w in range(words):
        word = masks[_BEST, w]
        while word:
            b = node_of[w * 64 + _low(word)]
            full_targets[b >> 6] |= _ONE << np.uint64(b & 63)
            word &= word - _ONE
    return True


@kernel
def _walk(p, strong, weak, sees, cell, node_of, n, ncells, kind, max_nodes, masks, frontier,
          scratch, best) -> None:  # fmt: skip
    """The walk from p false (`hodoku_chains._forced`): each node forced true, with the
    length of its shortest chain, weighed as the chain's other end."""
    words = masks.shape[1]
    for w in range(words):
        masks[_ON_SEEN, w] = 0
        masks[_OFF_SEEN, w] = 0
    masks[_OFF_SEEN, p >> 6] |= _ONE << np.uint64(p & 63)
    frontier[0] = p
    size = 1
    length = 1
    while size and length + 1 <= max_nodes:
        if not _forced_on(strong, frontier, size, masks):
            break
        length += 1
        for w in range(words):
            word = masks[_ON, w]
            while word:
                q = w * 64 + _low(word)
                word &= word - _ONE
                for v in range(words):
                    masks[_OFF, v] |= weak[q, v]
                if q == p:
                    if kind != AIC:
                        continue
                    for v in range(words):
                        masks[_TARGETS, v] = cell[p, v]
                else:
                    if kind != AIC and node_of[q] % n != node_of[p] % n:
                        continue
                    for v in range(words):
                        masks[_TARGETS, v] = sees[p, v] & sees[q, v]
                    masks[_TARGETS, p >> 6] &= ~(_ONE << np.uint64(p & 63))
                    masks[_TARGETS, q >> 6] &= ~(_ONE << np.uint64(q & 63))
                count = 0
                for v in range(words):
                    count += _popcount(masks[_TARGETS, v])
                if count == 0 or count < best[0]:
                    continue
                isum = _index_sum(masks, node_of, n, ncells, scratch)
                a, b = node_of[p], node_of[q]
                if _better(count, isum, length, a, b, masks, best):
                    best[0] = count
                    best[1] = isum
                    best[2] = length
                    best[3] = a
                    best[4] = b
                    for v in range(words):
                        masks[_BEST, v] = masks[_TARGETS, v]
        size = _forced_off(masks, frontier)
        length += 1


@kernel
def _forced_on(strong, frontier, size, masks) -> bool:
    """The nodes the frontier's falsity forces true, not met before, into ``masks[_ON]``;
    whether there are any."""
    found = False
    for w in range(masks.shape[1]):
        word = np.uint64(0)
        for i in range(size):
            word |= strong[frontier[i], w]
        word &= ~masks[_ON_SEEN, w]
        masks[_ON, w] = word
        masks[_ON_SEEN, w] |= word
        if word:
            found = True
    return found


@kernel
def _forced_off(masks, frontier) -> int:
    """The next frontier: the nodes of ``masks[_OFF]`` not forced false before (the row
    is cleared); its size."""
    size = 0
    for w in range(masks.shape[1]):
        word = masks[_OFF, w] & ~masks[_OFF_SEEN, w]
        masks[_OFF, w] = 0
        masks[_OFF_SEEN, w] |= word
        while word:
            frontier[size] = w * 64 + _low(word)
            word &= word - _ONE
            size += 1
    return size


@kernel
def _any(rows, r) -> bool:
    """Whether row r has a bit set."""
    for w in range(rows.shape[1]):  # noqa: SIM110 (numba compiles no generator)
        if rows[r, w]:
            return True
    return False
