"""The machine's state when a run starts, and pinning workers to cores.

Timings are only as steady as the machine under them.  A run records, beside
the CPU model and the load average (`harness.environment`):

- the CPU frequency governor of each usable core (Linux ``cpufreq`` in
  sysfs): anything but ``performance`` lets a core's clock follow its load,
  and turbo boost (where the kernel shows it) lets it follow the temperature;
- the cores free when the run starts (usable cores less the one-minute load
  average), to compare with the number of workers.

The report turns these into notes (`harness.report.conditions`).  With
``--pin`` each worker claims a usable core of its own (a lock file per core,
released by the kernel when the worker dies) and pins itself to it with
``os.sched_setaffinity``; each result records its core in ``stats["core"]``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

CPU = Path("/sys/devices/system/cpu")


def usable_cores() -> list[int]:
    """The cores this process may run on, in order."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def governors(cores: Iterable[int], root: Path = CPU) -> dict[str, int]:
    """How many of `cores` run each frequency governor (empty where the kernel shows none)."""
    found: Counter[str] = Counter()
    for core in cores:
        with contextlib.suppress(OSError):
            found[(root / f"cpu{core}/cpufreq/scaling_governor").read_text().strip()] += 1
    return dict(found)


def boost(root: Path = CPU) -> bool | None:
    """Whether turbo boost is on (None where the kernel does not say)."""
    with contextlib.suppress(OSError):
        return (root / "cpufreq/boost").read_text().strip() == "1"
    with contextlib.suppress(OSError):
        return (root / "intel_pstate/no_turbo").read_text().strip() == "0"
    return None


def free_cores(load: list[float] | None, cores: int) -> float | None:
    """Cores left over by other work: `cores` less the one-minute load average."""
    if not load:
        return None
    return round(max(0.0, cores - load[0]), 2)


def state(load: list[float] | None, root: Path = CPU) -> dict[str, Any]:
    """What the run records about the machine's state at its start (unknown facts left out)."""
    cores = usable_cores()
    facts: dict[str, Any] = {
        "governors": governors(cores, root) or None,
        "boost": boost(root),
        "free_cores": free_cores(load, len(cores)),
    }
    return {k: v for k, v in facts.items() if v is not None}


def scaling(machine: dict[str, Any]) -> str | None:
    """What lets the clock speed change under a solve, in words; None when nothing known does."""
    governors = machine.get("governors")
    reasons = []
    if isinstance(governors, dict):
        others = {g: n for g, n in governors.items() if g != "performance"}
        if others:
            listed = ", ".join(f"{g} on {n}" for g, n in sorted(others.items()))
            reasons.append(f"frequency governor {listed} of {sum(governors.values())} cores")
    if machine.get("boost") is True:
        reasons.append("turbo boost on")
    return " and ".join(reasons) or None


def pin(claims: str) -> int | None:
    """Claim a usable core no other worker of the run holds, and run on it alone.

    `claims` is a folder shared by the run's workers on this host; the claim
    is an exclusive lock on one file per core, held until this process ends.
    Returns the core, or None when every usable core is taken.
    """
    os.makedirs(claims, exist_ok=True)
    for core in usable_cores():
        descriptor = os.open(os.path.join(claims, f"core{core}"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            continue
        try:
            os.sched_setaffinity(0, {core})
        except OSError:  # not allowed here: give the claim back
            os.close(descriptor)
            return None
        return core  # the descriptor stays open: the claim lasts as long as the process
    return None


def pinned_core() -> int | None:
    """The one core this process runs on, if it is pinned to one."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    cores = os.sched_getaffinity(0)
    return next(iter(cores)) if len(cores) == 1 else None
