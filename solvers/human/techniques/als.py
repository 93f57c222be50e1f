"""Almost locked sets and the techniques built on them: ALS-XZ, ALS-XY-Wing, ALS chains
and Death Blossom.

An *almost locked set* (ALS) is k cells of one unit holding k+1 digits between them
(a bivalue cell is an ALS of one cell): without any one of its digits the rest would
be locked.  Two ALSs that share no cell have a *restricted common candidate* (RCC) x
when every cell of one holding x sees every cell of the other holding x: x is then
in at most one of them, so the other is locked on its remaining digits.

- *ALS-XZ*: A and B with RCC x; a digit z ≠ x of both is in A or in B, so cells
  seeing every z of both lose z.  With two RCCs (doubly linked) both are locked: each
  other digit leaves the cells seeing all its places in its set, and each RCC the
  cells seeing all its places in both.
- *ALS-XY-Wing*: A and B each linked to a pivot C, by RCCs x and y ≠ x: z ≠ x, y of
  A and B is in one of them (A lacks z, so it holds x, so C lacks x and holds y, so
  B lacks y and holds z).
- *ALS chain*: A1 - A2 - ... - Ak linked by RCCs, consecutive RCCs different;
  z of A1 and Ak, different from the first and last RCC, is in A1 or Ak.
- *Death Blossom*: a stem cell and one petal ALS per stem digit d, every petal cell
  holding d seeing the stem; whichever digit the stem takes, its petal is locked on
  the rest, so a digit z of every petal (not of the stem) is in one of them.

ALSs are enumerated once per state (`almost_locked_sets`, memoised with
`CandidateState.derived`; a unit's sets are also kept in the solve's memo,
`CandidateState.memo`, while its candidates stay the same), up to `max_cells` cells: 4
in a 9x9 grid (with 5, the classic techniques and these finished one more of 60
gen9-extreme puzzles and took a third longer), and so are the RCC links between them.
ALS chains are searched up to `MAX_CHAIN_SETS` sets.  Sets are bitmasks: cells as a
cell mask, digits as a digit mask.

With numba, ALS-XZ, ALS-XY-Wing, the ALS chains and Death Blossom search compiled (`als_kernel`, on
the sets and links as arrays, `als_arrays`, the sets enumerated by the kernel too): the
same loops in the same order, so the same sets and steps; the Python searches below are
the route without numba.
"""

from __future__ import annotations

import importlib.util
from collections import deque
from functools import cache
from typing import Any, NamedTuple

from solvers.grid import Shape
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with_each, peer_masks, unit_readers

ALS_XZ_RATING = 5.5
ALS_XY_WING_RATING = 6.2
ALS_CHAIN_RATING = 6.6
DEATH_BLOSSOM_RATING = 6.6
MAX_CHAIN_SETS = 6  # the longest ALS chain searched, in sets
MAX_STEM_DIGITS = 4  # Death Blossom: stems with more candidates are not tried
UNIT_SETS_BYTES = 200  # a unit's sets in the solve's memo: about this many bytes per cell


def max_cells(n: int) -> int:
    """The largest ALS enumerated in a grid of side `n`: 4 cells, fewer in small grids."""
    return min(4, n - 2)


class Als(NamedTuple):
    """An almost locked set.

    ``holding[k]``: the set's cells holding digit k+1 (a cell mask, 0 when absent);
    ``seen[k]``: the cells seeing every one of them (so never one of them)."""

    cells: int
    digits: int
    unit: int
    size: int
    holding: tuple[int, ...]
    seen: tuple[int, ...]

    def cell_list(self) -> tuple[int, ...]:
        return tuple(bits(self.cells))

    def digit_list(self) -> tuple[int, ...]:
        return tuple(k + 1 for k in bits(self.digits))


def almost_locked_sets(state: CandidateState) -> list[Als]:
    """Every ALS of up to `max_cells` cells, each once (a set in a box and a line is
    listed under the first unit), in unit order (memoised per state)."""
    return state.derived("als", _find_sets)


def _find_sets(state: CandidateState) -> list[Als]:
    cand = state.cand
    shape = state.shape
    cap = max_cells(state.n)
    found: dict[int, Als] = {}  # by cell mask: a set in a box and a line is listed once
    memo = state.memo.table("als-unit-sets", shape, UNIT_SETS_BYTES * state.n)
    reads = unit_readers(shape)
    for u, unit in enumerate(shape.units):
        for als in _unit_sets(memo, shape, u, unit, reads[u](cand), cap):
            if als.cells not in found:
                found[als.cells] = als
    return sorted(found.values(), key=lambda a: (a.size, a.unit))


