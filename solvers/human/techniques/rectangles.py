"""Unique rectangles of types 2, 3 and 4 (type 1 is in `uniqueness`).

A *rectangle* is four open cells on two rows, two columns and two boxes that
all hold the digits a and b.  If the four could be reduced to ab, a and b
could be swapped around it and the puzzle would have two solutions; so, in
a puzzle with one solution, the digits beyond ab in the *roof* (the two
cells holding more than ab; the *floor* holds exactly ab) cannot all be
false:

- type 2: both roof cells hold one extra digit x: one of them is x, so cells
  seeing both lose x;
- type 3: the roof's extra digits act as one cell; with other cells of a
  unit holding both roof cells they can make a naked subset, whose digits
  leave the unit's other cells;
- type 4: in a unit holding both roof cells, a has no other place: one roof
  cell is a, so neither roof cell can be b (that would make the floor's
  rectangle deadly).

Sudoku Explainer rates types 2 and 4 like type 1 (4.5) and type 3 0.1 more
for each digit of the naked subset beyond the first.  All three are sound
only for puzzles with a unique solution.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, boxes, cells_with, peer_masks

RATING = 4.5


def _rectangles(state: CandidateState) -> list[tuple[tuple[int, ...], int, list, list]]:
    """(cells, ab mask, floor, roof) of every rectangle with a two-cell floor, in the
    order of rows r1 < r2, columns c1 < c2, then pairs ab ascending (memoised)."""
    return state.derived("rectangles", _find_rectangles)


def _find_rectangles(state: CandidateState) -> list[tuple[tuple[int, ...], int, list, list]]:
    # The floor is two cells holding exactly ab: start from pairs of such cells.
    n = state.n
    cand = state.cand
    box = boxes(state.shape)
    by_pair: dict[int, list[int]] = {}
    for c, m in enumerate(cand):
        if m and m.bit_count() == 2:
            by_pair.setdefault(m, []).append(c)
    found = []
    for ab, cells_ab in by_pair.items():
        if len(cells_ab) < 2:
            continue
        for x, y in combinations(cells_ab, 2):
            rx, cx = divmod(x, n)
            ry, cy = divmod(y, n)
            if rx != ry and cx != cy:
                shapes = [(min(rx, ry), max(rx, ry), min(cx, cy), max(cx, cy))]
            elif rx == ry:
                shapes = [(min(rx, r), max(rx, r), cx, cy) for r in range(n) if r != rx]
            else:
                shapes = [(rx, ry, min(cx, c), max(cx, c)) for c in range(n) if c != cx]
            for r1, r2, c1, c2 in shapes:
                cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                if any(cand[c] & ab != ab for c in cells):
                    continue
                floor = [c for c in cells if cand[c] == ab]
                if len(floor) != 2:
                    continue
                if len({box[c] for c in cells}) != 2:
                    continue
                roof = [c for c in cells if c not in floor]
                found.append(((r1, r2, c1, c2, ab & -ab, ab), (cells, ab, floor, roof)))
    found.sort(key=lambda item: item[0])
    return [rect for _, rect in found]


def rectangle_step(state, name, rating, cells, ab, elims, detail: tuple = ()) -> Step:
    """The step of a deadly-pattern technique: its cells, its two digits (`ab`, a mask)
    and the eliminations that avoid the pattern."""
    return Step(
        name,
        (),
        tuple(sorted(elims)),
        tuple(sorted(cells)),
        (),
        tuple(b + 1 for b in bits(ab)),
        rating,
        state.shape,
        detail=detail,
    )


def _shared_units(state: CandidateState, x: int, y: int) -> list[int]:
    return sorted(set(state.shape.cell_units[x]) & set(state.shape.cell_units[y]))


def unique_rectangle_2(state: CandidateState) -> Step | None:
    """Type 2: both roof cells hold ab and one more digit x; cells seeing both lose x."""
    cand = state.cand
    peers = peer_masks(state.shape)
    for cells, ab, _, (p, q) in _rectangles(state):
        extra = cand[p] & ~ab
        if extra.bit_count() != 1 or cand[q] & ~ab != extra:
            continue
        x = extra.bit_length()
        targets = peers[p] & peers[q] & cells_with(state, x)
        if targets:
            elims = [(t, x) for t in bits(targets)]
            return rectangle_step(state, "unique_rectangle_2", RATING, cells, ab, elims)
    return None


def unique_rectangle_4(state: CandidateState) -> Step | None:
    """Type 4: a has no other place than the roof in a unit holding it: the roof loses b."""
    cand = state.cand
    units = state.shape.units
    for cells, ab, _, (p, q) in _rectangles(state):
        for u in _shared_units(state, p, q):
            for a in bits(ab):
                if any(cand[c] >> a & 1 for c in units[u] if c not in (p, q)):
                    continue
                b = (ab & ~(1 << a)).bit_length()
                elims = [(c, b) for c in (p, q) if cand[c] >> (b - 1) & 1]
                return rectangle_step(state, "unique_rectangle_4", RATING, cells, ab, elims)
    return None


def unique_rectangle_3(state: CandidateState) -> Step | None:
    """Type 3: the roof's extra digits and k other cells of a unit make a naked subset of
    k + 1 digits; the unit's other cells lose them.  4.5 + 0.1 per digit beyond one."""
    cand = state.cand
    units = state.shape.units
    best: tuple | None = None
    for cells, ab, _, (p, q) in _rectangles(state):
        extra = (cand[p] | cand[q]) & ~ab
        for u in _shared_units(state, p, q):
            others = [c for c in units[u] if c not in (p, q) and cand[c]]
            for k in range(1, len(others)):
                rating = round(RATING + 0.1 * k, 1)
                if best is not None and rating >= best[0]:
                    break
                for group in combinations(others, k):
                    digits = extra
                    for c in group:
                        digits |= cand[c]
                    if digits.bit_count() != k + 1:
                        continue
                    elims = [
                        (c, d + 1) for c in others if c not in group for d in bits(cand[c] & digits)
                    ]
                    if elims:
                        best = (rating, cells, ab, elims)
                        break
    if best is None:
        return None
    rating, cells, ab, elims = best
    return rectangle_step(state, "unique_rectangle_3", rating, cells, ab, elims)


