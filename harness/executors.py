"""Where batches run: in this process, in a local process pool, or on a Dask cluster.

Every executor takes a stream of `Batch`es and yields ``(batch, outcomes)`` as
batches finish, keeping only a bounded number in flight (so memory stays flat
however large the study).  The process and Dask executors isolate solves in
pebble worker processes.  The parent follows which puzzle each worker is on
(`harness.inflight`): a solve stuck past its limit is killed there, and a
worker lost during a solve (killed, crashed, or exited with status 0) has
that puzzle recorded ``TIMEOUT`` or ``ERROR`` while the rest of its batch is
solved again.  A batch lost with no puzzle to blame (one killed by the memory
watcher, `harness.memory`, or by its own hard limit) is re-run one puzzle per
task, so the puzzle that did it is recorded ``TIMEOUT``, ``MEMOUT`` or
``ERROR`` and the others get their real results.  A pebble pool that breaks
(a worker that dies while no task is running, as one killed just after its
batch ended) is replaced and its batches re-run.  Whatever a lost worker
leaves running is killed (`harness.containment`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import dataclasses
import itertools
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from harness import containment, worker
from harness.errors import CommandError
from harness.inflight import Lost, Tracker
from harness.memory import MB, Watcher
from harness.tasks import Batch, Item, Outcome, WorkerSettings, lost
from solvers.base import Status, extra_hint

Finished = tuple[Batch, list[Outcome]]
EXECUTORS = ("process", "serial", "dask")
RECYCLE_AFTER = 500  # batches a worker runs before it is replaced (bounds leaks)
RESTARTS = 3  # broken pools replaced in a row, with no batch finished between, before giving up


class Executor(Protocol):
    def run(self, batches: Iterable[Batch]) -> Iterator[Finished]: ...

    def close(self, *, abort: bool = False) -> None: ...


class SerialExecutor:
    """Solve in this process, one batch after another: for debugging.

    No memory limit and no forced kill; a solver that ignores its time limit in
    Python code is still stopped by the alarm guard.
    """

    workers = 1

    def __init__(self, settings: WorkerSettings) -> None:
        worker.prepare(dataclasses.replace(settings, memory_mb=None))

    def run(self, batches: Iterable[Batch]) -> Iterator[Finished]:
        for batch in batches:
            yield batch, worker.solve_batch(batch)

    def close(self, *, abort: bool = False) -> None:
        pass


class Stopped(Exception):
    """The pool was stopped while a batch waited on it (the run is ending)."""


def worker_context() -> multiprocessing.context.BaseContext:
    """Workers start from a clean fork server with the worker module preloaded, marked as
    this run's (`harness.containment`)."""
    containment.claim()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["harness.worker"])
    return context


class PoolFailed(CommandError):
    """The worker processes keep failing outside any task: the run cannot go on."""


