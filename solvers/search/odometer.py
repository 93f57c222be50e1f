"""`odometer`: the Magic Sudoku propagation, then the open cells turned like an odometer's wheels.

The method of the write-up ``000_1afc5fcd1bfdd783.txt`` ("Magic Sudoku").
First the propagation stages: each cell's candidates are what its row,
column and box all allow; cells with one candidate ("solos") are placed;
a digit with one place in a unit ("must-be's") is placed; two cells of a
unit with the same two candidates remove those digits from the rest of the
unit ("the outside rule of pairs"); all of it repeated until nothing
changes.  The project's human engine does this (`solvers.human.propagate`
with ``naked_single``, ``hidden_single`` and ``naked_pair``); it applies the
easiest step first rather than the source's fixed stage order, which
changes how many steps are counted but not the grid it ends with.

Then the odometer: the cells still open are strung in order like the wheels
of an odometer, each wheel carrying that cell's remaining candidates.
Going from the first wheel, each is set to its lowest digit that is legal
with the wheels before it.  At the first wheel that has no such digit, the
``Increment`` step turns the wheel before it to its next legal digit; a
wheel that runs out is reset and carries over to the one before, exactly as
an odometer turns.  When every wheel holds a digit, the full assignment is
tested (by the project's independent verifier) and is a solution.  To find
further solutions (``limit`` of 2 or more) the last wheel keeps turning, so
the whole space is explored in the end: the method is complete, but it is
slow when the solution lies high in that space (the source: driving the
odometer from the 8th or 9th row "is a sheer horror").  ``time_limit`` and
``budget`` stop it with ``TIMEOUT`` or ``BUDGET``.

``order=reading`` (the default, as described) strings the wheels in reading
order; ``order=fewest`` puts the wheels with the fewest candidates first
(reading order among equals), an ordering the source does not have.

Counters: ``wheels`` (open cells after propagation), ``wheel_turns`` (times
a wheel was set to a legal digit; also ``nodes`` and ``guesses``, and what
``budget`` caps), ``carries`` (wheels that ran out and carried over; also
``backtracks``), ``assignments_tested``, and the engine's ``propagations``
(candidate changes), ``steps`` and steps per technique.
"""

from __future__ import annotations

from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status, counted_result
from solvers.grid import Grid
from solvers.human.engine import PropagationResult, propagate
from solvers.human.state import CandidateState
from solvers.registry import register
from solvers.verify import is_solution

TECHNIQUES = ("naked_single", "hidden_single", "naked_pair")
"""Solos, must-be's and the outside rule of pairs, in the engine's names."""

_CHECK_EVERY = 1024  # wheel turns between clock reads


def magic_propagation(
    puzzle: Grid, limits: Limits, stats: dict[str, Any]
) -> tuple[CandidateState, PropagationResult]:
    """Run the source's propagation stages on `puzzle` to a fixpoint; counters go into `stats`."""
    state = CandidateState.from_grid(puzzle)
    result = engine_run(state, limits, stats)
    return state, result


def engine_run(state: CandidateState, limits: Limits, stats: dict[str, Any]) -> PropagationResult:
    """Propagate `state` in place under the time limit only (the budget counts search nodes)."""
    timer = Limits()
    timer.deadline = limits.deadline
    before = state.changes
    result = propagate(state, TECHNIQUES, limits=timer)
    stats["propagations"] = stats.get("propagations", 0) + state.changes - before
    stats["steps"] = stats.get("steps", 0) + len(result.steps)
    for name, k in result.counts.items():
        stats[name] = stats.get(name, 0) + k
    return result


def wheel_order(state: CandidateState, order: str) -> list[int]:
    """The open cells as wheels: reading order, or fewest candidates first."""
    cand = state.cand
    cells = [c for c in range(len(cand)) if not state.values[c]]
    if order == "fewest":
        cells.sort(key=lambda c: cand[c].bit_count())
    return cells