def _unit_sets(
    memo: dict, shape: Shape, u: int, unit: tuple[int, ...], masks: tuple[int, ...], cap: int
) -> list[Als]:
    """The ALSs of one unit, by a depth-first walk over its cells with at most cap + 1
    candidates that drops a partial set holding more than cap + 1 digits.  A unit's sets
    depend on its own candidates alone, and most steps change a few units: they are kept
    in `memo` (the solve's table of them) by unit, candidates and cap."""
    key = (u, masks, cap)
    found = memo.get(key)
    if found is not None:
        return found
    n = shape.size
    peers = peer_masks(shape)
    open_ = [(c, m) for c, m in zip(unit, masks, strict=True) if m and m.bit_count() <= cap + 1]
    found = []
    stack = [(0, 0, 0, 0)]  # (next index, cells, digits, size)
    while stack:
        start, cells, union, size = stack.pop()
        for i in range(start, len(open_)):
            c, m = open_[i]
            u2 = union | m
            count = u2.bit_count()
            if count > cap + 1:
                continue
            c2 = cells | 1 << c
            if count == size + 2:
                found.append(_als(c2, u2, u, open_, n, peers))
            if size + 1 < cap:
                stack.append((i + 1, c2, u2, size + 1))
    memo[key] = found
    return found


def _als(cells: int, union: int, u: int, open_, n: int, peers) -> Als:
    """The ALS on `cells` with digits `union`, with its places and seen cells per digit."""
    holding = [0] * n
    seen = [0] * n
    members = [(c, m) for c, m in open_ if cells >> c & 1]
    for k in bits(union):
        h = 0
        s = -1
        for c, m in members:
            if m >> k & 1:
                h |= 1 << c
                s &= peers[c]
        holding[k] = h
        seen[k] = s
    return Als(cells, union, u, len(members), tuple(holding), tuple(seen))


def rcc_links(state: CandidateState) -> list[list[tuple[int, int]]]:
    """For each ALS (by index in `almost_locked_sets`), the ALSs sharing no cell with it
    that have restricted common candidates with it: (index, RCC digit mask), by index
    (memoised per state)."""
    return state.derived("als-rcc", _find_links)


def _find_links(state: CandidateState) -> list[list[tuple[int, int]]]:
    sets = almost_locked_sets(state)
    n = state.n
    ncells = n * n
    cw = cells_with_each(state)
    # the sets holding digit k whose lowest cell holding k is c, at k * ncells + c
    index: dict[int, list[int]] = {}
    for i, a in enumerate(sets):
        for k in bits(a.digits):
            h = a.holding[k]
            index.setdefault(k * ncells + (h & -h).bit_length() - 1, []).append(i)
    links: list[dict[int, int]] = [{} for _ in sets]
    for i, a in enumerate(sets):
        for k in bits(a.digits):
            seen = a.seen[k]
            for c in bits(seen & cw[k]):
                for j in index.get(k * ncells + c, ()):
                    if j <= i:
                        continue
                    b = sets[j]
                    if b.cells & a.cells or b.holding[k] & ~seen:
                        continue
                    links[i][j] = links[i].get(j, 0) | 1 << k
                    links[j][i] = links[j].get(i, 0) | 1 << k
    return [sorted(d.items()) for d in links]


def _sets_detail(sets: list[Als]) -> tuple:
    """The sets of a step as (cells, digits) pairs, for its explanation."""
    return tuple((a.cell_list(), a.digit_list()) for a in sets)


def _step(
    state: CandidateState,
    name: str,
    sets: list[Als],
    rccs: tuple[tuple[int, ...], ...],
    elims: list[tuple[int, int]],
    rating: float,
) -> Step:
    """A step built on ALSs; ``detail`` holds the sets, the RCC digits between
    consecutive sets and the eliminated digits."""
    elims = sorted(set(elims))
    zs = tuple(sorted({d for _, d in elims}))
    cells: list[int] = []
    for a in sets:
        cells += [c for c in a.cell_list() if c not in cells]
    return Step(
        name,
        (),
        tuple(elims),
        tuple(cells),
        tuple(a.unit for a in sets),
        zs,
        rating,
        state.shape,
        detail=(_sets_detail(sets), rccs, zs),
    )


