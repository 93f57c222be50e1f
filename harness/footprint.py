"""Each solver's footprint: the resident memory it holds once loaded, measured before a run.

The memory limit (`harness.memory`) charges a solver what it needs just to
be ready (its imports, compiled code and warm-up) plus what its solves add.
The first part is measured here, each solver alone in a fresh worker process
started as the run's workers are, so no solver is charged for another's
libraries.  A solver whose footprint is already at the limit cannot start:
the run records ``MEMOUT`` for its puzzles without running them and says
which limit would let it start (see `unfit`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, cast

from harness import memory, worker
from harness.tasks import WorkerSettings

PROBE_SECONDS = 120.0  # a solver not loaded by then has no measured footprint


def probe(settings: WorkerSettings, sender: Connection) -> None:
    """In a fresh worker process: load the settings' solvers, send back the resident bytes
    of this process tree."""
    worker.initialize(settings)
    sender.send(memory.tree_rss(os.getpid()))
    sender.close()


def measure(settings: WorkerSettings, jobs: int = 1) -> dict[str, int | None]:
    """MB each solver of `settings` holds once loaded alone (None where it could not be
    measured), from one fresh worker process per solver, `jobs` at a time."""
    from harness.executors import worker_context

    context: Any = worker_context()  # a multiprocessing context (fork, forkserver, spawn)
    waiting = list(settings.specs)
    found: dict[str, int | None] = dict.fromkeys(waiting)
    running: dict[Connection, tuple[str, BaseProcess, float]] = {}
    try:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                spec = waiting.pop(0)
                alone = dataclasses.replace(settings, specs=(spec,), memory_mb=None, watch=None)
                reader, sender = context.Pipe(duplex=False)
                process = context.Process(target=probe, args=(alone, sender), name="footprint")
                process.start()
                sender.close()
                running[reader] = (spec, process, time.monotonic() + PROBE_SECONDS)
            for ready in wait(list(running), timeout=1.0):
                reader = cast(Connection, ready)
                spec, process, _ = running.pop(reader)
                with contextlib.suppress(EOFError, OSError):  # it died: no footprint known
                    found[spec] = -(-reader.recv() // memory.MB)  # rounded up
                _end(reader, process)
            for reader, (_, process, deadline) in list(running.items()):
                if time.monotonic() > deadline:
                    del running[reader]
                    _end(reader, process)
    finally:
        for reader, (_, process, _) in running.items():
            _end(reader, process)
    return found


def _end(reader: Connection, process: BaseProcess) -> None:
    reader.close()
    process.join(1.0)
    if process.is_alive():
        process.kill()
        process.join()


def unfit(footprints: Mapping[str, int | None], limit: int | None) -> dict[str, str]:
    """Solver spec -> why it cannot start within `limit` MB, for those whose footprint is
    not below it."""
    if not limit:
        return {}
    return {
        spec: f"cannot start within the {limit} MB memory limit: loaded, it holds {mb} MB "
        f"(imports and warm-up, measured before the run); --memory {mb + 1} or more lets it start"
        for spec, mb in footprints.items()
        if mb is not None and mb >= limit
    }


def refusal(footprints: Mapping[str, int | None], solvers: Sequence[str], limit: int) -> str:
    """The one-line error for a study none of whose solvers can start within `limit` MB."""
    smallest = min(solvers, key=lambda s: footprints.get(s) or 0)
    mb = footprints.get(smallest) or 0
    return (
        f"no solver can start within the {limit} MB memory limit: the smallest, {smallest}, "
        f"holds {mb} MB once loaded; --memory {mb + 1} or more lets it start"
    )
