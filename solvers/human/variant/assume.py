"""Contradictions: assume a candidate, follow what it forces, remove it when that fails.

The variant engine's last resort, generic over every rule it takes (no chain
notation to learn for knights' moves or cages): for each open candidate in
reading order, place it on a copy of the candidates and propagate; a
contradiction (a cell without candidates, a house without a place for a
digit, a cage that no digits fill) proves the candidate false.

- ``nishio_singles`` (7.5, Sudoku Explainer's nishio): the copy follows the
  singles, the non-consecutive rule and the cage combinations;
- ``nishio_net`` (9.0, as Sudoku Explainer's dynamic forcing chains with
  locked candidates): the copy also follows the intersections (pointing,
  claiming, house pointing).

One step removes every candidate of the scan that fails, each on its own
contradiction (``detail`` holds one ``(cell, digit, reason)`` for each).
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.human.state import digits
from solvers.human.step import Step
from solvers.human.techniques.branches import check_time
from solvers.human.variant import killer
from solvers.human.variant.state import VariantState


def settle(state: VariantState) -> None:
    """Apply singles, the non-consecutive rule and cage combinations until nothing changes
    or a contradiction appears (on `state`, a copy)."""
    board = state.board
    values, cand = state.values, state.cand
    house_bits = board.house_bits
    while state.contradiction is None and state.empty:
        before = state.changes
        for cell in range(len(cand)):
            m = cand[cell]
            if m and not m & (m - 1):
                state.place(cell, m.bit_length())
        for cell, v in enumerate(values):
            if v:
                for p in board.neighbours[cell]:
                    if v > 1:
                        state.eliminate(p, v - 1)
                    if v < state.n:
                        state.eliminate(p, v + 1)
        open_cells, holding = state.digit_cells()
        for u, house in enumerate(house_bits):
            for k in range(state.n):
                if house & holding[k]:
                    continue
                where = house & open_cells[k]
                if not where:
                    state.fail(f"no place for {k + 1} in {state.shape.unit_name(u)}")
                    return
                if not where & (where - 1):
                    state.place(where.bit_length() - 1, k + 1)
        for cage in board.cages:
            masks = killer.masks(state, cage.cells)
            sets, possible = killer.cage_options(masks, cage.total, state.n)
            if not sets:
                state.fail(f"no digits left for {cage.name}")
                return
            for c, p in zip(cage.cells, possible, strict=True):
                for d in digits(cand[c] & ~p):
                    state.eliminate(c, d)
        if state.changes == before:
            return


def _net(state: VariantState) -> None:
    """`settle`, then the other techniques of the engine short of a contradiction, one step
    at a time with `settle` between them, until none applies or a contradiction appears."""
    from solvers.human.variant.engine import BASIC, SETTLED

    rest = [find for name, find in BASIC if name not in SETTLED]
    settle(state)
    while state.contradiction is None and state.empty:
        for find in rest:
            step = find(state)
            if step is not None:
                break
        else:
            return
        for cell, digit in step.placements:
            state.place(cell, digit)
        for cell, digit in step.eliminations:
            state.eliminate(cell, digit)
        settle(state)


def refutation(
    state: VariantState, cell: int, digit: int, follow: Callable[[VariantState], None] = settle
) -> str | None:
    """The contradiction that placing `digit` in `cell` leads to when `follow` propagates
    it (on a copy of `state`), or None."""
    from solvers.human.variant.engine import contradiction

    branch = state.copy()
    branch.place(cell, digit)
    follow(branch)
    return branch.contradiction or contradiction(branch)


def _failing(
    state: VariantState, follow: Callable[[VariantState], None], name: str, rating: float
) -> Step | None:
    found = []
    for cell, m in enumerate(state.cand):
        check_time()  # a scan can take seconds: the engine's deadline stops it
        for d in digits(m):
            reason = refutation(state, cell, d, follow)
            if reason:
                found.append((cell, d, reason))
    if not found:
        return None
    return Step(
        name,
        (),
        tuple((c, d) for c, d, _ in found),
        tuple(sorted({c for c, _, _ in found})),
        (),
        tuple(sorted({d for _, d, _ in found})),
        rating,
        state.shape,
        detail=tuple(found),
    )


def nishio_singles(state: VariantState) -> Step | None:
    return _failing(state, settle, "nishio_singles", 7.5)


def nishio_net(state: VariantState) -> Step | None:
    return _failing(state, _net, "nishio_net", 9.0)
