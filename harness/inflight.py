"""Which puzzle each worker is solving, seen from the parent: a hung solve is killed at its
limit, and a lost batch is blamed on the puzzle that was running.

A worker announces on a pipe each puzzle it starts (`announce`: its pid, the
batch's tag, the puzzle's index in the batch) and the end of the batch.  A
`Tracker` thread in the parent reads the announcements and checks every
`INTERVAL` seconds:

- a puzzle running for longer than its batch's limit (the time limit plus
  the grace) has hung where the worker's own alarm cannot reach it (C code,
  a blocked signal): the tracker kills the worker and its descendants, and
  the puzzle is ``TIMEOUT`` at once, without re-running the batch;
- a worker that vanished during a puzzle without pebble reporting a
  failure (``os._exit(0)``: pebble takes status 0 for a normal end) has
  exited during the solve: the tracker calls the batch's ``on_lost``, which
  cancels the batch, and the puzzle is ``ERROR``.

Either way `forget` tells the executor which puzzle was running, so only the
puzzles before and after it are solved again, as two batches.  Why from the
parent: a thread inside the worker cannot run while a solver's native code
holds the interpreter lock.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psutil

INTERVAL = 0.02  # seconds between two checks of the running puzzles
SETTLE = 1.0  # seconds pebble gets to report a vanished worker before it is taken as exit 0
BATCH_ENDED = -1  # the index announced when a worker ends a batch
WHOLE_BATCH = -2  # the index announced when a batch is solved in one call (no puzzle to blame)
_MESSAGE = struct.Struct("qqq")  # (worker pid, batch tag, puzzle index)


def announce(channel: Any, tag: int | None, index: int) -> None:
    """In a worker: tell the tracker that this process now solves puzzle `index` of batch
    `tag` (`BATCH_ENDED`, `WHOLE_BATCH`)."""
    if channel is None or tag is None:
        return
    with contextlib.suppress(OSError):  # the parent is gone: nobody is left to tell
        channel.send_bytes(_MESSAGE.pack(os.getpid(), tag, index))


@dataclass(frozen=True)
class Lost:
    """What the tracker knows of a batch whose worker was lost."""

    index: int  # the puzzle that was running (WHOLE_BATCH: the batch was one call)
    seconds: float  # how long it had been running
    hung: bool  # killed here for running past its limit
    vanished: bool  # the worker was gone with no failure reported


@dataclass
class _Expected:
    limit: float
    on_lost: Callable[[], object]
    pid: int = 0
    index: int = BATCH_ENDED
    since: float = 0.0
    lost: Lost | None = None
    gone_at: float | None = None


class Tracker:
    """A thread that follows the puzzle each worker is on (see the module's docstring)."""

    def __init__(
        self, interval: float = INTERVAL, settle: float = SETTLE, *, watch: bool = True
    ) -> None:
        """`watch` False: no thread; the caller calls `read` and `check` (tests do)."""
        self.interval, self.settle = interval, settle
        self._reader, self.channel = multiprocessing.Pipe(duplex=False)
        self._batches: dict[int, _Expected] = {}
        self._lock = threading.Lock()
        self._reading = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="inflight", daemon=True)
        if watch:
            self._thread.start()

    def expect(self, tag: int, limit: float, on_lost: Callable[[], object]) -> None:
        """Follow batch `tag`: a puzzle of it may run `limit` seconds; `on_lost` is called
        if its worker vanishes with no failure reported."""
        with self._lock:
            self._batches[tag] = _Expected(limit, on_lost)

    def forget(self, tag: int) -> Lost | None:
        """Stop following batch `tag`; what was known when its worker was lost, if it was
        (read it after the batch failed: the last announcement may still be on its way)."""
        self.read(0)
        with self._lock:
            expected = self._batches.pop(tag, None)
        if expected is None:
            return None
        if expected.lost is not None:
            return expected.lost
        if expected.index == BATCH_ENDED:
            return None
        return Lost(expected.index, time.monotonic() - expected.since, False, False)

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._reader.close()
        self.channel.close()

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.read(self.interval)
            self.check()

    def read(self, timeout: float) -> None:
        """Take in the announcements on the pipe, waiting up to `timeout` for the first
        (the wait holds no lock: `expect` and `forget` are never kept waiting)."""
        try:
            if timeout and not self._reader.poll(timeout):
                return
            with self._reading:  # one reader at a time: `forget` reads too
                while self._reader.poll(0):
                    pid, tag, index = _MESSAGE.unpack(self._reader.recv_bytes())
                    with self._lock:
                        expected = self._batches.get(tag)
                        if expected is not None and expected.lost is None:
                            expected.pid, expected.index = pid, index
                            expected.since = time.monotonic()
        except (OSError, EOFError):
            self._stop.set()

    def check(self) -> None:
        """Kill the puzzles past their limit; mark the batches whose worker vanished (and
        call their `on_lost` once pebble has had `settle` seconds to report it)."""
        with self._lock:
            gone = {
                e.pid
                for e in self._batches.values()
                if e.pid and e.index != BATCH_ENDED and e.lost is None and not _running(e.pid)
            }
        if gone:
            # A worker that announced a puzzle and died at once, after the last read,
            # left that announcement on the pipe: read it, or the puzzle before it is blamed.
            self.read(0)
        now = time.monotonic()
        call = []
        with self._lock:
            for expected in self._batches.values():
                if expected.pid == 0 or expected.index == BATCH_ENDED:
                    continue
                if expected.lost is not None:
                    if expected.gone_at is not None and now - expected.gone_at >= self.settle:
                        expected.gone_at = None  # once
                        call.append(expected.on_lost)
                    continue
                seconds = now - expected.since
                if expected.pid in gone:  # (one that died since is seen at the next check)
                    expected.lost = Lost(expected.index, seconds, False, True)
                    expected.gone_at = now
                elif expected.index >= 0 and seconds > expected.limit:
                    expected.lost = Lost(expected.index, seconds, True, False)
                    _kill_tree(expected.pid)
        for on_lost in call:
            with contextlib.suppress(Exception):
                on_lost()


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _kill_tree(pid: int) -> None:
    """Kill a worker and its descendants, children first."""
    try:
        below = [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        below = []
    for victim in [*below, pid]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(victim, signal.SIGKILL)
