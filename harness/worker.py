"""The code that runs inside a worker process: limits, warm-up, timed solves.

`initialize` prepares a fresh worker (Ctrl-C left to the parent, solver
modules imported and `Solver.warm_up` called, so imports and JIT compilation
happen before any limit is armed: the parent's clock on a task starts when
the worker takes it); `solve_batch` announces the batch's memory ceiling to
the parent's watcher (`harness.memory`) and solves the batch puzzle by
puzzle, timing only the work of each solve (`Solver.stage`: set-up and result
building are not counted), after one warm-up solve per solver and box shape.
With ``timing="batch"`` a solver that has a ``stage_batch`` method (``fast``)
solves the whole batch in one timed call, and each puzzle is credited an equal share
(``stats["clock"]`` says which clock a time comes from).  Each solve is also
guarded by ``SIGALRM`` at ``timeout + grace / 2``, which stops a pure-Python
solver that ignores its time limit; a solver stuck in C code is the parent's
to kill (it is told which puzzle each solve is on: `harness.inflight`).  A
worker dies with the run and kills whatever a solve leaves running
(`harness.containment`).  Failures are data: an exception becomes ``ERROR`` with its text, a
`MemoryError` becomes ``MEMOUT``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import multiprocessing
import os
import signal
import statistics
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import replace

from harness import containment, inflight, machine, memory
from harness.capture import OutputTrap
from harness.crosscheck import answer_problems
from harness.measure import Clock, settle_heap
from harness.records import grid_of, solution_text
from harness.tasks import Batch, Item, Outcome, WorkerSettings
from solvers.base import Limits, Solver, SolveResult, Status
from solvers.external.process import live_pids
from solvers.grid import Grid, easy_grid
from solvers.registry import get, parse_spec, solver_class

_settings = WorkerSettings(memory_mb=None)
_solvers: dict[str, Solver] = {}
_warmed: set[tuple[str, int, int]] = set()
_sweeping = False  # whether this process is a worker that kills what each solve leaves


class HardTimeout(BaseException):
    """Raised by the alarm in a solve that overran its limit (not an `Exception`,
    so a solver's own ``except Exception`` cannot swallow it)."""


FAILURES = (
    Status.ERROR,
    Status.TIMEOUT,
    Status.MEMOUT,
)  # statuses whose message is the row's error text
START_FAILED = 3  # the exit status of a worker that could not prepare itself


def initialize(settings: WorkerSettings) -> None:
    """Prepare a worker process; one that cannot says why in one line and exits."""
    global _sweeping
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # No process outlives the run (harness.containment): die with the fork server, which
    # ends with the run however it ends; adopt every orphan a solve leaves, to kill it.
    containment.die_with_parent()
    owner = os.environ.get(containment.MARKER)
    if owner and not containment.owner_alive(owner):
        os._exit(START_FAILED)  # the run died while this worker was starting
    _sweeping = containment.become_subreaper()
    # A worker is one core: the pool runs workers side by side, and a solver's own
    # threads (numba's batch kernels) would compete with them and blur the timings.
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    # A worker never starts processes through multiprocessing.  Saying it would spawn
    # them keeps libraries from making process-shared locks for forked children
    # (numba's threading layer makes one under "fork" and "forkserver": a named
    # semaphore that a killed worker leaves to the resource tracker, which then
    # warns about it when the run ends).
    multiprocessing.set_start_method("spawn", force=True)
    if settings.pin:
        machine.pin(settings.pin)  # before the imports: the worker's memory is on its core
    try:
        prepare(settings)
    except Exception as exc:  # the pool would print a traceback and start another
        print(f"sudoku-bench: a worker could not start: {_describe(exc)}", file=sys.stderr)
        sys.stderr.flush()
        os._exit(START_FAILED)


def prepare(settings: WorkerSettings) -> None:
    """Adopt the settings; import plug-in modules and the solvers' modules and backends."""
    global _settings
    _settings = settings
    for path in reversed(settings.paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    for module in settings.imports:
        importlib.import_module(module)
    if settings.solvers_files:
        from solvers.external import load_definitions

        for path in settings.solvers_files:
            load_definitions(path)
    for spec in settings.specs:
        with contextlib.suppress(Exception):
            cls = solver_class(parse_spec(spec)[0])
            for module in cls.requires:
                importlib.import_module(module)
        with contextlib.suppress(Exception):  # a failure here shows again in the first solve
            _solver(spec).warm_up()
    settle_heap()


def solve_batch(batch: Batch, tag: int | None = None) -> list[Outcome]:
    """Solve every item of a batch under its memory ceiling; never raises for a solver's failure.

    What the solver prints is kept with each result (`harness.capture`), not
    passed to the run's terminal.  With a `tag`, the parent's tracker is told
    which puzzle is being solved (`harness.inflight`).
    """
    with memory.ceiling(_settings, batch), OutputTrap() as trap:
        try:
            outcomes = _solve_batch(batch, trap, tag)
        finally:
            inflight.announce(_settings.track, tag, inflight.BATCH_ENDED)
    core = machine.pinned_core() if _settings.pin else None
    if core is None:
        return outcomes
    return [replace(o, stats=json.dumps({**json.loads(o.stats), "core": core})) for o in outcomes]


def _solve_batch(batch: Batch, trap: OutputTrap, tag: int | None = None) -> list[Outcome]:
    try:
        solver = _solver(batch.spec)
    except MemoryError:
        failed = Outcome(Status.MEMOUT, error=f"out of memory creating {batch.spec}")
        return trap.attach_all([failed] * len(batch.items))
    except Exception as exc:
        failed = Outcome(Status.ERROR, error=f"cannot create {batch.spec}: {_describe(exc)}")
        return trap.attach_all([failed] * len(batch.items))
    if batch.timing == "batch" and _batches(solver):
        inflight.announce(_settings.track, tag, inflight.WHOLE_BATCH)
        outcomes = solve_together(solver, batch)
        _sweep()
        return trap.attach_all(outcomes)
    return [
        trap.attach(_swept(solve_item(solver, batch, item, _starting(tag, index))))
        for index, item in enumerate(batch.items)
    ]


def _starting(tag: int | None, index: int) -> Callable[[], None]:
    """What `solve_item` calls as the timed solve starts: tell the parent's tracker."""
    return lambda: inflight.announce(_settings.track, tag, index)


def _sweep() -> None:
    """Kill every process a solve left behind (the solver's persistent programs excepted)."""
    if _sweeping:
        containment.sweep(keep=live_pids)


def _swept(outcome: Outcome) -> Outcome:
    _sweep()
    return outcome


def _solver(spec: str) -> Solver:
    if spec not in _solvers:
        _solvers[spec] = get(spec)
    return _solvers[spec]


def _given_and_posed(item: Item) -> tuple[Grid, Grid]:
    """The puzzle as given, and as the solver sees it (its metamorphic form)."""
    given = grid_of(item.puzzle, item.box)
    return given, item.transform.apply(given) if item.transform else given


def solve_item(
    solver: Solver, batch: Batch, item: Item, starting: Callable[[], None] | None = None
) -> Outcome:
    """One timed solve, with the answers mapped back to the puzzle as given (`starting` is
    called after the warm-up, as the solve starts)."""
    try:
        given, puzzle = _given_and_posed(item)
    except Exception as exc:
        return Outcome(Status.ERROR, error=f"cannot read the puzzle: {_describe(exc)}")
    _warm_up(solver, puzzle, batch)
    if starting is not None:
        starting()
    guard = batch.timeout + _settings.grace / 2
    clock = Clock(solver)  # the span every command times (harness.measure)
    try:
        with _alarm(guard):
            staged = solver.stage(puzzle, limit=batch.limit, time_limit=batch.timeout)
            raw = clock.time(staged.run)
            result = staged.finish(raw)
    except HardTimeout:
        wall, cpu = clock.partial()
        return Outcome(
            Status.TIMEOUT,
            wall=wall,
            cpu=cpu,
            error=f"stopped by the harness after {guard:.3g} s: the solver overran its "
            f"{batch.timeout:g} s time limit",
        )
    except MemoryError:
        limit = f" (limit {_settings.memory_mb} MB)" if _settings.memory_mb else ""
        return Outcome(Status.MEMOUT, error=f"out of memory{limit}")
    except Exception as exc:
        return Outcome(Status.ERROR, wall=clock.partial()[0], error=_describe(exc, trace=True))
    usage = clock.usage
    try:
        outcome = _outcome(result, given, item, clock.wall, usage.cpu_s, batch.timeout, "solve")
    except Exception as exc:
        return Outcome(
            Status.ERROR, wall=clock.wall, cpu=usage.cpu_s, error=f"bad result: {_describe(exc)}"
        )
    stats = {**json.loads(outcome.stats), **usage.stats(), "span": clock.span}
    return replace(outcome, stats=json.dumps(stats, default=str), peak_rss_mb=usage.peak_rss_mb)


def _batches(solver: Solver) -> bool:
    """Whether the solver solves many puzzles in one call (``stage_batch``)."""
    return solver.batches


def solve_together(solver: Solver, batch: Batch) -> list[Outcome]:
    """The batch in one timed call (``stage_batch``); each puzzle gets an equal share of it.

    A solver's own per-puzzle time (``stats["solver_time"]``), when it reports
    one, is kept beside the share.  The batch call has no per-puzzle time
    limit: a share past the limit is recorded as ``TIMEOUT``, and a batch that
    overruns its hard limit is killed and re-run one puzzle at a time.
    """
    try:
        pairs = [_given_and_posed(item) for item in batch.items]
    except Exception as exc:
        return [Outcome(Status.ERROR, error=f"cannot read the puzzle: {_describe(exc)}")] * len(
            batch.items
        )
    puzzles = [posed for _, posed in pairs]
    _warm_up(solver, puzzles[0], batch)
    start, cpu_start = time.perf_counter(), time.process_time()
    guard = batch.timeout + _settings.grace / 2
    try:
        with _alarm(guard):
            staged = solver.stage_batch(puzzles, limit=batch.limit)
            cpu_start = time.process_time()
            start = time.perf_counter()
            raw = staged.run()
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            results = staged.finish(raw)
    except HardTimeout:
        if len(puzzles) > 1:
            return [solve_together(solver, single)[0] for single in batch.split()]
        error = f"stopped by the harness after {guard:.3g} s, past the {batch.timeout:g} s limit"
        return [Outcome(Status.TIMEOUT, wall=guard, error=error)]
    except MemoryError:
        return [Outcome(Status.MEMOUT, error="out of memory")] * len(puzzles)
    except Exception as exc:
        return [Outcome(Status.ERROR, error=_describe(exc, trace=True))] * len(puzzles)
    share, cpu_share = wall / len(puzzles), cpu / len(puzzles)
    outcomes = []
    for (given, _), item, result in zip(pairs, batch.items, results, strict=True):
        try:
            outcome = _outcome(result, given, item, share, cpu_share, batch.timeout, "batch")
        except Exception as exc:
            outcome = Outcome(Status.ERROR, wall=share, error=f"bad result: {_describe(exc)}")
        outcomes.append(outcome)
    return outcomes


def measure_overhead(samples: int = 2001) -> float:
    """The median seconds the timed region of `solve_item` adds to a solve that does nothing.

    It is the floor under every recorded time: reports can subtract it.
    """
    null, puzzle = _NullSolver(), easy_grid(2, 2)
    walls = []
    for _ in range(samples):
        staged = null.stage(puzzle, limit=2, time_limit=1.0)
        start = time.perf_counter()
        staged.run()
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


class _NullSolver(Solver):
    """Answers STUCK at once: what timing a solve costs when the solve costs nothing."""

    name, family, complete, summary, source = "null", "search", False, "does nothing", "none"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        return _STUCK


_STUCK = SolveResult(Status.STUCK)


def _outcome(
    result: SolveResult,
    given: Grid,
    item: Item,
    wall: float,
    cpu: float,
    timeout: float,
    clock: str,
) -> Outcome:
    if not isinstance(result, SolveResult):
        raise TypeError(f"solve() returned {type(result).__name__}, not a SolveResult")
    inverse = item.transform.inverse() if item.transform else None
    answers = []
    for solution in result.solutions[:2]:
        if not isinstance(solution, Grid):
            raise TypeError(f"a solution is a {type(solution).__name__}, not a Grid")
        if inverse is not None:
            solution = inverse.apply(solution, box=(given.box_rows, given.box_cols))
        answers.append(solution)
    solutions = [solution_text(answer) for answer in answers]
    stats = dict(result.stats)
    stats["clock"] = clock
    status, error = result.status, ""
    if status in FAILURES:  # why it failed is the error text (an external program's last words)
        error = result.message
    elif result.message:
        stats["message"] = result.message
    if wall > timeout and status != Status.TIMEOUT:
        stats["late_status"] = status.value
        status = Status.TIMEOUT
        error = f"returned {result.status.value} after {wall:.3g} s, past the {timeout:g} s limit"
    return Outcome(
        status,
        tuple(solutions),
        bool(result.exhausted),
        wall,
        cpu,
        json.dumps(stats, default=str),
        error,
        answer_problems(given, result.status, answers),
    )


def _warm_up(solver: Solver, puzzle: Grid, batch: Batch) -> None:
    """Solve an easy puzzle of the same shape once, untimed: imports, caches, JIT."""
    key = (batch.spec, puzzle.box_rows, puzzle.box_cols)
    if key in _warmed:
        return
    _warmed.add(key)
    with contextlib.suppress(Exception, HardTimeout), _alarm(batch.timeout + _settings.grace / 2):
        easy = easy_grid(puzzle.box_rows, puzzle.box_cols)
        solver.solve(easy, limit=batch.limit, time_limit=batch.timeout)
        if batch.timing == "batch" and _batches(solver):
            staged = solver.stage_batch([easy], limit=batch.limit)
            staged.finish(staged.run())


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise `HardTimeout` in this block after `seconds` (main thread only; else no guard)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise HardTimeout

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _describe(exc: BaseException, *, trace: bool = False) -> str:
    """``Type: message``, and with `trace` the innermost frames, for the error column."""
    text = f"{type(exc).__name__}: {exc}"
    if trace and exc.__traceback__ is not None:
        frames = traceback.extract_tb(exc.__traceback__)[-3:]
        where = " <- ".join(
            f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} in {f.name}" for f in reversed(frames)
        )
        text += f" (at {where})"
    return text
