"""No process outlives a run: workers die with the run, and whatever a solve starts dies with it.

Three mechanisms, each for a way a process can escape (Linux; elsewhere
they do nothing and a run keeps the process groups of `solvers.external`):

- **Parent death.**  A worker asks the kernel for ``SIGKILL`` when its
  parent (the fork server, which ends with the run however the run ends)
  dies (`die_with_parent`), so a worker stuck in C code cannot outlive a
  ``kill -9`` of the run.
- **A subreaper.**  A worker adopts every orphan among its descendants
  (`become_subreaper`), even one that left its process group with
  ``setsid``, so `sweep` can kill all of them after each solve.
- **A marker.**  The run puts ``SUDOKU_BENCH_OWNER=<pid>-<start>`` in its
  environment before its workers start (`claim`); every process they start
  inherits it.  `strays` finds marked processes that are no longer below the
  run (orphans of a killed worker), and `stale` finds those of a run that
  is gone, for the next run on the same database to kill and report.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable

import psutil

from solvers.external.process import PRCTL

MARKER = "SUDOKU_BENCH_OWNER"
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def die_with_parent(expected_parent: int | None = None) -> bool:
    """Have the kernel SIGKILL this process when its parent dies; False where it cannot.

    With `expected_parent`, a process whose parent already changed (it died
    before the request took effect) exits at once.
    """
    if PRCTL is None or PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if expected_parent is not None and os.getppid() != expected_parent:
        os._exit(1)
    return True


def become_subreaper() -> bool:
    """Adopt orphaned descendants instead of init, so `sweep` can reach them; False where
    the system cannot."""
    return PRCTL is not None and PRCTL(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def token(pid: int | None = None) -> str:
    """The marker value of a process: its pid and start time (pids are reused)."""
    process = psutil.Process(pid)
    return f"{process.pid}-{int(process.create_time() * 100)}"


def claim() -> str:
    """Mark this process and everything it starts from now on as this run's (idempotent)."""
    mine = token()
    os.environ[MARKER] = mine
    return mine


def owner_alive(value: str) -> bool:
    """Whether the process a marker value names is still running."""
    pid, _, _ = value.partition("-")
    try:
        return token(int(pid)) == value
    except (ValueError, psutil.Error):
        return False


def _marker_of(process: psutil.Process) -> str | None:
    try:
        return process.environ().get(MARKER)
    except (psutil.Error, OSError):
        return None


def marked(values: Iterable[str]) -> list[psutil.Process]:
    """This user's processes (not this one) that carry one of these marker values."""
    wanted, me = set(values), os.getpid()
    uid = os.getuid() if hasattr(os, "getuid") else None
    found = []
    for process in processes():
        if process.pid == me:
            continue
        with contextlib.suppress(psutil.Error):
            if uid is not None and process.uids().real != uid:
                continue
        if _marker_of(process) in wanted:
            found.append(process)
    return found


def processes() -> list[psutil.Process]:
    """Every process now running, freshly looked up (``psutil.process_iter`` reuses objects
    across calls, which go stale where pids are reused quickly)."""
    found = []
    for pid in psutil.pids():
        with contextlib.suppress(psutil.Error):
            found.append(psutil.Process(pid))
    return found


def strays(value: str) -> list[psutil.Process]:
    """Processes marked with `value` that are no longer below this process (their worker
    was killed, and they were handed to init)."""
    below = {p.pid for p in _descendants(os.getpid())}
    return [p for p in marked([value]) if p.pid not in below]


def stale() -> dict[str, list[psutil.Process]]:
    """Marked processes whose owner is gone, by marker value."""
    found: dict[str, list[psutil.Process]] = {}
    for process in processes():
        value = _marker_of(process)
        if value and process.pid != os.getpid() and not owner_alive(value):
            found.setdefault(value, []).append(process)
    return found


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def kill(processes: Iterable[psutil.Process], wait: float = 2.0) -> int:
    """SIGKILL these processes and wait for them to go (reaping our children); how many
    were killed."""
    victims = []
    for process in processes:
        with contextlib.suppress(psutil.Error):
            process.kill()
            victims.append(process)
    if victims:
        psutil.wait_procs(victims, timeout=wait)
    return len(victims)


def children() -> set[int] | None:
    """The pids of this process's children, read cheaply from ``/proc`` (None where the
    system does not list them)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    found: set[int] = set()
    opened = 0
    for tid in tasks:
        try:  # os.open and os.read: a third of the cost of open(); this runs after every solve
            fd = os.open(f"/proc/self/task/{tid}/children", os.O_RDONLY)
        except OSError:
            continue  # a thread that just ended (or a kernel without these files)
        opened += 1
        try:
            found.update(int(pid) for pid in os.read(fd, 1 << 16).split())
        except OSError:
            return None
        finally:
            os.close(fd)
    return found if opened else None


def sweep(keep: Callable[[], Iterable[int]] = tuple) -> int:
    """Kill every descendant of this process except the trees rooted at the pids `keep()`
    gives (the persistent programs a solver still talks to); how many were killed."""
    listed = children()
    if listed is not None and not listed:
        return 0  # the usual case, checked in microseconds
    kept_roots = set(keep())
    if listed is not None and listed <= kept_roots:
        return 0
    kept: set[int] = set()
    for pid in kept_roots:
        kept.add(pid)
        kept.update(p.pid for p in _descendants(pid))
    return kill(p for p in _descendants(os.getpid()) if p.pid not in kept)


class Guard:
    """A small process that outlives this one to kill what it leaves, however it dies.

    It waits for the end of a pipe from this process; `close` tells it all is
    well.  If this process dies first (``kill -9``, a crash), it kills every
    process carrying this run's marker: workers and their orphans alike.
    """

    def __init__(self, value: str) -> None:
        import subprocess

        self.value = value
        self._process: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError):  # no guard: the next run cleans up (runlock)
            self._process = subprocess.Popen(
                [sys.executable, "-m", "harness.containment", value],
                stdin=subprocess.PIPE,
                start_new_session=True,  # not in the run's process group: it outlives a Ctrl-C
                close_fds=True,
            )

    def close(self) -> None:
        """Let the guard go without killing anything."""
        process, self._process = self._process, None
        if process is None or process.stdin is None:
            return
        with contextlib.suppress(OSError):
            process.stdin.write(b"done\n")
            process.stdin.close()
        with contextlib.suppress(Exception):
            process.wait(timeout=5)


def guard(value: str, settle: float = 3.0) -> int:
    """The guard's own loop: wait for its owner to end; if it ended without saying so, kill
    its marked processes until none are left for `settle` seconds."""
    import time

    said = sys.stdin.buffer.read()
    if said.startswith(b"done"):
        return 0
    killed, quiet_since = 0, time.monotonic()
    while time.monotonic() - quiet_since < settle:
        found = kill(marked([value]), wait=0.5)
        if found:
            killed, quiet_since = killed + found, time.monotonic()
        time.sleep(0.1)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(guard(sys.argv[1]))
