"""One process per run: a lock a run holds while it executes, so a second
``run --resume`` of the same run is refused instead of solving the same tasks.

The lock is an OS file lock (``flock``) on a file next to the database,
``DB.run-ID.lock``, holding the owner's pid, host and start time for the
message, and the marker its processes carry (`harness.containment`).  The
kernel releases it when its process ends, however it ends, so a crashed run
leaves no stale lock: the file may stay, but nobody holds it.  The next run
on the database reads such files and kills the processes the dead run left
(`clean_stale`).

>>> import tempfile, os
>>> db = os.path.join(tempfile.mkdtemp(), "study.sqlite")
>>> with hold_run(db, 1):
...     hold_run(db, 1)
Traceback (most recent call last):
...
harness.runlock.RunLocked: run 1 of ... is running (pid ...); wait for it to finish, or stop it ...
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path
from typing import IO

from harness import containment
from harness.errors import CommandError
from harness.store import now

try:
    import fcntl
except ImportError:  # Windows: no flock; runs go unguarded there
    fcntl = None  # type: ignore[assignment]


class RunLocked(CommandError):
    """Another process is executing the run."""


class RunLock:
    """A held lock; `release` (or leaving the `with` block) gives it up."""

    def __init__(self, path: Path | None, handle: IO[str] | None) -> None:
        self.path, self._handle = path, handle

    def release(self) -> None:
        if self._handle is None or self.path is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()  # removed while still held: a waiting locker re-checks the inode
        self._handle.close()  # closing releases the flock
        self._handle = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock_path(db: str, run_id: int) -> Path:
    return Path(f"{db}.run-{run_id}.lock")


def hold_run(db: str, run_id: int) -> RunLock:
    """Take the lock of run `run_id` in database `db`; `RunLocked` says who holds it."""
    if db == ":memory:" or fcntl is None:
        return RunLock(None, None)  # nobody else can reach an in-memory database
    path = lock_path(db, run_id)
    while True:
        handle = path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.readline().strip() or "another process"
            handle.close()
            raise RunLocked(
                f"run {run_id} of {db} is running ({holder}); wait for it to finish, or stop it "
                f"(Ctrl-C or kill PID: what it finished stays stored) and resume it again"
            ) from None
        try:
            same = os.fstat(handle.fileno()).st_ino == path.stat().st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()  # the holder removed the file as we locked it: lock the new one
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()} on {socket.gethostname()}, since {now()}\n")
    handle.write(f"{containment.MARKER}={containment.token()}\n")
    handle.flush()
    return RunLock(path, handle)


def clean_stale(db: str) -> list[str]:
    """Kill the processes left by dead runs on database `db` (their lock files, which
    nobody holds, name their marker); one line per run for the user."""
    if db == ":memory:" or fcntl is None:
        return []
    lines = []
    for path in sorted(Path(db).parent.glob(f"{Path(db).name}.run-*.lock")):
        try:
            with path.open("r", encoding="utf-8") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except OSError:
                    continue  # held: that run is alive
                text = handle.read()
        except OSError:
            continue
        first, _, rest = text.partition("\n")
        key, _, value = rest.strip().partition("=")
        if key != containment.MARKER or not value or containment.owner_alive(value):
            continue
        left = containment.marked([value])
        killed = containment.kill(left)
        if killed:
            run = path.name.removeprefix(f"{Path(db).name}.").removesuffix(".lock")
            lines.append(
                f"{killed} processes of a dead run ({run}, {first.strip()}) were still "
                "running; they were killed"
            )
    return lines
