"""Tables and helpers the techniques share: peer bitmasks and cell sets as ints."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from solvers.grid import Shape

if TYPE_CHECKING:
    from solvers.human.state import CandidateState


@cache
def peer_masks(shape: Shape) -> tuple[int, ...]:
    """For each cell, its peers as a bitmask over cells (bit i = cell i)."""
    return tuple(sum(1 << p for p in peers) for peers in shape.peers)


@cache
def unit_masks(shape: Shape) -> tuple[int, ...]:
    """For each unit, its cells as a bitmask over cells."""
    return tuple(sum(1 << c for c in cells) for cells in shape.units)


def bits(mask: int) -> list[int]:
    """The set bit positions of a mask, ascending (cells of a cell set)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cells_with(state: CandidateState, digit: int) -> int:
    """The open cells that take `digit`, as a cell bitmask."""
    bit = 1 << (digit - 1)
    m = 0
    for cell, c in enumerate(state.cand):
        if c & bit:
            m |= 1 << cell
    return m


def eliminate_from(mask: int, digit: int) -> tuple[tuple[int, int], ...]:
    """Eliminations of `digit` from the cells of a mask."""
    return tuple((cell, digit) for cell in bits(mask))
