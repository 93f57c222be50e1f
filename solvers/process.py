"""Run an outside program under a wall-clock limit, and never leave it behind.

The program starts in its own session (process group), so a limit kills it
and everything it spawned (a wrapper script and its solver) at once.  On
Linux it is also told to die with the Python process that started it, so a
worker killed by the harness does not leave solvers running.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@dataclass(frozen=True)
class Ran:
    """What a program did: exit status (negative: killed by that signal), output, time."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """In the child, before exec: ask Linux to SIGKILL it when its parent dies."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run(argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None) -> Ran:
    """Run `argv` to its end or until `timeout` seconds pass (then kill its process group)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,  # noqa: PLW1509
    )
    timed_out = False
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = proc.communicate()
    except BaseException:  # interrupted: never leave the program running
        _kill_group(proc)
        proc.wait()
        raise
    return Ran(proc.returncode, out, err, time.perf_counter() - start, timed_out)


def _kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
