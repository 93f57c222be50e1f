"""Fixtures shared by the test modules."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from solvers import registry

TESTS = Path(__file__).resolve().parent
PLUGINS = str(TESTS / "plugins")  # faulty_solvers.py: alone, so it shadows no package


@pytest.fixture
def faulty() -> Iterator[None]:
    """Let the faulty test solvers (tests/plugins/faulty_solvers.py) be registered for one
    test, then forget them, so they never leak into the conformance suite."""
    yield
    for name in ("faulty", "faulty9"):
        registry.unregister(name)
    sys.modules.pop("faulty_solvers", None)
    if PLUGINS in sys.path:
        sys.path.remove(PLUGINS)


EXTERNAL = TESTS / "external"
# The C test solver, three ways: line protocol, one process per puzzle with the
# puzzle in a file, and with the puzzle on standard input.
C_SOLVERS = {
    "csolver": ('command = "./solver"', "line"),
    "csolver-file": ('command = "./solver --once {file}"', "per-puzzle"),
    "csolver-stdin": ('command = "./solver --once"', "per-puzzle"),
}


@pytest.fixture(scope="session")
def c_solver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/external/solver.c built with the system compiler, once per session."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc or gcc) on PATH: the external-solver tests build one")
    out = tmp_path_factory.mktemp("external") / "solver"
    subprocess.run(
        [compiler, "-O2", "-o", str(out), str(EXTERNAL / "solver.c")],
        check=True,
        capture_output=True,
    )
    return out


@pytest.fixture(scope="session")
def c_solvers_file(c_solver: Path) -> Path:
    """A solvers file beside the binary defining the `C_SOLVERS` (relative commands)."""
    path = c_solver.parent / "solvers.toml"
    path.write_text(
        "".join(
            f'[[solver]]\nname = "{name}"\n{command}\nprotocol = "{protocol}"\n'
            'complete = true\nreports_time = true\nsummary = "the C test solver"\n\n'
            for name, (command, protocol) in C_SOLVERS.items()
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def c_solvers(c_solvers_file: Path) -> Iterator[list[str]]:
    """The `C_SOLVERS` registered for one test, then forgotten (they never leak elsewhere)."""
    from solvers.external import load_definitions

    yield load_definitions(c_solvers_file)
    for name in C_SOLVERS:
        registry.unregister(name)


@pytest.fixture(params=list(C_SOLVERS))
def c_solver_name(request: pytest.FixtureRequest, c_solvers: list[str]) -> str:
    """Each of the `C_SOLVERS` in turn, registered."""
    return request.param
