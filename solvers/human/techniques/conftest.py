"""Without the ``fast`` extra, skip collecting the compiled static kernel (it imports
numba and NumPy); `nested` takes the pure-Python route then."""

import importlib.util

if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore = ["static_kernel.py"]
