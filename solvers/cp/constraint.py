"""python-constraint on Sudoku: N^2 variables, ``AllDifferentConstraint`` per unit.

The model is the textbook one: a variable per cell with domain 1..N, a given
being a single-value domain, and an ``AllDifferentConstraint`` over each row,
column and box.  The library's solvers are a parameter: ``backtracking``
(the default: it picks the unassigned variable with the smallest domain at
every node, and forward checking prunes peers), ``optimized`` (the
library's own default, which orders variables once, up front, and so
thrashes on sparse puzzles), ``recursive``, and ``minconflicts`` (local
search: incomplete, it finds at most one solution and answers ``STUCK``
when its steps run out).

Puzzles with constraints (every kind of `solvers.variants`) are posted by
`solvers.cp.constraint_variants`: the library's sum, set and all-different
constraints where they fit, function constraints for the rest.  The 6x6
puzzle of each kind in the tests takes well under a second; 9x9 ones are
slow (generated with seed 1: thermometer 4 s, arrow 13 s, killer and
sandwich unfinished in 20 s).

python-constraint has no time or effort limit of its own.  This module adds
one soundly: a watchdog constraint over every variable, posted first, so the
library calls it once for each value it tries (a search *node*).  It counts
the nodes and raises to abandon the search when the budget is spent or the
deadline passed; the model is thrown away afterwards, so nothing is left in
a half-searched state.  The longest stretch without a watchdog call is one
node's own work, so ``time_limit`` is honoured within milliseconds.

Reach: 9x9 puzzles and easy 16x16 ones; generated 16x16 puzzles with 90-99
givens and 25x25 grids are out of reach in a minute (figures on the docs'
benchmarks page).
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status, counted_result, phases
from solvers.cp.constraint_variants import KINDS as VARIANT_KINDS
from solvers.cp.constraint_variants import post
from solvers.grid import Grid
from solvers.registry import register

ALGORITHMS = ("backtracking", "optimized", "recursive", "minconflicts")


class _Interrupted(Exception):
    """Raised by the watchdog to abandon a search; carries the limit that was reached."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.value)
        self.status = status


@cache
def _watchdog_class() -> type:
    """The watchdog constraint class (built lazily: the library is optional)."""
    from constraint import Constraint

    class Watchdog(Constraint):
        """Never prunes; counts the values tried and stops the search at a limit."""

        def __init__(self, limits: Limits) -> None:
            self.limits = limits
            self.nodes = 0

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            self.nodes += 1
            stop = self.limits.stop(self.nodes)
            if stop is not None:
                raise _Interrupted(stop)
            return True

    return Watchdog


def _library_solver(algorithm: str, forwardcheck: bool, steps: int, seed: int) -> Any:
    import constraint

    if algorithm == "backtracking":
        return constraint.BacktrackingSolver(forwardcheck=forwardcheck)
    if algorithm == "optimized":
        return constraint.OptimizedBacktrackingSolver(forwardcheck=forwardcheck)
    if algorithm == "recursive":
        return constraint.RecursiveBacktrackingSolver(forwardcheck=forwardcheck)
    return constraint.MinConflictsSolver(steps=steps, rand=random.Random(seed))


@register
class PythonConstraint(Solver):
    name = "constraint"
    family = "cp"
    complete = True  # except algorithm=minconflicts, which answers STUCK when it gives up
    summary = "python-constraint (python-constraint2): AllDifferent per unit, plain backtracking"
    source = "G. Niemeyer's python-constraint, maintained as python-constraint2 (F.-J. Willemsen)"
    requires = ("constraint",)
    constraint_kinds = VARIANT_KINDS
    preload = ("constraint",)
    install_hint = "pip install python-constraint2"
    parameters = {
        "algorithm": Param(
            "backtracking",
            "the library solver: backtracking (smallest domain first, at every node), "
            "optimized (static order), recursive, minconflicts (local search, incomplete)",
            ALGORITHMS,
        ),
        "forwardcheck": Param(True, "prune peers' domains after each assignment"),
        "steps": Param(1000, "minconflicts: repair steps before giving up"),
        "seed": Param(0, "minconflicts: random seed"),
    }

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        import constraint

        options = self.options
        start = time.perf_counter()
        watchdog = _watchdog_class()(limits)
        problem = constraint.Problem(
            _library_solver(
                options["algorithm"], options["forwardcheck"], options["steps"], options["seed"]
            )
        )
        n = puzzle.size
        digits = range(1, n + 1)
        for cell, given in enumerate(puzzle.cells):
            problem.addVariable(cell, [given] if given else digits)
        problem.addConstraint(watchdog)  # first: called for every value tried
        if puzzle.constraints:
            post(problem, puzzle)
        else:
            for unit in puzzle.shape.units:
                problem.addConstraint(constraint.AllDifferentConstraint(), unit)
        build = time.perf_counter() - start

        solutions: list[Grid] = []
        stopped: Status | None = None
        exhausted = False
        start = time.perf_counter()
        try:
            if options["algorithm"] == "minconflicts":
                found = problem.getSolution()
                if found is not None:
                    solutions.append(_grid(puzzle, found))
            else:
                for found in problem.getSolutionIter():
                    solutions.append(_grid(puzzle, found))
                    if len(solutions) >= limit:
                        break
                else:
                    exhausted = True
        except _Interrupted as stop:
            stopped = stop.status
        stats = {
            "nodes": watchdog.nodes,
            "build_seconds": build,
            "solve_seconds": time.perf_counter() - start,
            **phases(setup=build, search=time.perf_counter() - start),
            "algorithm": options["algorithm"],
        }
        return counted_result(solutions, exhausted, stats, stopped)


def _grid(puzzle: Grid, assignment: dict[int, int]) -> Grid:
    """A solution grid from the library's {variable: value} answer."""
    return puzzle.replace([assignment[cell] for cell in range(len(puzzle.cells))])
