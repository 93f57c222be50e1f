"""OR-Tools CP-SAT on Sudoku: the two classic models, with solution counting.

``model=integer`` (the default) gives each cell an integer variable 1..N and
posts ``AllDifferent`` over every row, column and box; a given is a variable
whose domain is its digit.  ``model=boolean`` is the exact-cover view: one
Boolean per (cell, digit), exactly one digit per cell and exactly one cell
per (unit, digit), a given fixing its Boolean to true.  The model of the
empty grid is built once per shape and cloned per puzzle (for the Boolean
model, 30 times cheaper than building it); givens then narrow domains.

Counting (``limit >= 2``) has two strategies.  ``counting=enumerate`` (the
default) runs one search with CP-SAT's solution enumeration and stops after
``limit`` solutions.  ``counting=block`` solves, forbids the solution found
and solves again: each call gets CP-SAT's full presolve, which enumeration
has to weaken, but pays for it again, and the forbidden tuples pile up, so it
loses on easy puzzles and on large limits.  A plain solve (full presolve)
answers ``limit=1`` either way.  CP-SAT enumerates with one worker only: with
several (``workers`` other than 1) it may report one solution twice, which
would read as a false MULTIPLE, so counting then always blocks.

Puzzles with constraints (killer cages, thermometers, jigsaw regions, every
kind of `solvers.variants`) are modelled per puzzle by
`solvers.cp.cpsat_variants`, in either model, and counted the same way.

Limits: ``time_limit`` becomes ``max_time_in_seconds`` (what is left of it
after model building).  CP-SAT has no limit on branches, so ``budget`` caps
its *conflicts* (``max_number_of_conflicts``, deterministic with one worker)
within a search, and branches between solutions: counting stops at the first
solution found after ``budget`` branches.  Statistics: ``num_branches`` (also ``nodes``),
``num_conflicts`` (also ``backtracks``), CP-SAT's ``wall_time``, and
``build_seconds`` / ``solve_seconds`` measured here, so the model-building
share is visible.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from solvers.base import (
    Limits,
    Param,
    Solver,
    SolveResult,
    Status,
    UnknownOption,
    counted_result,
    phases,
)
from solvers.cp.cpsat_variants import KINDS as VARIANT_KINDS
from solvers.cp.cpsat_variants import variant_model
from solvers.grid import Grid
from solvers.registry import register

# What each CP-SAT status says about one solve call (names from cp_model.proto).
FOUND = "found"  # a solution (OPTIMAL: with enumeration, every solution was listed)
PARTIAL = "partial"  # a solution, search not finished (FEASIBLE)
NONE = "none"  # proved: no (further) solution (INFEASIBLE)
STOPPED = "stopped"  # a limit stopped it before any answer (UNKNOWN)
BROKEN = "broken"  # the model was rejected (MODEL_INVALID)

STATUS_MEANING: dict[str, str] = {
    "OPTIMAL": FOUND,
    "FEASIBLE": PARTIAL,
    "INFEASIBLE": NONE,
    "UNKNOWN": STOPPED,
    "MODEL_INVALID": BROKEN,
}


def status_meaning(code: Any) -> str:
    """The meaning of a CP-SAT status code; raises on a status this module does not know."""
    from ortools.sat import cp_model_pb2

    try:
        name = cp_model_pb2.CpSolverStatus.Name(code)
    except ValueError:
        name = None
    if name not in STATUS_MEANING:
        raise RuntimeError(f"CP-SAT returned status {code} ({name}), which cpsat does not map")
    return STATUS_MEANING[name]


@cache
def _template(box_rows: int, box_cols: int, kind: str) -> Any:
    """The model of the empty grid of a shape, built once and cloned per puzzle.

    Variable ``i`` is cell ``i`` (integer model) or (cell ``i // N``, digit
    ``i % N + 1``) (Boolean model); cloning it costs a fraction of building it.
    """
    from ortools.sat.python import cp_model

    grid = Grid.empty(box_rows, box_cols)
    n, units = grid.size, grid.shape.units
    model = cp_model.CpModel()
    if kind == "integer":
        x = [model.new_int_var(1, n, "") for _ in grid.cells]
        for unit in units:
            model.add_all_different([x[c] for c in unit])
    else:
        b = [[model.new_bool_var("") for _ in range(n)] for _ in grid.cells]
        for literals in b:
            model.add_exactly_one(literals)
        for unit in units:
            for d in range(n):
                model.add_exactly_one([b[c][d] for c in unit])
    return model


class _Model:
    """A CP-SAT model of one puzzle, with what is needed to read and forbid solutions."""

    def __init__(self, puzzle: Grid, kind: str) -> None:
        self.puzzle = puzzle
        self.kind = kind
        if puzzle.constraints:
            self.model = variant_model(puzzle, kind)
        else:
            self.model = _template(puzzle.box_rows, puzzle.box_cols, kind).clone()
        self.free = [i for i, v in enumerate(puzzle.cells) if not v]
        n = puzzle.size
        variables = self.model.proto.variables
        for cell, digit in enumerate(puzzle.cells):
            if not digit:
                continue
            if kind == "integer":  # the domain 1..N becomes the given digit
                domain = variables[cell].domain
                domain[0] = domain[1] = digit
            else:  # the Boolean (cell, given digit) is fixed to true
                variables[cell * n + digit - 1].domain[0] = 1

    def read(self, response: Any) -> Grid:
        """The solution in a CP-SAT response (of the solver or of a callback)."""
        values = response.solution
        cells = list(self.puzzle.cells)
        if self.kind == "integer":
            for i in self.free:
                cells[i] = values[i]
        else:
            n = self.puzzle.size
            for i in self.free:
                base = i * n
                cells[i] = next(d + 1 for d in range(n) if values[base + d])
        return self.puzzle.replace(cells)

    def forbid(self, solution: Grid) -> None:
        """Add a constraint that excludes `solution` (and nothing else)."""
        model, n = self.model, self.puzzle.size
        if self.kind == "integer":
            model.add_forbidden_assignments(
                [model.get_int_var_from_proto_index(i) for i in self.free],
                [tuple(solution.cells[i] for i in self.free)],
            )
        else:
            model.add_bool_or(
                [
                    ~model.get_bool_var_from_proto_index(i * n + solution.cells[i] - 1)
                    for i in self.free
                ]
            )


@cache
def _collector_class() -> type:
    """A solution callback that keeps each solution and stops at the limit (built lazily)."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self, model: _Model, limit: int, budget: float) -> None:
            super().__init__()
            self.cp_model = model
            self.limit = limit
            self.budget = budget
            self.over_budget = False
            self.solutions: list[Grid] = []

        def on_solution_callback(self) -> None:
            solution = self.cp_model.read(self.response_proto)
            if solution in self.solutions:  # never with one worker; a guard all the same
                return
            self.solutions.append(solution)
            if len(self.solutions) >= self.limit:
                self.stop_search()
            elif self.num_branches > self.budget:
                self.over_budget = True
                self.stop_search()

    return Collector


