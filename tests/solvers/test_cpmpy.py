"""The `cpmpy` adapter on every installed CPMpy backend (at least OR-Tools and PySAT here).

The status mapping is pinned against CPMpy's `ExitStatus`; each installed
backend passes the conformance suite (less the declared budget gap) and
counts like dlx; a missing backend is refused with CPMpy's install command.
Skipped, with the install command as the reason, where CPMpy is missing.
"""

from __future__ import annotations

import pytest

import solvers
from solvers import Grid, Status
from solvers.cp import cpmpy as cm
from solvers.registry import SolverUnavailable
from solvers.testing import (
    CHECKS,
    PUZZLE_4X4,
    PUZZLE_4X4_UNSOLVABLE,
    PUZZLE_9X9_HARDER,
    PUZZLE_9X9_TWO_SOLUTIONS,
    applicable,
)

if not cm.CPMpy.supported():
    pytest.skip(f"not installed: {cm.INSTALL}", allow_module_level=True)

from cpmpy.solvers.solver_interface import ExitStatus  # noqa: E402

# The backends the tests try; each is skipped with CPMpy's install command when missing.
WANTED = ["ortools", "pysat", "z3", "exact", "choco", "pumpkin", "gcs"]
AVAILABLE = cm.backends()


def _backend(name: str):
    hint = AVAILABLE.get(name, "unknown to this CPMpy")
    return pytest.param(name, marks=pytest.mark.skipif(bool(hint), reason=f"not installed: {hint}"))


BACKENDS = [_backend(name) for name in WANTED]


def test_every_cpmpy_status_is_mapped():
    assert set(cm.STATUS_MEANING) == {s.name for s in ExitStatus}


@pytest.mark.parametrize(
    ("name", "meaning"),
    [
        ("OPTIMAL", cm.COMPLETE),
        ("FEASIBLE", cm.FOUND),
        ("UNSATISFIABLE", cm.NONE),
        ("UNKNOWN", cm.STOPPED),
        ("ERROR", cm.BROKEN),
        ("NOT_RUN", cm.BROKEN),
    ],
)
def test_cpmpy_status_meaning(name, meaning):
    assert cm.status_meaning(ExitStatus[name]) == meaning


def test_unknown_cpmpy_status_raises():
    with pytest.raises(RuntimeError, match="does not map"):
        cm.status_meaning("SOMETHING_NEW")


def test_at_least_two_backends_are_installed():
    installed = [name for name, hint in AVAILABLE.items() if not hint]
    assert {"ortools", "pysat"} <= set(installed), AVAILABLE


def test_missing_backends_say_what_to_install():
    missing = {name: hint for name, hint in AVAILABLE.items() if hint}
    for name, hint in missing.items():
        assert hint.startswith("pip install") or "upgrade" in hint or "Install" in hint, name
    if "exact" in missing:
        assert missing["exact"] == "pip install 'cpmpy[exact]'"


# Checks too slow on a backend to run in the tests, with why (measured here).
SLOW = {"z3": {"check_empty_grid": "z3 needs about 25 s for one solution of the empty 9x9 grid"}}


@pytest.mark.parametrize("backend", BACKENDS)
def test_conformance_on_every_installed_backend(backend):
    spec = f"cpmpy[backend={backend}]"
    skipped = set(cm.CPMpy.gaps) | set(SLOW.get(backend, {}))
    failures = {}
    for name, check in CHECKS.items():
        if name in skipped or applicable("cpmpy", name):
            continue
        try:
            check(spec)
        except AssertionError as exc:
            failures[name] = str(exc)
    assert failures == {}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("text", "status", "count"),
    [
        (PUZZLE_4X4_UNSOLVABLE, Status.UNSOLVABLE, 0),
        (PUZZLE_9X9_HARDER, Status.SOLVED, 1),
        (PUZZLE_9X9_TWO_SOLUTIONS, Status.MULTIPLE, 2),
    ],
)
def test_counts_like_dlx(backend, text, status, count):
    puzzle = Grid.parse(text)
    result = solvers.get("cpmpy", backend=backend).solve(puzzle, limit=3)
    reference = solvers.get("dlx").solve(puzzle, limit=3)
    assert (result.status, len(result.solutions)) == (status, count)
    assert set(result.solutions) == set(reference.solutions)
    assert result.exhausted
    assert result.stats["backend"].startswith(backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_limit_stops_without_claiming_exhaustion(backend):
    result = solvers.get("cpmpy", backend=backend).solve(Grid.empty(2), limit=4)
    assert (result.status, len(result.solutions), result.exhausted) == (Status.MULTIPLE, 4, False)


def test_a_budget_is_refused_not_ignored():
    result = solvers.get("cpmpy").solve(Grid.parse(PUZZLE_4X4), budget=10)
    assert result.status is Status.ERROR
    assert "budget" in result.message


def test_ortools_counters_are_normalised():
    stats = solvers.get("cpmpy").solve(Grid.parse(PUZZLE_9X9_HARDER)).stats
    assert stats["nodes"] == stats["num_branches"]
    assert stats["backtracks"] == stats["num_conflicts"]


def test_an_unknown_or_missing_backend_is_refused():
    with pytest.raises(SolverUnavailable, match="no backend 'nonesuch'"):
        solvers.get("cpmpy[backend=nonesuch]")
    missing = [name for name, hint in AVAILABLE.items() if hint]
    if missing:
        with pytest.raises(SolverUnavailable, match="is not installed"):
            solvers.get("cpmpy", backend=missing[0])
