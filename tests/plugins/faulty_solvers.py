"""A solver that misbehaves on purpose, for testing the harness with real processes.

``faulty[fault=KIND,prefix=P,spare=S]`` answers like ``dlx`` except on puzzles
whose line text starts with ``P`` (every puzzle when ``P`` is empty) and not
with ``S`` (``S`` spares a puzzle but not its metamorphic forms), where it:

- ``sleep``: sleeps forever (Python code: the worker's alarm stops it);
- ``hang``: blocks the alarm signal, then sleeps forever (only a kill stops it);
- ``hog``: allocates memory without bound;
- ``abort``: calls ``os.abort()``; ``exit``: calls ``os._exit(3)``;
- ``raise``: raises ``RuntimeError``;
- ``wrong``: returns dlx's solution with two cells of the first row swapped;
- ``unsolvable``: claims that the puzzle has no solution;
- ``unique``: returns one solution and claims it is the only one;
- ``slow``: sleeps ``delay`` seconds, then answers correctly;
- ``chatty``: prints a megabyte to standard output (Python) and one to standard
  error (the file descriptor, as C code would), then answers correctly;
- ``complain``: says why on standard error, then raises ``RuntimeError``.
- ``spawn``: starts a child process in a session of its own (``setsid``) that
  sleeps with ``mark`` on its command line, then answers correctly;
  ``spawnhang``: the same, then hangs as ``hang`` does;
- ``exit0``: calls ``os._exit(0)``.

``warmup=S`` costs S seconds once, as a JIT compile does: in `Solver.warm_up`
if the harness calls it, else in the first solve.

This module registers the solver when imported, so import it only where the
registration cannot leak into other tests: in worker processes (through
``WorkerSettings.imports`` or ``--plugin``) and in tests that undo it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from solvers import Param, Solver, SolveResult, Status, get, register
from solvers.grid import Grid

FAULTS = (
    "none",
    "sleep",
    "hang",
    "hog",
    "abort",
    "exit",
    "raise",
    "wrong",
    "unsolvable",
    "unique",
    "slow",
    "chatty",
    "complain",
    "spawn",
    "spawnhang",
    "exit0",
)


@register
class Faulty(Solver):
    name = "faulty"
    family = "search"
    complete = True
    summary = "dlx with a fault injected on chosen puzzles (harness tests only)"
    source = "tests/plugins/faulty_solvers.py"
    parameters = {
        "fault": Param("none", "what goes wrong", choices=FAULTS),
        "prefix": Param("", "misbehave only on puzzles whose text starts with this"),
        "spare": Param("", "never misbehave on puzzles whose text starts with this"),
        "delay": Param(0.05, "seconds the 'slow' fault sleeps per puzzle"),
        "warmup": Param(0.0, "seconds warm_up sleeps (a stand-in for a JIT compile)"),
        "mark": Param("faulty-child", "the command-line marker of the 'spawn' faults' child"),
    }

    warmed = False

    def warm_up(self) -> None:
        if not self.warmed:
            time.sleep(self.options["warmup"])
            self.warmed = True

    def _solve(self, puzzle: Grid, limit: int, limits, trace: bool) -> SolveResult:
        self.warm_up()  # a no-op once warmed
        fault = self.options["fault"]
        text, spare = puzzle.format(), self.options["spare"]
        if (
            fault == "none"
            or not text.startswith(self.options["prefix"])
            or (spare and text.startswith(spare))
        ):
            return get("dlx").solve(puzzle, limit=limit, time_limit=limits.remaining())
        if fault in ("spawn", "spawnhang"):
            subprocess.Popen(
                [sys.executable, "-c", "import time; time.sleep(600)", self.options["mark"]],
                start_new_session=True,
            )
        if fault == "spawnhang":
            fault = "hang"
        if fault == "exit0":
            os._exit(0)
        if fault == "sleep":
            while True:
                time.sleep(3600)
        if fault == "hang":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            while True:
                time.sleep(3600)
        if fault == "hog":
            hoard, size = [], 1 << 20
            while True:  # keep every block, each twice the last
                hoard.append(bytearray(size))
                size *= 2
        if fault == "abort":
            os.abort()
        if fault == "exit":
            os._exit(3)
        if fault == "raise":
            raise RuntimeError("injected failure")
        if fault == "complain":
            os.write(2, b"faulty: cannot go on, the state is broken\n")
            raise RuntimeError("injected failure")
        if fault == "chatty":
            print("chatter " * 131072)  # 1 MiB
            os.write(2, b"noise " * 174763)
        if fault == "unsolvable":
            return SolveResult(Status.UNSOLVABLE, exhausted=True)
        if fault == "slow":
            time.sleep(self.options["delay"])
        answer = get("dlx").solve(puzzle, limit=1)
        if fault == "wrong":
            cells = list(answer.solution.cells)
            cells[0], cells[1] = cells[1], cells[0]
            return SolveResult(Status.SOLVED, (puzzle.replace(cells),), exhausted=False)
        if fault == "unique":
            return SolveResult(Status.SOLVED, answer.solutions, exhausted=True)
        return answer


@register
class NineOnly(Faulty):
    """The same, for 9x9 grids only: to test how a run skips sizes a solver lacks."""

    name = "faulty9"
    summary = "faulty, 9x9 grids only (harness tests only)"
    sizes = (9,)
