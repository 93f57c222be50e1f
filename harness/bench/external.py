"""What the line protocol costs per puzzle: ``python -m harness.bench.external``.

A C program that answers instantly (it echoes the grid it is sent as a
proven solution) is built with the system compiler and asked to "solve"
complete grids, so every microsecond measured is overhead.  Three figures,
interleaved puzzle by puzzle so machine noise hits them alike:

- ``os floor``: a blocking ``os.write`` and ``os.read`` on a bare pipe to the
  same program, without a deadline: what the kernel and the program cost;
- ``pipe``: one request line written and one answer line read (`Program.ask`,
  with its deadline), and ``pipe, no spin``: the same without the short busy
  poll before blocking (`solvers.external.process.SPIN_SECONDS`), for the ratio;
- ``timed run``: what the harness times of an ``external`` solve, `Staged.run`
  (the request line is written before it and the answer read into grids after);
- ``solve``: the whole ``solve()`` call of an ``external`` solver (argument
  checks, the givens' conflict check, encoding, the pipe, decoding the grid);
- ``in-process``: ``solve()`` of a Python solver that does the same nothing,
  so ``solve - in-process`` is what the program being external adds.

Medians in µs over ``--puzzles`` grids x ``--rounds``.  ``--command`` times
another program instead (it should answer instantly, too).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import solvers
from corpora.corpus import open_corpus
from solvers.base import Limits, Solver, SolveResult, Status
from solvers.external import External
from solvers.external.process import Program
from solvers.external.protocol import request
from solvers.grid import Grid

INSTANT_C = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, " \n")] = 0;
        printf("SOLVED %s exhausted time_us=0\n", line);
        fflush(stdout);
    }
    return 0;
}
"""


class Echo(Solver):
    """The in-process twin of the instant program: the puzzle is its own solution."""

    name = "echo"
    family = "search"
    complete = True
    summary = "returns the (complete) puzzle as its solution"
    source = "harness/bench/external.py"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        return SolveResult(Status.SOLVED, (puzzle,), True, {"solver_time": 0.0})


def build_instant(folder: Path) -> Path:
    """Compile the instant program into `folder`."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("no C compiler (cc or gcc) on PATH; give --command PROGRAM")
    source, binary = folder / "instant.c", folder / "instant"
    source.write_text(INSTANT_C, encoding="utf-8")
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def complete_grids(count: int) -> list[Grid]:
    """Solutions of the built-in gen9-hard puzzles (found by dlx)."""
    dlx = solvers.get("dlx")
    grids = []
    for puzzle in open_corpus("gen9-hard").puzzles():
        solution = dlx.solve(puzzle.grid).solution
        if solution is not None:
            grids.append(solution)
        if len(grids) == count:
            break
    return grids


def measure(command: str, grids: list[Grid], rounds: int) -> dict[str, list[float]]:
    """Seconds per call for the three figures, interleaved per grid."""
    external = External(cmd=command)
    program = Program(external.setup.argv, external.setup.cwd)
    sleeper = Program(external.setup.argv, external.setup.cwd, spin=0.0)
    echo = Echo()
    bare = subprocess.Popen(external.setup.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert bare.stdin is not None
    assert bare.stdout is not None
    into, out = bare.stdin.fileno(), bare.stdout.fileno()
    times: dict[str, list[float]] = {
        "os floor": [],
        "pipe": [],
        "pipe, no spin": [],
        "timed run": [],
        "solve": [],
        "in-process": [],
    }
    lines = [request(g, 2, None, 10.0) for g in grids]
    try:
        for grid, line in zip(grids, lines, strict=True):  # warm-up
            os.write(into, line)
            os.read(out, 1 << 16)
            program.ask(line, None)
            sleeper.ask(line, None)
            external.solve(grid, limit=2, time_limit=10)
            echo.solve(grid, limit=2, time_limit=10)
        clock = time.perf_counter
        for _ in range(rounds):
            for grid, line in zip(grids, lines, strict=True):
                start = clock()
                os.write(into, line)
                os.read(out, 1 << 16)  # one short answer arrives in one read
                floor = clock()
                times["os floor"].append(floor - start)
                start = clock()
                sleeper.ask(line, clock() + 10)
                times["pipe, no spin"].append(clock() - start)
                start = clock()
                program.ask(line, clock() + 10)
                times["pipe"].append(clock() - start)
                staged = external.stage(grid, limit=2, time_limit=10)
                start = clock()
                answered = staged.run()
                times["timed run"].append(clock() - start)
                staged.finish(answered)
                start = clock()
                result = external.solve(grid, limit=2, time_limit=10)
                middle = clock()
                echo.solve(grid, limit=2, time_limit=10)
                times["solve"].append(middle - start)
                times["in-process"].append(clock() - middle)
                if not result.unique:
                    raise SystemExit(f"the program answered {result.status}: {result.message}")
    finally:
        program.kill()
        sleeper.kill()
        external.close()
        bare.kill()
        bare.wait()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.external",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("--puzzles", type=int, default=200, help="complete grids (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over them (default 5)")
    parser.add_argument("--command", help="an instant program of your own (default: built here)")
    args = parser.parse_args(argv)
    grids = complete_grids(args.puzzles)
    with tempfile.TemporaryDirectory(prefix="sudoku-bench-external-") as tmp:
        command = args.command or str(build_instant(Path(tmp)))
        times = measure(command, grids, args.rounds)
    print(f"{len(grids)} grids x {args.rounds} rounds, 9x9, limit=2; median (p10-p90) µs per call")
    for name, values in times.items():
        ordered = sorted(values)
        p10, p90 = (ordered[int(q * (len(ordered) - 1))] * 1e6 for q in (0.1, 0.9))
        print(f"  {name:<13} {statistics.median(values) * 1e6:7.1f}  ({p10:.1f}-{p90:.1f})")
    added = statistics.median(times["solve"]) - statistics.median(times["in-process"])
    print(f"  external adds {added * 1e6:.1f} µs per solve over an in-process solver")
    return 0


if __name__ == "__main__":
    sys.exit(main())
