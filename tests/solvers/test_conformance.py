"""Every registered solver against the shared conformance suite (`solvers.testing`).

Ids read ``dlx-check_unsolvable``, so ``pytest -k dlx`` or ``-k check_budget`` select.
Declared gaps become strict xfails; a solver whose backend is not installed is
skipped with the command that installs it.  A solver that needs options to run
(``external`` needs a program) is checked through a real program instead: the C
test solver (tests/external/solver.c), built with the system compiler, under
both protocols.
"""

from __future__ import annotations

import pytest

import solvers
from solvers.testing import CHECKS, applicable


def _cases():
    for name in solvers.names(runtime=False):
        cls = solvers.solver_class(name)
        for check_name in CHECKS:
            marks = []
            if not cls.standalone:
                marks.append(pytest.mark.skip(reason=f"{name} needs options: see test_c_external"))
            elif not cls.supported():
                marks.append(pytest.mark.skip(reason=f"not installed: {cls.install_hint}"))
            elif reason := applicable(name, check_name):
                marks.append(pytest.mark.skip(reason=reason))
            elif check_name in cls.gaps:
                marks.append(pytest.mark.xfail(reason=cls.gaps[check_name], strict=True))
            yield pytest.param(name, check_name, id=f"{name}-{check_name}", marks=marks)


@pytest.mark.parametrize(("name", "check_name"), list(_cases()))
def test_conformance(name: str, check_name: str) -> None:
    CHECKS[check_name](name)


@pytest.mark.parametrize("check_name", list(CHECKS))
def test_c_external(check_name: str, c_solver_name: str) -> None:
    """The C test solver as a named external solver, under each protocol."""
    CHECKS[check_name](c_solver_name)
