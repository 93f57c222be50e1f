"""Notes on the machine's state during a run, where it makes the run's timings less trustworthy.

A run records, per session (the first, and each ``--resume``): how many
workers ran, the cores free when it started, the CPU frequency governors and
turbo boost (see `harness.machine`).  A note is written when

- more workers ran than the machine has usable cores (solves queued for a
  core, and the wait is inside their times);
- more workers ran than there were free cores at the start (the workers
  competed with other work);
- the CPU clock was free to change (a governor other than ``performance``, or
  turbo boost on).

The load average above the cores has its note in `harness.report.study`.
Runs recorded before these facts existed get no note for them: nothing is
guessed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from harness.machine import scaling
from harness.records import RunInfo


def _sessions(run: RunInfo) -> Iterator[tuple[str, dict[str, Any]]]:
    """(how to name it, its facts) for each session of a run, the first one first."""
    yield f"run {run.id}", {**run.machine, **run.settings}
    resumed = run.settings.get("resumed")
    for k, entry in enumerate(resumed if isinstance(resumed, list) else [], 1):
        if isinstance(entry, dict):
            yield f"run {run.id} (resumed, session {k + 1})", entry


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def run_notes(run: RunInfo) -> list[str]:
    """The notes for one run."""
    notes = []
    cores = _number(run.machine.get("usable_cores") or run.machine.get("cores"))
    for name, facts in _sessions(run):
        workers, free = _number(facts.get("workers")), _number(facts.get("free_cores"))
        plural = "s" if workers != 1 else ""
        if workers is not None and cores is not None and workers > cores:
            notes.append(
                f"{name} ran {workers:g} workers on {cores:g} usable cores: solves queued for "
                "a core, and the wait is inside their times."
            )
        elif workers is not None and free is not None and workers > free:
            notes.append(
                f"{name} started {workers:g} worker{plural} with {free:g} of {cores or 0:g} "
                "cores free "
                "(the rest busy with other work): that work competed with the run for the "
                "cores, which slowed its solves."
            )
        reason = scaling(facts)
        if reason:
            notes.append(
                f"{name} ran with the CPU clock free to change ({reason}): a solve's time "
                "depends on the clock speed it happened to get; the 'performance' governor "
                "without turbo boost gives steadier times."
            )
    return notes


def condition_notes(runs: Sequence[RunInfo]) -> list[str]:
    """The notes for every run, in order."""
    return [note for run in runs for note in run_notes(run)]
