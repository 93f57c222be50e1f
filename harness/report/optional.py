"""The optional statistics packages: imported on demand, or a note that says what to install.

scipy (the Friedman test, Kaplan–Meier estimates, rank correlations) and
scikit-posthocs (the Nemenyi post-hoc test and the critical-difference
diagram) come with the ``stats`` extra.  Without them a report leaves those
statistics out and says which command brings them.
"""

from __future__ import annotations

import importlib
from typing import Any

INSTALL = "pip install 'sudoku-bench[stats]'"


class MissingStats(ImportError):
    """A statistics package is not installed; the message names the install command."""


def need(module: str, purpose: str) -> Any:
    """Import `module` for `purpose`, or raise `MissingStats` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingStats(
            f"{purpose} needs {module.split('.')[0]}, which is not installed: {INSTALL}"
        ) from None
