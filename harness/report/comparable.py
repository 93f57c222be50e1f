"""Whether two runs can be compared: the settings and the machine that shape their times.

A *slower* verdict between a run with one worker and a run with four says
more about contention than about the code.  `differences` names each such
setting that differs, so the comparison carries a warning beside its verdicts.
"""

from __future__ import annotations

from typing import Any

from harness.records import RunInfo


def _workers(run: RunInfo) -> Any:
    execution = run.settings.get("execution")
    if isinstance(execution, dict):
        return run.settings.get("workers", execution.get("jobs"))
    return run.settings.get("jobs")


def _executor(run: RunInfo) -> Any:
    execution = run.settings.get("execution")
    return execution.get("executor") if isinstance(execution, dict) else None


# name -> how to read it from a run; each shapes the times a run measures
ASPECTS = (
    ("parallel workers (--jobs)", _workers),
    ("executor", _executor),
    ("time limit", lambda r: r.settings.get("timeout")),
    ("memory limit", lambda r: r.settings.get("memory")),
    ("repeats", lambda r: r.settings.get("repeat")),
    ("timing", lambda r: r.settings.get("timing")),
    ("CPU", lambda r: r.machine.get("cpu")),
    ("usable cores", lambda r: r.machine.get("usable_cores") or r.machine.get("cores")),
    ("host", lambda r: r.machine.get("host")),
    ("Python", lambda r: r.versions.get("python")),
)


def differences(a: RunInfo, b: RunInfo) -> list[str]:
    """``"parallel workers (--jobs): 1 in run 3, 4 in run 4"`` for each aspect that differs
    (aspects a run did not record are left out)."""
    found = []
    for name, read in ASPECTS:
        left, right = read(a), read(b)
        if left is not None and right is not None and left != right:
            found.append(f"{name}: {left} in run {a.id}, {right} in run {b.id}")
    return found


def comparison_note(a: RunInfo, b: RunInfo) -> str | None:
    """The warning a comparison of `a` and `b` carries, or None when they ran alike."""
    found = differences(a, b)
    if not found:
        return None
    return (
        f"runs {a.id} and {b.id} were not run alike ({'; '.join(found)}): a faster or slower "
        "verdict may come from that difference, not from the solvers."
    )
