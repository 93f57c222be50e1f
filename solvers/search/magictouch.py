"""`magictouch`: the Magic Sudoku propagation, then templates over the two-candidate cells.

The second search of the write-up ``000_1afc5fcd1bfdd783.txt`` ("Magic
Sudoku"), which its author calls "an efficient speed-burner".  After the
same propagation stages as `odometer` (solos, must-be's, the outside rule of
pairs, to a fixpoint), MagicTouch notes the cells left with exactly two
candidates (the source's ``least(n)``; here at most ``max_cells``, in
reading order or, with ``choose=peers``, those whose two digits appear in
the most open peers first).  ``MagicDat`` then prepares the templates:
every way of giving each of those cells its first or its second candidate,
in odometer order from 1-1-...-1 to 2-2-...-2 (the last cell changing
fastest).  For each template the values are written into the grid, a quick
row / column / box test throws out templates whose values clash, and each
survivor goes through the full propagation to see whether it solves the
puzzle.

Templates are generated lazily, never as a list.  The quick test is applied
while a template is built, so a clash between the first few cells rules out
every template that starts the same way at once; those templates are
counted as generated and failed, so the counters are the ones a plain
enumeration would give.  The quick test only compares the template cells
with each other: their candidates already exclude every placed digit.

Every template that solves the puzzle gives a different solution, and
together the templates cover every way the chosen cells can be filled.  So
when each survivor is either solved or refuted by the propagation, the
search is exhausted: no solution (``UNSOLVABLE``) or every solution counted.
When no template solves the puzzle and some end with the propagation stuck,
the source's method has no answer.  ``fallback=stuck`` (the default) then
returns ``STUCK``; ``fallback=odometer`` runs the odometer (reading order)
from the propagated grid, which makes the method complete.  With
``limit >= 2``, a stuck template also leaves the count open, and the
odometer fallback is used to settle it.

Counters: ``bivalue_cells`` (two-candidate cells after propagation),
``template_cells`` (those used), ``templates_generated``,
``templates_passed_quick_test`` (also ``nodes`` and ``guesses``, and what
``budget`` caps; the odometer fallback's wheel turns are added),
``templates_solved``, ``templates_refuted``, ``templates_stuck``,
``engine_runs`` (propagations run: the first and one per survivor),
``propagations`` (candidate changes made by all of them), ``steps`` and
steps per technique; with the fallback also the odometer's counters.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status, UnknownOption, counted_result
from solvers.grid import Grid
from solvers.human.state import CandidateState
from solvers.registry import register
from solvers.search.odometer import (
    engine_run,
    magic_propagation,
    propagation_outcome,
    run_odometer,
    search_stats,
)
from solvers.verify import is_solution

_CHECK_EVERY = 1024  # template cells set between clock reads


def bivalue_cells(state: CandidateState, choose: str) -> list[int]:
    """The open cells with exactly two candidates, in the order MagicTouch takes them."""
    cand = state.cand
    cells = [c for c, m in enumerate(cand) if m and m.bit_count() == 2]
    if choose == "peers":
        peers = state.shape.peers

        def constrained(cell: int) -> int:
            return -sum(1 for p in peers[cell] if cand[p] & cand[cell])

        cells.sort(key=constrained)
    return cells


class Templates:
    """The MagicDat templates over some two-candidate cells, made lazily, odometer order.

    Iterating yields the templates that pass the quick test, each as a tuple
    of (cell, digit); ``generated`` and ``passed`` count as a plain
    enumeration of all ``2**k`` templates would.
    """

    def __init__(self, state: CandidateState, cells: list[int], limits: Limits) -> None:
        self.cells = cells
        self.limits = limits
        k = len(cells)
        cand = state.cand
        # The (first, second) candidate bit of each cell.
        self.choices = [(cand[c] & -cand[c], cand[c] & (cand[c] - 1)) for c in cells]
        peer_sets = [set(state.shape.peers[c]) for c in cells]
        # For each template cell, the earlier template cells it shares a unit with.
        self.earlier = [[j for j in range(i) if cells[j] in peer_sets[i]] for i in range(k)]
        self.generated = 0
        self.passed = 0
        self.stopped: Status | None = None

    def __iter__(self) -> Iterator[tuple[tuple[int, int], ...]]:
        cells, choices, earlier = self.cells, self.choices, self.earlier
        k = len(cells)
        bits = [0] * k  # the bit set in each template cell so far
        side = [-1] * k  # 0: first candidate, 1: second; -1: not set yet
        i = 0
        steps = 0
        while i >= 0:
            if i == k:  # a whole template passed the quick test
                self.generated += 1
                self.passed += 1
                yield tuple((cells[j], bits[j].bit_length()) for j in range(k))
                i -= 1
                continue
            s = side[i] + 1
            if s == 2:  # both candidates of this cell done: back to the cell before
                side[i] = -1
                i -= 1
                continue
            side[i] = s
            steps += 1
            if steps % _CHECK_EVERY == 0 and (stop := self.limits.stop(0)):
                self.stopped = stop
                return
            bit = choices[i][s]
            if any(bits[j] == bit for j in earlier[i]):
                # Quick test failed: every template starting this way fails it too.
                self.generated += 1 << (k - 1 - i)
                continue
            bits[i] = bit
            i += 1


def _odometer_fallback(
    puzzle: Grid,
    state: CandidateState,
    found: list[Grid],
    limit: int,
    limits: Limits,
    stats: dict[str, Any],
) -> tuple[list[Grid], bool, Status | None]:
    """Continue with the odometer from the propagated grid, keeping the solutions found."""
    more, exhausted, stopped = run_odometer(
        puzzle, state, "reading", limit, limits, stats, stats["templates_passed_quick_test"]
    )
    solutions = list(found)
    for grid in more:
        if grid not in solutions and len(solutions) < limit:
            solutions.append(grid)
    return solutions, exhausted, stopped


@register
class MagicTouch(Solver):
    name = "magictouch"
    family = "search"
    complete = False
    summary = (
        "Magic Sudoku's MagicTouch: propagation, then every first/second-candidate template "
        "over the two-candidate cells, a quick conflict test, and propagation on survivors"
    )
    source = (
        "the 'Magic Sudoku' write-up: least(n) two-candidate cells, MagicDat templates in "
        "odometer order, preliminary row/column/box tests, then stages one to three"
    )
    parameters = {
        "max_cells": Param(20, "the most two-candidate cells templates are made over"),
        "choose": Param(
            "reading",
            "which two-candidate cells: the first in reading order, or those whose digits "
            "appear in the most open peers",
            ("reading", "peers"),
        ),
        "fallback": Param(
            "stuck",
            "when no template settles the puzzle: stuck (STUCK) or odometer (run the odometer)",
            ("stuck", "odometer"),
        ),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["max_cells"] < 0:
            raise UnknownOption(
                f"parameter max_cells={self.options['max_cells']}: expected 0 or more"
            )

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        stats: dict[str, Any] = {}
        state, result = magic_propagation(puzzle, limits, stats)
        stats["engine_runs"] = 1
        settled = propagation_outcome(state, result, limit, search_stats(stats, 0, 0))
        if settled is not None:
            return settled

        pairs = bivalue_cells(state, self.options["choose"])
        cells = pairs[: self.options["max_cells"]]
        templates = Templates(state, cells, limits)
        counts = {"solved": 0, "refuted": 0, "stuck": 0}
        solutions: list[Grid] = []
        stopped: Status | None = None
        if cells:
            for template in templates:
                if templates.passed > limits.budget:
                    stopped = Status.BUDGET
                    break
                branch = state.copy()
                for cell, digit in template:
                    branch.place(cell, digit)
                outcome = engine_run(branch, limits, stats)
                stats["engine_runs"] += 1
                if outcome.stopped_by is not None:
                    stopped = Status.TIMEOUT
                    break
                if outcome.solved:
                    grid = branch.to_grid()
                    if is_solution(puzzle, grid):  # the full test; it always holds
                        counts["solved"] += 1
                        solutions.append(grid)
                        if len(solutions) >= limit:
                            break
                elif outcome.contradiction:
                    counts["refuted"] += 1
                else:
                    counts["stuck"] += 1
            stopped = stopped or templates.stopped
        stats.update(
            bivalue_cells=len(pairs),
            template_cells=len(cells),
            templates_generated=templates.generated,
            templates_passed_quick_test=templates.passed,
            templates_solved=counts["solved"],
            templates_refuted=counts["refuted"],
            templates_stuck=counts["stuck"],
        )
        nodes = templates.passed
        # Settled: the templates cover every filling of their cells, each solved or refuted.
        settled_all = bool(cells) and stopped is None and not counts["stuck"]
        exhausted = settled_all and len(solutions) < limit
        open_question = stopped is None and not settled_all and len(solutions) < limit
        if open_question and self.options["fallback"] == "odometer":
            solutions, exhausted, stopped = _odometer_fallback(
                puzzle, state, solutions, limit, limits, stats
            )
            nodes += stats["wheel_turns"]
            exhausted = exhausted and len(solutions) < limit
        stats = search_stats(stats, nodes, counts["refuted"] + stats.get("carries", 0))
        if open_question and not solutions and stopped is None and not exhausted:
            why = (
                "no two-candidate cell after propagation"
                if not cells
                else f"no template of {len(cells)} two-candidate cells solved the puzzle"
            )
            return SolveResult(Status.STUCK, (), False, stats, message=why)
        return counted_result(solutions, exhausted, stats, stopped)