class IsolatedPool:
    """A pebble pool whose workers start from a clean fork server, with the worker preloaded.

    `isolate` is safe to call from many threads at once; `stop` kills the
    workers and releases every thread still waiting on a batch.
    """

    def __init__(self, settings: WorkerSettings, workers: int) -> None:
        self.settings = settings
        self.workers = workers
        self._watcher = Watcher() if settings.memory_mb else None
        if self._watcher is not None:
            settings = dataclasses.replace(settings, watch=self._watcher.channel)
        self._tracker = Tracker()
        self._tags = itertools.count(1)
        settings = dataclasses.replace(settings, track=self._tracker.channel)
        self._worker_settings = settings
        self._futures: set[cf.Future[list[Outcome]]] = set()
        self._lock = threading.Lock()
        self._stopped = False
        self._restarts = 0
        self._pool = self._start()
        self._owner = os.environ[containment.MARKER]  # set by worker_context
        self._guard = containment.Guard(self._owner)

    def _start(self) -> Any:
        from pebble import ProcessPool

        return ProcessPool(
            max_workers=self.workers,
            max_tasks=RECYCLE_AFTER,
            initializer=worker.initialize,
            initargs=(self._worker_settings,),
            context=worker_context(),
        )

    def _replace(self, broken: Any, reason: str) -> None:
        """Replace a broken pebble pool (once, whichever thread saw it first)."""
        with self._lock:
            if self._stopped:
                raise Stopped
            if self._pool is not broken:
                return
            self._restarts += 1
            if self._restarts > RESTARTS:
                raise PoolFailed(
                    f"the worker processes failed {RESTARTS + 1} times in a row ({reason}); "
                    "the results so far are stored"
                )
            self._pool = self._start()
        broken.stop()
        broken.join()

    def isolate(self, batch: Batch) -> list[Outcome]:
        """Run a batch under its limits; if it is lost, blame the puzzle that was running
        and solve the others again, or re-run it one puzzle per task when none is known."""
        from pebble import ProcessExpired

        limit = self.settings.hard_limit(batch)
        tag = next(self._tags)
        scheduled: list[cf.Future[list[Outcome]]] = []
        self._tracker.expect(
            tag, batch.timeout + self.settings.grace, lambda: scheduled and scheduled[0].cancel()
        )
        with self._lock:
            if self._stopped:
                self._tracker.forget(tag)
                raise Stopped
            pool = self._pool
            try:
                future = pool.schedule(worker.solve_batch, args=(batch, tag), timeout=limit)
            except RuntimeError as exc:  # pebble's pool broke before this batch
                future = None
                reason = str(exc)
            else:
                scheduled.append(future)
                self._futures.add(future)
        if future is None:
            self._tracker.forget(tag)
            self._replace(pool, reason)
            return self.isolate(batch)
        running = None
        try:
            outcomes = future.result()
            self._restarts = 0
            return outcomes
        except cf.TimeoutError:
            status = Status.TIMEOUT
            error = f"killed by the harness after {limit:.3g} s (hard limit)"
        except ProcessExpired as exc:
            status, error = self._expired(batch, exc)
        except cf.CancelledError:
            running = self._tracker.forget(tag)
            if running is None or not running.vanished or self._stopped:
                raise Stopped from None
            status, error = Status.ERROR, "the worker exited with status 0 during the solve"
        except BrokenProcessPool as exc:  # a worker died while no task was running
            if self._stopped:
                raise Stopped from None
            self._replace(pool, f"{type(exc).__name__}: {exc}")
            return self.isolate(batch)
        except Exception as exc:  # e.g. a result that cannot be pickled
            if self._stopped:
                raise Stopped from None
            status, error = Status.ERROR, f"the worker failed: {type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self._futures.discard(future)
            if running is None:
                running = self._tracker.forget(tag)
        self.clean_up()
        blamed = self._blame(batch, running, status, error)
        if blamed is not None:
            index, outcome = blamed
            before, after = batch.items[:index], batch.items[index + 1 :]
            return [*self._again(batch, before), outcome, *self._again(batch, after)]
        if len(batch.items) == 1:
            return lost(batch, status, error, wall=limit if status == Status.TIMEOUT else None)
        outcomes = []
        for single in batch.split():
            outcomes.extend(self.isolate(single))
        return outcomes

    def _again(self, batch: Batch, items: tuple[Item, ...]) -> list[Outcome]:
        """Solve these items of a lost batch again, together."""
        return self.isolate(dataclasses.replace(batch, items=items)) if items else []

    def _blame(
        self, batch: Batch, running: Lost | None, status: Status, error: str
    ) -> tuple[int, Outcome] | None:
        """The puzzle that lost the batch, and its outcome, when the tracker knows it."""
        if running is None or not 0 <= running.index < len(batch.items) or status == Status.MEMOUT:
            return None  # memory may have built up over several puzzles: each is run alone
        seconds = running.seconds
        if running.hung:
            error = (
                f"killed by the harness after {seconds:.3g} s: the solve did not stop at its "
                f"{batch.timeout:g} s time limit (grace {self.settings.grace:g} s)"
            )
            return running.index, Outcome(Status.TIMEOUT, wall=seconds, error=error)
        if status == Status.TIMEOUT:  # the batch's hard limit: blame the puzzle only if it overran
            if seconds < batch.timeout:
                return None
            return running.index, Outcome(Status.TIMEOUT, wall=seconds, error=error)
        if running.vanished:
            return running.index, Outcome(status, error=error)
        return running.index, Outcome(status, error=f"{error} (during this solve)")

    def _expired(self, batch: Batch, exc: Exception) -> tuple[Status, str]:
        """Status and error of a batch whose worker died: MEMOUT if the watcher killed it."""
        pid = getattr(exc, "pid", None)
        over = self._watcher.killed(pid) if self._watcher is not None else None
        if over is None:
            return Status.ERROR, f"the worker died: {_exit_reason(getattr(exc, 'exitcode', None))}"
        limit = self.settings.memory_mb or 0
        loaded = dict(self.settings.footprints).get(batch.spec)
        share = f"{loaded} MB once loaded, the rest" if loaded else "what"
        return Status.MEMOUT, (
            f"stopped by the harness at {limit + over / MB:.0f} MB, over its {limit} MB "
            f"memory limit ({share} added by its solves to the resident memory of the worker "
            "and its child processes)"
        )

    def stop(self, *, abort: bool = True) -> None:
        """End the workers: at once (`abort`), or after the batches in hand."""
        with self._lock:
            self._stopped = True
            waiting = list(self._futures)
        if abort:
            for future in waiting:
                future.cancel()
            self._pool.stop()
        else:
            self._pool.close()
        self._pool.join()
        self.clean_up()
        self._guard.close()
        self._tracker.close()
        if self._watcher is not None:
            self._watcher.close()

    def clean_up(self) -> int:
        """Kill the processes of this run that a killed worker left behind; how many."""
        return containment.kill(containment.strays(self._owner))


