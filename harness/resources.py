"""What one solve costs beyond wall time: CPU of the whole process tree, and peak memory.

A `Meter` is read around the timed span of a solve (`harness.measure`), in
the process that runs it:

- **CPU**: this process's CPU time (every thread: `time.process_time`), plus
  its children's.  Children that ended during the solve are counted exactly
  from the kernel's accounting of reaped children (``getrusage`` with
  ``RUSAGE_CHILDREN``: a per-puzzle program, a SAT binary, MiniZinc's
  processes); children still alive (a persistent program answering through a
  pipe) are read with psutil before and after.
- **Peak memory**: the resident-set high-water mark (RSS) of this process
  during the solve, and the largest of its children's.  Linux keeps a
  high-water mark per process that can be reset (``/proc/PID/clear_refs``),
  so the mark is reset before the solve and read after it, for this process
  and each live child; programs that begin and end within the solve
  (``process`` spans) are sampled every few milliseconds (`Sampler`: the
  kernel's record of reaped children starts from the worker's own size, so it
  cannot tell a small program's peak).  Where the mark
  cannot be reset (not Linux), the figure is the high-water mark since the
  process started, and `METHOD` says so.

Children are read only for solvers whose span is not ``call`` (a solver that
declares it runs programs): reading a process tree costs tens of
microseconds, which microsecond solvers should not pay between solves.
Everything here happens outside the timed span.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
import threading
import time
from dataclasses import dataclass

import psutil

MB = 1024 * 1024
SAMPLE_SECONDS = 0.002  # between two readings of the children's memory in a `process` span
_RESETTABLE = sys.platform.startswith("linux") and os.path.exists("/proc/self/clear_refs")
METHOD = (
    "CPU: process time of the worker (all threads) plus its children (getrusage of reaped "
    "children, psutil for live ones); peak memory: "
    + (
        "resident high-water mark reset before each solve (Linux clear_refs) and read after, "
        "for the worker and each live child; programs started for a puzzle sampled every 2 ms"
        if _RESETTABLE
        else "resident high-water mark of the worker since it started (cannot be reset here)"
    )
)


@dataclass(frozen=True)
class Usage:
    """The resources of one solve: CPU seconds and peak resident MB, own and children's."""

    cpu_s: float  # this process and its children
    own_cpu_s: float
    children_cpu_s: float
    peak_rss_mb: float | None  # the largest of this process's and any child's
    own_peak_mb: float | None
    children_peak_mb: float | None

    def stats(self) -> dict[str, float]:
        """The breakdown, for a result's ``stats`` (the totals have columns of their own)."""
        out = {"cpu_own_s": self.own_cpu_s, "cpu_children_s": self.children_cpu_s}
        if self.own_peak_mb is not None:
            out["peak_own_mb"] = self.own_peak_mb
        if self.children_peak_mb is not None:
            out["peak_children_mb"] = self.children_peak_mb
        return out


class Sampler:
    """Reads the resident memory of this process's descendants every `SAMPLE_SECONDS` in a
    thread, keeping the largest: the peak of programs started and ended within a solve.

    The kernel's figure for a reaped child cannot serve: a child started from the worker
    carries the worker's own high-water mark into its record (the worker's memory is its
    memory until it executes the program), and the record of reaped children only ever
    grows.  Sampling can miss a peak shorter than the interval; it never invents one.
    """

    def __init__(self, me: psutil.Process) -> None:
        self.me = me
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="peak-memory", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> float | None:
        """Stop sampling; the largest resident MB seen in a descendant (None: none seen)."""
        self._stop.set()
        self._thread.join()
        return self.peak / MB if self.peak else None

    def _watch(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            for child in _descendants(self.me):
                with contextlib.suppress(psutil.Error):
                    self.peak = max(self.peak, child.memory_info().rss)


class Meter:
    """Reads the resources of the solve between `start` and `stop` (outside its timing).

    `sample` (for solvers that start programs for the puzzle) adds a `Sampler` for the
    memory of children that begin and end within the solve.
    """

    def __init__(self, children: bool, sample: bool = False) -> None:
        self.children = children
        self.sample = sample
        self._me = psutil.Process()
        self._cpu = 0.0
        self._reaped: resource.struct_rusage | None = None
        self._live: dict[int, float] = {}  # pid -> its CPU seconds at the start
        self._sampler: Sampler | None = None

    def start(self) -> None:
        if self.children:
            self._reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
            self._live = {}
            for child in _descendants(self._me):
                with contextlib.suppress(psutil.Error):
                    self._live[child.pid] = _cpu_of(child)
                    _reset_peak(child.pid)
        if self.sample:
            self._sampler = Sampler(self._me)
            self._sampler.start()
        _reset_peak("self")
        self._cpu = time.process_time()  # last: the reads above are not the solve's

    def stop(self) -> Usage:
        own_cpu = time.process_time() - self._cpu
        sampled = self._sampler.stop() if self._sampler is not None else None
        self._sampler = None
        own_peak = _peak_mb("self")
        if not self.children or self._reaped is None:
            return Usage(own_cpu, own_cpu, 0.0, own_peak, own_peak, None)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        children_cpu = (after.ru_utime - self._reaped.ru_utime) + (
            after.ru_stime - self._reaped.ru_stime
        )
        peaks = [sampled] if sampled is not None else []
        for child in _descendants(self._me):
            with contextlib.suppress(psutil.Error):
                children_cpu += _cpu_of(child) - self._live.get(child.pid, 0.0)
                peak = _peak_mb(child.pid)
                if peak is not None:
                    peaks.append(peak)
        children_peak = max(peaks) if peaks else None
        total_peak = (
            max(p for p in (own_peak, children_peak) if p is not None)
            if (own_peak is not None or children_peak is not None)
            else None
        )
        return Usage(
            own_cpu + children_cpu, own_cpu, children_cpu, total_peak, own_peak, children_peak
        )


def _descendants(process: psutil.Process) -> list[psutil.Process]:
    try:
        return process.children(recursive=True)
    except psutil.Error:
        return []


def _cpu_of(process: psutil.Process) -> float:
    """CPU seconds of a live process, with those of its own reaped children."""
    t = process.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _reset_peak(pid: int | str) -> None:
    """Reset a process's resident high-water mark (Linux), so the next read is this solve's."""
    if _RESETTABLE:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")


def _peak_mb(pid: int | str) -> float | None:
    """A process's resident high-water mark in MB (VmHWM; ru_maxrss for this process
    where /proc is missing)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    if pid == "self":
        scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KB elsewhere
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / MB
    return None
