"""A MiniZinc model of Sudoku, solved by any solver MiniZinc lists (Gecode by default).

The model is the one a MiniZinc user writes: a variable 1..N per cell,
``alldifferent`` over every row, column and box, a given fixing its cell;
the box shape comes in as data, so one model serves every size.  It runs
through the `minizinc` Python package and the MiniZinc tool chain (Debian:
``apt-get install minizinc``, which brings Gecode).  ``solver=gecode`` is a
MiniZinc solver tag or id (``minizinc --solvers`` lists them).

Puzzles with constraints (every kind of `solvers.variants`) get a model of
their own, written by `solvers.cp.minizinc_variants` with the same data.

Counting: ``nr_solutions=limit``; MiniZinc's ``ALL_SOLUTIONS`` means the
search ended, so the count is complete.  Limits: ``time_limit`` goes to
MiniZinc (``--time-limit``, which covers compiling the model too);
``budget`` becomes Gecode's node cutoff (``-node``), which other solvers do
not have.  Statistics: ``nodes``, ``failures`` (also ``backtracks``),
``propagations`` from the solver, and MiniZinc's times in seconds
(``flatTime``: compiling to FlatZinc, ``solveTime``: the search).
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Mapping
from datetime import timedelta
from functools import cache
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
from solvers.cp.minizinc_variants import KINDS as VARIANT_KINDS
from solvers.cp.minizinc_variants import model_text
from solvers.grid import Grid
from solvers.registry import SolverUnavailable, register

MODEL = """\
% Sudoku for any box shape: BR rows by BC columns per box, side N = BR * BC.
include "alldifferent.mzn";
int: BR;
int: BC;
int: N = BR * BC;
array[1..N, 1..N] of 0..N: givens;  % 0 = empty
array[1..N, 1..N] of var 1..N: x;
constraint forall(r, c in 1..N where givens[r, c] > 0)(x[r, c] = givens[r, c]);
constraint forall(r in 1..N)(alldifferent(x[r, ..]));
constraint forall(c in 1..N)(alldifferent(x[.., c]));
constraint forall(band in 0..BC - 1, stack in 0..BR - 1)(
  alldifferent([x[band * BR + i, stack * BC + j] | i in 1..BR, j in 1..BC]));
solve satisfy;
"""

# What each MiniZinc status says about one search.
FOUND = "found"  # solutions, search not finished (stopped at nr_solutions or by a limit)
COMPLETE = "complete"  # the search ended: every solution was listed
NONE = "none"  # proved: no solution
STOPPED = "stopped"  # a limit stopped it before any solution
BROKEN = "broken"  # MiniZinc or the solver failed

STATUS_MEANING: Mapping[str, str] = {
    "SATISFIED": FOUND,
    "ALL_SOLUTIONS": COMPLETE,
    "OPTIMAL_SOLUTION": COMPLETE,  # the same end-of-search mark, for optimisation models
    "UNSATISFIABLE": NONE,
    "UNKNOWN": STOPPED,
    "UNBOUNDED": BROKEN,  # meaningless for a satisfaction model
    "ERROR": BROKEN,
}
INSTALL = f"apt-get install minizinc (brings Gecode) and {extra_hint('minizinc')}"


def status_meaning(status: Any) -> str:
    """The meaning of a MiniZinc `Status`; raises on a status this module does not know."""
    name = getattr(status, "name", None)
    if not isinstance(name, str) or name not in STATUS_MEANING:
        raise RuntimeError(f"MiniZinc returned status {status!r}, which minizinc does not map")
    return STATUS_MEANING[name]


def data(puzzle: Grid) -> dict[str, Any]:
    """The model's data for a puzzle."""
    n = puzzle.size
    cells = puzzle.cells
    return {
        "BR": puzzle.box_rows,
        "BC": puzzle.box_cols,
        "givens": [list(cells[r * n : (r + 1) * n]) for r in range(n)],
    }


def dzn(puzzle: Grid) -> str:
    """The puzzle as a MiniZinc data file (for ``minizinc sudoku.mzn puzzle.dzn``)."""
    values = data(puzzle)
    rows = " |\n   ".join(", ".join(map(str, row)) for row in values["givens"])
    return f"BR = {values['BR']};\nBC = {values['BC']};\ngivens = [|\n   {rows} |];\n"


@cache
def _model() -> Any:
    import minizinc

    model = minizinc.Model()
    model.add_string(MODEL)
    return model


