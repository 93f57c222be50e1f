"""The classic techniques over a variant puzzle's houses and peers, and the non-consecutive step.

Each finder takes a `VariantState` and returns the first `Step` it finds, or
None.  They reason only with what holds in every variant the engine takes:

- a *house* (N cells, every digit once) gives singles, hidden subsets and
  intersections;
- any all-different *group* (a house, a smaller cage or extra region) gives
  naked subsets;
- *peers* (cells that cannot share a digit, whatever rule makes them so) decide
  where eliminations land: a digit that must be in one of some cells leaves
  every cell that sees them all;
- fish use rows and columns only, which are houses in every puzzle.

Steps keep the classic names and ratings (a hidden single in a box or jigsaw
region 1.2, elsewhere 1.5), so a variant path reads and rates like a classic
one where the logic is the same.
"""

from __future__ import annotations

from itertools import combinations

from solvers.human.state import digits
from solvers.human.step import Step
from solvers.human.variant.state import VariantState

NAKED = {2: ("naked_pair", 3.0), 3: ("naked_triple", 3.6), 4: ("naked_quad", 5.0)}
HIDDEN = {2: ("hidden_pair", 3.4), 3: ("hidden_triple", 4.0), 4: ("hidden_quad", 5.4)}
FISH = {2: ("x_wing", 3.2), 3: ("swordfish", 3.8), 4: ("jellyfish", 5.2)}


def _step(state: VariantState, name: str, rating: float, **parts) -> Step:
    return Step(
        name,
        tuple(parts.get("placements", ())),
        tuple(sorted(parts.get("eliminations", ()))),
        tuple(parts.get("cells", ())),
        tuple(parts.get("units", ())),
        tuple(parts.get("digits", ())),
        rating,
        state.shape,
    )


def _placed(state: VariantState, cells) -> int:
    m = 0
    for c in cells:
        v = state.values[c]
        if v:
            m |= 1 << (v - 1)
    return m


# -- singles -----------------------------------------------------------------
def full_house(state: VariantState) -> Step | None:
    values, cand = state.values, state.cand
    for u, cells in enumerate(state.board.houses):
        open_cells = [c for c in cells if not values[c]]
        if len(open_cells) == 1:
            cell = open_cells[0]
            m = state.full_mask & ~_placed(state, cells)
            if m & cand[cell] and not m & (m - 1):
                d = m.bit_length()
                return _step(
                    state, "full_house", 1.0, placements=[(cell, d)], units=[u], digits=[d]
                )
    return None


def hidden_single(state: VariantState) -> Step | None:
    board = state.board
    open_cells, holding = state.digit_cells()
    for u, house in enumerate(board.house_bits):
        for k in range(state.n):
            where = house & open_cells[k]
            if where and not where & (where - 1) and not house & holding[k]:
                rating = 1.2 if board.kinds[u] == "box" else 1.5
                d, cell = k + 1, where.bit_length() - 1
                return _step(
                    state, "hidden_single", rating, placements=[(cell, d)], units=[u], digits=[d]
                )
    return None


