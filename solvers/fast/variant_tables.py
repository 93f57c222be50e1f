"""A variant puzzle's rules as the arrays `variant_kernels` reads.

Each kind the ``fast`` solver takes becomes one of three mechanisms:

- *units*: groups of N cells that hold every digit once (rows, columns, the
  boxes or the jigsaw regions that replace them, whole extra regions,
  diagonals, disjoint groups); each gets hidden singles;
- *peers*: pairs of cells that hold different digits (every unit above, and
  shorter distinct groups: extra regions and killer cages under N cells,
  anti-knight and anti-king moves), kept per cell as one flat list (a placed
  digit leaves its peers) and as a bitset (the cells that see all of a
  unit's places for a digit lose it).  Non-consecutive neighbours are a second list:
  placing ``d`` removes ``d-1`` and ``d+1`` from them.  Parity sets the
  initial candidates;
- *combination masks*: per killer cage with a sum, every set of distinct
  digits of the cage's size with that sum (`combinations`), as bitmasks.

Lists per cell or per cage are flat arrays with offsets (``start[i]`` to
``start[i + 1]``), so a cell with many peers costs no padding elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from solvers.grid import Grid
from solvers.variants import (
    AntiKing,
    AntiKnight,
    Constraint,
    ExtraRegion,
    Killer,
    NonConsecutive,
    Parity,
    distinct_groups,
    houses,
    jigsaw,
)
from solvers.variants.constraints import KING, KNIGHT, ORTHOGONAL, pairs

BITS = 63
"""Cells per word of a peer bitset."""


@dataclass(frozen=True)
class VariantTables:
    """One puzzle's rules as arrays (see the module docstring)."""

    size: int
    box_rows: int
    box_cols: int
    boxes: bool  # the boxes are units (no jigsaw): the box/line rules apply
    initial: np.ndarray  # ncells: candidates before the givens (parity)
    units: np.ndarray  # nunits x N
    peer_start: np.ndarray
    peers: np.ndarray
    peer_bits: np.ndarray  # ncells x words: each cell's peers as bits (`BITS` cells a word)
    near_start: np.ndarray  # non-consecutive neighbours
    near: np.ndarray
    cage_start: np.ndarray  # cells of the killer cages with a sum
    cage_cells: np.ndarray
    combo_start: np.ndarray  # their digit sets
    combos: np.ndarray


@cache
def combinations(size: int, cells: int, total: int) -> tuple[int, ...]:
    """Every set of `cells` distinct digits 1..`size` summing to `total`, as bitmasks
    (bit ``d-1`` for digit ``d``), in increasing order."""
    found: list[int] = []

    def extend(low: int, left: int, rest: int, mask: int) -> None:
        if left == 0:
            if rest == 0:
                found.append(mask)
            return
        for d in range(low, size + 1):
            smallest = left * (2 * d + left - 1) // 2  # d, d+1, ... left digits
            if smallest > rest:
                return
            largest = left * (2 * size - left + 1) // 2
            if largest < rest:
                return
            extend(d + 1, left - 1, rest - d, mask | 1 << (d - 1))

    extend(1, cells, total, 0)
    return tuple(sorted(found))


