"""Sue de Coq: two or three cells where a box meets a line, split between a line set and
a box set.

The crossing cells C hold a set V of at least |C| + 2 digits.  A set A of other cells
of the line and a set B of other cells of the box, whose digit sets VA and VB share
no digit, complete it when the cells of C, A and B together are as many as their
digits: a digit of VA fits at most once in C and A (one line) and never in B, one of
VB at most once in C and B, one only in V at most once in C; as many digits as cells
means each is there exactly once.  So the rest of the line loses V and VA but not VB,
and the rest of the box loses V and VB but not VA.

A and B are searched up to `MAX_SIDE_CELLS` cells each, among the cells holding a
digit of V and at most `MAX_SIDE_CELLS` - 1 others (a cell with more could not be
part of a set that completes C).
"""

from __future__ import annotations

from importlib.util import find_spec
from itertools import combinations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, crossings, unit_readers

SUE_DE_COQ_RATING = 5.0
MAX_SIDE_CELLS = 3


def _sides(cells: list[int], cand: list[int], v: int, need: int) -> list[tuple]:
    """The sets of `cells` that could join the crossing: (cells, digits, gain), gain =
    cells - digits outside V, between 1 and need - 1."""
    useful = [c for c in cells if cand[c] & v and (cand[c] & ~v).bit_count() < MAX_SIDE_CELLS]
    out = []
    for size in range(1, min(MAX_SIDE_CELLS, len(useful)) + 1):
        for group in combinations(useful, size):
            digits = 0
            for c in group:
                digits |= cand[c]
            gain = size - (digits & ~v).bit_count()
            if 1 <= gain < need:
                out.append((group, digits, gain))
    return out


def sue_de_coq(state: CandidateState) -> Step | None:
    """The first Sue de Coq in scan order (boxes, then the lines crossing them, then the
    crossing cells) that eliminates something.

    A crossing's answer reads the candidates of its box and line alone, and most
    searches follow a step that left most of them as they were: each crossing's
    answer is kept in the solve's memo by those candidates."""
    n = state.n
    cand = state.cand
    box_lines, _ = crossings(state.shape)
    table = state.memo.table("sue-de-coq", state.shape, 200)
    reads = unit_readers(state.shape)
    for b in range(n):
        box = 2 * n + b
        for line, in_box, _ in box_lines[b]:
            key = (box, line, reads[line](cand), reads[box](cand))
            step = table.get(key, _UNKNOWN)
            if step is _UNKNOWN:
                step = table[key] = _crossing(state, box, line, in_box)
            if step is not None:
                return step  # type: ignore[return-value]
    return None


_UNKNOWN = object()
"""A crossing not in the memo yet (its answer may be None)."""


def _crossing(state: CandidateState, box: int, line: int, in_box: int) -> Step | None:
    """The first Sue de Coq of one box and line (crossing cells in scan order)."""
    return (
        compiled_crossing(state, box, line, in_box)
        if COMPILED
        else searched_crossing(state, box, line, in_box)
    )


def _rests(state: CandidateState, box: int, line: int) -> tuple[list[int], list[int]]:
    """The open cells of the line outside the box, and of the box outside the line."""
    cand = state.cand
    units = state.shape.units
    line_rest = [c for c in units[line] if cand[c] and c not in units[box]]
    box_rest = [c for c in units[box] if cand[c] and c not in units[line]]
    return line_rest, box_rest


COMPILED = find_spec("numba") is not None
"""Whether the crossings are searched compiled (`sue_de_coq_kernel`): numba is installed."""


def compiled_crossing(state: CandidateState, box: int, line: int, in_box: int) -> Step | None:
    """`searched_crossing` by the compiled kernel, which finds the crossing cells; their
    step is built by the Python search (the same step)."""
    import numpy as np

    from solvers.human.techniques.static_kernel import geometry
    from solvers.human.techniques.sue_de_coq_kernel import first_crossing

    units = geometry(state.shape)[0]
    cand = state.derived("candidates-array", lambda st: np.array(st.cand, dtype=np.int64))
    found = first_crossing(cand, units[box], units[line], in_box)
    if found[0] < 0:
        return None
    crossing = tuple(int(c) for c in found if c >= 0)
    step = _complete(state, crossing, line, box, *_rests(state, box, line))
    if step is None:
        raise RuntimeError(f"the compiled Sue de Coq {crossing} eliminates nothing")
    return step


def searched_crossing(state: CandidateState, box: int, line: int, in_box: int) -> Step | None:
    """`_crossing`, searched in Python."""
    cand = state.cand
    box_cells = state.shape.units[box]
    inter = [box_cells[i] for i in bits(in_box) if cand[box_cells[i]]]
    if len(inter) < 2:
        return None
    line_rest, box_rest = _rests(state, box, line)
    for size in (2, 3):
        for crossing in combinations(inter, size):
            step = _complete(state, crossing, line, box, line_rest, box_rest)
            if step is not None:
                return step
    return None


def _complete(state, crossing, line, box, line_rest, box_rest) -> Step | None:
    """The first line set and box set completing `crossing` that eliminate something."""
    cand = state.cand
    v = 0
    for c in crossing:
        v |= cand[c]
    need = v.bit_count() - len(crossing)
    if need < 2:
        return None
    box_sides = _sides(box_rest, cand, v, need)
    if not box_sides:
        return None
    units = state.shape.units
    for a_cells, va, gain_a in _sides(line_rest, cand, v, need):
        for b_cells, vb, gain_b in box_sides:
            if va & vb or gain_a + gain_b != need:
                continue
            used = set(crossing) | set(a_cells) | set(b_cells)
            line_loses = (va | v) & ~vb
            box_loses = (vb | v) & ~va
            elims = []
            for c in units[line]:
                if c not in used:
                    elims += [(c, k + 1) for k in bits(cand[c] & line_loses)]
            for c in units[box]:
                if c not in used:
                    elims += [(c, k + 1) for k in bits(cand[c] & box_loses)]
            if not elims:
                continue
            elims = sorted(set(elims))
            sets = tuple(
                (tuple(cells), tuple(k + 1 for k in bits(ds)))
                for cells, ds in ((crossing, v), (a_cells, va), (b_cells, vb))
            )
            return Step(
                "sue_de_coq",
                (),
                tuple(elims),
                (*crossing, *a_cells, *b_cells),
                (line, box),
                tuple(sorted({d for _, d in elims})),
                SUE_DE_COQ_RATING,
                state.shape,
                detail=(sets, (), ()),
            )
    return None
