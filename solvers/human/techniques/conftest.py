"""Without the ``fast`` extra, skip collecting the compiled kernels (they import numba
and NumPy); the engine takes its pure-Python routes then."""

import importlib.util

if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore = [
        "aligned_kernel.py",
        "als_kernel.py",
        "branch_kernel.py",
        "chain_bound.py",
        "static_kernel.py",
        "wing_kernel.py",
    ]
