"""Without the ``fast`` extra, skip collecting the modules that import numba or NumPy.

Only the package itself and the registered solver class import without them.
"""

import importlib.util
from pathlib import Path

_LIGHT = {"__init__.py", "solver.py", "conftest.py"}

if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore = [p.name for p in Path(__file__).parent.glob("*.py") if p.name not in _LIGHT]