@register
class CpSat(Solver):
    name = "cpsat"
    family = "cp"
    complete = True
    summary = "OR-Tools CP-SAT: AllDifferent over integer cells, or the Boolean exact-cover model"
    source = "L. Perron, F. Didier, OR-Tools CP-SAT (Google); models as in the CP-SAT primer"
    requires = ("ortools",)
    constraint_kinds = VARIANT_KINDS
    preload = ("ortools.sat.python.cp_model", "ortools.sat.cp_model_pb2")
    install_hint = "pip install ortools"
    parameters = {
        "model": Param(
            "integer",
            "integer: AllDifferent over 1..N cell variables; boolean: exactly-one per "
            "cell and per (unit, digit) over (cell, digit) Booleans",
            ("integer", "boolean"),
        ),
        "workers": Param(1, "CP-SAT search workers (num_workers); 0 = CP-SAT's default"),
        "seed": Param(0, "CP-SAT random_seed"),
        "counting": Param(
            "enumerate",
            "limit >= 2: enumerate (one search listing solutions) or block (forbid each "
            "solution and solve again)",
            ("enumerate", "block"),
        ),
    }
    gaps = {
        "check_budget": "CP-SAT has no limit on branches: budget caps its conflicts within "
        "a search (max_number_of_conflicts), so a search may spend more than `budget` nodes",
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["workers"] < 0:
            raise UnknownOption(f"parameter workers={self.options['workers']}: expected >= 0")

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        model = _Model(puzzle, self.options["model"])
        build = time.perf_counter() - start
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.options["workers"]
        solver.parameters.random_seed = self.options["seed"]
        enumerate_ = (
            limit > 1 and self.options["counting"] == "enumerate" and self.options["workers"] == 1
        )
        solver.parameters.enumerate_all_solutions = enumerate_
        totals = {"num_branches": 0, "num_conflicts": 0, "wall_time": 0.0, "solve_seconds": 0.0}
        solutions: list[Grid] = []
        exhausted = False
        stopped: Status | None = None
        message = ""
        solves = 0
        while True:
            if not self._set_limits(solver, limits, totals):
                stopped = _stop_reason(limits, totals)
                break
            collector = _collector_class()(model, limit, limits.budget) if enumerate_ else None
            began = time.perf_counter()
            code = solver.solve(model.model, collector)
            totals["solve_seconds"] += time.perf_counter() - began
            solves += 1
            for key in ("num_branches", "num_conflicts", "wall_time"):
                totals[key] += getattr(solver, key)
            meaning = status_meaning(code)
            if meaning == BROKEN:
                message = f"CP-SAT rejected the model: {model.model.validate()}"
                stopped = Status.ERROR
                break
            if collector is not None:  # one enumerating search answers everything
                solutions = collector.solutions
                exhausted = meaning in (FOUND, NONE) and len(solutions) < limit
                if collector.over_budget:
                    stopped, exhausted = Status.BUDGET, False
                elif not exhausted and len(solutions) < limit:
                    stopped = _stop_reason(limits, totals)
                break
            if meaning == NONE:
                exhausted = True
                break
            if meaning == STOPPED:
                stopped = _stop_reason(limits, totals)
                break
            solutions.append(model.read(solver.response_proto))
            if len(solutions) >= limit:
                break
            if not model.free:  # a full grid: its only solution is itself
                exhausted = True
                break
            model.forbid(solutions[-1])
        stats = {
            "nodes": totals["num_branches"],
            "backtracks": totals["num_conflicts"],
            **totals,
            "build_seconds": build,
            **phases(setup=build, search=totals["wall_time"], calls=solves),
            "solves": solves,
            "workers": self.options["workers"],
            "model": self.options["model"],
            "counting": "enumerate" if enumerate_ else "block",
        }
        if stopped is Status.ERROR:
            message = message or "CP-SAT stopped unfinished although no limit was set"
            return SolveResult(Status.ERROR, tuple(solutions), False, stats, message=message)
        return counted_result(solutions, exhausted, stats, stopped)

    @staticmethod
    def _set_limits(solver: Any, limits: Limits, totals: dict[str, Any]) -> bool:
        """Pass what is left of the limits to CP-SAT; False when nothing is left."""
        remaining = limits.remaining()
        if remaining is not None:
            if remaining <= 0:
                return False
            solver.parameters.max_time_in_seconds = remaining
        if limits.budget != float("inf"):
            left = int(limits.budget) - totals["num_conflicts"]
            if left < 0 or totals["num_branches"] > limits.budget:
                return False
            solver.parameters.max_number_of_conflicts = left
        return True


def _stop_reason(limits: Limits, totals: dict[str, Any]) -> Status:
    """Which limit ended a search that CP-SAT reports as unfinished."""
    if totals["num_conflicts"] >= limits.budget:
        return Status.BUDGET
    if limits.remaining() is not None:
        return Status.TIMEOUT
    if totals["num_branches"] > limits.budget:
        return Status.BUDGET
    return Status.ERROR  # unfinished with no limit set: CP-SAT gave up on its own
