"""Registry: lookup, specs with parameters, clear errors, registration."""

from __future__ import annotations

import pytest

import solvers
from solvers import (
    Limits,
    Param,
    Solver,
    SolveResult,
    Status,
    UnknownOption,
    UnknownSolver,
    registry,
)


def test_builtin_names_and_lookup():
    assert "dlx" in solvers.names()
    assert solvers.get("dlx").name == "dlx"


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(UnknownSolver, match="choose one of: .*dlx"):
        solvers.get("nosuch")


@pytest.mark.parametrize(
    ("spec", "name", "options"),
    [
        ("dlx", "dlx", {}),
        ("cpsat[workers=1]", "cpsat", {"workers": "1"}),
        (" cpsat[workers=1, model=boolean] ", "cpsat", {"workers": "1", "model": "boolean"}),
    ],
)
def test_parse_spec(spec, name, options):
    assert solvers.parse_spec(spec) == (name, options)


@pytest.mark.parametrize("spec", ["cpsat[workers]", "a b", "x[=1]"])
def test_bad_specs(spec):
    with pytest.raises(UnknownOption):
        solvers.parse_spec(spec)


class _Toy(Solver):
    name = "toy-for-tests"
    family = "search"
    complete = False
    summary = "test double"
    source = "tests"
    parameters = {
        "depth": Param(2, "how deep", choices=(1, 2, 3)),
        "greedy": Param(False, "a flag"),
        "order": Param("reading", "wheel order", choices=("reading", "fewest")),
    }

    def _solve(self, puzzle, limit, limits: Limits, trace):
        return SolveResult(Status.STUCK, stats={"depth": self.options["depth"]})


@pytest.fixture
def toy():
    """`_Toy` registered for one test, then forgotten (it must not leak into tables)."""
    solvers.register(_Toy)
    yield
    registry.unregister(_Toy.name)


def test_register_and_parameters(toy):
    toy = solvers.get("toy-for-tests[depth=3,greedy=yes]")
    assert toy.options == {"depth": 3, "greedy": True, "order": "reading"}
    assert toy.spec == "toy-for-tests[depth=3,greedy=true]"
    assert solvers.get(toy.spec).options == toy.options
    with pytest.raises(UnknownOption, match="expected one of 1, 2, 3"):
        solvers.get("toy-for-tests", depth=7)
    with pytest.raises(UnknownOption, match="expected a int"):
        solvers.get("toy-for-tests[depth=deep]")
    with pytest.raises(UnknownOption, match="has no parameter colour"):
        solvers.get("toy-for-tests", colour="red")


def test_abstract_solver_cannot_be_instantiated():
    class Half(Solver):
        name = "half"
        family = "search"
        complete = False
        summary = source = ""

    with pytest.raises(TypeError, match="_solve"):
        Half()


def test_solve_rejects_bad_arguments():
    dlx = solvers.get("dlx")
    grid = solvers.Grid.empty(2)
    for kwargs in ({"limit": 0}, {"time_limit": -1}, {"budget": -5}):
        with pytest.raises(ValueError, match="must be"):
            dlx.solve(grid, **kwargs)
    with pytest.raises(TypeError):
        dlx.solve("1...3..2...3..2.")  # type: ignore[arg-type]
