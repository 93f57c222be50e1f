"""One CPMpy model of Sudoku, solved by any installed CPMpy backend.

The model: an integer variable 1..N per cell, ``AllDifferent`` over every
row, column and box, and a given as an equality.  ``backend=ortools`` (the
default; CPMpy depends on OR-Tools) or any name CPMpy's ``SolverLookup``
knows: ``pysat``, ``z3``, ``exact``, ``choco``, ``pumpkin``, ``gcs``,
``minizinc`` ... and sub-solvers such as ``pysat:glucose4``.  `backends()`
says which are installed and, for the others, the ``pip install`` CPMpy
asks for.

Puzzles with constraints (every kind of `solvers.variants`) are modelled per
puzzle by `solvers.cp.cpmpy_variants`; a backend that cannot compile one of
its constraints answers ERROR, naming it, rather than solve another puzzle.

Counting: ``solveAll(solution_limit=limit)``, CPMpy's own enumeration
(native for OR-Tools, blocking clauses for the others); ``time_limit``
goes to it.  CPMpy has no backend-neutral effort limit, so ``budget`` is
refused with ``ERROR`` (a declared conformance gap).  Statuses after the
enumeration map one to one (an unknown one raises): ``OPTIMAL``: every
solution listed; ``FEASIBLE``: stopped at the limit or by the clock;
``UNSATISFIABLE``: none; ``UNKNOWN``: the clock stopped it first;
``ERROR`` / ``NOT_RUN``: the backend failed.  OR-Tools' branch and conflict
counts become ``nodes`` and ``backtracks``; other backends report times only.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Mapping
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
from solvers.cp.cpmpy_variants import KINDS as VARIANT_KINDS
from solvers.cp.cpmpy_variants import variant_model
from solvers.grid import Grid
from solvers.registry import SolverUnavailable, register

COMPLETE = "complete"  # every solution listed
FOUND = "found"  # solutions, search not finished
NONE = "none"  # proved: no solution
STOPPED = "stopped"  # a limit stopped it before any solution
BROKEN = "broken"  # the backend failed

STATUS_MEANING: Mapping[str, str] = {
    "OPTIMAL": COMPLETE,
    "FEASIBLE": FOUND,
    "UNSATISFIABLE": NONE,
    "UNKNOWN": STOPPED,
    "ERROR": BROKEN,
    "NOT_RUN": BROKEN,
}
INSTALL = extra_hint("cpmpy")


def status_meaning(status: Any) -> str:
    """The meaning of a CPMpy `ExitStatus`; raises on one this module does not know."""
    name = getattr(status, "name", None)
    if not isinstance(name, str) or name not in STATUS_MEANING:
        raise RuntimeError(f"CPMpy returned status {status!r}, which cpmpy does not map")
    return STATUS_MEANING[name]


def _missing(cls: Any) -> str:
    """What to install for a backend CPMpy does not support here: the pip command when
    CPMpy names a Python package, else CPMpy's own words."""
    try:
        cls()
    except Exception as exc:  # CPMpy raises its install hint from the constructor
        text = str(exc)
    else:
        return "installed, but CPMpy reports it unsupported"
    package = re.search(r"python package '([^']+)'", text)
    if package and "SCIP" not in text:
        return f"pip install '{package.group(1)}'"
    return text


def backends() -> dict[str, str]:
    """Every CPMpy backend: '' when installed, else what to install."""
    from cpmpy import SolverLookup

    return {
        name: "" if cls.supported() else _missing(cls) for name, cls in SolverLookup.base_solvers()
    }


@cache
def _template(box_rows: int, box_cols: int) -> tuple[Any, list[Any]]:
    """The variables and constraints of an empty grid of a shape (built once)."""
    import cpmpy as cp

    shape = Grid.empty(box_rows, box_cols).shape
    n = shape.size
    x = cp.intvar(1, n, shape=n * n, name="x")
    constraints = [cp.AllDifferent([x[c] for c in unit]) for unit in shape.units]
    return x, constraints


