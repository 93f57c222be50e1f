"""Sue de Coq compiled (numba; imported only when numba is installed).

`first_crossing` tells, for one box and line, which crossing cells (in
`sue_de_coq._crossing`'s order: two cells, then three, as `itertools.combinations`
gives them) are the first that a line set and a box set complete with something to
eliminate; the Python search then builds that crossing's step, so the step is the same.
A side set has one to `MAX_SIDE_CELLS` cells (three).
"""

from __future__ import annotations

import numpy as np

from solvers.fast.kernels import kernel, listed, popcount

MAX_SIDE_CELLS = 3


@kernel(inline="always")
def _keep(sets, count, size, a, b, c, m, v, need):
    """Add the set of cells `a`, `b`, `c` (the first `size`; digits `m`) to `sets` when it
    could join a crossing of digits `v`; the new count."""
    gain = size - popcount(m & ~v)
    if gain < 1 or gain >= need:
        return count
    sets[count, 0] = a
    sets[count, 1] = b if size > 1 else -1
    sets[count, 2] = c if size > 2 else -1
    sets[count, 3] = m
    sets[count, 4] = gain
    return count + 1


@kernel
def _sides(cand, rest, nrest, v, need, sets):
    """Into `sets` (a row each: three cells, -1 for none, the digits, the gain): the sets
    of `rest` that could join a crossing of digits `v`, gain (cells less digits outside
    `v`) between 1 and ``need - 1``; how many."""
    useful = np.empty(nrest, dtype=np.int64)
    nu = 0
    for i in range(nrest):
        m = cand[rest[i]]
        if m & v and popcount(m & ~v) < MAX_SIDE_CELLS:
            useful[nu] = rest[i]
            nu += 1
    count = 0
    for i in range(nu):
        a = useful[i]
        count = _keep(sets, count, 1, a, -1, -1, cand[a], v, need)
        for j in range(i + 1, nu):
            b = useful[j]
            count = _keep(sets, count, 2, a, b, -1, cand[a] | cand[b], v, need)
            for k in range(j + 1, nu):
                c = useful[k]
                count = _keep(sets, count, 3, a, b, c, cand[a] | cand[b] | cand[c], v, need)
    return count


@kernel
def _loses(cand, unit, used, nused, loses):
    """Whether a cell of `unit` outside `used` holds one of the digits `loses`."""
    for c in unit:  # noqa: SIM110 (numba compiles no generator)
        if cand[c] & loses and not listed(used, nused, c):
            return True
    return False


@kernel
def _completes(cand, crossing, size, line, box, line_rest, nl, box_rest, nb, sides):
    """Whether a line set and a box set complete `crossing` (its first `size` cells) with
    something to eliminate (`sides`: scratch rows for the sets)."""
    v = 0
    for i in range(size):
        v |= cand[crossing[i]]
    need = popcount(v) - size
    if need < 2:
        return False
    box_sets = sides[0]
    line_sets = sides[1]
    nbox = _sides(cand, box_rest, nb, v, need, box_sets)
    if not nbox:
        return False
    nline = _sides(cand, line_rest, nl, v, need, line_sets)
    used = np.empty(size + 2 * MAX_SIDE_CELLS, dtype=np.int64)
    for i in range(nline):
        va = line_sets[i, 3]
        for j in range(nbox):
            vb = box_sets[j, 3]
            if va & vb or line_sets[i, 4] + box_sets[j, 4] != need:
                continue
            nused = 0
            for c in crossing[:size]:
                used[nused] = c
                nused += 1
            for t in range(MAX_SIDE_CELLS):
                for c in (line_sets[i, t], box_sets[j, t]):
                    if c >= 0:
                        used[nused] = c
                        nused += 1
            if _loses(cand, line, used, nused, (va | v) & ~vb) or _loses(
                cand, box, used, nused, (vb | v) & ~va
            ):
                return True
    return False


@kernel
def _rest(cand, unit, other):
    """The open cells of `unit` outside `other`, in a row, and how many."""
    n = unit.shape[0]
    out = np.empty(n, dtype=np.int64)
    count = 0
    for c in unit:
        if cand[c] and not listed(other, n, c):
            out[count] = c
            count += 1
    return out, count


@kernel
def first_crossing(cand, box, line, in_box):
    """The first crossing cells of `box` and `line` (cell rows) that some line set and box
    set complete with something to eliminate, as three cells (the third -1 for two), or
    all -1: `in_box` holds the crossing's positions in the box."""
    n = box.shape[0]
    inter = np.empty(n, dtype=np.int64)
    ni = 0
    for i in range(n):
        if in_box >> i & 1 and cand[box[i]]:
            inter[ni] = box[i]
            ni += 1
    if ni < 2:
        return -1, -1, -1
    line_rest, nl = _rest(cand, line, box)
    box_rest, nb = _rest(cand, box, line)
    most = n + n * (n - 1) // 2 + n * (n - 1) * (n - 2) // 6  # the sets of up to n cells
    sides = np.empty((2, most, 5), dtype=np.int64)
    crossing = np.empty(3, dtype=np.int64)
    for i in range(ni):
        for j in range(i + 1, ni):
            crossing[0] = inter[i]
            crossing[1] = inter[j]
            if _completes(cand, crossing, 2, line, box, line_rest, nl, box_rest, nb, sides):
                return inter[i], inter[j], -1
    for i in range(ni):
        for j in range(i + 1, ni):
            for k in range(j + 1, ni):
                crossing[0] = inter[i]
                crossing[1] = inter[j]
                crossing[2] = inter[k]
                if _completes(cand, crossing, 3, line, box, line_rest, nl, box_rest, nb, sides):
                    return inter[i], inter[j], inter[k]
    return -1, -1, -1
