"""The 9x9 kernel: digit bitboards, a band of 27 cells per machine word.

The generic kernel (`kernels`) keeps one candidate mask per cell and scans
units cell by cell.  For classic Sudoku this module turns the picture
around: for each digit and each band (three rows), one word holds the
cells where the digit may still go, bit ``(row % 3) * 9 + column``.  A
cell index ``c`` lives in band ``c // 27`` at bit ``c % 27``.  Rows, boxes
and columns are then fixed bit patterns, and every inference is a few
word operations:

- naked singles: per band, cells seen by exactly one digit (``once & ~twice``);
  cells seen by none are a contradiction;
- hidden singles: a row or box slice of a digit's word with one bit, or a
  column that one slice alone covers;
- locked candidates: a digit's box slice confined to one row (or column) of
  the box clears the rest of that row (column); a row (column) confined to
  one box clears the rest of the box.

Singles only (`SINGLES`) rescans for the first two.  At the `LOCKED` level
and above, `propagate` works digit by digit and only on the digits whose
words changed (``state[DIRTY]``): a digit's triads (the three-cell row
segments of each box) in a band form a 3x3 matrix in which it takes one
entry per row and per box, a permutation; so do its column
segments in a stack.  One table lookup (`CLOSE`) keeps the entries of a
matrix that some permutation uses -- for 3x3 this is exactly pointing and
claiming to a fixpoint, and a row or box left empty is a contradiction.
(`BAND_CLOSE` and `STACK_CLOSE` fold the lookups a closure needs into one
load per matrix: the surviving cells, and for bands the lone triads.)
Band and stack closures alternate until neither cuts; then a row with one
triad holding one cell is a hidden single (of row, box or column alike),
which is marked placed and cleared from the other digits, dirtying them.
Naked singles and empty cells follow from the once/twice accumulators over
the digits of each band.  Each closure also leaves in the state what the
intersection rule and the branching read of the digit: its may and must
intersections (``state[TRIADS + d]``, ``[LONE + d]``) and its placements
per band and stack (``[COUNTS + d]``, summed in ``[TOTAL]``).  The
fixpoints are those of the rules above, so the search tree is the generic
kernel's.

The `BANDS` level (``fast[intersections=bands]``, this kernel only, the 9x9
default) is tdoku's method: the intersection rule (`intersections`, both
halves), and instead of a cell it branches on a digit with two placements
-- two permutation matrices -- in the band or stack with the fewest
placements over all digits (`_band_choice`): first the placement that
leaves the digit fewer cells, then the other; the choice reads ten words
of counts.  It makes fewer guesses than the cell branching of the `LOCKED`
level on hard puzzles (figures on the docs' benchmarks page).

The state is 61 words (9 digits x 3 bands, the placed cells of each band,
the dirty digits, the intersections whose rule fired, and the closures'
records above; a state copy leaves out the words its level does not
read), the search protocol is that of
`kernels.search` (same counters, outcomes and resumable stack), and the
answers are the same.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.fast.kernels import (
    BACKTRACKS,
    BANDS,
    COUNTERS,
    DEPTH,
    EXHAUSTED,
    FOUND,
    GUESSES,
    INTERSECTIONS,
    INVALID,
    LIMIT,
    NODES,
    PAUSED,
    SINGLES,
    borrow,
    givens_conflict,
    popcount,
)

BAND = (1 << 27) - 1
ROW = 0x1FF  # row 0 of a band
BOX = 0x1C0E07  # box 0 of a band
COL = 0x40201  # column 0 of a band
PLACED = 27  # state[27 + b]: the placed cells of band b
DIRTY = 30  # state[30]: the digits whose words changed since `propagate` last closed them
ALL_DIGITS = 0x1FF
APPLIED_H = 31  # state[31]: horizontal intersections whose rule fired (may | must << 32)
APPLIED_V = 32  # state[32]: the same for the vertical intersections
TRIADS = 33  # state[33 + d]: the triads digit d may take (bit 9b + 3r + j), must at bit 32 up
LONE = 42  # state[42 + d]: the columns of each band it may take (bit 9b + c), must at bit 32 up
COUNTS = 51  # state[51 + d]: digit d's placements (permutations) per chute, 8 bits each
TOTAL = 60  # state[60]: the placements of all digits per chute (the sum of the COUNTS words)
WORDS = 61
BRANCH = 1000  # `_choose` codes from here on: a band/stack and digit (see `_band_choice`)


def peer_masks() -> np.ndarray:
    """For each cell, the bits of its peers in each of the three bands."""
    masks = np.zeros((81, 3), dtype=np.int64)
    for cell in range(81):
        row, col = divmod(cell, 9)
        band = row // 3
        for b in range(3):
            mask = COL << col
            if b == band:
                mask |= ROW << (9 * (row % 3)) | BOX << (3 * (col // 3))
                mask &= ~(1 << (cell % 27))
            masks[cell, b] = mask
    return masks


@njit(cache=True, inline="always")
def _place(st, cell, d, peers):
    """Put digit index `d` in `cell`: clear the cell from other digits, d from the peers."""
    b = cell // 27
    bit = 1 << (cell % 27)
    dirty = st[DIRTY] | (1 << d)
    for e in range(9):
        x = st[e * 3 + b]
        if x & bit:
            st[e * 3 + b] = x & ~bit
            dirty |= 1 << e
    st[DIRTY] = dirty
    st[d * 3] &= ~peers[cell, 0]
    st[d * 3 + 1] &= ~peers[cell, 1]
    st[d * 3 + 2] &= ~peers[cell, 2]
    st[d * 3 + b] |= bit
    st[PLACED + b] |= bit


@njit(cache=True, inline="always")
def _fold(w):
    """The columns a band word touches (9 bits)."""
    return (w | (w >> 9) | (w >> 18)) & ROW


@njit(cache=True)
def _naked(st, peers):
    """Place every cell left with one digit; -1 on a contradiction, else how many."""
    placed = 0
    for b in range(3):
        once = 0
        twice = 0
        for d in range(9):
            w = st[d * 3 + b]
            twice |= once & w
            once |= w
        if once != BAND:
            return -1  # a cell without candidates
        singles = once & ~twice & ~st[PLACED + b]
        while singles:
            bit = singles & -singles
            singles ^= bit
            digit = -1
            for d in range(9):
                if st[d * 3 + b] & bit:
                    digit = d
                    break
            if digit < 0:
                return -1  # an earlier placement took its last candidate
            _place(st, b * 27 + trailing_zeros(bit), digit, peers)
            placed += 1
    return placed


@njit(cache=True)
def _hidden(st, peers):
    """Place every digit with one place left in a row, box or column; -1 on a contradiction."""
    placed = 0
    for d in range(9):
        for b in range(3):
            for k in range(3):
                w = st[d * 3 + b]
                x = (w >> (9 * k)) & ROW
                if x == 0:
                    return -1  # the digit has no place in this row
                x &= ~(st[PLACED + b] >> (9 * k))
                if x and x & (x - 1) == 0:
                    _place(st, b * 27 + 9 * k + trailing_zeros(x), d, peers)
                    placed += 1
            for j in range(3):
                m = BOX << (3 * j)
                w = st[d * 3 + b]
                if w & m == 0:
                    return -1  # no place in this box
                x = w & m & ~st[PLACED + b]
                if x and x & (x - 1) == 0:
                    _place(st, b * 27 + trailing_zeros(x), d, peers)
                    placed += 1
        w0 = st[d * 3]
        w1 = st[d * 3 + 1]
        w2 = st[d * 3 + 2]
        if _fold(w0) | _fold(w1) | _fold(w2) != ROW:
            return -1  # no place in some column
        once = 0
        twice = 0
        for b in range(3):
            u = st[d * 3 + b] & ~st[PLACED + b]
            for k in range(3):
                x = (u >> (9 * k)) & ROW
                twice |= once & x
                once |= x
        lone = once & ~twice
        while lone:
            colbit = lone & -lone
            lone ^= colbit
            for b in range(3):
                u = st[d * 3 + b] & ~st[PLACED + b] & (COL << trailing_zeros(colbit))
                if u:
                    _place(st, b * 27 + trailing_zeros(u), d, peers)
                    placed += 1
                    break
    return placed


GROUPS = 0x1249249  # the first bit of each group of 3 in a 27-bit word


@njit(cache=True, inline="always")
def _lone_in_group(m):
    """The set bits of a 27-bit word that are alone in their group of three."""
    two = ((m & (m >> 1)) | (m & (m >> 2)) | ((m >> 1) & (m >> 2))) & GROUPS
    return m & ~(two * 7)


@njit(cache=True, inline="always")
def _clear_bands(st, d, out0, out1, out2):
    """Removes the `out` places from digit `d`'s three band words; its bit if any went."""
    w0 = st[d * 3]
    w1 = st[d * 3 + 1]
    w2 = st[d * 3 + 2]
    st[d * 3] = w0 & ~out0
    st[d * 3 + 1] = w1 & ~out1
    st[d * 3 + 2] = w2 & ~out2
    return (1 << d) if (w0 & out0) | (w1 & out1) | (w2 & out2) else 0


