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

from typing import TYPE_CHECKING

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
        _, peer_masks, cell_units = tables(shape)
        found = memo[key] = _conflicting_cells(peer_masks, cell_units, places, placed, cells)
    return found


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
