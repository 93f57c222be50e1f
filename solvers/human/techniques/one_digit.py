"""Which candidates of a digit nishio refutes, digit by digit.

A nishio branch assumes on(c, d) and follows digit d alone: d goes off in c's
peers, and a unit left with one place for d (holding no on fact for it) puts d
on there (`Closure.facts(node, links=False)`).  Its rules only ever add facts, and a
rule that fires on some facts fires on more (or finds a contradiction), so the
branch of a cell the branch of c puts d on holds a part of c's facts: when c's
branch ends without a contradiction, so do theirs.  Following each candidate's
branch to its end state and skipping the cells already put on in a consistent
one gives the same answers as following every cell's branch, for
fewer branches.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

from solvers.grid import Shape
from solvers.human.techniques.closure import tables

if TYPE_CHECKING:
    from solvers.human.state import CandidateState


def conflicting_cells(state: CandidateState, places: int, placed: int, cells: int) -> int:
    """Of `cells` (a cell bitmask), those whose nishio branch of on(cell, d) reaches a
    contradiction, as a bitmask, for a digit d taken by the cells `places` and placed
    in the units `placed` (bitmasks), on `state`'s grid shape.

    The answer depends on the digit's places and placed units alone, which most steps
    leave as they were: it is kept in the solve's memo (`state.memo`)."""
    shape = state.shape
    memo = state.memo.table("nishio-refuted", shape, 3 * shape.ncells // 8 + 150)
    key = (places, placed, cells)
    found = memo.get(key)
    if found is None:
        if COMPILED:
            found = memo[key] = compiled_conflicts(shape, places, placed, cells)
        else:
            found = memo[key] = searched_conflicts(shape, places, placed, cells)
    return found


COMPILED = find_spec("numba") is not None
"""Whether the branches are followed compiled (`one_digit_kernel`): numba is installed."""


def compiled_conflicts(shape: Shape, places: int, placed: int, cells: int) -> int:
    """`searched_conflicts` by the compiled kernel: the same cells."""
    import numpy as np

    from solvers.human.techniques.one_digit_kernel import conflicting_cells, geometry

    units, cell_units, peers = geometry(shape)
    size = 8 * peers.shape[1]
    bad = conflicting_cells(
        np.frombuffer(places.to_bytes(size, "little"), dtype="<u8"),
        np.array([placed >> u & 1 for u in range(len(units))], dtype=np.bool_),
        np.frombuffer(cells.to_bytes(size, "little"), dtype="<u8"),
        units,
        cell_units,
        peers,
    )
    return int.from_bytes(bad.tobytes(), "little")


def searched_conflicts(shape: Shape, places: int, placed: int, cells: int) -> int:
    """`conflicting_cells` worked out in Python, without the memo."""
    _, peer_masks, cell_units = tables(shape)
    return _conflicting_cells(peer_masks, cell_units, places, placed, cells)


def _conflicting_cells(peer_masks, cell_units, places: int, placed: int, cells: int) -> int:
    """`conflicting_cells`, worked out."""
    safe = 0
    bad = 0
    todo = cells
    while todo:
        low = todo & -todo
        todo ^= low
        if safe & low:
            continue
        on = _on_cells(peer_masks, cell_units, places, placed, low.bit_length() - 1)
        if on is None:
            bad |= low
        else:
            safe |= on
    return bad


def _on_cells(peer_masks, cell_units, places: int, placed: int, cell: int) -> int | None:
    """The cells the nishio branch of on(cell, d) puts d on, or None when it reaches a
    contradiction (the nishio branch of `Closure.facts`, cut to one digit)."""
    left = places
    on = 0
    pending = [cell]
    while pending:
        fresh = 0
        for c in pending:
            b = 1 << c
            if on & b:
                continue
            if not left & b:
                return None  # on and off
            on |= b
            pm = peer_masks[c] & left
            if on & pm:
                return None
            left ^= pm
            fresh |= pm
        pending = []
        seen = placed
        while fresh:
            low = fresh & -fresh
            fresh ^= low
            for ub, um in cell_units[low.bit_length() - 1]:
                if seen & ub:
                    continue
                seen |= ub
                if on & um:
                    continue
                p = left & um
                if not p:
                    return None  # no place left for the digit
                if not p & (p - 1):
                    pending.append(p.bit_length() - 1)
    return on