def _shared(a: Als, b: Als, cw: list[int]) -> int:
    """The digits of both sets that some cell holds while seeing all their places in both
    (a digit mask)."""
    out = 0
    common = a.digits & b.digits
    while common:
        low = common & -common
        common ^= low
        k = low.bit_length() - 1
        if a.seen[k] & b.seen[k] & cw[k]:
            out |= low
    return out


def _common_eliminations(a: Als, b: Als, digits: int, cw: list[int]) -> list[tuple[int, int]]:
    """Cells seeing every place of a digit (of `digits`) in both `a` and `b` lose it."""
    out = []
    for k in bits(digits & a.digits & b.digits):
        out += [(t, k + 1) for t in bits(a.seen[k] & b.seen[k] & cw[k])]
    return out


def als_xz(state: CandidateState) -> Step | None:
    """Two ALSs with a restricted common candidate: the step with the fewest ALS cells,
    then the most eliminations."""
    if COMPILED:
        return compiled_xz(state)
    sets = almost_locked_sets(state)
    links = rcc_links(state)
    cw = cells_with_each(state)
    best: tuple | None = None
    for i, a in enumerate(sets):
        for j, rcc in links[i]:
            if j < i:
                continue
            b = sets[j]
            size = a.size + b.size
            if best is not None and size > best[0][0]:
                continue
            rcc, elims = _xz_eliminations(a, b, rcc, cw)
            if not elims:
                continue
            key = (size, -len(set(elims)))
            if best is None or key < best[0]:
                best = (key, a, b, rcc, elims)
    if best is None:
        return None
    _, a, b, rcc, elims = best
    return _xz_step(state, a, b, rcc, elims)


def _xz_eliminations(a: Als, b: Als, rcc: int, cw: list[int]) -> tuple[int, list[tuple[int, int]]]:
    """The RCCs an ALS-XZ on `a` and `b` uses (two when doubly linked) and what it
    eliminates."""
    if rcc & (rcc - 1):  # doubly linked: both sets locked
        x = rcc & -rcc
        rcc = x | (rcc ^ x) & -(rcc ^ x)  # two of them are enough
        elims = _common_eliminations(a, b, rcc, cw)
        for one in (a, b):
            for k in bits(one.digits & ~rcc):
                elims += [(t, k + 1) for t in bits(one.seen[k] & cw[k])]
        return rcc, elims
    zs = _shared(a, b, cw) & ~rcc
    return rcc, _common_eliminations(a, b, zs, cw) if zs else []


def _xz_step(state: CandidateState, a: Als, b: Als, rcc: int, elims: list[tuple[int, int]]) -> Step:
    rccs = (tuple(k + 1 for k in bits(rcc)),)
    return _step(state, "als_xz", [a, b], rccs, elims, ALS_XZ_RATING)


def als_xy_wing(state: CandidateState) -> Step | None:
    """ALSs A and B linked to a pivot ALS C by different RCCs: the step with the fewest
    ALS cells, then the most eliminations."""
    if COMPILED:
        return compiled_xy_wing(state)
    sets = almost_locked_sets(state)
    links = rcc_links(state)
    cw = cells_with_each(state)
    shared: dict[tuple[int, int], int] = {}  # (i, j) -> _shared(sets[i], sets[j])
    best: tuple | None = None
    for c, pivot in enumerate(sets):
        arms = links[c]
        for p, (i, rcc_a) in enumerate(arms):
            a = sets[i]
            for j, rcc_b in arms[p + 1 :]:
                b = sets[j]
                size = a.size + b.size + pivot.size
                if best is not None and size > best[0][0] or a.cells & b.cells:
                    continue
                zs = shared.get((i, j))
                if zs is None:
                    zs = shared[(i, j)] = _shared(a, b, cw)
                if not zs:
                    continue
                for x in bits(rcc_a):
                    for y in bits(rcc_b & ~(1 << x)):
                        z = zs & ~(1 << x | 1 << y)
                        if not z:
                            continue
                        elims = _common_eliminations(a, b, z, cw)
                        key = (size, -len(elims))
                        if best is None or key < best[0]:
                            best = (key, a, pivot, b, x, y, elims)
    if best is None:
        return None
    _, a, pivot, b, x, y, elims = best
    return _xy_wing_step(state, a, pivot, b, x, y, elims)