def _exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory?)" if name == "SIGKILL" else ""
        return f"killed by {name}{hint}"
    return f"exit status {code}"


class ProcessExecutor:
    """Local worker processes (pebble), with hard time limits and a memory limit."""

    def __init__(self, settings: WorkerSettings, workers: int) -> None:
        self.settings = settings
        self.workers = workers
        self._pool = IsolatedPool(settings, workers)
        # Dispatchers wait on the pool and re-run lost batches; two per worker keep
        # the next batch queued while one is being solved.
        self._dispatch = cf.ThreadPoolExecutor(2 * workers, thread_name_prefix="dispatch")

    def run(self, batches: Iterable[Batch]) -> Iterator[Finished]:
        window = 4 * self.workers
        pending: dict[cf.Future[list[Outcome]], Batch] = {}
        source = iter(batches)
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < window:
                batch = next(source, None)
                if batch is None:
                    exhausted = True
                    break
                pending[self._dispatch.submit(self._pool.isolate, batch)] = batch
            if not pending:
                break
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()

    def close(self, *, abort: bool = False) -> None:
        self._pool.stop(abort=abort)
        self._dispatch.shutdown(wait=True, cancel_futures=True)


_dask_pools: dict[WorkerSettings, IsolatedPool] = {}


def dask_task(batch: Batch, settings: WorkerSettings) -> list[Outcome]:
    """Run one batch inside a Dask worker, isolated in that worker's own pebble pool."""
    pool = _dask_pools.get(settings)
    if pool is None:
        if multiprocessing.current_process().daemon:
            raise RuntimeError(
                "this Dask worker is a daemonic process and cannot start solver processes; "
                "start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False"
            )
        from distributed import get_worker

        threads = max(1, get_worker().state.nthreads)
        pool = _dask_pools[settings] = IsolatedPool(settings, threads)
    return pool.isolate(batch)


def close_dask_pools() -> int:
    """Stop this Dask worker's solver processes (run on every worker at the end)."""
    count = len(_dask_pools)
    while _dask_pools:
        _, pool = _dask_pools.popitem()
        pool.stop()
    return count


class DaskExecutor:
    """Batches as Dask tasks on a cluster (a scheduler address) or a local cluster."""

    def __init__(self, settings: WorkerSettings, workers: int, scheduler: str | None) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise CommandError(f"the dask executor needs dask: {extra_hint('dask')}") from None
        self.settings = settings
        self._cluster = None
        if scheduler:
            try:
                self._client = Client(scheduler, timeout="10s")
            except OSError as exc:
                raise CommandError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        else:
            # Workers must not be daemonic: they start the solver processes.
            with dask.config.set({"distributed.worker.daemon": False}):
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            self._client = Client(self._cluster)
        self.workers = max(1, sum(self._client.nthreads().values()))

    def run(self, batches: Iterable[Batch]) -> Iterator[Finished]:
        from distributed import as_completed

        window = 4 * self.workers
        source = iter(batches)
        running = as_completed()
        owner: dict[Any, Batch] = {}

        def submit() -> bool:
            batch = next(source, None)
            if batch is None:
                return False
            future = self._client.submit(dask_task, batch, self.settings, pure=False)
            owner[future.key] = batch
            running.add(future)
            return True

        for _ in range(window):
            if not submit():
                break
        for future in running:
            batch = owner.pop(future.key)
            try:
                outcomes = future.result()
            except RuntimeError as exc:
                raise CommandError(f"dask: {exc}") from None
            future.release()
            submit()
            yield batch, outcomes

    def close(self, *, abort: bool = False) -> None:
        with contextlib.suppress(Exception):
            self._client.run(close_dask_pools)
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(
    kind: str, settings: WorkerSettings, workers: int, scheduler: str | None = None
) -> Executor:
    """The executor named `kind` (``--scheduler`` implies dask)."""
    if scheduler or kind == "dask":
        return DaskExecutor(settings, workers, scheduler)
    if kind == "serial":
        return SerialExecutor(settings)
    if kind == "process":
        return ProcessExecutor(settings, workers)
    raise CommandError(f"unknown executor {kind!r}; choose one of: {', '.join(EXECUTORS)}")
