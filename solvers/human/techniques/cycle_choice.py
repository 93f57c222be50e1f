"""The bidirectional cycle, applied only where it is cheaper than the chains after it.

Sudoku Explainer searches cycles, forcing X-chains and forcing chains together and
applies the cheapest step; the engine tries techniques one at a time, so the cycle
finder asks the chain techniques after it in the table what they would find.  Those
chain finders remember their answer until the state changes (`remembered`), so the
engine, reaching them next, does not search again: the table uses the finders
defined here.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.human.profiling import charged
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import colouring, cycles, forcing, se_ratings, wings, x_forcing

Finder = Callable[[CandidateState], "Step | None"]


def remembered(name: str, find: Finder) -> Finder:
    """`find`, remembering its answer until the state changes (its seconds charged to
    `name` when profiled)."""

    def remember(state: CandidateState) -> Step | None:
        return state.derived(f"finder-{name}", lambda s: (charged(name, lambda: find(s)),))[0]

    return remember


forcing_x_chain = remembered("forcing_x_chain", x_forcing.forcing_x_chain)
simple_colouring = remembered("simple_colouring", colouring.simple_colouring)
x_chain = remembered("x_chain", se_ratings.x_chain)
forcing_chain = remembered("forcing_chain", forcing.forcing_chain)
w_wing = remembered("w_wing", wings.w_wing)
xy_chain = remembered("xy_chain", se_ratings.xy_chain)

RIVALS: tuple[tuple[str, float, Finder], ...] = (
    ("forcing_x_chain", 6.6, forcing_x_chain),
    ("simple_colouring", 6.5, simple_colouring),
    ("x_chain", 6.6, x_chain),
    ("w_wing", 7.1, w_wing),
    ("xy_chain", 7.1, xy_chain),
)
"""The chain techniques a cycle competes with: name, the lowest rating of their steps
(the table's), finder."""

XY_CYCLE_CEILING = 7.5
"""XY-cycles rated above this are not searched (where no static forcing chain is found,
an XY-cycle this long is rare, and searching for one costs more than the rest of the
step)."""


def bidirectional_cycle(state: CandidateState) -> Step | None:
    """The cheapest bidirectional cycle, when it is cheaper than what the chain techniques
    after it in the table find (ties go to the later techniques).  A cycle's elimination
    also follows from a static forcing chain (assuming the candidate true leads around
    the loop to a contradiction), so where the forcing-chain search finds nothing there
    is no cycle either; the costly forcing-chain search runs only when its answer can
    matter."""
    ceiling = 9.9
    for _, se, find in RIVALS:
        if se > ceiling - 0.05:
            continue
        step = find(state)
        if step is not None and step.rating < ceiling:
            ceiling = step.rating
    chain: Step | None = None
    if ceiling == 9.9:  # no other chain: the forcing chains decide whether to look
        chain = forcing_chain(state)
        if chain is None:
            return None
        ceiling = chain.rating
    best = cycles.bidirectional_cycle(state, round(ceiling - 0.1, 1), kinds=(cycles.X, cycles.Y))
    if best is not None:
        ceiling = best.rating
    if ceiling > cycles.XY_CYCLE_RATING:
        xy = cycles.bidirectional_cycle(
            state, min(round(ceiling - 0.1, 1), XY_CYCLE_CEILING), kinds=(cycles.XY,)
        )
        if xy is not None:
            best = xy
    if best is None:
        return None
    if chain is None:  # a forcing chain rates 6.6 at least
        chain = forcing_chain(state) if best.rating >= 6.6 else None
    if chain is not None and chain.rating <= best.rating:
        return None
    return best
