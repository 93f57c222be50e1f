"""CPMpy's model of every constraint kind (`solvers.cp.cpmpy_variants`), against the
verifier over every 4x4 Latin square, on each installed backend that CPMpy compiles it for.

Asked for every solution, `cpmpy` must find exactly the squares the verifier
accepts, none twice, and prove it found them all.  A backend that cannot
compile a constraint must say so (ERROR, naming the kinds) rather than answer:
here that is PySAT without PBLib, which CPMpy needs for every linear constraint.
"""

from __future__ import annotations

import importlib.util

import pytest

import solvers
from solvers.grid import Grid
from solvers.variants import Killer
from solvers.variants.samples import SETS, accepted, latin_squares
from solvers.verify import check

cm = pytest.importorskip("solvers.cp.cpmpy")
if not cm.CPMpy.supported():
    pytest.skip(f"not installed: {cm.INSTALL}", allow_module_level=True)

from solvers.cp.cpmpy_variants import KINDS  # noqa: E402

AVAILABLE = cm.backends()
# Backends that enumerate quickly enough for every set; z3 gets the sets with few solutions.
BACKENDS = ["ortools", "z3", "pysat"]
PBLIB = importlib.util.find_spec("pypblib") is not None


@pytest.fixture(scope="module")
def every_grid():
    return latin_squares()


def test_every_kind_is_encoded_declared_and_tested():
    assert set(SETS) == set(KINDS) == set(solvers.solver_class("cpmpy").constraint_kinds)


def _cases():
    for backend in BACKENDS:
        hint = AVAILABLE.get(backend, "unknown to this CPMpy")
        marks = [pytest.mark.skipif(bool(hint), reason=f"not installed: {hint}")]
        for kind, sets in sorted(SETS.items()):
            for i, constraints in enumerate(sets):
                yield pytest.param(backend, constraints, id=f"{backend}-{kind}-{i}", marks=marks)


@pytest.mark.parametrize(("backend", "constraints"), list(_cases()))
def test_cpmpy_finds_exactly_the_grids_the_verifier_accepts(every_grid, backend, constraints):
    expected = accepted(constraints, every_grid)
    if backend == "z3" and len(expected) > 40:
        pytest.skip("z3 enumerates by blocking: only the sets with few solutions")
    puzzle = Grid.empty(2).with_constraints(constraints)
    result = solvers.get("cpmpy", backend=backend).solve(puzzle, limit=1000)
    if result.status is solvers.Status.ERROR:
        assert backend == "pysat"
        assert not PBLIB
        kinds = ", ".join(sorted({c.kind for c in constraints}))
        assert f"CPMpy backend pysat cannot take {kinds}: " in result.message
        assert "pypblib" in result.message
        return
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert result.exhausted
    for solution in result.solutions:
        assert check(puzzle, solution) == []


@pytest.mark.skipif(PBLIB or bool(AVAILABLE.get("pysat")), reason="needs pysat without pypblib")
def test_a_backend_that_cannot_compile_a_sum_answers_error_not_a_grid():
    puzzle = Grid.empty(2).with_constraints((Killer((0, 1), 3),))
    result = solvers.get("cpmpy", backend="pysat").solve(puzzle, limit=2)
    assert result.status is solvers.Status.ERROR
    assert result.solutions == ()
