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
  and each live child; for children that ended during the solve the kernel's
  largest reaped child counts when it grew during the solve.  Where the mark
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
import time
from dataclasses import dataclass

import psutil

MB = 1024 * 1024
_RESETTABLE = sys.platform.startswith("linux") and os.path.exists("/proc/self/clear_refs")
METHOD = (
    "CPU: process time of the worker (all threads) plus its children (getrusage of reaped "
    "children, psutil for live ones); peak memory: "
    + (
        "resident high-water mark reset before each solve (Linux clear_refs) and read after, "
        "for the worker and each child"
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


class Meter:
    """Reads the resources of the solve between `start` and `stop` (outside its timing)."""

    def __init__(self, children: bool) -> None:
        self.children = children
        self._me = psutil.Process()
        self._cpu = 0.0
        self._reaped: resource.struct_rusage | None = None
        self._live: dict[int, float] = {}  # pid -> its CPU seconds at the start

    def start(self) -> None:
        if self.children:
            self._reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
            self._live = {}
            for child in _descendants(self._me):
                with contextlib.suppress(psutil.Error):
                    self._live[child.pid] = _cpu_of(child)
                    _reset_peak(child.pid)
        _reset_peak("self")
        self._cpu = time.process_time()  # last: the reads above are not the solve's

    def stop(self) -> Usage:
        own_cpu = time.process_time() - self._cpu
        own_peak = _peak_mb("self")
        if not self.children or self._reaped is None:
            return Usage(own_cpu, own_cpu, 0.0, own_peak, own_peak, None)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        children_cpu = (after.ru_utime - self._reaped.ru_utime) + (
            after.ru_stime - self._reaped.ru_stime
        )
        peaks = []
        if after.ru_maxrss > self._reaped.ru_maxrss:  # a reaped child set a new record
            peaks.append(after.ru_maxrss / 1024)  # kilobytes on Linux
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
