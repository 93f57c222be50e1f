"""Every registered solver against the shared conformance suite (`solvers.testing`).

Ids read ``dlx-check_unsolvable``, so ``pytest -k dlx`` or ``-k check_budget`` select.
Declared gaps become strict xfails; a solver whose backend is not installed is
skipped with the command that installs it.
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
            if not cls.supported():
                marks.append(pytest.mark.skip(reason=f"not installed: {cls.install_hint}"))
            elif reason := applicable(name, check_name):
                marks.append(pytest.mark.skip(reason=reason))
            elif check_name in cls.gaps:
                marks.append(pytest.mark.xfail(reason=cls.gaps[check_name], strict=True))
            yield pytest.param(name, check_name, id=f"{name}-{check_name}", marks=marks)


@pytest.mark.parametrize(("name", "check_name"), list(_cases()))
def test_conformance(name: str, check_name: str) -> None:
    CHECKS[check_name](name)