def _loop_units_ok(state: CandidateState, loop: list[int]) -> bool:
    """Every row, column and box that holds a cell of the loop holds exactly two."""
    seen: dict[int, int] = {}
    for c in loop:
        for u in state.shape.cell_units[c]:
            seen[u] = seen.get(u, 0) + 1
    return all(v == 2 for v in seen.values())


def _loops(state: CandidateState, ab: int, max_len: int) -> Iterator[list[int]]:
    """Closed loops of 6 to `max_len` cells holding a and b, each step within a unit,
    with every unit they touch holding exactly two of their cells (each loop once)."""
    cand = state.cand
    peers = peer_masks(state.shape)
    cell_units = state.shape.cell_units
    holders = [c for c, m in enumerate(cand) if m & ab == ab]
    if len(holders) < 6:
        return
    # Two cells at most hold more than ab, so a loop has at most `exact` + 2 cells.
    exact = sum(1 for c in holders if cand[c] == ab)
    if exact < 4:
        return
    max_len = min(max_len, exact + 2)
    mask = sum(1 << c for c in holders)
    found: set[frozenset[int]] = set()
    count: dict[int, int] = {}

    def walk(path: list[int], used: int, extras: int) -> Iterator[list[int]]:
        last = path[-1]
        for nxt in bits(peers[last] & mask):
            if nxt == path[0]:
                if len(path) >= 6 and len(path) % 2 == 0:
                    key = frozenset(path)
                    if key not in found and _loop_units_ok(state, path):
                        found.add(key)
                        yield list(path)
                continue
            if used >> nxt & 1 or nxt < path[0] or len(path) >= max_len:
                continue
            extra = cand[nxt] != ab
            if extra and extras >= 2:
                continue  # types 1 and 2 allow two cells with extra digits at most
            if any(count.get(u, 0) >= 2 for u in cell_units[nxt]):
                continue  # a unit would hold three cells of the loop
            for u in cell_units[nxt]:
                count[u] = count.get(u, 0) + 1
            yield from walk([*path, nxt], used | 1 << nxt, extras + extra)
            for u in cell_units[nxt]:
                count[u] -= 1

    for start in holders:
        for u in cell_units[start]:
            count[u] = 1
        yield from walk([start], 1 << start, int(cand[start] != ab))
        for u in cell_units[start]:
            count[u] = 0


def unique_loop(state: CandidateState) -> Step | None:
    """Unique loops of 6 or more cells, types 1 and 2: one cell with extra digits loses a
    and b, or two cells whose one extra digit x is the same make the cells seeing both
    lose x.  Sudoku Explainer: 4.6 for six cells, 4.7 for eight, 5.0 for ten or more.

    A pair ab that gave nothing is skipped while the cells holding a and b keep their
    candidates (`state.fruitless`)."""
    cand = state.cand
    peers = peer_masks(state.shape)
    biv = {m for m in cand if m and m.bit_count() == 2}
    fruitless = state.fruitless
    for ab in sorted(biv):
        # The loops on ab and their eliminations depend on the cells holding a and b
        # and on their candidates, but for targets, which only shrink.
        low = ab & -ab
        holders = cells_with(state, low.bit_length()) & cells_with(state, (ab ^ low).bit_length())
        mark = (holders, *[cand[c] for c in bits(holders)])
        if fruitless.get(("unique_loop", ab)) == mark:
            continue
        for loop in _loops(state, ab, 12):
            extra = [c for c in loop if cand[c] != ab]
            rating = 5.0 if len(loop) >= 10 else 4.7 if len(loop) == 8 else 4.6
            elims: list[tuple[int, int]] = []
            if len(extra) == 1:
                elims = [(extra[0], d + 1) for d in bits(ab)]
            elif len(extra) == 2:
                p, q = extra
                x = cand[p] & ~ab
                if x.bit_count() == 1 and cand[q] & ~ab == x:
                    targets = peers[p] & peers[q] & cells_with(state, x.bit_length())
                    elims = [(t, x.bit_length()) for t in bits(targets)]
            if elims:
                return rectangle_step(state, "unique_loop", rating, loop, ab, elims)
        fruitless[("unique_loop", ab)] = mark
    return None
