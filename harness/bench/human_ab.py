"""The human engine against an earlier version of itself: ``python -m harness.bench.human_ab``.

Rates the same puzzles with this checkout and with a git revision (default
``main``) and prints, per puzzle file, each version's median, mean, p90 and
max milliseconds per puzzle, the ratios, and whether every rating is the same
(status, ER/EP/ED, HoDoKu score and level, class, steps and the count of each
technique).  Each version runs in its own fresh worker process (its own
``PYTHONPATH``; numba keeps each tree's compiled kernels beside its code), and
the two alternate round by round, the first to run changing each round, so a
change in the machine's load falls on both.  A puzzle's time is the CPU
seconds of `solvers.human.rate` in the worker (after the kernels are loaded
and one puzzle is rated untimed), the median over rounds; the figures are
taken over puzzles.  An engine change meant to keep every step shows
``same ratings: yes``.

The worker half of this file imports only the standard library, `solvers`
and `corpora`, so the same file drives an older checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
COMPARED = ("status", "er", "ep", "ed", "score", "level", "class", "steps", "counts")
"""The fields of a rating two versions must agree on (not the engine's version string)."""


def sample(path: str, count: int, seed: int) -> list[str]:
    """The puzzles of a file, or a seeded sample of `count` of them, as puzzle strings."""
    from corpora.corpus import read_puzzles

    grids = [p.grid.format() for p in read_puzzles(path)]
    if 0 < count < len(grids):
        grids = random.Random(seed).sample(grids, count)
    return grids


def worker(files: list[str], count: int, seed: int) -> None:
    """Rate every puzzle of each file's sample; one JSON line per puzzle: file, index, CPU
    seconds, and the compared fields of its rating."""
    import gc

    from solvers.human import rate
    from solvers.human.solver import load_kernels

    for path in files:
        puzzles = sample(path, count, seed)
        load_kernels()
        if puzzles:
            rate(puzzles[0])  # (untimed: whatever loads on first use)
        gc.collect()
        if hasattr(gc, "freeze"):
            gc.freeze()  # (as `harness.measure.settle_heap`)
        for i, puzzle in enumerate(puzzles):
            start = time.process_time()
            rating = rate(puzzle).as_dict()
            spent = time.process_time() - start
            row = {"file": path, "index": i, "seconds": spent}
            row.update({k: rating.get(k) for k in COMPARED})
            print(json.dumps(row), flush=True)


def run(tree: Path, files: list[str], count: int, seed: int) -> list[dict]:
    """One worker process on `tree`'s code; its rows."""
    from harness.bench.revision import worker_rows  # (the main half only: see the docstring)

    return worker_rows(HERE, tree, ["--sample", str(count), "--seed", str(seed), *files])


def compare(rounds: dict[str, list[list[dict]]], path: str) -> list[str]:
    """The table row of one puzzle file from each version's rounds of rows."""
    per_puzzle: dict[str, dict[int, list[float]]] = {}
    ratings: dict[str, dict[int, tuple]] = {}
    for version, runs in rounds.items():
        times = per_puzzle[version] = {}
        for rows in runs:
            for r in rows:
                if r["file"] != path:
                    continue
                times.setdefault(r["index"], []).append(r["seconds"])
                ratings.setdefault(version, {})[r["index"]] = tuple(
                    json.dumps(r[k], sort_keys=True) for k in COMPARED
                )
    from harness.bench.human import time_figures  # (the main half only)

    before, after = (
        [1e3 * x for x in time_figures([statistics.median(t) for t in per_puzzle[v].values()])]
        for v in ("before", "after")
    )
    differ = sum(ratings["before"][i] != ratings["after"].get(i) for i in ratings.get("before", {}))
    return [
        Path(path).stem,
        str(len(per_puzzle["after"])),
        " / ".join(f"{x:,.1f}" for x in before),
        " / ".join(f"{x:,.1f}" for x in after),
        " / ".join(f"{a / b:.2f}" for a, b in zip(after, before, strict=True)),
        "yes" if not differ else f"no: {differ} differ",
    ]


HEADER = [
    "puzzles",
    "rated",
    "before: median / mean / p90 / max ms",
    "after",
    "after/before",
    "same ratings",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.human_ab",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.human_ab --base main --sample 100 "
        "--rounds 2 forum_hardest_1106.txt",
    )
    parser.add_argument("files", nargs="+", help="puzzle files (any format the corpora read)")
    parser.add_argument("--base", default="main", help="git revision to compare with")
    parser.add_argument("--sample", type=int, default=50, help="a seeded sample of N puzzles")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs of each version")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    files = [str(Path(f).resolve()) for f in args.files]
    missing = [f for f in files if not Path(f).is_file()]
    if missing:
        print(f"error: no such puzzle file: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.worker:
        worker(files, args.sample, args.seed)
        return 0
    from harness.bench.revision import export

    with tempfile.TemporaryDirectory(prefix="human-ab-") as tmp:
        trees = {"before": export(args.base, Path(tmp)), "after": ROOT}
        rounds: dict[str, list[list[dict]]] = {k: [] for k in trees}
        load = []
        for i in range(args.rounds):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for k in order:
                load.append(os.getloadavg()[0])
                rounds[k].append(run(trees[k], files, args.sample, args.seed))
    print(
        f"# human engine: this checkout against {args.base} — "
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average "
        f"{min(load):.1f}–{max(load):.1f}; CPU ms of `rate` per puzzle, the median of "
        f"{args.rounds} alternating rounds\n"
    )
    print("| " + " | ".join(HEADER) + " |")
    print("|" + " --- |" * len(HEADER))
    for path in files:
        print("| " + " | ".join(compare(rounds, path)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