def run_odometer(
    puzzle: Grid,
    state: CandidateState,
    order: str,
    limit: int,
    limits: Limits,
    stats: dict[str, Any],
    nodes_before: int = 0,
) -> tuple[list[Grid], bool, Status | None]:
    """Turn the wheels from `state` until `limit` solutions, the end of the space, or a limit.

    Returns the solutions, whether the space was exhausted and the stopping
    limit; adds ``wheels``, ``wheel_turns``, ``carries`` and
    ``assignments_tested`` to `stats`.  ``nodes_before`` counts against the budget.
    """
    n = state.n
    shape = state.shape
    wheels = wheel_order(state, order)
    count = len(wheels)
    # Digits placed in each unit; a wheel's digit is legal when none of its units has it.
    used = [0] * (3 * n)
    for cell, digit in enumerate(state.values):
        if digit:
            for u in shape.cell_units[cell]:
                used[u] |= 1 << (digit - 1)
    units = [shape.cell_units[c] for c in wheels]
    digits = [[1 << k for k in range(n) if state.cand[c] >> k & 1] for c in wheels]
    nexts = [0] * (count + 1)  # per wheel: the index of the next digit to try
    held = [0] * count  # per wheel: the digit (bit) it holds, 0 when unset
    cells = list(state.values)
    solutions: list[Grid] = []
    turns = carries = tested = 0
    budget = limits.budget - nodes_before
    stopped: Status | None = None
    exhausted = False
    i = 0
    while True:
        if i == count:  # every wheel holds a digit: test the full assignment
            tested += 1
            for w in range(count):
                cells[wheels[w]] = held[w].bit_length()
            grid = puzzle.replace(cells)
            if is_solution(puzzle, grid):
                solutions.append(grid)
                if len(solutions) >= limit:
                    break
            if not count:
                exhausted = True
                break
            i = count - 1  # turn the last wheel on
        a, b, c = units[i]
        bit = held[i]
        if bit:  # the wheel leaves its digit (after a test, or a carry from the next wheel)
            used[a] ^= bit
            used[b] ^= bit
            used[c] ^= bit
            held[i] = 0
        taken = used[a] | used[b] | used[c]
        options = digits[i]
        j = nexts[i]
        while j < len(options) and options[j] & taken:
            j += 1
        if j < len(options):  # the wheel takes its next legal digit
            bit = options[j]
            nexts[i] = j + 1
            held[i] = bit
            used[a] |= bit
            used[b] |= bit
            used[c] |= bit
            turns += 1
            if turns > budget:
                stopped = Status.BUDGET
                break
            if turns % _CHECK_EVERY == 0 and (stopped := limits.stop(nodes_before + turns)):
                break
            i += 1
            nexts[i] = 0  # the next wheel starts again from its lowest digit
            continue
        # Increment: this wheel has run out, so reset it and carry to the wheel before.
        carries += 1
        nexts[i] = 0
        i -= 1
        if i < 0:
            exhausted = True
            break
    stats["wheels"] = count
    stats["wheel_turns"] = stats.get("wheel_turns", 0) + turns
    stats["carries"] = stats.get("carries", 0) + carries
    stats["assignments_tested"] = stats.get("assignments_tested", 0) + tested
    return solutions, exhausted, stopped


def propagation_outcome(
    state: CandidateState, result: PropagationResult, limit: int, stats: dict[str, Any]
) -> SolveResult | None:
    """The answer when propagation alone settles the puzzle (solved, refuted or out of time)."""
    if result.solved:  # every deduction holds in every solution: this one is the only one
        return SolveResult(Status.SOLVED, (state.to_grid(),), limit > 1, stats)
    if result.contradiction:
        return SolveResult(Status.UNSOLVABLE, (), True, stats, message=result.reason or "")
    if result.stopped_by is not None:
        return SolveResult(Status.TIMEOUT, (), False, stats)
    return None


def search_stats(stats: dict[str, Any], nodes: int, backtracks: int) -> dict[str, Any]:
    """`stats` with the normalised search counters first."""
    return {"nodes": nodes, "guesses": nodes, "backtracks": backtracks, **stats}


@register
class Odometer(Solver):
    name = "odometer"
    family = "search"
    complete = True
    summary = (
        "Magic Sudoku: solos, must-be's and pairs to a fixpoint, then the open cells "
        "turned like odometer wheels (lowest legal digit first, carry on overflow)"
    )
    source = (
        "the 'Magic Sudoku' write-up: three candidate arrays intersected, solos, must-be's, "
        "the outside rule of pairs, then the Odometer and Increment functions"
    )
    parameters = {
        "order": Param(
            "reading",
            "how the wheels are strung: reading order (as described) or fewest candidates first",
            ("reading", "fewest"),
        ),
    }

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        stats: dict[str, Any] = {}
        state, result = magic_propagation(puzzle, limits, stats)
        settled = propagation_outcome(state, result, limit, search_stats(stats, 0, 0))
        if settled is not None:
            return settled
        solutions, exhausted, stopped = run_odometer(
            puzzle, state, self.options["order"], limit, limits, stats
        )
        stats = search_stats(stats, stats["wheel_turns"], stats["carries"])
        return counted_result(solutions, exhausted and len(solutions) < limit, stats, stopped)
