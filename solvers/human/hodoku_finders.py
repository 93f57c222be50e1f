"""Finders of the simple techniques as HoDoKu finds them, for the HoDoKu-order pass.

The engine's own finders of locked candidates and subsets scan rows, then
columns, then boxes, and take a naked subset inside a box and a line as
*locked* whenever it clears either; HoDoKu scans boxes first and calls a
subset locked only when it clears both the box and the line outside the box
(the one-sided case is a naked subset, or locked candidates).  Which step a
state offers first decides the next states, so the HoDoKu pass
(`solvers.human.hodoku_path`) uses these: same deductions, HoDoKu's order and
names.  Each returns a `Step` named after the engine technique it stands for,
its eliminations in HoDoKu's order (units row, column, box; cells in unit
order), which the pass's single-queue bookkeeping follows.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache
from itertools import combinations
from typing import Any

from solvers.grid import Shape
from solvers.human.hodoku_chains import best_chain
from solvers.human.hodoku_tabling import forcing_chain, forcing_net
from solvers.human.state import CandidateState, digits
from solvers.human.step import Step
from solvers.human.techniques.common import (
    bits,
    cells_with,
    peer_masks,
    unit_cell_masks,
    unit_readers,
)

Finder = Callable[[CandidateState], "Step | None"]

_NAKED = {2: "naked_pair", 3: "naked_triple", 4: "naked_quad"}
_LOCKED = {2: "locked_pair", 3: "locked_triple"}
_HIDDEN = {2: "hidden_pair", 3: "hidden_triple", 4: "hidden_quad"}
_UNKNOWN = object()
"""An answer not in the solve's memo yet (it may be None)."""


def _box_first(n: int) -> list[int]:
    """Unit indices in HoDoKu's order for subsets: boxes, rows, columns."""
    return [*range(2 * n, 3 * n), *range(n)] + list(range(n, 2 * n))


def _naked_step(state: CandidateState, combo: tuple[int, ...], m: int, locked: bool) -> Step | None:
    """The step of naked cells `combo` (digits `m`) clearing every unit they share, if it
    is of the kind asked for: locked (k < 4, clearing the box and the line outside it)
    or not."""
    shape = state.shape
    cand = state.cand
    shared = [u for u in shape.cell_units[combo[0]] if all(u in shape.cell_units[c] for c in combo)]
    box = next((u for u in shared if u >= 2 * state.n), None)
    elims: list[tuple[int, int]] = []
    in_box = outside = False
    for u in shared:
        for c in shape.units[u]:
            if c in combo or not cand[c] & m:
                continue
            for d in digits(cand[c] & m):
                if (c, d) not in elims:
                    elims.append((c, d))
            if u == box:
                in_box = True
            elif box is None or shape.cell_units[c][2] != box:
                outside = True
    is_locked = len(combo) < 4 and box is not None and len(shared) > 1 and in_box and outside
    if not elims or is_locked != locked:
        return None
    k = len(combo)
    name = _LOCKED[k] if locked else _NAKED[k]
    return Step(name, (), tuple(elims), combo, tuple(shared), tuple(digits(m)), 0.0, shape)


