"""Finned and sashimi fish: X-Wing, Swordfish and Jellyfish with fins.

A digit's places in k base lines (rows, or columns) fit in k cover lines
except for some *fin* cells, all inside one box.  Either a fin holds the
digit, or the base lines hold its k copies in the cover lines (a basic fish)
and the cover lines' other cells lose it.  Cells of the cover lines that lose
the digit both ways are those that also see every fin: the cover lines' cells
inside the fins' box, outside the base lines.

The fish is *sashimi* when, without its fins, a base line keeps only one place
in the cover (the basic fish would miss a corner).  Sudoku Explainer has
neither; HoDoKu rates both, sashimi higher.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with, fruitless, mark_fruitless

SIZES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def name(k: int, sashimi: bool) -> str:
    """The technique name of a finned (or sashimi) fish of size k."""
    return ("sashimi_" if sashimi else "finned_") + SIZES[k]


def finned_fish(state: CandidateState, k: int, sashimi: bool, rating: float) -> Step | None:
    """The first finned fish of size k (sashimi or not, as asked): digits ascending,
    rows as base before columns."""
    key = name(k, sashimi)
    for d in range(1, state.n + 1):
        if fruitless(state, key, d):
            continue
        for rows in (True, False):
            found = _first_fish(state, d, rows, k)[sashimi]
            if found is not None:
                elims, cells, units, fins = found
                return Step(key, (), elims, cells, units, (d,), rating, state.shape, detail=(fins,))
        mark_fruitless(state, key, d)
    return None


Found = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A fish's eliminations, cells, units and fin cells."""


def _first_fish(
    state: CandidateState, d: int, rows: bool, k: int
) -> tuple[Found | None, Found | None]:
    """The first finned and the first sashimi fish of size k on digit d (base lines rows
    or columns), from the solve's memo: both read the digit's cells alone, and the
    finned and the sashimi finders ask in turn at the same state."""
    table = state.memo.table("finned-fish", state.shape, 400)
    key = (k, d, rows, cells_with(state, d))
    found = table.get(key)
    if found is None:
        if COMPILED and state.n <= KERNEL_MAX_SIZE:
            found = table[key] = compiled_search(state, d, rows, k)
        else:
            found = table[key] = python_search(state, d, rows, k)
    return found


COMPILED = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)
"""Whether the finned fish are searched compiled (`wing_kernel.fish_search`): numba is
installed."""

KERNEL_MAX_SIZE = 16  # the largest grid side the kernel takes (`wing_kernel.MAX_SIZE`)


def _frame(
    state: CandidateState, d: int, rows: bool
) -> tuple[int, int, list[int], int, int, int, int]:
    """What both routes read: the side, the digit's index, the places per unit and digit,
    the base and cover lines' first unit, the base lines per box band and the places per
    box segment along a base line."""
    shape = state.shape
    n = state.n
    first, other = (0, n) if rows else (n, 0)
    band, seg = (shape.box_rows, shape.box_cols) if rows else (shape.box_cols, shape.box_rows)
    return n, d - 1, state.unit_positions(), first, other, band, seg


def python_search(
    state: CandidateState, d: int, rows: bool, k: int
) -> tuple[Found | None, Found | None]:
    """The first finned and the first sashimi fish, in the scan order (lines, bands,
    fin boxes, covers)."""
    n, j, pos, first, other, band, seg = _frame(state, d, rows)
    most = k + seg  # more places than this: no fin box can absorb the rest
    lines = [
        (i, pos[(first + i) * n + j])
        for i in range(n)
        if 2 <= pos[(first + i) * n + j].bit_count() <= most
    ]
    out: list[Found | None] = [None, None]  # finned, sashimi
    segments = [((1 << seg) - 1) << (s * seg) for s in range(n // seg)]
    for combo in combinations(lines, k):
        for b in sorted({i // band for i, _ in combo}):
            outside = 0  # the places of the lines outside the band: all must be covered
            joined = 0  # the places of the lines inside it
            for i, p in combo:
                if i // band == b:
                    joined |= p
                else:
                    outside |= p
            if outside.bit_count() > k:
                continue  # (no fin box of the band can take the rest)
            for box in segments:
                rest = outside | joined & ~box  # the places outside the fin box
                need = k - rest.bit_count()
                if need < 0:
                    continue
                inside = joined & box
                for extra in combinations(bits(inside & ~rest), need):
                    cover = rest | sum(1 << x for x in extra)
                    fins = inside & ~cover
                    if not fins or not cover & box:
                        continue
                    kept = min((p & cover).bit_count() for _, p in combo)
                    if kept == 0 or out[kept == 1] is not None:
                        continue
                    found = _found(state, d, rows, combo, b, box, cover)
                    if found is not None:
                        out[kept == 1] = found
                        if out[0] is not None and out[1] is not None:
                            return out[0], out[1]
    return out[0], out[1]


def _found(
    state: CandidateState,
    d: int,
    rows: bool,
    combo: Sequence[tuple[int, int]],
    b: int,
    box: int,
    cover: int,
) -> Found | None:
    """The fish of base lines `combo` (line, places), fins in band b's box `box`, cover
    `cover` (as position masks), if it eliminates something."""
    n, j, pos, first, other, band, _ = _frame(state, d, rows)
    joined = 0
    for i, p in combo:
        if i // band == b:
            joined |= p
    fins = joined & box & ~cover
    base = sum(1 << i for i, _ in combo)
    band_lines = ((1 << band) - 1) << (b * band)
    elims = [
        (_cell(rows, line, x, n), d)
        for x in bits(cover & box)
        for line in bits(pos[(other + x) * n + j] & band_lines & ~base)
    ]
    if not elims:
        return None
    fin_cells = tuple(
        sorted(_cell(rows, i, x, n) for i, p in combo if i // band == b for x in bits(p & fins))
    )
    cells = sorted(_cell(rows, i, x, n) for i, p in combo for x in bits(p))
    units = tuple(first + i for i, _ in combo) + tuple(other + x for x in bits(cover))
    return (tuple(sorted(elims)), tuple(cells), units, fin_cells)


def compiled_search(
    state: CandidateState, d: int, rows: bool, k: int
) -> tuple[Found | None, Found | None]:
    """`python_search` by the compiled scan (`wing_kernel.fish_search`), which finds the same
    fish; built by `_found`."""
    import numpy as np

    from solvers.human.techniques.wing_kernel import fish_search

    n, j, pos, first, other, band, seg = _frame(state, d, rows)
    lines = np.array(pos[first * n + j : (first + n) * n : n], dtype=np.int64)
    crossing = np.array(pos[other * n + j : (other + n) * n : n], dtype=np.int64)
    found = fish_search(lines, crossing, k, band, seg).tolist()
    out: list[Found | None] = [None, None]
    for kind, (base, b, s, cover) in enumerate(found):
        if base >= 0:
            combo = [(i, pos[(first + i) * n + j]) for i in bits(base)]
            box = ((1 << seg) - 1) << (s * seg)
            out[kind] = _found(state, d, rows, combo, b, box, cover)
            if out[kind] is None:
                raise RuntimeError(f"the compiled fish {found[kind]} eliminates nothing")
    return out[0], out[1]


def _cell(rows: bool, line: int, index: int, n: int) -> int:
    """The cell at position `index` of base line `line` (a row when `rows`)."""
    return line * n + index if rows else index * n + line