def _xy_wing_step(
    state: CandidateState, a: Als, pivot: Als, b: Als, x: int, y: int, elims: list
) -> Step:
    rccs = ((x + 1,), (y + 1,))
    return _step(state, "als_xy_wing", [a, pivot, b], rccs, elims, ALS_XY_WING_RATING)


def als_chain(state: CandidateState) -> Step | None:
    """A chain of 3 to `MAX_CHAIN_SETS` ALSs: the shortest, then the fewest cells.

    Three sets are an ALS-XY-Wing, which comes first in the table; those this finds
    are the ones it does not (end sets sharing cells), so the engine's chains are
    mostly longer.

    A breadth-first search over the facts "digit x is not in set i": then set i is
    locked, so each of its other digits y is in it, and y is not in the sets having y
    as an RCC with it.  From "z is not in the first set", reaching "x is not in the
    last set" (x ≠ z, z in the last set) proves z is in one of the two."""
    if COMPILED:
        return compiled_chain(state)
    sets = almost_locked_sets(state)
    links = rcc_links(state)
    n = state.n
    cw = cells_with_each(state)
    # seers[k][t]: the sets (a mask over their indices) whose places of digit k+1 all
    # see cell t, where t holds it: the possible ends of a chain eliminating it from t
    seers = [[0] * (n * n) for _ in range(n)]
    for i, a in enumerate(sets):
        for k in bits(a.digits):
            for t in bits(a.seen[k] & cw[k]):
                seers[k][t] |= 1 << i
    # each set's links as (set, RCC digit index) pairs
    edges = [[(j, k) for j, rcc in set_links for k in bits(rcc)] for set_links in links]
    best: tuple | None = None
    for s, first in enumerate(sets):
        later = -1 << (s + 1)  # a chain is found from its end with the lower index
        for z in bits(first.digits):
            targets = first.seen[z] & cw[z]
            ends = 0
            for t in bits(targets):
                ends |= seers[z][t]
            ends &= later
            if not ends:
                continue
            found = _chain_from(sets, edges, s, z, targets, ends, best[0][0] if best else None)
            if found is not None and (best is None or found[0] < best[0]):
                best = found
    if best is None:
        return None
    _, path, rccs, elims = best
    return _chain_step(state, [sets[i] for i in path], rccs, elims)


def _chain_step(
    state: CandidateState, path: list[Als], rccs: tuple[tuple[int, ...], ...], elims: list
) -> Step:
    return _step(state, "als_chain", path, rccs, elims, ALS_CHAIN_RATING)


def _chain_from(sets, edges, start, z, targets, ends, longest) -> tuple | None:
    """The shortest chain from set `start` (lacking z) to a set of `ends` (a mask over
    set indices) that then holds z with cells in `targets` seeing all its z places:
    ((length, cells), path, rccs, elims)."""
    limit = MAX_CHAIN_SETS if longest is None else longest
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, z): None}
    frontier = deque([((start, z), 1)])
    while frontier:
        (i, x), length = frontier.popleft()
        if length >= limit:
            break
        for node in edges[i]:
            j, y = node
            if y == x or node in parent:
                continue
            parent[node] = (i, x)
            if ends >> j & 1 and length >= 2 and y != z:
                hit = targets & sets[j].seen[z]
                if hit:
                    path, rccs = _walk(parent, node)
                    elims = [(t, z + 1) for t in bits(hit)]
                    return ((length + 1, sum(sets[p].size for p in path)), path, rccs, elims)
            frontier.append((node, length + 1))
    return None


def _walk(parent, node) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
    """The sets and RCC digits of the chain ending at `node`, first to last."""
    path = []
    rccs = []
    while node is not None:
        path.append(node[0])
        rccs.append((node[1] + 1,))
        node = parent[node]
    path.reverse()
    rccs.reverse()
    return path, tuple(rccs[1:])  # the first entry is z, not an RCC


