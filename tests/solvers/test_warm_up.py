"""`Solver.warm_up` leaves nothing for the first timed solve to import.

The harness calls `warm_up` in every worker before any limit is armed; an
import left to the first solve runs inside its time limit, where (on a loaded
machine) it can be cut short, and a C extension cut short in its import stays
broken for the rest of the process.  Each solver runs in a fresh interpreter,
so what it imports is seen from an empty module table.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import solvers

PROBE = """
import json, sys
import solvers
from solvers.grid import easy_grid
solver = solvers.get(sys.argv[1])
solver.warm_up()
before = set(sys.modules)
solver.solve(easy_grid(3, 3), limit=2, time_limit=60)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _names() -> list[object]:
    cases = []
    for name in solvers.names(runtime=False):
        cls = solvers.solver_class(name)
        marks = []
        if not cls.standalone:
            marks.append(pytest.mark.skip(reason=f"{name} needs options"))
        elif not cls.supported():
            marks.append(pytest.mark.skip(reason=f"not installed: {cls.install_hint}"))
        cases.append(pytest.param(name, marks=marks))
    return cases


@pytest.mark.parametrize("name", _names())
def test_the_first_solve_imports_nothing_new(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, name], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    outside = [m for m in imported if m.split(".")[0].lstrip("_") not in sys.stdlib_module_names]
    assert not outside, f"{name}'s first solve imported {outside}: add them to its `preload`"
