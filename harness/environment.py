"""What a run records about where it ran: versions, machine, and the project's git commit.

Timings mean little without their context, so every run stores these next
to its settings (the reports print them).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from solvers.registry import get, parse_spec, solver_class

# Distributions whose versions affect results: the project, its backends, the harness.
PACKAGES = (
    "sudoku-bench",
    "ortools",
    "python-constraint2",
    "python-sat",
    "numba",
    "numpy",
    "pebble",
    "dask",
    "distributed",
)

PROJECT = Path(__file__).resolve().parent.parent


def versions(solver_specs: Sequence[str] = ()) -> dict[str, str]:
    """Python and the installed versions of `PACKAGES` (missing ones left out), and
    the version of each solver in `solver_specs` that runs a program of its own
    (a ``program_version()`` method), under its spec."""
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    for spec in solver_specs:
        if hasattr(solver_class(parse_spec(spec)[0]), "program_version"):
            solver: Any = get(spec)
            found[spec] = solver.program_version() or "unknown"
    return found


RECORDED_COMMIT = Path(__file__).resolve().parent / "_commit.txt"  # written by setup.py


def git_commit(path: Path = PROJECT, recorded: Path = RECORDED_COMMIT) -> str | None:
    """The commit the project is checked out at (``+dirty`` with local changes); for an
    installed copy, without git, the commit its build recorded; else None."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        try:
            return recorded.read_text(encoding="utf-8").strip() or None
        except OSError:
            return None
    return f"{commit}+dirty" if dirty else commit


def machine() -> dict[str, Any]:
    """CPU model, core count, memory, OS and host name."""
    info: dict[str, Any] = {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_mb": _memory_mb(),
        "system": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "host": platform.node(),
        "python_executable": sys.executable,
    }
    return {k: v for k, v in info.items() if v is not None}


def load_average() -> list[float] | None:
    """The system load averages over 1, 5 and 15 minutes (None where unknown).

    Recorded when a run starts and when it ends: a busy machine slows every
    solve, and the load says how busy it was.
    """
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def usable_cores() -> int:
    """Cores this process may run on (the default number of workers)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _memory_mb() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (ValueError, OSError, AttributeError):
        return None
