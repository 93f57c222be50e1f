"""Chains: Skyscraper, 2-String Kite, Turbot fish, X-chains and XY-chains (bounded length).

A *strong link* joins two candidates of which at least one is true (a digit
with two places in a unit, or the two digits of a bivalue cell); a *weak
link* joins two of which at most one is true (the same digit in two peers).
A chain alternates them, starting and ending with a strong link, so one of
its two ends is true: candidates that see both ends are false.

Skyscraper and 2-String Kite are the four-cell X-chains people spot by their
shape; the general searches find the shortest chain by breadth-first search
over (cell, on/off) nodes, up to `MAX_X_CELLS` / `MAX_XY_CELLS` cells.  They
measure each start's chain a layer at a time over masks of cells, then find the
winner's chain again with the per-cell search, so the chain reported on a tie
is the one that search meets first.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    boxes,
    cells_with,
    eliminate_from,
    fruitless,
    mark_fruitless,
    peer_masks,
)
from solvers.human.techniques.wings import strong_links

X_CHAIN_RATING = 6.5
XY_CHAIN_RATING = 6.6
# Sukaku Explainer (the build that rated the reference sets) rates these short X-chains
# on their own, between the hidden triple and the XY-Wing.
SKYSCRAPER_RATING = 4.0
KITE_RATING = 4.1
TURBOT_RATING = 4.2
MAX_X_CELLS = 12  # the longest X-chain searched, in cells
MAX_XY_CELLS = 10  # the longest XY-chain searched, in cells
_STEPS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128)


@cache
def length_bonus(nodes: int) -> float:
    """Sudoku-Explainer-style rating added for a chain of `nodes` candidates:
    0.1 for each threshold of a slowly growing series its length passes (4, 6, 8, 12,
    16, 24, ..., each 3/2 then 4/3 of the one before, without end: a nested chain's
    complexity, which counts its inner chains, passes 128)."""
    length = nodes - 2
    tenths = 0
    for t in _STEPS:
        if length <= t:
            return round(0.1 * tenths, 1)
        tenths += 1
    t = _STEPS[-1] * 3 // 2  # 128 came from 96 by 4/3: the next is 3/2 of it
    grow = False
    while length > t:
        tenths += 1
        t = t * 3 // 2 if grow else t * 4 // 3
        grow = not grow
    return round(0.1 * tenths, 1)


def _turbot(state: CandidateState, name: str, pairs, rating: float) -> Step | None:
    """Two strong links on a digit with near ends that see each other: cells seeing
    both far ends lose the digit.  `pairs(state, links)` yields the pairs of links
    of the pattern's shape as (unit, near, far, unit, near, far)."""
    n = state.n
    peers = peer_masks(state.shape)
    for d in range(1, n + 1):
        if fruitless(state, name, d):
            continue
        links = strong_links(state, d)
        if len(links) < 2:
            continue
        with_d = cells_with(state, d)
        for u1, near1, far1, u2, near2, far2 in pairs(state, links):
            targets = peers[far1] & peers[far2] & with_d
            if targets:
                chain = ((far1, d), (near1, d), (near2, d), (far2, d))
                return Step(
                    name,
                    (),
                    eliminate_from(targets, d),
                    (far1, near1, near2, far2),
                    (u1, u2),
                    (d,),
                    rating,
                    state.shape,
                    chain,
                )
        mark_fruitless(state, name, d)
    return None


def _ends(a1: int, a2: int, b1: int, b2: int):
    """The four ways to pick a near and a far end of two links."""
    return ((a1, a2, b1, b2), (a1, a2, b2, b1), (a2, a1, b1, b2), (a2, a1, b2, b1))


