"""The engine loop: apply the easiest available step until a fixpoint.

`propagate` tries the configured techniques in table order and applies the
first step found, then starts again from the easiest, until the grid is
solved, no technique applies (stuck), a contradiction appears, or a limit
stops it.  Ties within a technique are broken by the technique's scan order
(lowest unit, digit or cell first), so the same puzzle always gives the same
path.

Soundness mode: pass the known solution and every step is checked against it
before it is applied; a step that places a wrong digit or eliminates the
true one raises `UnsoundStep`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from solvers.base import Limits, Status
from solvers.grid import Grid
from solvers.human.profiling import charged, profiling, stop
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.table import Technique, config_name, resolve
from solvers.human.techniques.branches import DEADLINE, OutOfTime

VERSION = "1.5"
"""Bumped whenever a change can alter a solve path or a rating."""

SOLVED = "solved"
STUCK = "stuck"
CONTRADICTION = "contradiction"
STOPPED = "stopped"


class UnsoundStep(AssertionError):
    """A step that contradicts the known solution (a bug in a technique)."""

    def __init__(self, step: Step, problem: str) -> None:
        self.step = step
        super().__init__(f"unsound {step.technique} step: {problem} ({step})")


@dataclass
class PropagationResult:
    """How a propagation ended, and the steps it took.

    ``status`` is ``"solved"``, ``"stuck"``, ``"contradiction"`` (``reason``
    says which) or ``"stopped"`` (``stopped_by`` is ``Status.TIMEOUT``,
    ``Status.BUDGET`` or ``"max_steps"``).  ``steps`` lists every step
    applied (with the candidate grid before it in ``Step.before`` when
    traced); ``counts`` maps technique name to the number of steps.
    ``uniqueness_used`` says whether a step assumed a unique solution, in
    which case a contradiction does not prove that there is no solution.
    """

    status: str
    state: CandidateState
    steps: list[Step] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    reason: str | None = None
    stopped_by: Status | str | None = None
    uniqueness_used: bool = False
    checked: int = 0  # steps checked against a known solution
    config: str = "all"

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    @property
    def stuck(self) -> bool:
        return self.status == STUCK

    @property
    def contradiction(self) -> bool:
        return self.status == CONTRADICTION


def check_step(step: Step, solution: Grid) -> None:
    """Raise `UnsoundStep` when `step` places a wrong digit or eliminates a true one."""
    truth = solution.cells
    shape = step.shape
    for cell, digit in step.placements:
        if truth[cell] != digit:
            raise UnsoundStep(
                step, f"places {digit} in {shape.cell_name(cell)}, the solution has {truth[cell]}"
            )
    for cell, digit in step.eliminations:
        if truth[cell] == digit:
            raise UnsoundStep(
                step, f"eliminates {digit} from {shape.cell_name(cell)}, its solution digit"
            )


def stop_reason(done: int, max_steps: int | None, limits: Limits | None) -> str | None:
    """Why a propagation that has taken `done` steps stops before the next one, or None."""
    if max_steps is not None and done >= max_steps:
        return "max_steps"
    return limits.stop(done + 1) if limits is not None else None


def apply_step(state: Any, step: Step, name: str, solution: Grid | None) -> None:
    """Check `step` against `solution` (when given) and apply it to `state` (a candidate
    state, classic or variant); a step that changes nothing is a bug of its finder."""
    if solution is not None:
        check_step(step, solution)
    before = state.changes
    for cell, digit in step.placements:
        state.place(cell, digit)
    for cell, digit in step.eliminations:
        state.eliminate(cell, digit)
    if state.changes == before:
        raise RuntimeError(f"{name} returned a step that changes nothing: {step}")


def _timed(name: str, find):
    """`find`, its seconds charged to `name` in the profile being filled."""

    def timed(state: CandidateState) -> Step | None:
        return charged(name, lambda: find(state))

    return timed


def propagate(
    state: CandidateState,
    techniques: str | Iterable[str] | None = None,
    *,
    trace: bool = False,
    max_steps: int | None = None,
    solution: Grid | None = None,
    limits: Limits | None = None,
    profile: dict[str, float] | None = None,
) -> PropagationResult:
    """Apply the easiest step, repeatedly, to `state` (changed in place) until a fixpoint.

    `techniques` is None (all enabled), a group name (``tier1``, ``singles``
    ...), or technique names (``["naked_single", "hidden_single",
    "naked_pair"]``); they are always tried in table order.  `trace` keeps the
    candidate grid before each step; `solution` turns on soundness checks;
    `limits` (a `solvers.base.Limits`) stops on time or on a budget of steps;
    `profile`, a dict, accumulates the seconds each technique spent searching (see
    `solvers.human.profiling`).
    """
    techs: tuple[Technique, ...] = resolve(techniques)
    finders = [(t.name, t.find, t.assumes_unique) for t in techs]
    if profile is not None:
        finders = [(name, _timed(name, find), u) for name, find, u in finders]
    result = PropagationResult(STUCK, state, config=config_name(techs))
    profile_token = None if profile is None else profiling(profile)
    try:
        if limits is not None and limits.deadline != float("inf"):
            token = DEADLINE.set(limits.deadline)  # forcing-chain searches look at the clock
            try:
                return _loop(state, finders, result, trace, max_steps, solution, limits)
            finally:
                DEADLINE.reset(token)
        return _loop(state, finders, result, trace, max_steps, solution, limits)
    finally:
        if profile_token is not None:
            stop(profile_token)


def _loop(state, finders, result, trace, max_steps, solution, limits) -> PropagationResult:
    """The loop of `propagate`."""
    steps = result.steps
    counts = result.counts
    if state.contradiction:
        result.status, result.reason = CONTRADICTION, state.contradiction
        return result
    memo = state.memo
    while state.empty:
        memo.trim()  # the one eviction rule of the solve's memo, between steps
        if stop := stop_reason(len(steps), max_steps, limits):
            result.status, result.stopped_by = STOPPED, stop
            return result
        try:
            for name, find, assumes_unique in finders:  # noqa: B007 (used after the loop)
                step = find(state)
                if step is not None:
                    break
            else:
                return result  # stuck
        except OutOfTime:
            result.status, result.stopped_by = STOPPED, Status.TIMEOUT
            return result
        if trace:
            step = step._replace(before=state.snapshot())
        apply_step(state, step, name, solution)
        result.checked += 1 if solution is not None else 0
        steps.append(step)
        counts[name] = counts.get(name, 0) + 1
        if assumes_unique:
            result.uniqueness_used = True
        if state.contradiction:
            result.status, result.reason = CONTRADICTION, state.contradiction
            return result
    result.status = SOLVED
    return result
