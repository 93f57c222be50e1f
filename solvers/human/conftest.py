"""Without the ``fast`` extra, skip collecting the compiled HoDoKu tables, chains and
subsets (they import numba); the HoDoKu-order pass takes its pure-Python routes then."""

import importlib.util

if importlib.util.find_spec("numba") is None:
    collect_ignore = [
        "hodoku_chain_kernel.py",
        "hodoku_kernel.py",
        "hodoku_subset_kernel.py",
    ]
