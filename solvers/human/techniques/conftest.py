"""Without the ``fast`` extra, skip collecting the modules that import numba (the
compiled kernels; the engine runs without them)."""

import importlib.util

if importlib.util.find_spec("numba") is None:
    collect_ignore = ["plus_kernel.py"]