def _flat(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Lists as (offsets, values) int32 arrays."""
    start = np.zeros(len(lists) + 1, dtype=np.int32)
    start[1:] = np.cumsum([len(x) for x in lists])
    values = np.array([v for x in lists for v in x], dtype=np.int32)
    return start, values


def _neighbours(pairs_: frozenset[frozenset[int]], ncells: int) -> list[set[int]]:
    found: list[set[int]] = [set() for _ in range(ncells)]
    for pair in pairs_:
        a, b = tuple(pair)
        found[a].add(b)
        found[b].add(a)
    return found


def variant_tables(grid: Grid) -> VariantTables:
    """The arrays for `grid`'s constraints, of the kinds ``FastSolver.constraint_kinds``
    lists (the solver refuses the others before this runs)."""
    n, ncells = grid.size, len(grid.cells)
    full = (1 << n) - 1
    odd = sum(1 << d for d in range(0, n, 2))  # digits 1, 3, 5 ...
    layout = tuple(c for c in grid.constraints if not isinstance(c, ExtraRegion | Killer | Parity))
    base = _layout(grid.box_rows, grid.box_cols, layout)
    groups: list[tuple[int, ...]] = []
    initial = np.full(ncells, full, dtype=np.int32)
    cages: list[list[int]] = []
    combos: list[list[int]] = []
    for c in grid.constraints:
        if isinstance(c, ExtraRegion | Killer):
            groups.append(c.cells)
            if isinstance(c, Killer) and c.total is not None:
                cages.append(list(c.cells))
                combos.append(list(combinations(n, len(c.cells), c.total)))
        elif isinstance(c, Parity):
            initial[c.cell] &= odd if c.parity == "odd" else full & ~odd
    units, peer_start, peer_values, peer_bits = base.units, base.peer_start, base.peers, base.bits
    if groups:
        member = np.zeros((ncells, len(groups)), dtype=np.float32)  # cell in group
        member[[c for g in groups for c in g], [k for k, g in enumerate(groups) for _ in g]] = 1
        tied = base.tied | (member @ member.T > 0)
        np.fill_diagonal(tied, False)
        peer_start, peer_values, peer_bits = _adjacency(tied)
        whole = [g for g in groups if len(g) == n]
        if whole:
            units = np.concatenate([units, np.array(whole, dtype=np.int32)])
    cage_start, cage_cells = _flat(cages)
    combo_start, combo_values = _flat(combos)
    for a in (initial, units, peer_start, peer_values, peer_bits, cage_start, cage_cells):
        a.setflags(write=False)  # as the shared ones: numba compiles one version for both
    combo_values.setflags(write=False)
    combo_start.setflags(write=False)
    return VariantTables(
        size=n,
        box_rows=grid.box_rows,
        box_cols=grid.box_cols,
        boxes=base.boxes,
        initial=initial,
        units=units,
        peer_start=peer_start,
        peers=peer_values,
        peer_bits=peer_bits,
        near_start=base.near_start,
        near=base.near,
        cage_start=cage_start,
        cage_cells=cage_cells,
        combo_start=combo_start,
        combos=combo_values,
    )


@dataclass(frozen=True)
class Layout:
    """The part of the tables many puzzles share: the rules without cells of their own
    (jigsaw regions, diagonals, disjoint groups, anti-knight, anti-king, non-consecutive)."""

    boxes: bool
    units: np.ndarray
    tied: np.ndarray  # ncells x ncells: True for peers
    peer_start: np.ndarray
    peers: np.ndarray
    bits: np.ndarray
    near_start: np.ndarray
    near: np.ndarray


@lru_cache(maxsize=64)  # a jigsaw corpus brings a new layout per puzzle
def _layout(box_rows: int, box_cols: int, layout: tuple[Constraint, ...]) -> Layout:
    """The shared tables for a box shape and the rules without cells (cached)."""
    n = box_rows * box_cols
    ncells = n * n
    grid = Grid(box_rows, box_cols, (0,) * ncells).with_constraints(layout)
    units = list(houses(grid))
    groups = [cells for _, cells in distinct_groups(grid)]
    peer_sets: list[set[int]] = [set() for _ in range(ncells)]
    for group in [*units, *groups]:
        for cell in group:
            peer_sets[cell].update(group)
    units += [g for g in groups if len(g) == n]
    near: list[set[int]] = [set() for _ in range(ncells)]
    for c in layout:
        if isinstance(c, AntiKnight | AntiKing):
            steps = KNIGHT if isinstance(c, AntiKnight) else KING
            for cell, others in enumerate(_neighbours(pairs(n, steps), ncells)):
                peer_sets[cell] |= others
        elif isinstance(c, NonConsecutive):
            near = _neighbours(pairs(n, ORTHOGONAL), ncells)
    tied = np.zeros((ncells, ncells), dtype=bool)
    for cell, others in enumerate(peer_sets):
        tied[cell, list(others)] = True
    np.fill_diagonal(tied, False)
    peer_start, peers, bits = _adjacency(tied)
    near_start, near_values = _flat([sorted(s) for s in near])
    arrays = (
        np.array(units, dtype=np.int32),
        tied,
        peer_start,
        peers,
        bits,
        near_start,
        near_values,
    )
    for a in arrays:
        a.setflags(write=False)
    return Layout(jigsaw(grid) is None, *arrays)


def _adjacency(tied: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A peer matrix as (offsets, peers) int32 arrays, each cell's peers in order, and as
    bitsets: `BITS` cells per int64 word (the sign bit unused, so shifts stay exact)."""
    ncells = len(tied)
    start = np.zeros(ncells + 1, dtype=np.int32)
    start[1:] = np.cumsum(tied.sum(axis=1))
    words = -(-ncells // BITS)
    padded = np.zeros((ncells, words * BITS), dtype=np.int64)
    padded[:, :ncells] = tied
    bits = (padded.reshape(ncells, words, BITS) << np.arange(BITS, dtype=np.int64)).sum(axis=2)
    return start, np.nonzero(tied)[1].astype(np.int32), bits
