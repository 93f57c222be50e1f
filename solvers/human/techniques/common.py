"""Tables and helpers the techniques share: peer bitmasks and cell sets as ints."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from solvers.grid import Shape

if TYPE_CHECKING:
    from solvers.human.state import CandidateState
    from solvers.human.step import Step


@cache
def peer_masks(shape: Shape) -> tuple[int, ...]:
    """For each cell, its peers as a bitmask over cells (bit i = cell i)."""
    return tuple(sum(1 << p for p in peers) for peers in shape.peers)


@cache
def unit_cell_masks(shape: Shape) -> tuple[int, ...]:
    """For each unit, its cells as a bitmask over cells."""
    return tuple(sum(1 << c for c in cells) for cells in shape.units)


@cache
def boxes(shape: Shape) -> tuple[int, ...]:
    """For each cell, its box index."""
    return tuple(shape.box_of(c) for c in range(shape.ncells))


def _small_bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


_SMALL_BITS = tuple(_small_bits(m) for m in range(1 << 10))
"""`bits` of the masks below 1 << 10 (digit and place masks), looked up."""


def bits(mask: int) -> list[int]:
    """The set bit positions of a mask, ascending (cells of a cell set)."""
    if mask < 1024:
        return list(_SMALL_BITS[mask])
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bit_tuples(state: CandidateState) -> dict[int, tuple[int, ...]]:
    """The solve's memo of `bits` as tuples, by mask (digit masks repeat): read it with
    ``memo.get(mask) or bit_tuple(memo, mask)``."""
    return state.memo.table("bit-tuples", state.shape, 150)


def bit_tuple(memo: dict[int, tuple[int, ...]], mask: int) -> tuple[int, ...]:
    """`bits` of `mask` as a tuple, kept in `memo` (from `bit_tuples`)."""
    found = memo.get(mask)
    if found is None:
        found = memo[mask] = tuple(bits(mask))
    return found


def cells_with(state: CandidateState, digit: int) -> int:
    """The open cells that take `digit`, as a cell bitmask (memoised)."""
    return state.derived("with", _cells_with)[digit - 1]


def cells_with_each(state: CandidateState) -> list[int]:
    """`cells_with` of every digit, by digit - 1 (memoised; read it, never change it):
    one look-up where a technique wants them all."""
    return state.derived("with", _cells_with)


def _cells_with(state: CandidateState) -> list[int]:
    """`cells_with` of every digit, by digit - 1, from the rows' positions (a row's
    positions are its columns)."""
    n = state.n
    pos = state.unit_positions()
    rows = n * n
    out = []
    for k in range(n):
        m = 0
        for p in reversed(pos[k:rows:n]):
            m = m << n | p
        out.append(m)
    return out


def unit_masks(state: CandidateState) -> list[tuple[int, ...]]:
    """For each unit, its cells' candidate masks in the unit's order (memoised)."""
    return state.derived("unit-masks", _unit_masks)


def _unit_masks(state: CandidateState) -> list[tuple[int, ...]]:
    cand = state.cand
    return [read(cand) for read in unit_readers(state.shape)]


@cache
def unit_readers(shape: Shape) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """Per unit, a function reading its cells' candidate masks from a grid's list at once
    (in the unit's order: a key for what depends on the unit's candidates alone)."""
    return tuple(itemgetter(*cells) for cells in shape.units)


def fruitless(state: CandidateState, key: str, digit: int) -> bool:
    """Whether the one-digit search `key` found nothing on `digit` when the digit had
    the candidate cells it has now.

    Fish, turbots, X-chains and colouring read a single digit's candidates, and
    most steps change a few digits only; a search that came up empty stays
    empty until its digit changes, so the engine's rescans skip it."""
    return state.fruitless.get((key, digit)) == cells_with(state, digit)


def mark_fruitless(state: CandidateState, key: str, digit: int) -> None:
    """Record that `key` found nothing on `digit` at its present candidates."""
    state.fruitless[(key, digit)] = cells_with(state, digit)


Found = tuple[tuple[int, ...], "Step"] | None
"""A one-digit search's first step, with its place in the scan order, or None."""


def by_digit(state: CandidateState, key: str, search: Callable[[int], Found]) -> Step | None:
    """The first step of a scan whose steps each read one digit's places.

    `search(k)` gives digit k + 1's first step with its place in the scan order
    (or None); each digit's answer is kept with the digit's cells in
    `state.fruitless` and searched again only when they change.  The scan's
    first step is the digits' earliest."""
    marks = state.fruitless
    mkey = ("by_digit", key)
    old = marks.get(mkey)
    each = cells_with_each(state)
    best: Found = None
    kept: list[tuple[int, Found]] = []
    for k, cells in enumerate(each):
        found = old[k][1] if old is not None and old[k][0] == cells else search(k)
        kept.append((cells, found))
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    marks[mkey] = kept
    return None if best is None else best[1]


def unit_cells(shape: Shape, unit: int, positions: int) -> list[int]:
    """The cells of a unit at the given positions (a bitmask over the unit's indices)."""
    cells = shape.units[unit]
    return [cells[i] for i in bits(positions)]


@cache
def crossings(shape: Shape) -> tuple[tuple, tuple]:
    """Where boxes and lines meet, as position masks.

    ``box_lines[b]``: for box unit ``2n+b``, the rows then columns crossing it,
    as ``(line unit, positions in the box, positions in the line)``.
    ``line_boxes[u]``: for a row or column unit ``u``, the boxes it crosses, as
    ``(box unit, positions in the line, positions in the box)``.
    """
    n = shape.size
    units = shape.units
    index = [{c: i for i, c in enumerate(cells)} for cells in units]
    box_lines = []
    for b in range(n):
        box = 2 * n + b
        found = []
        for line in range(2 * n):
            common = set(units[box]) & set(units[line])
            if common:
                in_box = sum(1 << index[box][c] for c in common)
                in_line = sum(1 << index[line][c] for c in common)
                found.append((line, in_box, in_line))
        box_lines.append(tuple(found))
    line_boxes = []
    for line in range(2 * n):
        found = []
        for b in range(n):
            box = 2 * n + b
            common = set(units[box]) & set(units[line])
            if common:
                in_line = sum(1 << index[line][c] for c in common)
                in_box = sum(1 << index[box][c] for c in common)
                found.append((box, in_line, in_box))
        line_boxes.append(tuple(found))
    return tuple(box_lines), tuple(line_boxes)


def seen_by(peers: tuple[int, ...], cells: int) -> int:
    """The cells that see some cell of a cell set (`peers` from `peer_masks`)."""
    out = 0
    for c in bits(cells):
        out |= peers[c]
    return out


def eliminate_from(mask: int, digit: int) -> tuple[tuple[int, int], ...]:
    """Eliminations of `digit` from the cells of a mask."""
    return tuple((cell, digit) for cell in bits(mask))
