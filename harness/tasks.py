"""What travels between the runner and its workers: batches of solves and their outcomes.

A `Batch` is one solver spec with a chunk of `Item`s (a puzzle, in its given
form or a metamorphic variant, and a repeat index).  A worker answers a batch
with one `Outcome` per item, in order.  All three are small frozen values that
pickle cheaply, so a process pool or a Dask cluster can carry them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from solvers.base import Status
from solvers.transforms import Transform


@dataclass(frozen=True)
class Item:
    """One solve: a puzzle (canonical text, as stored), its variant and repeat."""

    corpus: str
    puzzle_id: str
    puzzle: str
    box: str = ""
    repeat: int = 0
    variant: int = 0  # 0: as given; k >= 1: solved through `transform`, answers mapped back
    transform: Transform | None = None


@dataclass(frozen=True)
class Batch:
    """Puzzles for one solver spec, solved one by one in one worker."""

    spec: str
    items: tuple[Item, ...]
    limit: int  # solutions to look for
    timeout: float  # seconds per solve
    timing: str = "single"  # "single": each solve timed alone; "batch": one call for the batch

    def split(self) -> list[Batch]:
        """One batch per item: how a lost batch is re-run to find the culprit."""
        return [replace(self, items=(item,)) for item in self.items]


@dataclass(frozen=True)
class WorkerSettings:
    """How every worker process is prepared: limits, and what to import first."""

    memory_mb: int | None = 2048  # resident memory per solver (see harness.memory); None: none
    grace: float = 1.0  # seconds past the time limit before a solve is stopped by force
    imports: tuple[str, ...] = ()  # modules that register extra solvers (plug-ins, tests)
    paths: tuple[str, ...] = ()  # prepended to sys.path before those imports
    specs: tuple[str, ...] = ()  # solvers imported and warmed up (`Solver.warm_up`) up front
    solvers_files: tuple[str, ...] = ()  # TOML definitions of external solvers (--solvers-file)
    footprints: tuple[tuple[str, int | None], ...] = ()  # spec -> MB it holds once loaded
    watch: Any = None  # the pipe to the parent's memory watcher (set by the pool)
    track: Any = None  # the pipe to the parent's tracker of running puzzles (harness.inflight)
    pin: str | None = None  # with --pin: the folder where workers claim a core each

    def hard_limit(self, batch: Batch) -> float:
        """Seconds after which the parent kills the worker running `batch`.

        A worker's first solve of a solver is a warm-up that may take up to one
        time limit (JIT compilation, caches) before the timed solves; each is
        stopped inside the worker at ``timeout + grace / 2``, and one stuck in C
        code is killed by the parent at ``timeout + grace`` (`harness.inflight`).
        A batch whose puzzles together take longer is killed and re-run one
        puzzle per task under the same limit, so nothing is lost or misattributed.
        """
        return 2 * (batch.timeout + self.grace)


@dataclass(frozen=True)
class Outcome:
    """How one solve ended.  Solutions are canonical text, mapped back to the given form."""

    status: Status
    solutions: tuple[str, ...] = ()
    exhausted: bool = False
    wall: float | None = None
    cpu: float | None = None
    stats: str = "{}"  # JSON, so anything a backend reports pickles
    error: str = ""
    problem: str = ""  # what the verifier found wrong with the answers ("" when nothing)
    peak_rss_mb: float | None = None  # resident high-water mark of the solve (harness.resources)


def lost(batch: Batch, status: Status, error: str, wall: float | None = None) -> list[Outcome]:
    """Outcomes for every item of a batch whose worker died or was killed."""
    return [Outcome(status, wall=wall, error=error) for _ in batch.items]