def _naked(state: CandidateState, k: int, units: list[int], locked: bool) -> Step | None:
    """The first naked subset of k cells in `units` (in order) that is a step of the kind
    asked for (see `_naked_step`): found compiled where it fits (`compiled_sets`)."""
    if COMPILED and state.n <= 16:
        for combo, m in compiled_sets(state, k, units):
            if step := _naked_step(state, combo, m, locked):
                return step
        return None
    cand = state.cand
    for u in units:
        small = [c for c in state.shape.units[u] if cand[c] and cand[c].bit_count() <= k]
        for combo in combinations(small, k):
            m = 0
            for c in combo:
                m |= cand[c]
            if m.bit_count() == k and (step := _naked_step(state, combo, m, locked)):
                return step
    return None


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether the naked subsets are found by the compiled scan (`hodoku_subset_kernel`): numba
is installed."""


def compiled_sets(
    state: CandidateState, k: int, units: list[int]
) -> list[tuple[tuple[int, ...], int]]:
    """The sets of k cells of one unit holding k digits between them (cells, digit mask)
    that clear something in a unit they share, units in the order of `units`, each unit's
    in `itertools.combinations` order: the compiled scan (`hodoku_subset_kernel.naked_sets`).
    The others would give no step."""
    import numpy as np

    from solvers.human.hodoku_subset_kernel import naked_sets

    cand = np.array(state.cand, dtype=np.int64)
    order = np.array(units, dtype=np.int64)
    rows = 16
    while True:
        out = np.zeros((rows, k + 2), dtype=np.int64)
        units_array, cell_units = unit_arrays(state.shape)
        size = naked_sets(cand, units_array, cell_units, order, k, out)
        if size >= 0:
            return [(tuple(row[1 : k + 1]), row[k + 1]) for row in out[:size].tolist()]
        rows *= 4


@cache
def unit_arrays(shape: Shape) -> tuple[Any, Any]:
    """The shape's units (cells per unit) and each cell's units, as NumPy arrays, for the
    compiled scan."""
    import numpy as np

    return np.array(shape.units, dtype=np.int64), np.array(shape.cell_units, dtype=np.int64)


def naked_subset(state: CandidateState, k: int) -> Step | None:
    """HoDoKu's naked subset of size k: boxes, rows, columns; the locked ones left out."""
    return _naked(state, k, _box_first(state.n), False)


def locked_subset(state: CandidateState, k: int) -> Step | None:
    """HoDoKu's locked pair or triple: in a box and a line, clearing both."""
    return _naked(state, k, list(range(2 * state.n, 3 * state.n)), True)


def hidden_subset(state: CandidateState, k: int) -> Step | None:
    """HoDoKu's hidden subset of size k: boxes, rows, columns; digits in ascending order.
    A unit's answer reads its own candidates alone: it is kept in the solve's memo by
    them (the pass asks again at every state, where most units are as they were)."""
    cand = state.cand
    reads = unit_readers(state.shape)
    table = state.memo.table("hodoku-hidden-subset", state.shape, 200)
    for u in _box_first(state.n):
        key = (k, u, reads[u](cand))
        step = table.get(key, _UNKNOWN)
        if step is _UNKNOWN:
            step = table[key] = _hidden_in(state, k, u)
        if step is not None:
            return step  # type: ignore[return-value]
    return None


def _hidden_in(state: CandidateState, k: int, u: int) -> Step | None:
    """The first hidden subset of size k in unit u (digits in ascending order)."""
    n, cand, count = state.n, state.cand, state.count
    unit = state.shape.units[u]
    if sum(1 for c in unit if cand[c]) <= k:
        return None
    pos = state.pos
    ds = [d for d in range(1, n + 1) if 0 < count[u * n + d - 1] <= k]
    for combo in combinations(ds, k):
        places = 0  # the combination's places in the unit, as positions
        for d in combo:
            places |= pos[u * n + d - 1]
        if places.bit_count() != k:
            continue
        cells = sorted(unit[i] for i in bits(places))
        m = sum(1 << (d - 1) for d in combo)
        elims = tuple((c, d) for c in cells for d in digits(cand[c] & ~m))
        if elims:
            return Step(_HIDDEN[k], (), elims, tuple(cells), (u,), combo, 0.0, state.shape)
    return None


def _locked_candidates(state: CandidateState, units: list[int], pointing: bool) -> Step | None:
    """HoDoKu's locked candidates: in each unit, each digit with two or three places all
    in one other unit (for a box, its row before its column) clears that unit.  A
    digit's first step reads its own places alone: it is kept in the solve's memo by
    them, and the scan's first step is the digits' earliest (by unit, then digit)."""
    table = state.memo.table("hodoku-locked-candidates", state.shape, 200)
    best: tuple[int, Step] | None = None
    for d in range(1, state.n + 1):
        key = (pointing, d, cells_with(state, d))
        found = table.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = table[key] = _locked_digit(state, units, pointing, d)
        if found is not None and (best is None or found[0] < best[0]):
            best = found  # type: ignore[assignment]
    return None if best is None else best[1]