def death_blossom(state: CandidateState) -> Step | None:
    """A stem cell with one petal ALS per candidate: the step with the fewest petal
    cells, then the most eliminations."""
    if COMPILED:
        return compiled_blossom(state)
    sets = almost_locked_sets(state)
    n = state.n
    cand = state.cand
    peers = peer_masks(state.shape)
    cw = cells_with_each(state)
    best: tuple | None = None
    for stem, m in enumerate(cand):
        if not m or m.bit_count() > MAX_STEM_DIGITS or m.bit_count() < 2:
            continue
        seen_stem = peers[stem]
        stem_bit = 1 << stem
        petals = {
            d: [
                a
                for a in sets
                if a.digits >> d & 1
                and not a.cells & stem_bit
                and not a.holding[d] & ~seen_stem
                and a.digits & ~m
            ]
            for d in bits(m)
        }
        if not all(petals.values()):
            continue
        for z in range(n):
            if m >> z & 1 or not cw[z] & ~stem_bit:
                continue
            options = [[a for a in petals[d] if a.digits >> z & 1] for d in bits(m)]
            if not all(options):
                continue
            found = _blossom(options, z, cw[z] & ~stem_bit, 0, [])
            if found is None:
                continue
            chosen, hit = found
            elims = [(t, z + 1) for t in bits(hit)]
            key = (sum(a.size for a in chosen), -len(elims))
            if best is None or key < best[0]:
                best = (key, stem, m, chosen, elims)
    if best is None:
        return None
    _, stem, m, chosen, elims = best
    return _blossom_step(state, stem, m, chosen, elims)


def _blossom_step(state: CandidateState, stem: int, m: int, chosen: list[Als], elims: list) -> Step:
    stem_set = Als(1 << stem, m, state.shape.cell_units[stem][0], 1, (), ())
    rccs = tuple((k + 1,) for k in bits(m))
    return _step(state, "death_blossom", [stem_set, *chosen], rccs, elims, DEATH_BLOSSOM_RATING)


def _blossom(options, z, targets, at, chosen) -> tuple[list[Als], int] | None:
    """One petal per stem digit (from ``options[at:]``) whose z places all see some
    cell of `targets`: the first such choice, smallest petals first."""
    if at == len(options):
        return list(chosen), targets
    for a in options[at]:  # the sets come smallest first
        hit = targets & a.seen[z]
        if hit:
            chosen.append(a)
            found = _blossom(options, z, hit, at + 1, chosen)
            chosen.pop()
            if found is not None:
                return found
    return None


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether ALS-XZ, ALS-XY-Wing, the ALS chains and Death Blossom search compiled
(`als_kernel`): numba is installed."""


class AlsArrays(NamedTuple):
    """The sets of `almost_locked_sets` and their RCC links as the kernels' arrays (see
    `als_kernel`)."""

    cells: Any
    unit: Any
    digits: Any
    size: Any
    holding: Any
    seen: Any
    cw: Any
    start: Any
    other: Any
    rcc: Any


def als_arrays(state: CandidateState) -> AlsArrays:
    """The state's sets and links as arrays (memoised per state)."""
    return state.derived("als-arrays", _build_arrays)


def _build_arrays(state: CandidateState) -> AlsArrays:
    import numpy as np

    from solvers.human.techniques.als_kernel import NEED_ROOM, find_sets, links, set_rows
    from solvers.human.techniques.static_kernel import geometry

    shape = state.shape
    words = (shape.ncells + 63) >> 6
    cand = np.array(state.cand, dtype=np.int64)
    cells, unit = find_sets(cand, geometry(shape)[0], max_cells(state.n), shape.ncells)
    cw = word_rows(cells_with_each(state), words)
    digits, size, holding, seen = set_rows(cells, cand, peer_rows(shape), state.n)
    count = len(unit)
    start = np.zeros(count + 1, dtype=np.int64)
    room = 16 * count + 16
    while True:  # a bigger output when the links do not fit
        other = np.empty(room, dtype=np.int64)
        rcc = np.empty(room, dtype=np.int64)
        total = links(cells, digits, holding, seen, cw, start, other, rcc)
        if total != NEED_ROOM:
            break
        room *= 4
    return AlsArrays(
        cells, unit, digits, size, holding, seen, cw, start, other[:total], rcc[:total]
    )


