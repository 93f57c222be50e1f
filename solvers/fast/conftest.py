"""Without the ``fast`` extra, skip collecting the modules that import numba or NumPy."""

import importlib.util

_NEEDS_EXTRA = ["kernels.py", "tables.py", "single.py", "batch.py", "truth.py", "benchmark.py"]

if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore = _NEEDS_EXTRA
