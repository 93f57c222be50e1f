"""Without the ``fast`` extra, skip collecting the compiled HoDoKu tables (they import numba);
the HoDoKu-order pass takes its pure-Python route then."""

import importlib.util

if importlib.util.find_spec("numba") is None:
    collect_ignore = ["hodoku_kernel.py"]