@register
class CPMpy(Solver):
    name = "cpmpy"
    family = "cp"
    complete = True
    summary = (
        "one CPMpy model (AllDifferent per unit) on any installed CPMpy backend "
        "(backend=ortools, pysat, z3, exact, choco, ...); counts with solveAll"
    )
    source = "CPMpy (Guns, ModRef 2019) and its backends"
    requires = ("cpmpy",)
    constraint_kinds = VARIANT_KINDS
    preload = ("cpmpy",)
    install_hint = INSTALL
    in_default_study = False  # the same backends as cpsat and sat, plus a model layer: when named
    parameters = {
        "backend": Param("ortools", "a CPMpy solver name (SolverLookup), e.g. ortools, pysat, z3")
    }
    gaps = {
        "check_budget": "CPMpy has no backend-neutral effort limit: a budget is refused (ERROR)"
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        from cpmpy import SolverLookup

        backend = self.options["backend"]
        known = dict(SolverLookup.base_solvers())
        cls = known.get(backend.split(":", 1)[0])  # looked up here: CPMpy's own miss warns
        if cls is None:
            raise SolverUnavailable(
                f"CPMpy has no backend {backend!r}; its backends: {', '.join(known)}"
            )
        if not cls.supported():
            raise SolverUnavailable(f"CPMpy backend {backend!r} is not installed: {_missing(cls)}")

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        from cpmpy import SolverLookup
        from cpmpy.exceptions import NotSupportedError

        if limits.budget != float("inf"):
            return SolveResult(Status.ERROR, message="cpmpy cannot limit effort: no budget")
        start = time.perf_counter()
        if puzzle.constraints:
            x, constraints = variant_model(puzzle)
        else:
            x, constraints = _template(puzzle.box_rows, puzzle.box_cols)
        solver = SolverLookup.get(self.options["backend"])
        try:
            solver += constraints
        except (NotSupportedError, ImportError) as exc:  # a backend cannot compile one
            kinds = ", ".join(sorted({c.kind for c in puzzle.constraints})) or "classic"
            return SolveResult(
                Status.ERROR,
                message=f"CPMpy backend {self.options['backend']} cannot take {kinds}: {exc}",
            )
        solver += [x[c] == d for c, d in enumerate(puzzle.cells) if d]
        build = time.perf_counter() - start
        found: list[Grid] = []

        def keep() -> None:
            found.append(puzzle.replace([int(v) for v in x.value()]))

        remaining = limits.remaining()
        if remaining == 0:
            return SolveResult(Status.TIMEOUT)
        start = time.perf_counter()
        with warnings.catch_warnings():  # "solver state will be invalid": it is thrown away
            warnings.simplefilter("ignore", UserWarning)
            solver.solveAll(display=keep, time_limit=remaining, solution_limit=limit)
        status = solver.status()
        meaning = status_meaning(status.exitstatus)
        stats = {
            **_native(solver),
            "build_seconds": build,
            "solve_seconds": time.perf_counter() - start,
            **phases(setup=build, search=time.perf_counter() - start),
            "backend": f"{self.options['backend']} {_version(solver)}",
        }
        if meaning == BROKEN:
            return SolveResult(
                Status.ERROR, stats=stats, message=f"CPMpy status {status.exitstatus.name}"
            )
        stopped = None
        if meaning == STOPPED or (meaning == FOUND and len(found) < limit):
            if remaining is None:
                return SolveResult(Status.ERROR, stats=stats, message="CPMpy stopped, no limit set")
            stopped = Status.TIMEOUT
        return counted_result(found[:limit], meaning in (COMPLETE, NONE), stats, stopped)


def _native(solver: Any) -> dict[str, Any]:
    """The backend's search counters where CPMpy exposes them (OR-Tools)."""
    native = getattr(solver, "ort_solver", None)
    if native is None:
        return {}
    branches, conflicts = int(native.num_branches), int(native.num_conflicts)
    return {
        "nodes": branches,
        "backtracks": conflicts,
        "num_branches": branches,
        "num_conflicts": conflicts,
    }


def _version(solver: Any) -> str:
    try:
        return str(solver.version())
    except Exception:  # a backend without a version call
        return "unknown"
