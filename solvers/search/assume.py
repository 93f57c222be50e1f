"""`assume`: the human engine, then bounded assumption, as the 'ibug' solver's write-up describes.

When logic runs out, pick the open cell with the fewest candidates (lowest
index on ties), assume its first candidate and propagate; on a contradiction
change the assumption to the next candidate; after the third value give up
with ``STUCK`` ("unable to solve").  ``max_values`` sets how many values are
tried (3, as in the source) and ``depth`` how deep assumptions nest (1: an
assumption is followed by logic only).

With ``limit >= 2`` the other values are tried too, so a second solution is
found, or uniqueness proved when every other branch ends in a contradiction.
Proofs (``exhausted``, ``UNSOLVABLE``) are claimed only when every branch was
settled without a uniqueness technique.  ``nodes`` and ``guesses`` count
assumptions (``budget`` caps them); ``contradictions`` the refuted ones.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from solvers.base import Limits, Param, Solver, SolveResult, Status, counted_result
from solvers.grid import Grid, Shape
from solvers.human.engine import propagate
from solvers.human.solver import TECHNIQUES_HELP, TechniquesParam
from solvers.human.state import CandidateState, digits
from solvers.registry import register


class Assumption(NamedTuple):
    """A trace entry: an assumed value and how its branch ended."""

    cell: int
    digit: int
    depth: int
    outcome: str
    shape: Shape

    def __str__(self) -> str:
        cell = self.shape.cell_name(self.cell)
        return f"Assume {cell} = {self.digit} (depth {self.depth}): {self.outcome}"


class _Stop(Exception):
    def __init__(self, status: Status) -> None:
        self.status = status


# Outcomes of a branch.
FOUND, REFUTED, OPEN = "solved", "contradiction", "not settled"


class _Search:
    """One bounded-assumption solve: counters, solutions and the trace."""

    def __init__(self, solver: Assume, limit: int, limits: Limits, trace: bool) -> None:
        self.techniques = solver.options["techniques"]
        self.max_values = solver.options["max_values"]
        self.limit = limit
        self.limits = limits
        self.timer = Limits()
        self.timer.deadline = limits.deadline  # the engine polls time only
        self.trace: list[Any] | None = [] if trace else None
        self.solutions: list[Grid] = []
        self.counts: dict[str, int] = {}
        self.assumptions = self.contradictions = self.steps = self.changes = 0
        self.gave_up = False
        self.proof = True  # no uniqueness technique used anywhere

    def run(self, state: CandidateState, depth: int) -> str:
        """Propagate, then assume values of one cell while `depth` allows; the branch outcome."""
        before = state.changes
        result = propagate(state, self.techniques, trace=self.trace is not None, limits=self.timer)
        self.changes += state.changes - before
        self.steps += len(result.steps)
        for name, k in result.counts.items():
            self.counts[name] = self.counts.get(name, 0) + k
        if self.trace is not None:
            self.trace.extend(result.steps)
        self.proof &= not result.uniqueness_used
        if result.stopped_by is not None:
            raise _Stop(Status.TIMEOUT)
        if result.solved:
            self.solutions.append(state.to_grid())
            return FOUND
        if result.contradiction:
            return REFUTED
        if depth == 0:
            return OPEN
        cand = state.cand
        cell = min((c for c in range(len(cand)) if cand[c]), key=lambda c: cand[c].bit_count())
        outcomes = []
        for i, digit in enumerate(digits(cand[cell])):
            if i == self.max_values:
                self.gave_up = True
                outcomes.append(OPEN)
                break
            if (stop := self.limits.stop(self.assumptions + 1)) is not None:
                raise _Stop(stop)
            self.assumptions += 1
            branch = state.copy()
            branch.place(cell, digit)
            mark = len(self.trace) if self.trace is not None else 0
            outcome = self.run(branch, depth - 1)
            if self.trace is not None:
                self.trace.insert(mark, Assumption(cell, digit, depth, outcome, state.shape))
            self.contradictions += outcome == REFUTED
            outcomes.append(outcome)
            if len(self.solutions) >= self.limit:
                break
        if FOUND in outcomes:
            return FOUND if OPEN not in outcomes else OPEN
        return REFUTED if all(o == REFUTED for o in outcomes) else OPEN

    def stats(self) -> dict[str, Any]:
        return {
            "nodes": self.assumptions,
            "guesses": self.assumptions,
            "backtracks": self.contradictions,
            "propagations": self.changes,
            "steps": self.steps,
            "assumptions": self.assumptions,
            "contradictions": self.contradictions,
            **self.counts,
        }


@register
class Assume(Solver):
    name = "assume"
    family = "human"
    complete = False
    traces = True
    summary = (
        "human engine, then bounded assumption on the fewest-candidate cell; "
        "gives up (STUCK) after the third value"
    )
    source = (
        "the 'ibug' human-style solver write-up: assume a value, propagate, change it on a "
        "contradiction, 'unable to solve' after a third value"
    )
    parameters = {
        "max_values": Param(3, "values assumed per cell before giving up"),
        "depth": Param(1, "how deep assumptions nest (1: none inside an assumption)"),
        "techniques": TechniquesParam("classic", TECHNIQUES_HELP),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        for key in ("max_values", "depth"):
            if self.options[key] < 1:
                from solvers.base import UnknownOption

                raise UnknownOption(f"parameter {key}={self.options[key]}: expected 1 or more")

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        search = _Search(self, limit, limits, trace)
        state = CandidateState.from_grid(puzzle)
        stopped = None
        outcome = OPEN
        try:
            outcome = search.run(state, self.options["depth"])
        except _Stop as stop:
            stopped = stop.status
        settled = stopped is None and outcome != OPEN and search.proof
        stats = search.stats()
        steps = tuple(search.trace) if search.trace is not None else None
        if search.solutions and stopped is not None:
            stats["stopped"] = stopped.value
            stopped = None
        result = counted_result(
            search.solutions, settled and len(search.solutions) < limit, stats, stopped, trace=steps
        )
        if result.status is Status.STUCK:
            k = self.options["max_values"]
            nth = {1: "first", 2: "second", 3: "third"}.get(k, f"{k}th")
            why = (
                f"unable to solve: gave up after the {nth} value"
                if search.gave_up
                else "unable to solve: logic ran out inside the assumptions"
            )
            return SolveResult(Status.STUCK, (), False, stats, steps, why)
        return result