def _skyscraper_pairs(state: CandidateState, links):
    n = state.n
    for lines, across in (
        ([x for x in links if x[0] < n], lambda c: c % n),  # two rows: ends share a column
        ([x for x in links if n <= x[0] < 2 * n], lambda c: c // n),
    ):
        for i, (u1, a1, a2) in enumerate(lines):
            for u2, b1, b2 in lines[i + 1 :]:
                for near1, far1, near2, far2 in _ends(a1, a2, b1, b2):
                    if across(near1) == across(near2) and across(far1) != across(far2):
                        yield u1, near1, far1, u2, near2, far2


def _kite_pairs(state: CandidateState, links):
    n = state.n
    box = boxes(state.shape)
    rows = [x for x in links if x[0] < n]
    cols = [x for x in links if n <= x[0] < 2 * n]
    for u1, a1, a2 in rows:
        for u2, b1, b2 in cols:
            if a1 in (b1, b2) or a2 in (b1, b2):
                continue
            for near1, far1, near2, far2 in _ends(a1, a2, b1, b2):
                b = box[near1]
                if box[near2] == b and box[far1] != b and box[far2] != b:
                    yield u1, near1, far1, u2, near2, far2


def _turbot_pairs(state: CandidateState, links):
    peers = peer_masks(state.shape)
    for i, (u1, a1, a2) in enumerate(links):
        for u2, b1, b2 in links[i + 1 :]:
            if len({a1, a2, b1, b2}) < 4:
                continue
            for near1, far1, near2, far2 in _ends(a1, a2, b1, b2):
                if peers[near1] >> near2 & 1:
                    yield u1, near1, far1, u2, near2, far2


def skyscraper(state: CandidateState) -> Step | None:
    """Two parallel strong links on a digit with one end in a common line."""
    return _turbot(state, "skyscraper", _skyscraper_pairs, SKYSCRAPER_RATING)


def two_string_kite(state: CandidateState) -> Step | None:
    """A row strong link and a column strong link with one end each in a common box."""
    return _turbot(state, "two_string_kite", _kite_pairs, KITE_RATING)


def turbot_fish(state: CandidateState) -> Step | None:
    """Any two strong links on a digit whose near ends see each other (one of the far
    ends holds the digit: if the first near end does not, its far end does; if it does,
    the second near end does not, so the second far end does)."""
    return _turbot(state, "turbot_fish", _turbot_pairs, TURBOT_RATING)


def x_chain_from(state, d, start, strong, with_d, peers, bound):
    """The shortest X-chain from `start` (assumed false) with eliminations, within `bound` cells."""
    # A node is (cell, on); its parent gives the path.  Start off; strong links
    # lead off -> on, weak links on -> off.
    parent = {(start, False): None}
    queue = deque([(start, False, 1)])
    while queue:
        cell, on, length = queue.popleft()
        if length >= bound:
            continue
        if on:
            nexts = [(p, False) for p in bits(peers[cell] & with_d)]
        else:
            nexts = [(p, True) for p in strong.get(cell, ())]
        for node in nexts:
            if node in parent:
                continue
            parent[node] = (cell, on)
            end, end_on = node
            if end_on and end != start and length + 1 >= 4:
                targets = peers[start] & peers[end] & with_d
                if targets:
                    path = [node]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return length + 1, path[::-1], targets
            queue.append((end, end_on, length + 1))
    return None


def _x_chain_length(start: int, partners: dict[int, int], with_d: int, peers, bound: int) -> int:
    """The cells of the shortest X-chain from `start` (assumed false) with eliminations,
    within `bound` cells, or 0: the breadth-first search of `x_chain_from` a layer at a
    time, each layer's cells as one mask."""
    view = peers[start] & with_d
    ends = 0  # the cells whose view shares a candidate with the start's
    for t in bits(view):
        ends |= peers[t]
    ends &= ~(1 << start)
    seen_off = frontier = 1 << start
    seen_on = 0
    length = 1
    while frontier and length < bound:
        nxt = 0
        for c in bits(frontier):
            nxt |= partners.get(c, 0)
        frontier = nxt & ~seen_on
        seen_on |= frontier
        length += 1
        if length >= 4 and frontier & ends:
            return length
        if length >= bound:
            break
        nxt = 0
        for c in bits(frontier):
            nxt |= peers[c]
        frontier = nxt & with_d & ~seen_off
        seen_off |= frontier
        length += 1
    return 0


def shortest_x_chain(state: CandidateState, max_cells: int):
    """(cells, digit, path, targets) of the shortest X-chain within `max_cells`, or None."""
    n = state.n
    peers = peer_masks(state.shape)
    best = None
    key = f"x_chain{max_cells}"
    for d in range(1, n + 1):
        if fruitless(state, key, d):
            continue
        partners: dict[int, int] = {}
        for _, a, b in strong_links(state, d):
            partners[a] = partners.get(a, 0) | 1 << b
            partners[b] = partners.get(b, 0) | 1 << a
        if len(partners) < 4:
            continue
        with_d = cells_with(state, d)
        unbounded = best is None  # only a search within max_cells proves there is none
        for start in sorted(partners):
            bound = best[0] - 1 if best else max_cells
            length = _x_chain_length(start, partners, with_d, peers, bound)
            if length and (best is None or length < best[0]):
                best = (length, d, start)
        if unbounded and best is None:
            mark_fruitless(state, key, d)
    if best is None:
        return None
    # the chain reported is the one the per-cell search meets first
    length, d, start = best
    strong: dict[int, list[int]] = {}
    for _, a, b in strong_links(state, d):
        strong.setdefault(a, []).append(b)
        strong.setdefault(b, []).append(a)
    found = x_chain_from(state, d, start, strong, cells_with(state, d), peers, length)
    if found is None:
        raise RuntimeError("the plain search missed the chain the layered search measured")
    return (found[0], d, found[1], found[2])


def _x_chain_step(state: CandidateState, name: str, best, rating: float) -> Step:
    _, d, path, targets = best
    cells = tuple(c for c, _ in path)
    return Step(
        name,
        (),
        eliminate_from(targets, d),
        cells,
        (),
        (d,),
        rating,
        state.shape,
        tuple((c, d) for c in cells),
    )


def x_chain(state: CandidateState) -> Step | None:
    """The shortest X-chain (one digit) whose two ends see a common candidate."""
    best = shortest_x_chain(state, MAX_X_CELLS)
    if best is None:
        return None
    return _x_chain_step(state, "x_chain", best, round(X_CHAIN_RATING + length_bonus(best[0]), 1))


def three_strong_links(state: CandidateState) -> Step | None:
    """An X-chain of three strong links (six cells), rated as Sukaku Explainer does: 5.4
    when the links lie in parallel lines, 5.6 when rows and columns mix, 5.5 with a box."""
    best = shortest_x_chain(state, 6)
    if best is None or best[0] != 6:
        return None
    n = state.n
    cells = [c for c, _ in best[2]]
    kinds = set()
    for a, b in zip(cells[0::2], cells[1::2], strict=True):
        kinds.add("row" if a // n == b // n else "col" if a % n == b % n else "box")
    rating = 5.5 if "box" in kinds else 5.4 if len(kinds) == 1 else 5.6
    return _x_chain_step(state, "three_strong_links", best, rating)


def xy_chain_from(state, start, z, biv_mask, peers, bound):
    """The shortest XY-chain from bivalue `start` with `z` assumed false, ending on z."""
    cand = state.cand
    with_z = cells_with(state, z)
    first = (cand[start] & ~(1 << (z - 1))).bit_length()
    parent = {(start, first): None}
    queue = deque([(start, first, 1)])
    while queue:
        cell, on, length = queue.popleft()
        if length >= bound:
            continue
        bit = 1 << (on - 1)
        for p in bits(peers[cell] & biv_mask):
            if not cand[p] & bit:
                continue
            other = (cand[p] ^ bit).bit_length()
            node = (p, other)
            if node in parent:
                continue
            parent[node] = (cell, on)
            if other == z and p != start and length + 1 >= 3:
                targets = peers[start] & peers[p] & with_z
                if targets:
                    path = [node]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return length + 1, path[::-1], targets
            queue.append((p, other, length + 1))
    return None


def _pairs(state: CandidateState, biv: list[int]) -> list[list[tuple[int, int]]]:
    """By digit index d: (e, the bivalue cells holding d and e) for each other digit e."""
    cand = state.cand
    by_pair: dict[tuple[int, int], int] = {}
    for c in biv:
        m = cand[c]
        low = m & -m
        d, e = low.bit_length() - 1, (m ^ low).bit_length() - 1
        by_pair[(d, e)] = by_pair.get((d, e), 0) | 1 << c
        by_pair[(e, d)] = by_pair.get((e, d), 0) | 1 << c
    out: list[list[tuple[int, int]]] = [[] for _ in range(state.n)]
    for (d, e), mask in sorted(by_pair.items()):
        out[d].append((e, mask))
    return out


def _xy_chain_length(state: CandidateState, start: int, z: int, pairs, peers, bound: int) -> int:
    """The cells of the shortest XY-chain from `start` with digit `z` assumed false, ending
    on z with eliminations, within `bound` cells, or 0: the breadth-first search of
    `xy_chain_from` a layer at a time, the cells made true of each digit as one mask."""
    k = z - 1
    ends = -1  # the cells whose view shares a candidate z with the start's, once needed
    first = (state.cand[start] & ~(1 << k)).bit_length() - 1
    seen = [0] * state.n  # by digit index: the cells reached with it true
    seen[first] = 1 << start
    frontier = {first: 1 << start}
    length = 1
    while frontier and length < bound:
        length += 1
        nxt: dict[int, int] = {}
        for d, cells in frontier.items():
            view = 0
            while cells:
                low = cells & -cells
                cells ^= low
                view |= peers[low.bit_length() - 1]
            for e, mask in pairs[d]:
                new = view & mask & ~seen[e]
                if new:
                    nxt[e] = nxt.get(e, 0) | new
        for e, new in nxt.items():
            seen[e] |= new
        if length >= 3 and k in nxt:
            if ends < 0:
                ends = 0
                for t in bits(peers[start] & cells_with(state, z)):
                    ends |= peers[t]
                ends &= ~(1 << start)
            if nxt[k] & ends:
                return length
        frontier = nxt
    return 0


def xy_chain(state: CandidateState) -> Step | None:
    """The shortest chain of bivalue cells whose ends share a digit z seen by other cells."""
    cand = state.cand
    peers = peer_masks(state.shape)
    biv = [c for c, m in enumerate(cand) if m and m.bit_count() == 2]
    pairs = _pairs(state, biv)
    best = None
    for start in biv:
        for z in (cand[start] & -cand[start], cand[start] & (cand[start] - 1)):
            digit = z.bit_length()
            bound = best[0] - 1 if best else MAX_XY_CELLS
            length = _xy_chain_length(state, start, digit, pairs, peers, bound)
            if length and (best is None or length < best[0]):
                best = (length, digit, start)
    if best is None:
        return None
    # the chain reported is the one the per-cell search meets first
    biv_mask = sum(1 << c for c in biv)
    found = xy_chain_from(state, best[2], best[1], biv_mask, peers, best[0])
    if found is None:
        raise RuntimeError("the plain search missed the chain the layered search measured")
    length, path, targets = found
    z = best[1]
    cells = tuple(c for c, _ in path)
    # Candidate nodes alternate off=on inside a cell, on-off between cells.
    chain = tuple(
        node for c, on in path for node in ((c, (cand[c] ^ 1 << (on - 1)).bit_length()), (c, on))
    )
    return Step(
        "xy_chain",
        (),
        eliminate_from(targets, z),
        cells,
        (),
        (z,),
        round(XY_CHAIN_RATING + length_bonus(2 * length), 1),
        state.shape,
        chain,
    )
