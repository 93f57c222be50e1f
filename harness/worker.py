"""The code that runs inside a worker process: limits, warm-up, timed solves.

`initialize` prepares a fresh worker (memory limit, Ctrl-C left to the
parent, solver modules imported so imports are never timed); `solve_batch`
solves a batch puzzle by puzzle, timing only the ``solve`` call (wall and CPU)
after one warm-up solve per solver and box shape.  Each solve is also guarded
by ``SIGALRM`` at ``timeout + grace / 2``, which stops a pure-Python solver
that ignores its time limit; a solver stuck in C code is the parent's to kill.
Failures are data: an exception becomes ``ERROR`` with its text, a
`MemoryError` becomes ``MEMOUT``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import resource
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator

from harness.crosscheck import answer_problems
from harness.records import grid_of, puzzle_text
from harness.tasks import Batch, Item, Outcome, WorkerSettings
from solvers.base import Solver, SolveResult
from solvers.grid import Grid
from solvers.registry import get, parse_spec, solver_class

_settings = WorkerSettings(memory_mb=None)
_solvers: dict[str, Solver] = {}
_warmed: set[tuple[str, int, int]] = set()


class HardTimeout(BaseException):
    """Raised by the alarm in a solve that overran its limit (not an `Exception`,
    so a solver's own ``except Exception`` cannot swallow it)."""


def initialize(settings: WorkerSettings) -> None:
    """Prepare a worker process: limits first, then the imports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if settings.memory_mb:
        limit = settings.memory_mb * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    prepare(settings)


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


def solve_batch(batch: Batch) -> list[Outcome]:
    """Solve every item of a batch; never raises for a solver's failure."""
    try:
        solver = _solver(batch.spec)
    except Exception as exc:
        return [Outcome("ERROR", error=f"cannot create {batch.spec}: {_describe(exc)}")] * len(
            batch.items
        )
    return [solve_item(solver, batch, item) for item in batch.items]


def _solver(spec: str) -> Solver:
    if spec not in _solvers:
        _solvers[spec] = get(spec)
    return _solvers[spec]


def solve_item(solver: Solver, batch: Batch, item: Item) -> Outcome:
    """One timed solve, with the answers mapped back to the puzzle as given."""
    try:
        given = grid_of(item.puzzle, item.box)
        puzzle = item.transform.apply(given) if item.transform else given
    except Exception as exc:
        return Outcome("ERROR", error=f"cannot read the puzzle: {_describe(exc)}")
    _warm_up(solver, puzzle, batch)
    guard = batch.timeout + _settings.grace / 2
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        with _alarm(guard):
            start, cpu_start = time.perf_counter(), time.process_time()
            result = solver.solve(puzzle, limit=batch.limit, time_limit=batch.timeout)
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
    except HardTimeout:
        return Outcome(
            "TIMEOUT",
            wall=time.perf_counter() - start,
            cpu=time.process_time() - cpu_start,
            error=f"stopped by the harness after {guard:.3g} s: the solver overran its "
            f"{batch.timeout:g} s time limit",
        )
    except MemoryError:
        limit = f" (limit {_settings.memory_mb} MB)" if _settings.memory_mb else ""
        return Outcome("MEMOUT", error=f"out of memory{limit}")
    except Exception as exc:
        return Outcome("ERROR", wall=time.perf_counter() - start, error=_describe(exc, trace=True))
    try:
        return _outcome(result, given, item, wall, cpu, batch.timeout)
    except Exception as exc:
        return Outcome("ERROR", wall=wall, cpu=cpu, error=f"bad result: {_describe(exc)}")


def _outcome(
    result: SolveResult, given: Grid, item: Item, wall: float, cpu: float, timeout: float
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
    solutions = [puzzle_text(answer)[0] for answer in answers]
    stats = dict(result.stats)
    status, error = result.status.value, ""
    if status == "ERROR":
        error = result.message
    elif result.message:
        stats["message"] = result.message
    if wall > timeout and status != "TIMEOUT":
        stats["late_status"] = status
        status = "TIMEOUT"
        error = f"returned {result.status.value} after {wall:.3g} s, past the {timeout:g} s limit"
    return Outcome(
        status,
        tuple(solutions),
        bool(result.exhausted),
        wall,
        cpu,
        json.dumps(stats, default=str),
        error,
        answer_problems(given, result.status.value, answers),
    )


def _warm_up(solver: Solver, puzzle: Grid, batch: Batch) -> None:
    """Solve an easy puzzle of the same shape once, untimed: imports, caches, JIT."""
    key = (batch.spec, puzzle.box_rows, puzzle.box_cols)
    if key in _warmed:
        return
    _warmed.add(key)
    with contextlib.suppress(Exception, HardTimeout), _alarm(batch.timeout + _settings.grace / 2):
        solver.solve(
            easy_puzzle(puzzle.box_rows, puzzle.box_cols),
            limit=batch.limit,
            time_limit=batch.timeout,
        )


def easy_puzzle(box_rows: int, box_cols: int) -> Grid:
    """A full grid of the shape with one cell per row left empty (naked singles only)."""
    n = box_rows * box_cols
    cells = [
        0
        if c == (r * box_cols + r // box_rows) % n
        else (box_cols * (r % box_rows) + r // box_rows + c) % n + 1
        for r in range(n)
        for c in range(n)
    ]
    return Grid(box_rows, box_cols, tuple(cells))


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
