"""The figures behind the fast path: ``python -m harness.bench.fast --help``.

Sections (each on by default; pick with ``--only``):

- ``compile``: the first call in a fresh process with an empty JIT cache
  (compiling), with the on-disk cache filled (loading), and warm;
- ``sets``: µs per puzzle in batch mode, first solution and uniqueness
  proof, one thread and several, guesses per puzzle, every answer checked
  with `solvers.check`; dlx on a sample of the same puzzles, side by side,
  for the ratio; tdoku's figures from the same kind of machine for reference;
- ``truth``: solution counts for a million puzzles (the serg set in many
  relabelled and permuted forms, made with `solvers.transforms`), every
  answer checked;
- ``generator``: 9x9 minimal unique puzzles per second with the oracle on
  dlx, then on fast.

Times are CPU seconds of this thread (``time.thread_time``) for one-thread
runs — steadier than wall time on a shared machine — and wall time for
multi-threaded ones; medians of ``--repeat`` runs.  Warm-up calls come first.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

import solvers
from solvers.fast.batch import Batch, solve_many
from solvers.fast.truth import read_chunks
from solvers.transforms import random_transform

# The public collections (not shipped): a folder of NAME.txt files.
CORPORA = Path(os.environ.get("SUDOKU_BENCH_CORPORA", "corpora-public"))
SETS = ("magictour_top1465", "forum_hardest_sample2000", "clue17_sample2000")
TDOKU_US = {  # first solution, µs per puzzle, tdoku measured on the same kind of machine
    "magictour_top1465": 5.7,
    "forum_hardest_sample2000": 26.0,
    "clue17_sample2000": 3.1,
}
TDOKU_GUESSES_TOP1465 = 6.1


def load(name: str) -> np.ndarray:
    """A corpus of one 9x9 puzzle per line as a digit array."""
    return np.concatenate([cells for _, cells in read_chunks(CORPORA / f"{name}.txt")])


def timed(
    run: Callable[[], object], repeat: int, clock: Callable[[], float]
) -> tuple[float, object]:
    """The median time of `repeat` runs (after one warm-up) and the last result."""
    result = run()
    times = []
    for _ in range(repeat):
        start = clock()
        result = run()
        times.append(clock() - start)
    return statistics.median(times), result


def checked(cells: np.ndarray, batch: Batch) -> int:
    """How many answers `solvers.check` rejects (each puzzle's first solution)."""
    wrong = 0
    for i in range(len(batch)):
        puzzle = solvers.Grid(3, 3, tuple(cells[i].tolist()))
        solution = batch.grid(i)
        wrong += solution is None or bool(solvers.check(puzzle, solution))
    return wrong


def section_compile() -> None:
    """First calls in fresh processes: compiling into an empty cache, then loading it."""
    # corpora/data/gen9-extreme.txt line 4 (project-made); any puzzle that needs a guess will do
    puzzle = ".9..743.........153........4.....1.3.2.3..5...7..2.....87..2...9..1.58.....8....."
    probe = "; ".join(
        [
            "import time",
            "t = time.perf_counter()",
            "import solvers",
            "from solvers.fast import solve_many",
            f"g = solvers.Grid.parse('{puzzle}')",
            "solve_many([g])",
            "a = time.perf_counter()",
            "solvers.get('fast').solve(g)",
            "b = time.perf_counter()",
            "solve_many([g] * 200, threads=2)",
            "c = time.perf_counter()",
            "solve_many([solvers.Grid.empty(4)])",
            "d = time.perf_counter()",
            "solve_many([g])",
            "e = time.perf_counter()",
            "print(a - t, b - a, c - b, d - c, e - d)",
        ]
    )
    print("\n## JIT compile cost (fresh processes)\n")
    print("| cache | 9x9 batch | 9x9 single | 9x9 threads | 16x16 (generic) | warm 9x9 call |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("empty (compile)", "filled (load)"):
            out = subprocess.run(
                [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            cells = " | ".join(f"{float(x):.2f} s" for x in out[:4])
            print(f"| {label} | {cells} | {float(out[4]) * 1e6:.0f} µs |")


def section_sets(names: list[str], sample: int, repeat: int, threads: int) -> None:
    """Batch timings per set, side by side with dlx on a sample."""
    dlx = solvers.get("dlx")
    cpu = time.thread_time
    rows = []
    for name in names:
        cells = load(name)
        count = len(cells)
        t1, first = timed(partial(solve_many, cells, limit=1, threads=1), repeat, cpu)
        t2, proof = timed(partial(solve_many, cells, limit=2, threads=1), repeat, cpu)
        tn, _ = timed(
            partial(solve_many, cells, limit=2, threads=threads), repeat, time.perf_counter
        )
        assert isinstance(first, Batch)
        assert isinstance(proof, Batch)
        wrong = checked(cells, first) + checked(cells, proof)
        unique = int(proof.unique.sum())
        # dlx and fast on the same sample; dlx one puzzle at a time (its only way)
        part = cells[:sample]
        grids = [solvers.Grid(3, 3, tuple(r)) for r in part.tolist()]
        dlx_times, dlx_disagree = [], 0
        fast_part = solve_many(part, limit=1, threads=1)
        for i, grid in enumerate(grids):
            start = cpu()
            result = dlx.solve(grid, limit=1)
            dlx_times.append(cpu() - start)
            dlx_disagree += result.solution != fast_part.grid(i) and proof.unique[i]
        tf, _ = timed(partial(solve_many, part, limit=1, threads=1), repeat, cpu)
        dlx_us = statistics.fmean(dlx_times) * 1e6
        fast_sample_us = tf / len(part) * 1e6
        rows.append(
            [
                name,
                count,
                f"{t1 / count * 1e6:.1f}",
                f"{t2 / count * 1e6:.1f} ({t2 / t1:.2f}x)",
                f"{tn / count * 1e6:.1f}",
                f"{first.guesses.mean():.2f}",
                f"{(first.guesses == 0).mean() * 100:.0f}%",
                f"{t1 / count * 1e6 / TDOKU_US[name]:.1f}x" if name in TDOKU_US else "-",
                f"{dlx_us:.0f} / {fast_sample_us:.1f} = {dlx_us / fast_sample_us:.0f}x",
                f"{unique}/{count}",
                f"{wrong} / {dlx_disagree}",
            ]
        )
    print("\n## Batch mode, µs per puzzle (CPU time, one thread unless noted)\n")
    heads = [
        "set",
        "puzzles",
        "limit=1",
        "limit=2 (vs 1)",
        f"limit=2, {threads} threads (wall)",
        "guesses",
        "no guess",
        "vs tdoku",
        f"dlx / fast on first {sample} (mean)",
        "unique",
        "check fails / dlx disagrees",
    ]
    print("| " + " | ".join(heads) + " |")
    print("|" + " --- |" * len(heads))
    for row in rows:
        print("| " + " | ".join(map(str, row)) + " |")
    print(
        f"\ntdoku (same machine kind): top1465 {TDOKU_US['magictour_top1465']} µs, forum hardest "
        f"{TDOKU_US['forum_hardest_sample2000']} µs, 17-clue {TDOKU_US['clue17_sample2000']} µs; "
        f"{TDOKU_GUESSES_TOP1465} guesses per puzzle on top1465."
    )


def section_truth(forms: int, threads: int, check_all: bool) -> None:
    """Counts for `forms` equivalent forms of each serg puzzle, solved form by form."""
    base = load("serg_benchmark")
    template = solvers.Grid.empty(3)
    transforms = [random_transform(template, random.Random(seed))[0] for seed in range(forms)]
    total = len(base) * forms
    solve_many(base[:256], threads=threads)  # warm-up
    seconds, counts, bad = 0.0, np.zeros(3, dtype=np.int64), 0
    rng = random.Random(0)
    sampled = 0
    for t in transforms:
        source = np.array(t.source)
        relabel = np.array(t.relabel, dtype=np.int8)
        cells = relabel[base[:, source]]
        start = time.perf_counter()
        batch = solve_many(cells, limit=2, threads=threads)
        seconds += time.perf_counter() - start
        counts += np.bincount(batch.counts, minlength=3)[:3]
        bad += _invalid_rows(cells, batch.solutions[:, 0])
        for i in range(len(cells)) if check_all else rng.sample(range(len(cells)), 10):
            sampled += 1
            puzzle = solvers.Grid(3, 3, tuple(cells[i].tolist()))
            answer = batch.grid(i)
            bad += answer is None or bool(solvers.check(puzzle, answer))
    print(
        f"\n## Truth for {total:,} puzzles ({forms} forms of serg_benchmark), {threads} threads\n"
    )
    per = seconds / total * 1e6
    print(f"- solve time (wall, kernels only): {seconds:.1f} s, {per:.2f} µs per puzzle")
    print(f"- counts: 0: {counts[0]}, 1: {counts[1]}, 2+: {counts[2]} (the set has only 2+)")
    print(
        f"- answers checked: all {total:,} by a NumPy rule check, {sampled:,} also by "
        f"solvers.check; failures: {bad}"
    )


def _invalid_rows(cells: np.ndarray, solutions: np.ndarray) -> int:
    """Solutions that break a rule or a given (vectorized; independent of the kernels)."""
    grid = solutions.reshape(-1, 9, 9).astype(np.int64)
    boxes = grid.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    full = np.full(9, (1 << 10) - 2)
    bad = np.zeros(len(grid), dtype=bool)
    for view in (grid, grid.transpose(0, 2, 1), boxes):
        bits = np.bitwise_or.reduce(1 << view, axis=2)
        bad |= (bits != full).any(axis=1)
    bad |= ((cells != 0) & (cells != solutions)).any(axis=1)
    return int(bad.sum())


def section_generator(count: int) -> None:
    """9x9 minimal unique puzzles per second, oracle on dlx then on fast."""
    from corpora.generate import Spec, make

    spec = Spec(box=(3, 3), minimal=True)
    print(f"\n## Generator: {count} minimal unique 9x9 puzzles (seed 'bench')\n")
    print("| oracle | puzzles/s | clues (mean) |")
    print("| --- | --- | --- |")
    previous = os.environ.get("SUDOKU_BENCH_ORACLE")
    try:
        for oracle in ("dlx", "fast"):
            os.environ["SUDOKU_BENCH_ORACLE"] = oracle
            make(spec, seed="warm-up", index=0)
            start = time.thread_time()
            made = [make(spec, seed="bench", index=i) for i in range(count)]
            seconds = time.thread_time() - start
            clues = statistics.fmean(m.puzzle.givens for m in made)
            print(f"| {oracle} | {count / seconds:.2f} | {clues:.1f} |")
    finally:
        if previous is None:
            os.environ.pop("SUDOKU_BENCH_ORACLE", None)
        else:
            os.environ["SUDOKU_BENCH_ORACLE"] = previous


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.fast",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.fast --only sets --repeat 5",
    )
    parser.add_argument(
        "--only", action="append", choices=("compile", "sets", "truth", "generator")
    )
    parser.add_argument(
        "--sets", default=",".join(SETS), help="corpus names (files in $SUDOKU_BENCH_CORPORA)"
    )
    parser.add_argument(
        "--dlx-sample", type=int, default=200, metavar="N", help="puzzles dlx solves per set"
    )
    parser.add_argument("--repeat", type=int, default=5, metavar="K", help="timed runs per figure")
    parser.add_argument("--threads", type=int, default=2, metavar="N")
    parser.add_argument(
        "--forms", type=int, default=100, metavar="K", help="forms of each serg puzzle"
    )
    parser.add_argument("--check-all", action="store_true", help="solvers.check every truth answer")
    parser.add_argument("--generate", type=int, default=20, metavar="N", help="puzzles per oracle")
    args = parser.parse_args(argv)
    only = set(args.only or ("compile", "sets", "truth", "generator"))
    import numba

    print(
        f"# solvers.fast benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
        f"numba {numba.__version__}, Python {platform.python_version()}"
    )
    if "compile" in only:
        section_compile()
    if "sets" in only:
        section_sets(args.sets.split(","), args.dlx_sample, args.repeat, args.threads)
    if "truth" in only:
        section_truth(args.forms, args.threads, args.check_all)
    if "generator" in only:
        section_generator(args.generate)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
