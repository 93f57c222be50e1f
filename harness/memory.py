"""The memory limit: a solver's resident memory, child processes included, watched from outside.

``--memory M`` gives each solver M MB of resident memory (RSS): what it holds
once loaded in a fresh worker (its *footprint*: imports, JIT compilation,
warm-up; measured before the run by `harness.footprint`), plus what a batch
of its solves adds to the worker and the worker's child processes.  A worker
announces each batch on a pipe with its ceiling (its resident memory at the
start of the batch, plus M minus the solver's footprint) and announces the
end; a `Watcher` thread in the parent reads the memory of every busy worker
and its descendants every `INTERVAL` seconds, and kills the whole tree of a
worker above its ceiling.  The executor then records the batch ``MEMOUT``
(see `harness.executors`).

Why resident memory and not address space (``RLIMIT_AS``): threaded runtimes
(OR-Tools, numba's LLVM, OpenBLAS) reserve far more address space than they
touch, so an address-space limit fails them in their start-up for memory they
never use, and it counts each child process on its own instead of together.
Why from the parent: a thread inside the worker cannot run while a solver's
native code holds the GIL, and would take the GIL from the solve being timed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import struct
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psutil

from harness.tasks import Batch, WorkerSettings

MB = 1 << 20
INTERVAL = 0.02  # seconds between two readings of a busy worker's memory
RESCAN = 0.25  # seconds between two searches for a busy worker's child processes
_MESSAGE = struct.Struct("qq")  # (worker pid, ceiling in bytes; 0 when the batch ends)


def descendants(pid: int) -> list[int]:
    """The pids of a process's children, grandchildren and so on (none once it is gone)."""
    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []


def resident(pids: Iterable[int]) -> int:
    """Resident bytes of these processes together (those gone count nothing)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            total += psutil.Process(pid).memory_info().rss
    return total


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all of its descendants."""
    return resident([pid, *descendants(pid)])


def budget(settings: WorkerSettings, batch: Batch) -> int | None:
    """Bytes a batch may add to its worker's resident memory; None when no limit applies."""
    if not settings.memory_mb or settings.watch is None:
        return None
    loaded = dict(settings.footprints).get(batch.spec) or 0
    return max(0, settings.memory_mb - loaded) * MB


@contextlib.contextmanager
def ceiling(settings: WorkerSettings, batch: Batch) -> Iterator[None]:
    """In a worker: announce the batch's memory ceiling to the parent's watcher, and its end."""
    allowed = budget(settings, batch)
    if allowed is None:
        yield
        return
    pid = os.getpid()
    announce(settings.watch, pid, tree_rss(pid) + allowed)
    try:
        yield
    finally:
        announce(settings.watch, pid, 0)


def announce(channel: Any, pid: int, ceiling: int) -> None:
    """Tell a watcher that process `pid` may hold `ceiling` bytes from now on (0: no limit)."""
    with contextlib.suppress(OSError):  # the parent is gone: nobody is left to watch
        channel.send_bytes(_MESSAGE.pack(pid, ceiling))


@dataclass
class _Busy:
    """A worker in a batch: its ceiling, and its process tree as last searched."""

    ceiling: int
    pids: list[int] = field(default_factory=list)
    searched: float = -1.0


class Watcher:
    """A thread that kills the process tree of any worker above its announced ceiling.

    Workers write to `channel` (pass it to them in `WorkerSettings.watch`);
    `killed(pid)` tells the executor whether a worker that died was killed
    here, and by how much it was over its ceiling then.
    """

    def __init__(self, interval: float = INTERVAL, rescan: float = RESCAN) -> None:
        self.interval, self.rescan = interval, rescan
        self._reader, self.channel = multiprocessing.Pipe(duplex=False)
        self._busy: dict[int, _Busy] = {}
        self._killed: dict[int, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="memory-watcher", daemon=True)
        self._thread.start()

    def killed(self, pid: int | None) -> int | None:
        """Bytes the worker `pid` held over its ceiling when this watcher killed it, else None."""
        with self._lock:
            return self._killed.pop(pid, None) if pid is not None else None

    def close(self) -> None:
        """Stop watching and close the pipe."""
        self._stop.set()
        self._thread.join()
        self._reader.close()
        self.channel.close()

    def _watch(self) -> None:
        while not self._stop.is_set():
            self._read(self.interval)
            self._check()

    def _read(self, timeout: float) -> None:
        """Take in the announcements waiting on the pipe (waiting up to `timeout` for one)."""
        try:
            ready = self._reader.poll(timeout)
            while ready:
                pid, ceiling = _MESSAGE.unpack(self._reader.recv_bytes())
                if ceiling:
                    self._busy[pid] = _Busy(ceiling)
                else:
                    self._busy.pop(pid, None)
                ready = self._reader.poll(0)
        except (OSError, EOFError):
            self._stop.set()

    def _check(self) -> None:
        now = time.monotonic()
        for pid, busy in list(self._busy.items()):
            if now - busy.searched >= self.rescan:
                busy.pids, busy.searched = [pid, *descendants(pid)], now
            if not psutil.pid_exists(pid):
                self._busy.pop(pid, None)  # killed for its time, or crashed
                continue
            used = resident(busy.pids)
            if used <= busy.ceiling:
                continue
            self._read(0)  # a batch that has just ended is no longer held to its ceiling
            if self._busy.get(pid) is busy:
                self._kill(pid, used - busy.ceiling)

    def _kill(self, pid: int, over: int) -> None:
        """Kill a worker and its descendants, children first, remembering why."""
        self._busy.pop(pid, None)
        with self._lock:
            self._killed[pid] = over
        for victim in [*descendants(pid), pid]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(victim, signal.SIGKILL)
