"""Singles: a unit with one open cell, a digit with one place in a unit, a cell with one candidate.

These read the queues the candidate state keeps (so no scan of the grid is
needed), skipping entries that later changes made stale.  Ties go to the
lowest unit, digit or cell index, so the choice does not depend on history.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step

BOX_RATING = 1.2
LINE_RATING = 1.5


def full_house(state: CandidateState) -> Step | None:
    """The last open cell of a row, column or box takes the missing digit."""
    pending = state.full
    while pending:
        u = min(pending)
        if state.free[u] != 1:
            pending.discard(u)
            continue
        cell = state.open_cells(u)[0]
        digit = (state.full_mask & ~state.placed[u]).bit_length()
        return Step("full_house", ((cell, digit),), (), (cell,), (u,), (digit,), 1.0, state.shape)
    return None


def _hidden(state: CandidateState, pending: set[int], rating: float) -> Step | None:
    n = state.n
    while pending:
        i = min(pending)
        u, k = divmod(i, n)
        if state.count[i] != 1 or state.placed[u] >> k & 1:
            pending.discard(i)
            continue
        digit = k + 1
        cell = state.positions(u, digit)[0]
        return Step(
            "hidden_single", ((cell, digit),), (), (cell,), (u,), (digit,), rating, state.shape
        )
    return None


def hidden_single(state: CandidateState) -> Step | None:
    """A digit with one place left in a unit goes there (boxes first: they are easier to see)."""
    return _hidden(state, state.hidden_box, BOX_RATING) or _hidden(
        state, state.hidden_line, LINE_RATING
    )


def naked_single(state: CandidateState) -> Step | None:
    """A cell with one candidate left takes it."""
    pending = state.naked
    cand = state.cand
    while pending:
        cell = min(pending)
        m = cand[cell]
        if not m or m & (m - 1):
            pending.discard(cell)
            continue
        digit = m.bit_length()
        return Step("naked_single", ((cell, digit),), (), (cell,), (), (digit,), 2.3, state.shape)
    return None