def naked_single(state: VariantState) -> Step | None:
    for cell, m in enumerate(state.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            return _step(state, "naked_single", 2.3, placements=[(cell, d)], cells=[cell])
    return None


def non_consecutive(state: VariantState) -> Step | None:
    """A placed digit d takes d-1 and d+1 from its orthogonal neighbours."""
    values, cand, neighbours = state.values, state.cand, state.board.neighbours
    for cell, v in enumerate(values):
        if not v or not neighbours[cell]:
            continue
        near = [d for d in (v - 1, v + 1) if 1 <= d <= state.n]
        elims = [(p, d) for p in neighbours[cell] for d in near if cand[p] & (1 << (d - 1))]
        if elims:
            return _step(
                state, "non_consecutive", 1.0, eliminations=elims, cells=[cell], digits=[v]
            )
    return None


# -- intersections -----------------------------------------------------------
def cells_of(mask: int) -> list[int]:
    """The cells of a bitmask of cells, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _seen_by_all(state: VariantState, cells, bit: int) -> list[int]:
    """The open cells holding `bit` that see every one of `cells`."""
    peers = state.board.peer_bits
    common = -1
    for c in cells:
        common &= peers[c]
    cand = state.cand
    return [x for x in cells_of(common) if cand[x] & bit]


def _seen_mask(peer_bits, where: int) -> int:
    """The cells that see every cell of the bitmask `where`."""
    common = -1
    while where:
        low = where & -where
        where ^= low
        common &= peer_bits[low.bit_length() - 1]
    return common


def _intersections(state: VariantState, kind: str) -> Step | None:
    """The first pointing, claiming or (``seen``) house pointing of the state."""
    for found in state.derived("intersections", _all_intersections):
        if found.technique == kind:
            return found
    return None


def _all_intersections(state: VariantState) -> list[Step]:
    """Every house's digit whose places (two or more) all see other cells holding it: per
    house and digit, a pointing (a box's digit confined to a line, eliminations in the
    line), a claiming (a line's digit in a box) and a house pointing (every cell that sees
    them all), as far as each finds eliminations."""
    board = state.board
    n = state.n
    house_bits, peer_bits, kinds = board.house_bits, board.peer_bits, board.kinds
    open_cells, _ = state.digit_cells()
    found = []
    for u in range(len(house_bits)):
        inner = kinds[u]
        for k in range(n):
            where = house_bits[u] & open_cells[k]
            if not where & (where - 1):
                continue  # no place, or one: the singles' business
            seen = _seen_mask(peer_bits, where) & open_cells[k]
            if not seen:
                continue
            d = k + 1
            places = cells_of(where)
            found.append(
                _step(
                    state,
                    "house_pointing",
                    2.9,
                    eliminations=[(x, d) for x in cells_of(seen)],
                    cells=places,
                    units=[u],
                    digits=[d],
                )
            )
            if inner == "extra":
                continue
            name = "pointing" if inner == "box" else "claiming"
            for b in range(3 * n):
                other = house_bits[b]
                if b == u or kinds[b] == inner or where & ~other:
                    continue
                inside = seen & other
                if inside:
                    found.append(
                        _step(
                            state,
                            name,
                            2.6 if name == "pointing" else 2.8,
                            eliminations=[(x, d) for x in cells_of(inside)],
                            cells=places,
                            units=[u, b],
                            digits=[d],
                        )
                    )
                    break
    return found


def pointing(state: VariantState) -> Step | None:
    return _intersections(state, "pointing")


def claiming(state: VariantState) -> Step | None:
    return _intersections(state, "claiming")


def house_pointing(state: VariantState) -> Step | None:
    return _intersections(state, "house_pointing")


# -- subsets -----------------------------------------------------------------
def _naked(state: VariantState, k: int) -> Step | None:
    cand = state.cand
    name, rating = NAKED[k]
    for g, cells in enumerate(state.board.groups):
        open_cells = [c for c in cells if cand[c] and bin(cand[c]).count("1") <= k]
        for combo in combinations(open_cells, k):
            union = 0
            for c in combo:
                union |= cand[c]
            if bin(union).count("1") != k:
                continue
            elims = [
                (x, d)
                for d in digits(union)
                for x in _seen_by_all(state, list(combo), 1 << (d - 1))
            ]
            if elims:
                return _step(
                    state,
                    name,
                    rating,
                    eliminations=elims,
                    cells=combo,
                    units=[g],
                    digits=digits(union),
                )
    return None


def _hidden(state: VariantState, k: int) -> Step | None:
    cand = state.cand
    name, rating = HIDDEN[k]
    where, holding = state.digit_cells()
    for u, house in enumerate(state.board.house_bits):
        places = {}
        for i in range(state.n):
            w = house & where[i]
            if w and not house & holding[i] and 2 <= w.bit_count() <= k:
                places[i + 1] = w
        if len(places) < k:
            continue
        for combo in combinations(sorted(places), k):
            union = 0
            for d in combo:
                union |= places[d]
            if union.bit_count() != k:
                continue
            keep = sum(1 << (d - 1) for d in combo)
            cells = cells_of(union)
            elims = [(c, d) for c in cells for d in digits(cand[c] & ~keep)]
            if elims:
                return _step(
                    state, name, rating, eliminations=elims, cells=cells, units=[u], digits=combo
                )
    return None


def _fish(state: VariantState, k: int) -> Step | None:
    """Fish with rows as base and columns as cover, then the other way round."""
    n, cand = state.n, state.cand
    name, rating = FISH[k]
    for rows_first in (True, False):
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            lines = {}
            for i in range(n):
                cells = [i * n + j if rows_first else j * n + i for j in range(n)]
                where = frozenset(j for j, c in enumerate(cells) if cand[c] & bit)
                if 2 <= len(where) <= k:
                    lines[i] = where
            for base in combinations(sorted(lines), k):
                cover = frozenset().union(*(lines[i] for i in base))
                if len(cover) != k:
                    continue
                elims = [
                    ((i * n + j if rows_first else j * n + i), d)
                    for j in sorted(cover)
                    for i in range(n)
                    if i not in base and cand[i * n + j if rows_first else j * n + i] & bit
                ]
                if elims:
                    first, other = (0, n) if rows_first else (n, 0)
                    return _step(
                        state,
                        name,
                        rating,
                        eliminations=elims,
                        cells=[
                            i * n + j if rows_first else j * n + i
                            for i in base
                            for j in sorted(lines[i])
                        ],
                        units=[first + i for i in base] + [other + j for j in sorted(cover)],
                        digits=[d],
                    )
    return None


def naked_pair(state: VariantState) -> Step | None:
    return _naked(state, 2)


def naked_triple(state: VariantState) -> Step | None:
    return _naked(state, 3)


def naked_quad(state: VariantState) -> Step | None:
    return _naked(state, 4)


def hidden_pair(state: VariantState) -> Step | None:
    return _hidden(state, 2)


def hidden_triple(state: VariantState) -> Step | None:
    return _hidden(state, 3)


def hidden_quad(state: VariantState) -> Step | None:
    return _hidden(state, 4)


def x_wing(state: VariantState) -> Step | None:
    return _fish(state, 2)


def swordfish(state: VariantState) -> Step | None:
    return _fish(state, 3)


def jellyfish(state: VariantState) -> Step | None:
    return _fish(state, 4)