def model_for(puzzle: Grid) -> str:
    """The model text of a puzzle: `MODEL` for classic Sudoku, its own for one with
    constraints (`solvers.cp.minizinc_variants`); `dzn` is the data of either."""
    return model_text(puzzle) if puzzle.constraints else MODEL


@cache
def _backend(tag: str) -> Any:
    """MiniZinc's solver for a tag or id; raises SolverUnavailable when it lists none."""
    import minizinc

    try:
        return minizinc.Solver.lookup(tag)
    except LookupError:
        raise SolverUnavailable(
            f"MiniZinc has no solver {tag!r} (see 'minizinc --solvers'); {INSTALL}"
        ) from None


def _number(value: Any) -> Any:
    """A statistic as plain data: durations in seconds."""
    return value.total_seconds() if isinstance(value, timedelta) else value


@register
class MiniZinc(Solver):
    name = "minizinc"
    timed = "process"  # MiniZinc's compiler and solver processes, start-up included
    family = "cp"
    complete = True
    summary = (
        "a MiniZinc model (alldifferent per unit) solved by a solver MiniZinc lists "
        "(solver=gecode ...); counts with nr_solutions"
    )
    source = "MiniZinc (Nethercote et al., CP 2007) and Gecode, through the minizinc package"
    requires = ("minizinc",)
    constraint_kinds = VARIANT_KINDS
    preload = ("minizinc",)
    install_hint = INSTALL
    in_default_study = False  # an outside program per solve: run when named
    parameters = {
        "solver": Param("gecode", "a MiniZinc solver tag or id ('minizinc --solvers' lists them)")
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.backend = _backend(self.options["solver"])

    @classmethod
    def supported(cls) -> bool:
        """The Python package and the MiniZinc driver are both installed."""
        return super().supported() and shutil.which("minizinc") is not None

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        import minizinc

        if puzzle.constraints:
            model = minizinc.Model()
            model.add_string(model_text(puzzle))
        else:
            model = _model()
        instance = minizinc.Instance(self.backend, model)
        for key, value in data(puzzle).items():
            instance[key] = value
        flags: dict[str, Any] = {}
        if limits.budget != float("inf") and "-node" in _extra_flags(self.backend):
            flags["-node"] = str(int(limits.budget))
        remaining = limits.remaining()
        if remaining == 0:
            return SolveResult(Status.TIMEOUT)
        timeout = timedelta(seconds=remaining) if remaining is not None else None
        if "-n" in self.backend.stdFlags:
            flags["nr_solutions"] = limit
        elif limit > 1:
            return SolveResult(
                Status.ERROR,
                message=f"MiniZinc's {self.backend.name} cannot list several solutions (no -n)",
            )
        try:
            with warnings.catch_warnings():  # Debian's Gecode library triggers deprecations
                warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
                result = instance.solve(time_limit=timeout, **flags)
        except minizinc.error.MiniZincError as exc:
            return SolveResult(Status.ERROR, message=f"MiniZinc: {exc}")
        meaning = status_meaning(result.status)
        raw = {k: _number(v) for k, v in result.statistics.items()}
        stats = {
            "nodes": raw.get("nodes", 0),
            "backtracks": raw.get("failures", 0),
            **raw,
            **phases(setup=raw.get("flatTime"), search=raw.get("solveTime")),
            "solver": f"{self.backend.name} {self.backend.version}",
        }
        if meaning == BROKEN:
            return SolveResult(
                Status.ERROR, stats=stats, message=f"MiniZinc status {result.status.name}"
            )
        found = result.solution if meaning in (FOUND, COMPLETE) else []
        if not isinstance(found, list):  # one solution asked for without -n
            found = [found]
        solutions = [puzzle.replace([v for row in s.x for v in row]) for s in found]
        exhausted = meaning in (COMPLETE, NONE)
        stopped = None
        if meaning == STOPPED or (meaning == FOUND and len(solutions) < limit):
            stopped = self._why_stopped(limits, raw)
            if stopped is None:
                return SolveResult(
                    Status.ERROR, stats=stats, message="MiniZinc stopped with no limit set"
                )
        return counted_result(solutions, exhausted, stats, stopped)

    @staticmethod
    def _why_stopped(limits: Limits, raw: Mapping[str, Any]) -> Status | None:
        if limits.budget != float("inf") and raw.get("nodes", 0) >= limits.budget:
            return Status.BUDGET
        if limits.remaining() is not None:
            return Status.TIMEOUT
        return None


def _extra_flags(backend: Any) -> set[str]:
    return {flag[0] for flag in getattr(backend, "extraFlags", [])}