def _union(masks: Iterable[int]) -> int:
    """The bitwise or of some masks."""
    return functools.reduce(operator.or_, masks, 0)


def closure_table() -> np.ndarray:
    """For a 3x3 matrix of box/line intersections (bit 3*r + c): the union of its permutations.

    In a band a digit takes one cell in each row and one in each box, so the
    intersections (triads) it occupies form a permutation matrix; in a stack
    the same holds for bands and columns.  The entries in no permutation
    inside the matrix can go (this includes pointing and claiming); 0 means
    none is left, a contradiction.
    """
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    masks = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in perms]
    table = np.zeros(512, dtype=np.int64)
    for idx in range(512):
        for m in masks:
            if m & idx == m:
                table[idx] |= m
    return table


def solo_table() -> np.ndarray:
    """For a closed matrix (see `closure_table`): the entries alone in their row."""
    table = np.zeros(512, dtype=np.int64)
    for idx in range(512):
        for r in range(3):
            row = (idx >> (3 * r)) & 7
            if row and row & (row - 1) == 0:
                table[idx] |= row << (3 * r)
    return table


CLOSE = closure_table().astype(np.int32)
SOLO = solo_table().astype(np.int32)
EXPAND = np.array(  # entry t of a matrix -> the three cells of triad t (bits 3t..3t+2)
    [sum(7 << (3 * t) for t in range(9) if idx >> t & 1) for idx in range(512)], dtype=np.int32
)
PERMUTATIONS = np.array(  # the six permutation matrices of 3x3 (bit 3*r + c)
    [sum(1 << (3 * r + p[r]) for r in range(3)) for p in itertools.permutations(range(3))],
    dtype=np.int64,
)
PERMUTATION_COUNT = np.array(
    [sum(m & idx == m for m in PERMUTATIONS.tolist()) for idx in range(512)], dtype=np.int64
)
"""For a 3x3 triad matrix: how many placements of a digit (permutations) it holds."""
BAND_CLOSE = (
    EXPAND[CLOSE].astype(np.int64)
    | EXPAND[SOLO[CLOSE]].astype(np.int64) << 32
    | PERMUTATION_COUNT << 60
)
"""A band's triad matrix -> the cells of its closure, at bit 32 those of its lone triads and
at bit 60 how many placements it holds."""
STACK_CLOSE = (
    np.array(  # a stack's matrix -> its closure, band b's three columns at bit 9b
        [(c & 7) | ((c >> 3) & 7) << 9 | (c >> 6) << 18 for c in closure_table().tolist()],
        dtype=np.int64,
    )
    | np.array(  # at bit 32 the same for its lone entries (forced: alone in row and column)
        [(c & 7) | ((c >> 3) & 7) << 9 | (c >> 6) << 18 for c in SOLO[CLOSE].tolist()],
        dtype=np.int64,
    )
    << 32
    | PERMUTATION_COUNT << 60
)
"""A stack's matrix -> its closure's columns, at bit 32 its lone ones, at bit 60 the count."""
BAND_TRIADS = CLOSE.astype(np.int64) | SOLO[CLOSE].astype(np.int64) << 32
"""A band's triad matrix -> its closure, and at bit 32 the closure's lone (forced) entries."""
ROW_AND_BOX = np.array(
    [
        _union(
            ((ROW << (9 * (t // 3))) | (BOX << (3 * (t % 3)))) & ~(7 << (3 * t))
            for t in range(9)
            if idx >> t & 1
        )
        for idx in range(512)
    ],
    dtype=np.int64,
)
"""Triads of a band (matrix bits) -> the rest of their rows and boxes, as band cells."""
BOX_COLUMNS = np.array(
    [
        COL * _union((7 << (3 * (c // 3))) & ~(1 << c) for c in range(9) if idx >> c & 1)
        for idx in range(512)
    ],
    dtype=np.int64,
)
"""Columns of a band (9 bits) -> the cells of the other columns of their boxes in the band."""
EXPAND64 = EXPAND.astype(np.int64)


@njit(cache=True, inline="always")
def _matrix(w):
    """A band word's triads as a 3x3 matrix (row r, box j at bit 3*r + j)."""
    t = (w | (w >> 1) | (w >> 2)) & GROUPS  # a bit at each nonempty triad's first cell
    t |= (t >> 2) | (t >> 4)  # row r's three flags gathered at bits 9r..9r+2
    return (t & 7) | ((t >> 6) & 0x38) | ((t >> 12) & 0x1C0)


@njit(cache=True, inline="always")
def _stack_matrix(st, d, s):
    """Digit `d`'s column segments in stack `s` as a 3x3 matrix (band r, column c at 3*r + c)."""
    m = 0
    for r in range(3):
        m |= ((_fold(st[d * 3 + r]) >> (3 * s)) & 7) << (3 * r)
    return m


@njit(cache=True, inline="always")
def chute_matrix(st, d, chute):
    """Digit `d`'s matrix in band `chute` (0-2) or stack `chute - 3`."""
    return _matrix(st[d * 3 + chute]) if chute < 3 else _stack_matrix(st, d, chute - 3)


@njit(cache=True, inline="always")
def _count3(c1, c2, c4, x):
    """Add the bits of `x` to bit-sliced counters (ones, twos, four or more)."""
    c = c1 & x
    c1 ^= x
    c4 |= c2 & c
    c2 ^= c
    return c1, c2, c4


@njit(cache=True)
def intersections(st):
    """Each box/line intersection holds exactly three digits; -1 on a contradiction.

    A digit *may* go into an intersection (three cells of a row or column in
    one box) where one of its cells holds it, placed or not, and *must* where
    the rest of its line or the rest of its box lacks it.  Where exactly three
    digits may, each leaves the rest of the line and of the box; where three
    must, the others leave the intersection.  Fewer than three possible or
    more than three forced is a contradiction.  Returns the digits that lost
    candidates.

    Call it at a fixpoint of the closure: each digit's closure left its may
    and must intersections in ``state[TRIADS + d]`` (horizontal, bit ``9b +
    3r + j``; the must half at bit 32) and ``state[LONE + d]`` (vertical,
    column c of band b at bit ``9b + c``); in a closed triad matrix an entry
    alone in its row is alone in its column too, so must means lone.  The
    counts run bit-sliced over the 54 may and must flags of one direction (27
    intersections) in one word.  An intersection whose cells are all placed, or whose rule
    already fired in this state or an ancestor (``state[APPLIED_H]``,
    ``state[APPLIED_V]``), is skipped: candidates only shrink down a branch
    and the three digits that may (must) go there stay the same, so firing
    again clears nothing.
    """
    h1 = h2 = h4 = 0  # digits that may (must, from bit 32) go into each horizontal triad
    v1 = v2 = v4 = 0  # the same for the vertical ones
    for d in range(9):
        h1, h2, h4 = _count3(h1, h2, h4, st[TRIADS + d])
        v1, v2, v4 = _count3(v1, v2, v4, st[LONE + d])
    if (~h4 & ~(h1 & h2) | ~v4 & ~(v1 & v2)) & BAND or (h4 | v4) >> 32:
        return -1
    p0 = ~st[PLACED] & BAND
    p1 = ~st[PLACED + 1] & BAND
    p2 = ~st[PLACED + 2] & BAND
    ho = _matrix(p0) | (_matrix(p1) << 9) | (_matrix(p2) << 18)  # with an open cell
    vo = _fold(p0) | (_fold(p1) << 9) | (_fold(p2) << 18)
    ah = st[APPLIED_H]
    av = st[APPLIED_V]
    hx = h1 & h2 & ~h4 & (ho | ho << 32) & ~ah  # exactly three may (must), not yet applied
    vx = v1 & v2 & ~v4 & (vo | vo << 32) & ~av
    if hx | vx == 0:
        return 0
    st[APPLIED_H] = ah | hx
    st[APPLIED_V] = av | vx
    changed = 0
    for d in range(9):
        m = st[TRIADS + d]
        v = st[LONE + d]
        cut = m & (hx >> 32) & ~(m >> 32) & BAND  # must-triples: the others leave the triad
        cols = v & (vx >> 32) & ~(v >> 32) & BAND
        hc = m & hx & BAND  # may-triples: the three leave the rest of the line and box
        vc = v & vx & BAND
        if cut | cols | hc | vc == 0:
            continue
        c0 = vc & ROW
        c1 = (vc >> 9) & ROW
        c2 = vc >> 18
        out0 = EXPAND64[cut & 0x1FF] | ROW_AND_BOX[hc & 0x1FF] | COL * ((cols & ROW) | c1 | c2)
        out0 |= BOX_COLUMNS[c0]
        out1 = EXPAND64[(cut >> 9) & 0x1FF] | ROW_AND_BOX[(hc >> 9) & 0x1FF]
        out1 |= COL * (((cols >> 9) & ROW) | c0 | c2) | BOX_COLUMNS[c1]
        out2 = EXPAND64[cut >> 18] | ROW_AND_BOX[hc >> 18]
        out2 |= COL * ((cols >> 18) | c0 | c1) | BOX_COLUMNS[c2]
        changed |= _clear_bands(st, d, out0, out1, out2)
    return changed


@njit(cache=True)
def recount_triads(st):
    """Fill ``state[TRIADS + d]`` and ``[LONE + d]`` from the band words (any state).

    The closure keeps them at its fixpoints; this is the slow way, for a
    state built by hand.  Must: alone in its row or in its column of the
    matrix (in the rest of the line, or of the box, the digit has no place).
    """
    for d in range(9):
        h = v = 0
        for b in range(3):
            m = _matrix(st[d * 3 + b])
            h |= (m | (_lone_entries(m) << 32)) << (9 * b)
        for s_ in range(3):
            m = _stack_matrix(st, d, s_)
            forced = _lone_entries(m)
            for r in range(3):
                v |= ((m >> (3 * r)) & 7) << (9 * r + 3 * s_)
                v |= ((forced >> (3 * r)) & 7) << (9 * r + 3 * s_ + 32)
        st[TRIADS + d] = h
        st[LONE + d] = v


@njit(cache=True)
def _lone_entries(m):
    """The entries of a 3x3 matrix alone in their row or in their column."""
    out = 0
    for r in range(3):
        row = (m >> (3 * r)) & 7
        if row and row & (row - 1) == 0:
            out |= row << (3 * r)
    for c in range(3):
        col = m & (0x49 << c)
        if col and col & (col - 1) == 0:
            out |= col
    return out


@njit(cache=True, inline="always")
def _band_choice(st):
    """tdoku's branch: a band or stack, and a digit with two placements there.

    The band or stack (chute) with the fewest placements over all digits,
    among those not yet fixed; in it the digit with the fewest placements
    above one.  Returns ``BRANCH + 9 * chute + digit``; -1 when every chute
    is fixed (a solution), -2 when the digit has more than two placements
    (the caller branches on a cell instead).
    """
    total = st[TOTAL]
    chute = -1
    fewest = 1000
    for c in range(6):
        t = (total >> (8 * c)) & 0xFF
        if 10 <= t < fewest:  # 9 digits with one placement each: fixed
            chute, fewest = c, t
    if chute < 0:
        return -1
    digit = -1
    fewest = 100
    for d in range(9):
        k = (st[COUNTS + d] >> (8 * chute)) & 0xFF
        if 2 <= k < fewest:
            digit, fewest = d, k
    if fewest != 2:
        return -2
    return BRANCH + 9 * chute + digit


@njit(cache=True, inline="always")
def _room(st, chute, d, perm):
    """How many candidate cells digit `d` keeps in `chute` under placement `perm`."""
    if chute < 3:
        return popcount(st[d * 3 + chute] & EXPAND64[perm])
    sh = 3 * (chute - 3)
    n = 0
    for r in range(3):
        c = trailing_zeros((perm >> (3 * r)) & 7)
        n += popcount(st[d * 3 + r] & (COL << (sh + c)))
    return n


@njit(cache=True, inline="always")
def _keep_placement(st, chute, d, perm):
    """Confine digit `d` in `chute` to the triads of permutation matrix `perm`."""
    if chute < 3:
        st[d * 3 + chute] &= EXPAND64[perm]
    else:
        sh = 3 * (chute - 3)
        for r in range(3):
            c = trailing_zeros((perm >> (3 * r)) & 7)
            st[d * 3 + r] &= (COL * (ROW & ~(7 << sh))) | (COL << (sh + c))
    st[DIRTY] = 1 << d


@njit(cache=True, inline="always")
def _close_digit(st, d):
    """Close digit `d`'s words under its band and stack permutations; place its hidden singles.

    Returns False on a contradiction.  Cells it alone may take are marked
    placed and cleared from the other digits, which become dirty.
    """
    w0 = st[d * 3]
    w1 = st[d * 3 + 1]
    w2 = st[d * 3 + 2]
    i0 = _matrix(w0)
    i1 = _matrix(w1)
    i2 = _matrix(w2)
    x0 = BAND_CLOSE[i0]
    x1 = BAND_CLOSE[i1]
    x2 = BAND_CLOSE[i2]
    while True:
        w0 &= x0
        w1 &= x1
        w2 &= x2
        if w0 == 0 or w1 == 0 or w2 == 0:
            return False
        f = _fold(w0) | (_fold(w1) << 9) | (_fold(w2) << 18)  # band b's columns at bit 9b
        s0 = STACK_CLOSE[(f & 7) | ((f >> 6) & 0x38) | ((f >> 12) & 0x1C0)]
        s1 = STACK_CLOSE[((f >> 3) & 7) | ((f >> 9) & 0x38) | ((f >> 15) & 0x1C0)]
        s2 = STACK_CLOSE[((f >> 6) & 7) | ((f >> 12) & 0x38) | ((f >> 18) & 0x1C0)]
        if s0 == 0 or s1 == 0 or s2 == 0:
            return False
        k = (s0 | (s1 << 3) | (s2 << 6)) & BAND
        if k == f:
            break
        lost = f ^ k  # only a word that lost columns needs its band closed again
        if lost & ROW:
            w0 &= COL * (k & ROW)
            i0 = _matrix(w0)
            x0 = BAND_CLOSE[i0]
        if (lost >> 9) & ROW:
            w1 &= COL * ((k >> 9) & ROW)
            i1 = _matrix(w1)
            x1 = BAND_CLOSE[i1]
        if lost >> 18:
            w2 &= COL * (k >> 18)
            i2 = _matrix(w2)
            x2 = BAND_CLOSE[i2]
    st[d * 3] = w0
    st[d * 3 + 1] = w1
    st[d * 3 + 2] = w2
    c = (x0 >> 60) | (x1 >> 60) << 8 | (x2 >> 60) << 16  # the placements in each chute
    c |= (s0 >> 60) << 24 | (s1 >> 60) << 32 | (s2 >> 60) << 40
    st[TOTAL] += c - st[COUNTS + d]
    st[COUNTS + d] = c
    st[TRIADS + d] = BAND_TRIADS[i0] | BAND_TRIADS[i1] << 9 | BAND_TRIADS[i2] << 18
    low = BAND | BAND << 32
    st[LONE + d] = (s0 & low) | (s1 & low) << 3 | (s2 & low) << 6
    dirty = st[DIRTY] & ~(1 << d)
    new0 = w0 & (x0 >> 32) & _lone_in_group(w0) & ~st[PLACED]
    new1 = w1 & (x1 >> 32) & _lone_in_group(w1) & ~st[PLACED + 1]
    new2 = w2 & (x2 >> 32) & _lone_in_group(w2) & ~st[PLACED + 2]
    if new0 | new1 | new2:
        st[PLACED] |= new0
        st[PLACED + 1] |= new1
        st[PLACED + 2] |= new2
        for e in range(9):  # branch-free: d's own words are put back below
            y0 = st[e * 3]
            y1 = st[e * 3 + 1]
            y2 = st[e * 3 + 2]
            hit = y0 & new0 | y1 & new1 | y2 & new2
            st[e * 3] = y0 & ~new0
            st[e * 3 + 1] = y1 & ~new1
            st[e * 3 + 2] = y2 & ~new2
            dirty |= (hit != 0) << e
        st[d * 3] = w0
        st[d * 3 + 1] = w1
        st[d * 3 + 2] = w2
        dirty &= ~(1 << d)
    st[DIRTY] = dirty
    return True


@njit(cache=True, inline="always")
def _naked_cells(st, peers):
    """Place the cells left with one digit; -1 on a contradiction, else how many."""
    placed = 0
    for b in range(3):
        once = 0
        twice = 0
        for d in range(9):
            w = st[d * 3 + b]
            twice |= once & w
            once |= w
        if once != BAND:
            return -1  # a cell without candidates
        singles = once & ~twice & ~st[PLACED + b]
        if singles == 0:
            continue
        for d in range(9):
            s = st[d * 3 + b] & singles
            while s:
                bit = s & -s
                s ^= bit
                if st[d * 3 + b] & bit:  # an earlier placement may have taken it
                    cell = b * 27 + trailing_zeros(bit)
                    st[d * 3] &= ~peers[cell, 0]
                    st[d * 3 + 1] &= ~peers[cell, 1]
                    st[d * 3 + 2] &= ~peers[cell, 2]
                    st[PLACED + b] |= bit
                    st[DIRTY] |= 1 << d
                    placed += 1
    return placed


@njit(cache=True, inline="always")
def _propagate_bands(st, peers, rules):
    """`propagate` at the `LOCKED` level and above: dirty digits closed, then naked singles."""
    while True:
        dirty = st[DIRTY]
        while dirty:
            d = trailing_zeros(dirty)
            if not _close_digit(st, d):
                return False
            dirty = st[DIRTY]
        placed = _naked_cells(st, peers)
        if placed < 0:
            return False
        if placed:
            continue
        if rules < INTERSECTIONS:
            return True
        changed = intersections(st)
        if changed < 0:
            return False
        if changed == 0:
            return True
        st[DIRTY] = changed  # the digits that lost candidates


@njit(cache=True, inline="always")
def propagate(st, peers, rules):
    """Singles (and locked candidates, intersections) to a fixpoint; False on a contradiction."""
    if rules > SINGLES:
        return _propagate_bands(st, peers, rules)
    while True:
        placed = _naked(st, peers)
        if placed < 0:
            return False
        if placed:
            continue
        placed = _hidden(st, peers)
        if placed < 0:
            return False
        if placed:
            continue
        return True


@njit(cache=True, inline="always")
def _open_peers(st, peers, cell):
    """How many peers of `cell` are not yet placed."""
    return (
        popcount(peers[cell, 0] & ~st[PLACED])
        + popcount(peers[cell, 1] & ~st[PLACED + 1])
        + popcount(peers[cell, 2] & ~st[PLACED + 2])
    )


@njit(cache=True, inline="always")
def _pair_peers(st, peers, cell, pair0, pair1, pair2):
    """How many bivalue peers of bivalue `cell` each of its digits would reduce to a single."""
    b = cell // 27
    pos = cell % 27
    digits = 0
    for d in range(9):
        digits |= ((st[d * 3 + b] >> pos) & 1) << d
    d = trailing_zeros(digits) * 3
    e = trailing_zeros(digits & (digits - 1)) * 3
    p0 = pair0 & peers[cell, 0]
    p1 = pair1 & peers[cell, 1]
    p2 = pair2 & peers[cell, 2]
    return (
        popcount((st[d] | st[e] << 32) & (p0 | p0 << 32))
        + popcount((st[d + 1] | st[e + 1] << 32) & (p1 | p1 << 32))
        + popcount((st[d + 2] | st[e + 2] << 32) & (p2 | p2 << 32))
    )


@njit(cache=True, inline="always")
def _reach(st, peers, cell):
    """How many candidates the digits of `cell` hold among its unplaced peers."""
    b = cell // 27
    bit = 1 << (cell % 27)
    s = 0
    for d in range(9):
        if st[d * 3 + b] & bit:
            s += popcount(st[d * 3] & peers[cell, 0] & ~st[PLACED])
            s += popcount(st[d * 3 + 1] & peers[cell, 1] & ~st[PLACED + 1])
            s += popcount(st[d * 3 + 2] & peers[cell, 2] & ~st[PLACED + 2])
    return s


@njit(cache=True, inline="always")
def _choose(st, peers, rules):
    """The cell to branch on (-1 when every cell is placed).

    Fewest candidates first; then the first in reading order with the best
    score.  A bivalue cell scores two per unplaced peer, whose guess reaches
    furthest (this halved the guesses on hard sets against taking the first),
    plus three per bivalue peer and digit they share (`_pair_peers`: a
    single either branch is sure to make).  Against unplaced peers alone
    this cuts the guesses at limit 1 by 12-17% (top1465 6.85 -> 5.71,
    forum_hardest_sample2000 43.3 -> 38.3, 17-clue 0.56 -> 0.47) for about
    the same time.  A cell with more candidates scores its unplaced peers.
    At the `INTERSECTIONS` level a bivalue cell is scored by its reach
    instead: the candidates its two digits hold among its peers.  Both as
    `kernels._choose`.
    """
    if rules == BANDS:
        code = _band_choice(st)
        if code != -2:
            return code
    best = -1
    fewest = 10
    score = -1
    deep = rules >= INTERSECTIONS
    pair0 = pair1 = pair2 = 0
    for b in range(3):  # bivalue cells, the usual case: found with bit counters
        once = 0
        twice = 0
        thrice = 0
        for d in range(9):
            w = st[d * 3 + b]
            thrice |= twice & w
            twice |= once & w
            once |= w
        two = twice & ~thrice & ~st[PLACED + b] & BAND
        if b == 0:
            pair0 = two
        elif b == 1:
            pair1 = two
        else:
            pair2 = two
    for b in range(3):
        two = pair0 if b == 0 else (pair1 if b == 1 else pair2)
        while two:
            bit = two & -two
            two ^= bit
            cell = b * 27 + trailing_zeros(bit)
            if deep:
                s = _reach(st, peers, cell)
            else:
                s = 2 * _open_peers(st, peers, cell) + 3 * _pair_peers(
                    st, peers, cell, pair0, pair1, pair2
                )
            if s > score:
                best, score = cell, s
    if best >= 0:
        return best
    for b in range(3):
        open_ = ~st[PLACED + b] & BAND
        while open_:
            bit = open_ & -open_
            open_ ^= bit
            k = 0
            for d in range(9):
                if st[d * 3 + b] & bit:
                    k += 1
            if k <= fewest:
                cell = b * 27 + trailing_zeros(bit)
                s = _open_peers(st, peers, cell)
                if k < fewest or s > score:
                    best, fewest, score = cell, k, s
    return best


@njit(cache=True)
def start(cells, stack, pending, ctr):
    """Put a 9x9 puzzle (digits) on an empty stack as the root state."""
    st = stack[0]
    for i in range(27):
        st[i] = BAND
    for b in range(3):
        st[PLACED + b] = 0
    st[DIRTY] = ALL_DIGITS
    for i in range(APPLIED_H, WORDS):
        st[i] = 0
    pending[0] = -1
    for k in range(COUNTERS):
        ctr[k] = 0
    ctr[DEPTH] = 1


@njit(cache=True)
def load_givens(st, cells, peers):
    """Place the givens all at once; False when two equal givens see each other.

    The state is the one `_place` leaves given by given: each given cell
    keeps only its own digit, and each digit leaves the peers of its givens.
    """
    for i in range(27):
        st[i] = 0  # first the givens of each digit
    for cell in range(81):
        d = cells[cell] - 1
        if d >= 0:
            st[d * 3 + cell // 27] |= 1 << (cell % 27)
    g0 = g1 = g2 = 0
    for d in range(9):
        g0 |= st[d * 3]
        g1 |= st[d * 3 + 1]
        g2 |= st[d * 3 + 2]
    ok = True
    for d in range(9):
        x0 = st[d * 3]
        x1 = st[d * 3 + 1]
        x2 = st[d * 3 + 2]
        p0 = p1 = p2 = 0  # the peers of the digit's givens
        for b in range(3):
            x = x0 if b == 0 else (x1 if b == 1 else x2)
            while x:
                bit = x & -x
                x ^= bit
                cell = b * 27 + trailing_zeros(bit)
                p0 |= peers[cell, 0]
                p1 |= peers[cell, 1]
                p2 |= peers[cell, 2]
        if x0 & p0 or x1 & p1 or x2 & p2:
            ok = False
        st[d * 3] = BAND & ~g0 & ~p0 | x0
        st[d * 3 + 1] = BAND & ~g1 & ~p1 | x1
        st[d * 3 + 2] = BAND & ~g2 & ~p2 | x2
    st[PLACED] = g0
    st[PLACED + 1] = g1
    st[PLACED + 2] = g2
    st[DIRTY] = ALL_DIGITS
    for i in range(APPLIED_H, WORDS):  # the memo words; every digit's counts come with its closure
        st[i] = 0
    return ok


@njit(cache=True)
def search(stack, pending, cur, cells, peers, rules, limit, keep, node_limit, sols, ctr):
    """`kernels.search` for 9x9 states; the root's givens are read from `cells`."""
    stack = borrow(stack)  # no reference counting in the inlined code
    cur = borrow(cur)
    peers = borrow(peers)
    nodes = ctr[NODES]
    guesses = ctr[GUESSES]
    backtracks = ctr[BACKTRACKS]
    found = ctr[FOUND]
    sp = ctr[DEPTH]
    outcome = EXHAUSTED
    words = WORDS if rules == BANDS else (COUNTS if rules == INTERSECTIONS else APPLIED_H)
    while sp > 0:
        sp -= 1
        root = pending[sp] < 0
        for i in range(words):
            cur[i] = stack[sp, i]
        while True:
            if root:
                ok = load_givens(cur, cells, peers) and propagate(cur, peers, rules)
                root = False
            else:
                if nodes >= node_limit:  # put the state back for a later call
                    for i in range(words):
                        stack[sp, i] = cur[i]
                    pending[sp] = 0
                    sp += 1
                    outcome = PAUSED
                    break
                nodes += 1
                ok = propagate(cur, peers, rules)
            if not ok:
                backtracks += 1
                break
            cell = _choose(cur, peers, rules)
            if cell < 0:  # every cell placed: a solution
                if found < keep:
                    for b in range(3):
                        for d in range(9):
                            w = cur[d * 3 + b]
                            while w:
                                bit = w & -w
                                w ^= bit
                                sols[found, b * 27 + trailing_zeros(bit)] = d + 1
                found += 1
                if found >= limit:
                    outcome = LIMIT
                break
            if cell >= BRANCH:  # a digit with two placements in a chute: one, then the other
                chute = (cell - BRANCH) // 9
                d = (cell - BRANCH) % 9
                m = chute_matrix(cur, d, chute)
                first = second = 0
                for perm in PERMUTATIONS:
                    if perm & m == perm:
                        if first == 0:
                            first = perm
                        else:
                            second = perm
                if _room(cur, chute, d, second) < _room(cur, chute, d, first):
                    first, second = second, first  # the tighter placement first: fewer guesses
                for i in range(words):
                    stack[sp, i] = cur[i]
                _keep_placement(stack[sp], chute, d, second)
                pending[sp] = 0
                sp += 1
                _keep_placement(cur, chute, d, first)
                guesses += 1
                continue
            b = cell // 27
            bit = 1 << (cell % 27)
            d = 0
            while cur[d * 3 + b] & bit == 0:
                d += 1
            for i in range(words):
                stack[sp, i] = cur[i]
            stack[sp, d * 3 + b] &= ~bit
            stack[sp, DIRTY] = 1 << d
            pending[sp] = 0
            sp += 1
            _place(cur, cell, d, peers)
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
    puzzles, lo, hi, peers, cell_peers, rules, limit, keep, node_limit, sols, stats, outcomes
):
    """Solve puzzles lo..hi-1 with one workspace."""
    stack = np.empty((82, WORDS), dtype=np.int64)
    pending = np.empty(82, dtype=np.int32)
    cur = np.empty(WORDS, dtype=np.int64)
    ctr = np.zeros(COUNTERS, dtype=np.int64)
    for p in range(lo, hi):
        start(puzzles[p], stack, pending, ctr)
        outcome = search(
            stack, pending, cur, puzzles[p], peers, rules, limit, keep, node_limit, sols[p], ctr
        )
        if ctr[FOUND] == 0 and ctr[NODES] == 0 and givens_conflict(puzzles[p], cell_peers):
            outcome = INVALID
        outcomes[p] = outcome
        for k in range(4):
            stats[p, k] = ctr[k]


@njit(cache=True)
def solve_serial(puzzles, peers, cell_peers, rules, limit, keep, node_limit, sols, stats, outcomes):
    """Solve a batch of 9x9 puzzles in this thread (as `kernels.solve_serial`)."""
    _solve_range(
        puzzles,
        0,
        puzzles.shape[0],
        peers,
        cell_peers,
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
    puzzles, peers, cell_peers, rules, limit, keep, node_limit, sols, stats, outcomes, chunks
):
    """Solve a batch of 9x9 puzzles split into `chunks` parts over numba's threads."""
    total = puzzles.shape[0]
    for t in prange(chunks):
        _solve_range(
            puzzles,
            t * total // chunks,
            (t + 1) * total // chunks,
            peers,
            cell_peers,
            rules,
            limit,
            keep,
            node_limit,
            sols,
            stats,
            outcomes,
        )
