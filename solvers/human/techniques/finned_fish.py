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

from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, fruitless, mark_fruitless

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
            step = _search(state, d, rows, k, sashimi, rating)
            if step is not None:
                return step
        mark_fruitless(state, key, d)
    return None


def _search(
    state: CandidateState, d: int, rows: bool, k: int, sashimi: bool, rating: float
) -> Step | None:
    shape = state.shape
    n = state.n
    j = d - 1
    pos = state.unit_positions()
    first, other = (0, n) if rows else (n, 0)
    # base lines per box band, and positions per box segment along a base line
    band, seg = (shape.box_rows, shape.box_cols) if rows else (shape.box_cols, shape.box_rows)
    most = k + seg  # more places than this: no fin box can absorb the rest
    lines = [
        (i, pos[(first + i) * n + j])
        for i in range(n)
        if 2 <= pos[(first + i) * n + j].bit_count() <= most
    ]
    for combo in combinations(lines, k):
        base = sum(1 << i for i, _ in combo)
        for b in sorted({i // band for i, _ in combo}):
            in_band = [(i, p) for i, p in combo if i // band == b]
            for s in range(n // seg):
                box = ((1 << seg) - 1) << (s * seg)
                rest = 0  # the places outside the fin box: all must be covered
                for i, p in combo:
                    rest |= p & ~box if i // band == b else p
                need = k - rest.bit_count()
                if need < 0:
                    continue
                inside = 0
                for _, p in in_band:
                    inside |= p & box
                for extra in combinations(bits(inside & ~rest), need):
                    cover = rest | sum(1 << x for x in extra)
                    fins = inside & ~cover
                    if not fins or not cover & box:
                        continue
                    kept = [(p & cover).bit_count() for _, p in combo]
                    if min(kept) == 0 or (min(kept) == 1) != sashimi:
                        continue
                    band_lines = ((1 << band) - 1) << (b * band)
                    elims = [
                        (_cell(rows, line, x, n), d)
                        for x in bits(cover & box)
                        for line in bits(pos[(other + x) * n + j] & band_lines & ~base)
                    ]
                    if elims:
                        fin_cells = tuple(
                            sorted(_cell(rows, i, x, n) for i, p in in_band for x in bits(p & fins))
                        )
                        cells = sorted(_cell(rows, i, x, n) for i, p in combo for x in bits(p))
                        units = tuple(first + i for i, _ in combo) + tuple(
                            other + x for x in bits(cover)
                        )
                        return Step(
                            name(k, sashimi),
                            (),
                            tuple(sorted(elims)),
                            tuple(cells),
                            units,
                            (d,),
                            rating,
                            shape,
                            detail=(fin_cells,),
                        )
    return None


def _cell(rows: bool, line: int, index: int, n: int) -> int:
    """The cell at position `index` of base line `line` (a row when `rows`)."""
    return line * n + index if rows else index * n + line
