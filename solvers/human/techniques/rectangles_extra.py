"""Unique rectangles of types 5 and 6 and hidden rectangles (HoDoKu's; Sudoku Explainer lacks them).

As in `rectangles`, a *rectangle* is four open cells on two rows, two
columns and two boxes that all hold the digits a and b; were all four
reduced to ab, a and b could be swapped around it and the puzzle would have
two solutions.  Here the rectangle needs one corner holding exactly ab.

- type 5: the corners holding more than ab hold one extra digit x, the same
  in each, and they are two diagonal corners or three: one of them is x, so
  cells seeing all of them lose x (two corners in one line are type 2);
- type 6: two diagonal corners hold exactly ab, and a has no place in both
  rows (or in both columns) of the rectangle outside it: a in one of the
  other two corners would put a in the opposite one too and b in the two
  bivalue corners, a deadly pattern, so those two corners lose a (HoDoKu
  asks for both rows and both columns; one pair of lines is enough);
- hidden rectangle: one corner holds exactly ab, and a has no place outside
  the rectangle in the row and in the column of the opposite corner: were
  that corner b, a would fill the two corners beside it and b the bivalue
  corner, a deadly pattern, so the opposite corner loses b.

All three are sound only for puzzles with a unique solution.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, boxes, cells_with, peer_masks, unit_cell_masks
from solvers.human.techniques.rectangles import rectangle_step

RATING = 4.5  # Sudoku Explainer's unique rectangles of types 1, 2 and 4

Rectangle = tuple[tuple[int, int, int, int], int]
"""The corners (r1c1, r1c2, r2c1, r2c2 with r1 < r2, c1 < c2) and the mask of ab."""


def rectangles(state: CandidateState) -> list[Rectangle]:
    """Every rectangle with a corner holding exactly ab, in the order of rows r1 < r2,
    columns c1 < c2, then ab ascending (memoised)."""
    return state.derived("rectangles-any-floor", _find)


def _find(state: CandidateState) -> list[Rectangle]:
    n = state.n
    cand = state.cand
    box = boxes(state.shape)
    found: set[tuple[int, int, int, int, int]] = set()
    for cell, ab in enumerate(cand):
        if ab.bit_count() != 2:
            continue
        r, c = divmod(cell, n)
        for r2 in range(n):
            if r2 == r or cand[r2 * n + c] & ab != ab:
                continue
            for c2 in range(n):
                if c2 == c or cand[r * n + c2] & ab != ab or cand[r2 * n + c2] & ab != ab:
                    continue
                if len({box[cell], box[r2 * n + c], box[r * n + c2], box[r2 * n + c2]}) != 2:
                    continue
                found.add((min(r, r2), max(r, r2), min(c, c2), max(c, c2), ab))
    out = []
    for r1, r2, c1, c2, ab in sorted(found):
        out.append(((r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2), ab))
    return out


def _step(state, name, corners, ab, elims, detail) -> Step:
    return rectangle_step(state, name, RATING, corners, ab, elims, detail)


def unique_rectangle_5(state: CandidateState) -> Step | None:
    """Type 5: two diagonal corners or three hold ab plus the same one digit x; cells seeing
    every such corner lose x."""
    cand = state.cand
    peers = peer_masks(state.shape)
    for corners, ab in rectangles(state):
        extra = 0
        for c in corners:
            extra |= cand[c]
        extra &= ~ab
        if extra.bit_count() != 1:
            continue
        roof = [c for c in corners if cand[c] & extra]
        if len(roof) < 2:
            continue  # type 1
        if len(roof) == 2 and roof != [corners[1], corners[2]] and roof != [corners[0], corners[3]]:
            continue  # two corners in one line: type 2
        x = extra.bit_length()
        targets = cells_with(state, x)
        for c in roof:
            targets &= peers[c]
        if targets:
            elims = [(t, x) for t in bits(targets)]
            return _step(state, "unique_rectangle_5", corners, ab, elims, (x, tuple(roof)))
    return None


def _locked_in(state: CandidateState, digit: int, lines: list[tuple[int, int]]) -> bool:
    """Whether `digit` has no place in each line (a row or column, given as the pair of
    rectangle cells in it) but those two cells."""
    n = state.n
    unit_cells = unit_cell_masks(state.shape)
    with_digit = cells_with(state, digit)
    for a, b in lines:
        unit = state.shape.cell_units[a][0 if a // n == b // n else 1]
        if with_digit & ~(1 << a | 1 << b) & unit_cells[unit]:
            return False
    return True


def unique_rectangle_6(state: CandidateState) -> Step | None:
    """Type 6: two diagonal corners hold only ab and a is locked in the rectangle in both its
    rows or both its columns: the other two corners lose a."""
    cand = state.cand
    for corners, ab in rectangles(state):
        tl, tr, bl, br = corners
        for floor, roof in (((tl, br), (tr, bl)), ((tr, bl), (tl, br))):
            if cand[floor[0]] != ab or cand[floor[1]] != ab:
                continue
            if cand[roof[0]] == ab or cand[roof[1]] == ab:
                continue  # three bivalue corners: type 1
            for a in (d + 1 for d in bits(ab)):
                rows = [(tl, tr), (bl, br)]
                cols = [(tl, bl), (tr, br)]
                for kind, lines in (("rows", rows), ("columns", cols)):
                    if _locked_in(state, a, lines):
                        elims = [(c, a) for c in roof]
                        detail = (a, floor, kind)
                        return _step(state, "unique_rectangle_6", corners, ab, elims, detail)
    return None


def hidden_rectangle(state: CandidateState) -> Step | None:
    """A corner holds only ab and a is locked in the rectangle in the row and the column of
    the opposite corner: that corner loses b."""
    cand = state.cand
    for corners, ab in rectangles(state):
        tl, tr, bl, br = corners
        for corner, opposite, row, col in (
            (tl, br, (bl, br), (tr, br)),
            (tr, bl, (bl, br), (tl, bl)),
            (bl, tr, (tl, tr), (tr, br)),
            (br, tl, (tl, tr), (tl, bl)),
        ):
            if cand[corner] != ab:
                continue
            for a in (d + 1 for d in bits(ab)):
                if _locked_in(state, a, [row, col]):
                    b = (ab & ~(1 << (a - 1))).bit_length()
                    return _step(
                        state, "hidden_rectangle", corners, ab, [(opposite, b)], (a, corner)
                    )
    return None
