"""Up-front checks of a study: each bad value refused with one line before anything runs.

A value that passes here can be used everywhere downstream: a time limit
that is a finite number of seconds the clocks and timers can hold, a number
of workers the machine can start, solvers whose programs exist.

>>> check_timeout(2.5)
>>> check_timeout(float("inf"))
Traceback (most recent call last):
...
harness.errors.CommandError: --timeout must be a finite number of seconds, at most ... not inf
"""

from __future__ import annotations

import math
import resource
from collections.abc import Iterable

from harness.errors import CommandError
from solvers.base import Solver
from solvers.external.solver import ExternalSolver

MAX_TIMEOUT = 7 * 24 * 3600.0  # a week per solve: beyond it, OS timers overflow soon after
JOBS_PER_CORE = 8  # workers per usable core a run may start


def check_timeout(timeout: float) -> None:
    """A time limit per solve: positive, finite, and no longer than `MAX_TIMEOUT`."""
    if not isinstance(timeout, int | float) or isinstance(timeout, bool):
        raise CommandError(f"--timeout must be a number of seconds, not {timeout!r}")
    if not math.isfinite(timeout) or timeout > MAX_TIMEOUT:
        raise CommandError(
            f"--timeout must be a finite number of seconds, at most {MAX_TIMEOUT:.0f} "
            f"(a week), not {timeout:g}"
        )
    if not timeout > 0:
        raise CommandError(f"--timeout must be positive, not {timeout:g}")


def max_jobs(cores: int) -> int:
    """How many worker processes a run may start: `JOBS_PER_CORE` per usable core,
    and no more than the process limit (``ulimit -u``) leaves room for."""
    most = max(1, cores) * JOBS_PER_CORE
    soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    if soft != resource.RLIM_INFINITY:
        most = min(most, max(1, soft // 2))
    return most


def check_jobs(jobs: int, cores: int) -> None:
    """A number of worker processes this machine can start."""
    if jobs < 1:
        raise CommandError(f"--jobs must be at least 1, not {jobs}")
    most = max_jobs(cores)
    if jobs > most:
        raise CommandError(
            f"--jobs {jobs} is more worker processes than this machine can start for a run "
            f"(at most {most}: {JOBS_PER_CORE} per usable core, within the process limit)"
        )


def check_programs(solvers: Iterable[Solver]) -> None:
    """Every program the solvers would run exists (a missing one would fail every solve)."""
    for solver in solvers:
        if isinstance(solver, ExternalSolver):
            missing = solver.missing_program()
            if missing:
                raise CommandError(f"{solver.spec}: {missing}")