def _locked_digit(
    state: CandidateState, units: list[int], pointing: bool, d: int
) -> tuple[int, Step] | None:
    """Digit d's first locked candidates, with the place of its unit in `units`."""
    n, cand, count = state.n, state.cand, state.count
    shape = state.shape
    bit = 1 << (d - 1)
    kinds = (0, 1) if pointing else (2,)
    for at, u in enumerate(units):
        free = count[u * n + d - 1]
        if free not in (2, 3):
            continue
        cells = [c for c in shape.units[u] if cand[c] & bit]
        for kind in kinds:
            other = shape.cell_units[cells[0]][kind]
            if all(shape.cell_units[c][kind] == other for c in cells[1:]) and (
                count[other * n + d - 1] > free
            ):
                elims = tuple(
                    (c, d) for c in shape.units[other] if cand[c] & bit and c not in cells
                )
                name = "pointing" if pointing else "claiming"
                return at, Step(name, (), elims, tuple(cells), (u, other), (d,), 0.0, shape)
    return None


def pointing(state: CandidateState) -> Step | None:
    """HoDoKu's locked candidates type 1: a box's digit confined to a line."""
    n = state.n
    return _locked_candidates(state, list(range(2 * n, 3 * n)), True)


def claiming(state: CandidateState) -> Step | None:
    """HoDoKu's locked candidates type 2: a row's, then a column's, digit confined to a box."""
    return _locked_candidates(state, list(range(2 * state.n)), False)


def remote_pair(state: CandidateState) -> Step | None:
    """HoDoKu's remote pair, which the engine has no finder for: bivalue cells with the
    same two digits, linked by seeing each other, take the digits in alternation, so a
    cell seeing two of opposite parity takes neither.  HoDoKu asks for a chain of four
    cells or more; of the linked groups the one clearing most is taken."""
    cand = state.cand
    peers = state.shape.peers
    groups: dict[int, list[int]] = {}
    for c, m in enumerate(cand):
        if m and m.bit_count() == 2:
            groups.setdefault(m, []).append(c)
    best: tuple[list[tuple[int, int]], tuple[int, ...], int] | None = None
    for m, cells in sorted(groups.items()):
        left = set(cells)
        while left:
            first = min(left)
            colour = {first: 0}
            todo = [first]
            bipartite = True
            while todo:
                c = todo.pop()
                for p in peers[c]:
                    if p in left and p not in colour:
                        colour[p] = 1 - colour[c]
                        todo.append(p)
                    elif p in colour and colour[p] == colour[c]:
                        bipartite = False
            left -= set(colour)
            if len(colour) < 4 or not bipartite:
                continue
            ends = sorted(colour)
            seen = [set(peers[c]) for c in ends]
            targets: set[int] = set()
            for i, x in enumerate(ends):
                for j in range(i + 1, len(ends)):
                    if colour[x] != colour[ends[j]]:
                        targets |= seen[i] & seen[j]
            elims = [
                (c, d)
                for d in digits(m)
                for c in sorted(targets - set(colour))
                if cand[c] >> (d - 1) & 1
            ]
            if elims and (best is None or len(elims) > len(best[0])):
                best = (elims, tuple(ends), m)
    if best is None:
        return None
    return Step(
        "remote_pair", (), tuple(best[0]), best[1], (), tuple(digits(best[2])), 0.0, state.shape
    )


