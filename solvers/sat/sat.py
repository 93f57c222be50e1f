"""Sudoku as CNF on PySAT's CDCL solvers, with the encodings of Lynce & Ouaknine.

The encodings live in `solvers.sat.cnf`.  One Boolean per (cell, digit).
``encoding=minimal``: every cell holds at least one digit, and every unit
holds each digit at most once (pairwise clauses).  ``encoding=extended`` adds
the redundant halves: every cell holds at most one digit, and every unit
holds each digit at least once.  The redundant clauses let unit propagation
see hidden singles, so the extended encoding needs far less search on hard
puzzles (the study's finding).  Givens are unit clauses.  The clauses of a
shape's empty grid are generated once and
reused; each puzzle gets a fresh solver.

``backend=cadical|glucose`` picks the newest CaDiCaL or Glucose that the
installed python-sat ships (the exact engine is recorded as
``stats["engine"]``).  Counting adds a blocking clause per solution found.

Loading the clauses (one PySAT call each, about 12,000 for a 9x9 grid in
the extended encoding) costs more than solving most 9x9 puzzles.
``incremental=true`` loads each shape once per solver instance and passes
the givens as assumptions; blocking clauses carry a selector literal that
is retired after the puzzle.  That is sound (everything the solver learns
follows from the encoding) and much faster, but a puzzle's effort then
depends on the puzzles solved before it, so it is not the default.

Puzzles with constraints (every kind of `solvers.variants`) get clauses of
their own from `solvers.sat.variant_cnf` (sums as ladders of partial sums,
order and dot relations as direct clauses; ``sums=combinations`` encodes
killer cages by their allowed digit sets instead), always on a fresh solver:
``incremental`` applies to classic puzzles only.

Limits: without them the solver runs to the end.  With them it runs in
slices (``solve_limited`` under a conflict or decision budget), checking the
clock between slices: CaDiCaL cannot be interrupted from outside in PySAT.
``budget`` counts nodes, that is decisions, exactly on CaDiCaL (PySAT's
``dec_budget``).  Glucose has no decision limit: there it caps conflicts, and
decisions between solutions; Glucose checks its limits only between restarts,
so it overshoots (easy puzzles are solved before the first restart).  Statistics come from the
solver's ``accum_stats()``: ``decisions`` (also ``nodes``), ``conflicts``
(also ``backtracks``), ``propagations``, ``restarts``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from solvers.base import (
    Limits,
    Param,
    Solver,
    SolveResult,
    Status,
    counted_result,
    extra_hint,
    phases,
)
from solvers.grid import Grid
from solvers.registry import register
from solvers.sat.cnf import ENCODING_HELP, ENCODINGS, clauses, literal, puzzle_clauses
from solvers.sat.variant_cnf import KINDS as VARIANT_KINDS
from solvers.sat.variant_cnf import SUMS, SUMS_HELP

# PySAT names for each backend, newest first; the first one installed is used.
ENGINES = {
    "cadical": ("cadical195", "cadical153", "cadical103"),
    "glucose": ("glucose42", "glucose4", "glucose3"),
}
SLICE = 1000  # conflicts per solve_limited call under a time limit
DECISION_SLICE = 20_000  # decisions per call under a budget (CaDiCaL)


def engine_name(backend: str) -> str:
    """The PySAT solver name used for a backend; raises when none is installed."""
    from pysat.solvers import SolverNames

    for name in ENGINES[backend]:
        if hasattr(SolverNames, name):
            return name
    raise RuntimeError(f"the installed python-sat has no {backend} solver")


def outcome(answer: object) -> str:
    """What a PySAT solve answer means: True found, False none, None stopped by a limit."""
    if answer is True:
        return "found"
    if answer is False:
        return "none"
    if answer is None:
        return "stopped"
    raise RuntimeError(f"PySAT answered {answer!r}, which sat does not map")


@register
class Sat(Solver):
    name = "sat"
    family = "sat"
    complete = True
    summary = "CNF encodings (minimal, extended) on PySAT's CaDiCaL or Glucose"
    source = "I. Lynce, J. Ouaknine, 'Sudoku as a SAT Problem' (ISAIM 2006); PySAT"
    requires = ("pysat",)
    constraint_kinds = VARIANT_KINDS
    preload = ("pysat.solvers",)
    install_hint = extra_hint("sat")
    parameters = {
        "encoding": Param("extended", ENCODING_HELP, tuple(ENCODINGS)),
        "backend": Param("cadical", "the CDCL solver", tuple(ENGINES)),
        "sums": Param("ladder", f"puzzles with constraints: {SUMS_HELP}", tuple(SUMS)),
        "incremental": Param(
            False,
            "keep one solver per shape loaded with the encoding; givens become assumptions "
            "(fast, but each puzzle's effort depends on the puzzles solved before it)",
        ),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # incremental=true: per shape, a loaded solver and the next free variable
        self._loaded: dict[tuple[int, int], tuple[Any, list[int]]] = {}

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        n = puzzle.size
        engine = engine_name(self.options["backend"])
        start = time.perf_counter()
        if puzzle.constraints:  # clauses of its own, so never the shared loaded solver
            base, _ = puzzle_clauses(puzzle, self.options["encoding"], self.options["sums"])
        else:
            base = clauses(puzzle.box_rows, puzzle.box_cols, self.options["encoding"])
        givens = [literal(n, cell, d) for cell, d in enumerate(puzzle.cells) if d]
        free = [cell for cell, d in enumerate(puzzle.cells) if not d]
        incremental = self.options["incremental"] and not puzzle.constraints
        if incremental:
            sat, next_var = self._solver_for(puzzle, engine, base)
            selector = next_var[0]  # guards this puzzle's blocking clauses
            next_var[0] += 1
            session = _Session(sat, engine, givens + [selector], selector)
        else:
            from pysat.solvers import Solver as PySatSolver

            sat = PySatSolver(name=engine, bootstrap_with=base)
            for given in givens:
                sat.add_clause([given])
            session = _Session(sat, engine, [], None)
        build = time.perf_counter() - start

        solutions: list[Grid] = []
        exhausted = False
        stopped: Status | None = None
        start = time.perf_counter()
        try:
            while True:
                meaning = outcome(session.run(limits))
                if meaning == "none":
                    exhausted = True
                    break
                if meaning == "stopped":
                    stopped = session.reason(limits)
                    break
                model = sat.get_model()
                cells = list(puzzle.cells)
                for cell in free:
                    first = cell * n
                    cells[cell] = next(d for d in range(1, n + 1) if model[first + d - 1] > 0)
                solutions.append(puzzle.replace(cells))
                if len(solutions) >= limit:
                    break
                if not free:  # a full grid: its only solution is itself
                    exhausted = True
                    break
                if session.spent()["decisions"] > limits.budget:
                    stopped = Status.BUDGET
                    break
                session.block([-literal(n, cell, cells[cell]) for cell in free])
            counters = session.spent()
        finally:
            session.close()
        stats = {
            "nodes": counters.get("decisions", 0),
            "backtracks": counters.get("conflicts", 0),
            **counters,
            "build_seconds": build,
            "solve_seconds": time.perf_counter() - start,
            **phases(setup=build, search=time.perf_counter() - start),
            "clauses": len(base) + (0 if incremental else len(givens)),
            "engine": engine,
        }
        return counted_result(solutions, exhausted, stats, stopped)

    def loaded(self) -> dict[tuple[int, int], Any]:
        """The SAT solvers this instance keeps loaded (``incremental=true``), by box shape:
        one per shape it has met, reused by every later puzzle of that shape."""
        return {shape: pair[0] for shape, pair in self._loaded.items()}

    def _solver_for(self, puzzle: Grid, engine: str, base: Sequence[list[int]]) -> Any:
        """The loaded solver of this shape (incremental mode), made on first use."""
        key = (puzzle.box_rows, puzzle.box_cols)
        if key not in self._loaded:
            from pysat.solvers import Solver as PySatSolver

            self._loaded[key] = (
                PySatSolver(name=engine, bootstrap_with=base),
                [puzzle.size**3 + 1],
            )
        return self._loaded[key]


class _Session:
    """One puzzle on one PySAT solver: its assumptions, blocking clauses, effort and limits."""

    def __init__(self, sat: Any, engine: str, assumptions: list[int], selector: int | None):
        self.sat = sat
        self.assumptions = assumptions
        self.selector = selector
        # CaDiCaL limits decisions exactly (dec_budget); Glucose only conflicts
        self.by_decisions = engine.startswith("cadical")
        self.start = dict(sat.accum_stats())

    def spent(self) -> dict[str, int]:
        """The solver's counters for this puzzle alone."""
        now = self.sat.accum_stats()
        return {key: now[key] - self.start.get(key, 0) for key in now}

    def effort(self) -> int:
        """What the budget counts: decisions (CaDiCaL) or conflicts (Glucose)."""
        return self.spent()["decisions" if self.by_decisions else "conflicts"]

    def run(self, limits: Limits) -> bool | None:
        """Solve to the end, or in slices while a limit is set (None: a limit was reached)."""
        sat, assumptions = self.sat, self.assumptions
        unbounded = limits.budget == float("inf")
        if unbounded and limits.remaining() is None:
            return sat.solve(assumptions=assumptions)
        while True:
            if limits.remaining() == 0:
                return None
            if unbounded:
                sat.conf_budget(SLICE)
            else:
                left = limits.budget - self.effort()
                if left <= 0:
                    return None
                if self.by_decisions:
                    sat.dec_budget(int(min(DECISION_SLICE, left)))
                else:
                    sat.conf_budget(int(min(SLICE, left)))
            answer = sat.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer

    def reason(self, limits: Limits) -> Status:
        """Which limit stopped the search."""
        return Status.BUDGET if self.effort() >= limits.budget else Status.TIMEOUT

    def block(self, clause: list[int]) -> None:
        """Exclude a solution (for this puzzle only, when the solver is shared)."""
        self.sat.add_clause(clause if self.selector is None else [-self.selector, *clause])

    def close(self) -> None:
        """Free a fresh solver; retire this puzzle's blocking clauses on a shared one."""
        if self.selector is None:
            self.sat.delete()
        else:
            self.sat.add_clause([-self.selector])
