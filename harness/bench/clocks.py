"""Do `bench` and `run` agree?  ``python -m harness.bench.clocks --help``.

Both commands time the span each solver declares (`harness.measure`), so the
same solver on the same puzzles should get the same figures from either,
within the machine's noise.  This program measures it: for each round it
times the solvers with ``sudoku-bench bench`` (in this process, solvers taking
turns by blocks) and with ``sudoku-bench run --jobs 1`` (one worker process,
results from its database), and prints each solver's median per command and
the ratio run/bench, then the median over the rounds.

The default solvers are ``fast``, ``dlx``, ``cpsat``, ``sat`` and ``csolver``,
the C program of the tests (``tests/external/solver.c``, compiled here with
the system's C compiler) speaking the line protocol.  Nothing here asserts a
time: it prints figures.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tabulate import tabulate

from corpora.corpus import open_corpus
from harness.bench.timing import bench
from harness.commands.solvers_files import load_solvers_files
from harness.store import Store
from solvers.base import Status

ROOT = Path(__file__).resolve().parents[2]
C_SOURCE = ROOT / "tests" / "external" / "solver.c"
DEFAULT_SOLVERS = ("fast", "dlx", "cpsat", "sat", "csolver")


def c_solver(folder: Path) -> Path | None:
    """A solvers file defining ``csolver`` (the tests' C program, line protocol), or None
    where there is no C compiler or no source."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not C_SOURCE.is_file():
        return None
    binary = folder / "solver"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(C_SOURCE)], check=True)
    definitions = folder / "solvers.toml"
    definitions.write_text(
        f'[[solver]]\nname = "csolver"\ncommand = "{binary}"\nprotocol = "line"\n'
        'complete = true\nreports_time = true\nsummary = "the C test solver"\n',
        encoding="utf-8",
    )
    return definitions


def run_medians(
    corpus: str, specs: list[str], db: Path, solvers_file: Path | None, limit: int
) -> dict[str, float]:
    """Median recorded wall seconds per solver of one ``run --jobs 1``."""
    command = [sys.executable, "-m", "harness.cli", "run", "--corpus", corpus, "--jobs", "1"]
    command += ["--db", str(db), "--no-progress", "--limit", str(limit)]
    for spec in specs:
        command += ["--solver", spec]
    if solvers_file is not None:
        command += ["--solvers-file", str(solvers_file)]
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    with Store(db, create=False) as store:
        run = store.last_run_id()
        walls: dict[str, list[float]] = {}
        for record in store.results([run] if run is not None else []):
            if record.wall is not None and record.status == Status.SOLVED:
                walls.setdefault(record.solver, []).append(record.wall)
    return {spec: statistics.median(w) for spec, w in walls.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.clocks",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.clocks --rounds 3",
    )
    parser.add_argument("--corpus", default="gen9-hard", help="corpus (default gen9-hard)")
    parser.add_argument(
        "--solver",
        action="append",
        help=f"solver (repeatable; default {', '.join(DEFAULT_SOLVERS)})",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--limit", type=int, default=2, help="solutions to look for (default 2)")
    args = parser.parse_args(argv)
    specs = list(args.solver or DEFAULT_SOLVERS)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        solvers_file = c_solver(folder) if "csolver" in specs else None
        if "csolver" in specs and solvers_file is None:
            specs.remove("csolver")
            print("no C compiler: csolver left out", file=sys.stderr)
        if solvers_file is not None:
            load_solvers_files([str(solvers_file)])
        puzzles = list(open_corpus(args.corpus).puzzles())
        rounds: list[dict[str, tuple[float, float]]] = []
        for k in range(args.rounds):
            timings = bench(specs, puzzles, limit=args.limit, time_limit=10.0)
            in_bench = {t.spec: statistics.median(t.seconds) for t in timings if t.seconds}
            in_run = run_medians(
                args.corpus, specs, folder / f"r{k}.sqlite", solvers_file, args.limit
            )
            rounds.append(
                {s: (in_bench[s], in_run[s]) for s in specs if s in in_bench and s in in_run}
            )
            print(f"round {k + 1} of {args.rounds} done", file=sys.stderr)
    spans = {t.spec: t.span for t in timings}
    rows = []
    for spec in specs:
        pairs = [r[spec] for r in rounds if spec in r]
        if not pairs:
            continue
        per_round = ", ".join(f"{b * 1e6:.1f}/{r * 1e6:.1f}" for b, r in pairs)
        ratio = statistics.median(r / b for b, r in pairs)
        bench_us = statistics.median(b for b, _ in pairs) * 1e6
        run_us = statistics.median(r for _, r in pairs) * 1e6
        rows.append(
            [
                spec,
                spans.get(spec, ""),
                f"{bench_us:.1f}",
                f"{run_us:.1f}",
                f"{ratio:.2f}",
                per_round,
            ]
        )
    print(
        f"{args.corpus}: {len(puzzles)} puzzles, limit {args.limit}, {args.rounds} rounds "
        "(medians of the solved puzzles' times, µs)\n"
    )
    headers = ["solver", "span", "bench µs", "run µs", "run/bench", "per round (bench/run)"]
    print(tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
