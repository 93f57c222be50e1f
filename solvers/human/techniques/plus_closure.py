"""What the (+) forcing chains' branches can hold at most, for every seed at once (numba).

A branch of ``dynamic_forcing_chain_plus`` follows singles and, when they run dry, locked
candidates, hidden pairs, naked pairs and X-Wings (`inner_rules`), recording each fact's
causes.  Most branches of a search end with nothing to conclude, and the search only
needs, per seed, whether its branch can end in a contradiction and which facts it can
share with the branches of the same cell, unit or candidate.

Here every seed's branch is closed under *stronger* rules, without causes: singles,
every locked candidate (all places of a digit in a unit inside another unit clear it
from the rest of that unit), every hidden and naked pair and every X-Wing, none of the
restrictions Sudoku Explainer puts on them.  These rules only ever add facts, and a rule
that holds on some candidates still holds (or has its conclusion follow by singles)
once more of them are gone; so the closure holds every fact the real branch holds, and
meets a contradiction whenever the real branch does.  The search follows, fact by fact,
only the branches whose closures end in a contradiction or share a fact with their
partners (`forcing.search_chains`); what it concludes is unchanged.

The closures run compiled when numba is installed (the ``fast`` extra); without it
`plus_ends` returns None and every branch is followed, as before.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

from solvers.grid import Shape
from solvers.human.state import CandidateState

AVAILABLE = (
    importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
)


def plus_ends(state: CandidateState) -> dict[int, int | None] | None:
    """Per seed (a node as in `branches.Context`: on for every candidate of an open cell
    with two or more, off for those of cells with three or more), its closure's facts as a
    bitmask over nodes (bit ``node``), or None when the closure meets a contradiction;
    memoised per state.  None without numba."""
    if not AVAILABLE:
        return None
    return state.derived("forcing-plus-ends", _compute)


def _compute(state: CandidateState) -> dict[int, int | None]:
    import numpy as np

    from solvers.human.techniques.plus_kernel import close_all

    n = state.n
    shape = state.shape
    off_base = shape.ncells * n
    seeds = []
    for cell, m in enumerate(state.cand):
        if m & (m - 1):
            wide = m.bit_count() > 2
            for k in range(n):
                if m >> k & 1:
                    seeds.append(cell * n + k)
                    if wide:
                        seeds.append(off_base + cell * n + k)
    if not seeds:
        return {}
    units, cell_units, peers, in_unit, crossings = _geometry_arrays(shape)
    cand = np.array(
        [m if not v else 1 << (v - 1) for m, v in zip(state.cand, state.values, strict=True)],
        dtype=np.int64,
    )
    done = np.array([v != 0 for v in state.values], dtype=np.bool_)
    nwords = (2 * off_base + 63) // 64
    facts, failed = close_all(
        cand,
        done,
        np.array(seeds, dtype=np.int64),
        units,
        cell_units,
        peers,
        in_unit,
        crossings,
        n,
        nwords,
    )
    out: dict[int, int | None] = {}
    for i, seed in enumerate(seeds):
        out[seed] = None if failed[i] else int.from_bytes(facts[i].tobytes(), "little")
    return out


@cache
def _geometry_arrays(shape: Shape) -> tuple[Any, ...]:
    """The shape's units (cells per unit), each cell's units (row, column, box), its
    peers, which unit holds which cell, and the pairs of units sharing two cells or more
    (the crossings of a box and a line), as NumPy arrays for the kernel."""
    import numpy as np

    units = np.array(shape.units, dtype=np.int64)
    cell_units = np.array(shape.cell_units, dtype=np.int64)
    peers = np.array([sorted(p) for p in shape.peers], dtype=np.int64)
    in_unit = np.zeros((len(shape.units), shape.ncells), dtype=np.bool_)
    for u, cells in enumerate(shape.units):
        in_unit[u, list(cells)] = True
    sets = [set(cells) for cells in shape.units]
    crossings = np.array(
        [
            (u, v)
            for u, a in enumerate(sets)
            for v, b in enumerate(sets)
            if u != v and len(a & b) >= 2
        ],
        dtype=np.int64,
    ).reshape(-1, 2)
    return units, cell_units, peers, in_unit, crossings
