"""The engine loop for variant puzzles: the easiest step first, as `solvers.human.engine`.

The techniques, in the order they are tried, with their Sudoku-Explainer-style
rating (a technique the classic table has keeps its rating there; the ones
only variants have are placed on the same scale, see `NEW`):

- ``non_consecutive`` (1.0): a placed digit takes its neighbours' d-1 and d+1;
- the singles, ``cage_combinations`` (2.4), the intersections (``pointing``,
  ``claiming``, then ``house_pointing``: a house's digit whose places all see
  a cell), ``rule_of_45`` (3.0 on one house, 3.1 on two, 3.2 on three), then
  the naked and hidden subsets and fish by their classic ratings;
- the contradictions of `solvers.human.variant.assume`, ``nishio_singles``
  (7.5) and ``nishio_net`` (9.0).

The rest of the classic table (wings, chains, uniqueness, forcing chains) is
built on the three units of a classic cell, so it is not used here: when
these techniques run out the solve is stuck, as a classic one is when its
techniques run out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from solvers.base import Limits, Status
from solvers.grid import Grid
from solvers.human.engine import (
    CONTRADICTION,
    SOLVED,
    STOPPED,
    STUCK,
    apply_step,
    stop_reason,
)
from solvers.human.step import Step
from solvers.human.table import resolve
from solvers.human.techniques.branches import DEADLINE, OutOfTime
from solvers.human.variant import assume, basic, killer
from solvers.human.variant.state import VariantState

Finder = Callable[[VariantState], Step | None]

BASIC: tuple[tuple[str, Finder], ...] = (
    ("non_consecutive", basic.non_consecutive),
    ("full_house", basic.full_house),
    ("hidden_single", basic.hidden_single),
    ("naked_single", basic.naked_single),
    ("cage_combinations", killer.cage_combinations),
    ("pointing", basic.pointing),
    ("claiming", basic.claiming),
    ("house_pointing", basic.house_pointing),
    ("rule_of_45", killer.rule_of_45),
    ("naked_pair", basic.naked_pair),
    ("x_wing", basic.x_wing),
    ("hidden_pair", basic.hidden_pair),
    ("naked_triple", basic.naked_triple),
    ("swordfish", basic.swordfish),
    ("hidden_triple", basic.hidden_triple),
    ("naked_quad", basic.naked_quad),
    ("jellyfish", basic.jellyfish),
    ("hidden_quad", basic.hidden_quad),
)
"""The techniques a contradiction's branch follows (`assume`): all but the contradictions."""

SETTLED = frozenset(
    {"non_consecutive", "full_house", "hidden_single", "naked_single", "cage_combinations"}
)
"""The techniques `assume.settle` applies in bulk (cage combinations within the cage)."""

ORDER: tuple[tuple[str, Finder], ...] = (
    *BASIC,
    ("nishio_singles", assume.nishio_singles),
    ("nishio_net", assume.nishio_net),
)
"""The variant engine's techniques in the order it tries them."""

NEW: dict[str, tuple[str, float, str]] = {
    "non_consecutive": (
        "Non-consecutive",
        1.0,
        "a placed digit's direct consequence, as a full house (1.0)",
    ),
    "cage_combinations": (
        "Cage combinations",
        2.4,
        "reasoning inside one group, between the singles (2.3) and the intersections (2.6)",
    ),
    "house_pointing": (
        "House pointing",
        2.9,
        "an intersection whose eliminations no classic house explains, after claiming (2.8)",
    ),
    "rule_of_45": (
        "Rule of 45",
        3.0,
        "3.0 on one house, 0.1 more per further house: sums over several cells, "
        "beside the naked pair (3.0)",
    ),
    "nishio_singles": (
        "Nishio (singles)",
        7.5,
        "Sudoku Explainer's nishio: an assumption refuted by singles",
    ),
    "nishio_net": (
        "Nishio (net)",
        9.0,
        "as Sudoku Explainer's dynamic forcing chains that also use locked candidates (9.0)",
    ),
}
"""The techniques only variants have: title, rating (the lowest, for rule_of_45), and
why they sit there on Sudoku Explainer's scale (which has no killer ratings)."""


def techniques(config: str | Iterable[str] | None) -> tuple[tuple[str, Finder], ...]:
    """The variant techniques of a configuration: the classic ones it names, and always
    the ones only variants have."""
    chosen = {t.name for t in resolve(config)}
    return tuple((name, find) for name, find in ORDER if name in chosen or name in NEW)


@dataclass
class VariantResult:
    """How a variant propagation ended (the fields of `PropagationResult` it needs)."""

    status: str
    state: VariantState
    steps: list[Step] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    reason: str | None = None
    stopped_by: Status | str | None = None
    uniqueness_used: bool = False
    checked: int = 0

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    @property
    def contradiction(self) -> bool:
        return self.status == CONTRADICTION


def contradiction(state: VariantState) -> str | None:
    if state.contradiction is None:
        state.check_houses()
    if state.contradiction is None and state.board.cages:
        reason = killer.broken_cage(state)
        if reason:
            state.contradiction = reason
    return state.contradiction


def propagate_variant(
    state: VariantState,
    config: str | Iterable[str] | None = None,
    *,
    trace: bool = False,
    solution: Grid | None = None,
    limits: Limits | None = None,
    max_steps: int | None = None,
) -> VariantResult:
    """Apply the easiest step to `state` (changed in place) until it is solved, stuck or
    contradictory; `solution` checks every step against it (`UnsoundStep`)."""
    finders = techniques(config)
    if limits is None or limits.deadline == float("inf"):
        return run(state, finders, trace=trace, solution=solution, max_steps=max_steps)
    token = DEADLINE.set(limits.deadline)  # the contradiction scans look at the clock
    try:
        return run(
            state, finders, trace=trace, solution=solution, limits=limits, max_steps=max_steps
        )
    finally:
        DEADLINE.reset(token)


def run(
    state: VariantState,
    finders: tuple[tuple[str, Finder], ...],
    *,
    trace: bool = False,
    solution: Grid | None = None,
    limits: Limits | None = None,
    max_steps: int | None = None,
) -> VariantResult:
    """`propagate_variant` with the finders given."""
    result = VariantResult(STUCK, state)
    if contradiction(state):
        result.status, result.reason = CONTRADICTION, state.contradiction
        return result
    while state.empty:
        if stop := stop_reason(len(result.steps), max_steps, limits):
            result.status, result.stopped_by = STOPPED, stop
            return result
        try:
            for name, find in finders:  # noqa: B007 (used after the loop)
                step = find(state)
                if step is not None:
                    break
            else:
                return result
        except OutOfTime:
            result.status, result.stopped_by = STOPPED, Status.TIMEOUT
            return result
        if trace:
            step = step._replace(before=state.snapshot())
        apply_step(state, step, name, solution)
        result.checked += 1 if solution is not None else 0
        result.steps.append(step)
        result.counts[name] = result.counts.get(name, 0) + 1
        if contradiction(state):
            result.status, result.reason = CONTRADICTION, state.contradiction
            return result
    result.status = SOLVED
    return result
