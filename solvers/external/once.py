"""Run an outside program once under a wall-clock limit, and never leave it behind.

The starting and killing are `external`'s (`solvers.external.process`): the
program runs in its own session, so a limit kills it and everything it spawned
(a wrapper script and its solver) at once, and on Linux it dies with the
Python process that started it (through ``setpriv --pdeathsig``, which keeps
process creation cheap).  Unlike `external`'s one-answer runs, any exit status
is returned: SAT solvers answer with 10 and 20.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from solvers.external.process import ProgramFailed, kill_group, spawn

STDERR_TAIL = 4000  # characters of standard error kept


@dataclass(frozen=True)
class Ran:
    """What a program did: exit status (negative: killed by that signal), output, time."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool


def run(argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None) -> Ran:
    """Run `argv` to its end or until `timeout` seconds pass (then kill its process group).

    A program that cannot be started is reported as exit status 127 with the reason.
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="a+b") as err:
        try:
            proc = spawn(
                argv, None, subprocess.PIPE if stdin is not None else subprocess.DEVNULL, err
            )
        except ProgramFailed as exc:
            return Ran(127, "", str(exc), time.perf_counter() - start, False)
        timed_out = False
        out = b""
        try:
            out, _ = proc.communicate(None if stdin is None else stdin.encode(), timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            kill_group(proc)  # on a limit, an interruption, and whatever it left running
        err.seek(0)
        text = err.read().decode("utf-8", "replace")[-STDERR_TAIL:]
    returncode = proc.returncode if proc.returncode is not None else -9
    return Ran(
        returncode, out.decode("utf-8", "replace"), text, time.perf_counter() - start, timed_out
    )