def empty_rectangle(state: CandidateState) -> Step | None:
    """HoDoKu's empty rectangle, which the engine finds among its grouped turbot fish:
    a digit's places in a box all lie on one row and one column of it, some off each
    (so one of that row and that column holds it); a conjugate pair in a line crossing
    the box's row (column) outside the box then rules the digit out where its other
    end's row (column) crosses the box's column (row).  Digits, then boxes, then the
    crossings as HoDoKu takes them; the first elimination is the step.  A digit's answer
    reads its own places alone: it is kept in the solve's memo by them."""
    table = state.memo.table("hodoku-empty-rectangle", state.shape, 200)
    for d in range(1, state.n + 1):
        key = (d, cells_with(state, d))
        step = table.get(key, _UNKNOWN)
        if step is _UNKNOWN:
            step = table[key] = _er_digit(state, d)
        if step is not None:
            return step  # type: ignore[return-value]
    return None


def _er_digit(state: CandidateState, d: int) -> Step | None:
    """The first empty rectangle of digit d: boxes, then the crossings."""
    n, shape = state.n, state.shape
    rows, cols = shape.box_rows, shape.box_cols
    with_d = cells_with(state, d)
    masks = unit_cell_masks(shape)
    for b in range(n):
        box = masks[2 * n + b]
        places = with_d & box
        if not 2 <= places.bit_count() <= 5:
            continue
        corner = shape.units[2 * n + b][0]
        top, left = corner // n, corner % n
        for p in range(rows * cols):
            row, col = top + rows - 1 - p // cols, left + cols - 1 - p % cols
            in_row, in_col = places & masks[row], places & masks[n + col]
            if in_row | in_col != places or in_row == places or in_col == places:
                continue  # (the places must lie on the row and the column, some off each)
            for across in (False, True):
                step = _er_link(state, d, with_d, box, row, col, across)
                if step is not None:
                    return step
    return None