def set_at(state: CandidateState, arr: AlsArrays, i: int) -> Als:
    """Set i of the arrays (the `almost_locked_sets` one of that index)."""
    cells = int.from_bytes(arr.cells[i].tobytes(), "little")
    cand = state.cand
    members = [(c, cand[c]) for c in bits(cells)]
    union = 0
    for _, m in members:
        union |= m
    return _als(cells, union, int(arr.unit[i]), members, state.n, peer_masks(state.shape))


def word_rows(masks: list[int], words: int) -> Any:
    """Cell masks as rows of `words` 64-bit words (a NumPy uint64 array), lowest first."""
    import numpy as np

    data = b"".join(m.to_bytes(8 * words, "little") for m in masks)
    return np.frombuffer(data, dtype="<u8").reshape(len(masks), words).astype(np.uint64)


@cache
def peer_rows(shape: Shape) -> Any:
    """Each cell's peers as a row of words (see `word_rows`)."""
    return word_rows(list(peer_masks(shape)), (shape.ncells + 63) >> 6)


def compiled_xz(state: CandidateState) -> Step | None:
    """`als_xz`'s step, the pair found by the kernel."""
    from solvers.human.techniques.als_kernel import best_xz

    arr = als_arrays(state)
    i, j, rcc = best_xz(arr.digits, arr.size, arr.seen, arr.cw, arr.start, arr.other, arr.rcc)
    if i < 0:
        return None
    a, b = set_at(state, arr, i), set_at(state, arr, j)
    rcc, elims = _xz_eliminations(a, b, int(rcc), cells_with_each(state))
    return _xz_step(state, a, b, rcc, elims)


def compiled_xy_wing(state: CandidateState) -> Step | None:
    """`als_xy_wing`'s step, the sets and RCCs found by the kernel."""
    from solvers.human.techniques.als_kernel import best_xy_wing

    arr = als_arrays(state)
    found = best_xy_wing(
        arr.cells, arr.digits, arr.size, arr.seen, arr.cw, arr.start, arr.other, arr.rcc
    )
    if found[0] < 0:
        return None
    c, i, j, x, y = (int(v) for v in found)
    a, b = set_at(state, arr, i), set_at(state, arr, j)
    cw = cells_with_each(state)
    z = _shared(a, b, cw) & ~(1 << x | 1 << y)
    pivot = set_at(state, arr, c)
    return _xy_wing_step(state, a, pivot, b, x, y, _common_eliminations(a, b, z, cw))


def compiled_chain(state: CandidateState) -> Step | None:
    """`als_chain`'s step, the chain found by the kernel."""
    from solvers.human.techniques.als_kernel import best_chain

    arr = als_arrays(state)
    found = best_chain(
        arr.digits, arr.size, arr.seen, arr.cw, arr.start, arr.other, arr.rcc, MAX_CHAIN_SETS
    )
    if found[0] < 0:
        return None
    n = state.n
    facts = [int(v) for v in found if v >= 0]
    path = [set_at(state, arr, f // n) for f in facts]
    z = facts[0] % n
    cw = cells_with_each(state)
    hit = path[0].seen[z] & cw[z] & path[-1].seen[z]
    rccs = tuple((f % n + 1,) for f in facts[1:])
    return _chain_step(state, path, rccs, [(t, z + 1) for t in bits(hit)])


def compiled_blossom(state: CandidateState) -> Step | None:
    """`death_blossom`'s step, the stem, digit and petals found by the kernel."""
    import numpy as np

    from solvers.human.techniques.als_kernel import best_blossom

    arr = als_arrays(state)
    cand = np.array(state.cand, dtype=np.int64)
    found = best_blossom(
        arr.cells,
        arr.digits,
        arr.size,
        arr.holding,
        arr.seen,
        arr.cw,
        cand,
        peer_rows(state.shape),
        MAX_STEM_DIGITS,
    )
    if found[0] < 0:
        return None
    stem, z = int(found[0]), int(found[1])
    chosen = [set_at(state, arr, int(i)) for i in found[2:] if i >= 0]
    hit = cells_with_each(state)[z] & ~(1 << stem)
    for a in chosen:
        hit &= a.seen[z]
    elims = [(t, z + 1) for t in bits(hit)]
    return _blossom_step(state, stem, state.cand[stem], chosen, elims)


def load_compiled(state: CandidateState) -> None:
    """Call each ALS kernel once (on `state`), so that they are loaded."""
    compiled_xz(state)
    compiled_xy_wing(state)
    compiled_chain(state)
    compiled_blossom(state)