def _er_link(
    state: CandidateState, d: int, with_d: int, box: int, row: int, col: int, across: bool
) -> Step | None:
    """An empty rectangle's elimination through a conjugate pair in a column met on the
    box's row (``across``: in a row met on the box's column), or None (`with_d`: the
    digit's cells; `box`: the box's)."""
    n = state.n
    masks = unit_cell_masks(state.shape)
    line = masks[n + col] if across else masks[row]
    for cell in bits(line & with_d & ~box):  # (in the line's order)
        pair = with_d & masks[cell // n if across else n + cell % n]
        if pair.bit_count() != 2:
            continue
        other = (pair & ~(1 << cell)).bit_length() - 1
        target = other // n * n + col if not across else row * n + other % n
        if (with_d & ~box & ~pair) >> target & 1:
            cells = (cell, other, *bits(box & with_d))
            return Step("empty_rectangle", (), ((target, d),), cells, (), (d,), 0.0, state.shape)
    return None


def _sees(state: CandidateState, a: int, b: int) -> bool:
    return bool(peer_masks(state.shape)[a] >> b & 1)  # (a cell is not its own peer)


def _wing_step(state: CandidateState, pivot: int, p1: int, p2: int, xyz: bool) -> Step | None:
    """The XY-Wing (XYZ-Wing) with this pivot and these pincers, if it clears anything."""
    if not (_sees(state, pivot, p1) and _sees(state, pivot, p2)):
        return None
    cand = state.cand
    shared = cand[p1] & cand[p2]
    if shared.bit_count() != 1:
        return None
    z = shared.bit_length()
    peers = peer_masks(state.shape)
    seeing = peers[p1] & peers[p2] & (peers[pivot] if xyz else -1)
    seeing &= ~(1 << pivot | 1 << p1 | 1 << p2)
    elims = tuple((c, z) for c in bits(seeing) if cand[c] & shared)
    if not elims:
        return None
    name = "xyz_wing" if xyz else "xy_wing"
    return Step(name, (), elims, (pivot, p1, p2), (), tuple(digits(cand[pivot])), 0.0, state.shape)


def wing(state: CandidateState, xyz: bool) -> Step | None:
    """HoDoKu's XY-Wing (XYZ-Wing): pivots and pincers in HoDoKu's order, the first that
    clears something."""
    cand = state.cand
    bi = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    pivots = [c for c, m in enumerate(cand) if m.bit_count() == 3] if xyz else bi
    for i, pivot in enumerate(pivots):
        pm = cand[pivot]
        for j, a in enumerate(bi):
            am = cand[a]
            m = pm | am
            if (xyz and a == pivot) or (not xyz and j <= i) or m.bit_count() != 3:
                continue
            # (pm and am differ: their union has a digit more than either pair)
            for b in bi[j + 1 :]:
                bm = cand[b]
                if b == pivot or bm & ~m or bm in (pm, am):
                    continue
                orders = [(pivot, a, b)] + ([] if xyz else [(a, pivot, b), (b, a, pivot)])
                for x, y, z in orders:
                    if step := _wing_step(state, x, y, z, xyz):
                        return step
    return None


def w_wing(state: CandidateState) -> Step | None:
    """HoDoKu's W-Wing: two bivalue cells with the same digits a and b, a unit where b has
    two places other than them, one seeing each cell (neither both): cells seeing both
    bivalue cells lose a.  Cells in order, then a before b, then the units."""
    cand, shape = state.cand, state.shape
    bi = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    for i, one in enumerate(bi):
        m = cand[one]
        for two in bi[i + 1 :]:
            if cand[two] != m:
                continue
            for a, b in (digits(m), digits(m)[::-1]):
                abit = 1 << (a - 1)
                peers = peer_masks(shape)
                elims = tuple((c, a) for c in bits(peers[one] & peers[two]) if cand[c] & abit)
                if elims and _w_link(state, b, one, two):
                    return Step("w_wing", (), elims, (one, two), (), (a, b), 0.0, shape)
    return None


def _w_link(state: CandidateState, b: int, one: int, two: int) -> bool:
    """Whether a unit's two places of b (neither cell itself) see one cell each."""
    cand, n = state.cand, state.n
    bit = 1 << (b - 1)
    for u, unit in enumerate(state.shape.units):
        if state.count[u * n + b - 1] != 2:
            continue
        ends = [c for c in unit if cand[c] & bit and c not in (one, two)]
        if len(ends) != 2:
            continue
        (w1, w2) = ends
        see = [[_sees(state, w, x) for x in (one, two)] for w in (w1, w2)]
        if all(see[0]) or all(see[1]):
            continue
        if (see[0][0] and see[1][1]) or (see[0][1] and see[1][0]):
            return True
    return False


FINDERS: dict[str, Finder] = {
    "xy_wing": lambda s: wing(s, False),
    "xyz_wing": lambda s: wing(s, True),
    "w_wing": w_wing,
    "remote_pair": remote_pair,
    "empty_rectangle": empty_rectangle,
    "x_chains": lambda s: best_chain(s, "x"),
    "xy_chains": lambda s: best_chain(s, "xy"),
    "nice_loops": lambda s: best_chain(s, "aic"),
    "locked_pair": lambda s: locked_subset(s, 2),
    "locked_triple": lambda s: locked_subset(s, 3),
    "pointing": pointing,
    "claiming": claiming,
    "naked_pair": lambda s: naked_subset(s, 2),
    "naked_triple": lambda s: naked_subset(s, 3),
    "hidden_pair": lambda s: hidden_subset(s, 2),
    "hidden_triple": lambda s: hidden_subset(s, 3),
    "naked_quad": lambda s: naked_subset(s, 4),
    "hidden_quad": lambda s: hidden_subset(s, 4),
    "tabled_chains": forcing_chain,
    "tabled_nets": forcing_net,
}
"""The HoDoKu pass's own finders: by the engine technique they replace, or a name of their
own (`STANDS_FOR` says which engine technique, if any, enables them)."""

STANDS_FOR: dict[str, str | None] = {
    "remote_pair": None,
    "empty_rectangle": "grouped_turbot_fish",
    "x_chains": "x_chain",
    "xy_chains": "xy_chain",
    "nice_loops": "forcing_chain",
    "tabled_chains": None,
    "tabled_nets": None,
    "brute_force": None,
}
"""The pass's finders with names of their own, and the engine technique a configuration
must enable for them to be used (None: used by the default configuration only)."""
