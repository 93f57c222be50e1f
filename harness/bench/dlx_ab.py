"""`dlx` against an earlier version of itself: ``python -m harness.bench.dlx_ab --help``.

Prints the median µs per puzzle of ``solvers.get("dlx")`` with ``limit=1``
and ``limit=2`` on built-in corpora (default ``gen9-hard``), for this
checkout and for a git revision (default ``main``), side by side with the
ratio.  Each version runs in its own fresh process (its own ``PYTHONPATH``)
and the two alternate round by round, so a change in the machine's load
falls on both; a figure is the median over rounds of each round's median
over puzzles, a puzzle's time being the median of ``--repeat`` runs of the
staged work (`Solver.stage`, as the harness times it).  Every answer is
checked in the worker with `solvers.check`, and the search counters
(nodes, guesses, backtracks, updates) of the two versions are compared: on
classic puzzles equal counters mean the same matrix searched the same way.
A corpus a version does not take (variants, for a version without them)
shows ``-``.

The worker half of this file imports only the standard library, `solvers`
and `corpora`, so the same file drives an older checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
COUNTERS = ("nodes", "guesses", "backtracks", "updates")


def worker(names: list[str], repeat: int) -> None:
    """Time every puzzle of each corpus and limit; print one JSON line each."""
    import solvers
    from corpora import open_corpus

    dlx = solvers.get("dlx")
    for name in names:
        grids = [p.grid for p in open_corpus(name).puzzles()]
        taken = [g for g in grids if dlx.handles(g)]
        for limit in (1, 2):
            row: dict[str, object] = {"set": name, "limit": limit, "puzzles": len(grids)}
            if len(taken) < len(grids):
                print(json.dumps(row), flush=True)
                continue
            times, counters = [], dict.fromkeys(COUNTERS, 0)
            for grid in taken:
                runs = []
                for _ in range(repeat):
                    staged = dlx.stage(grid, limit=limit)
                    start = time.perf_counter()
                    raw = staged.run()
                    runs.append(time.perf_counter() - start)
                result = staged.finish(raw)
                if not result.solved or solvers.check(grid, result.solution):
                    raise SystemExit(f"{name} limit={limit}: a wrong answer ({result.status})")
                times.append(statistics.median(runs))
                for key in COUNTERS:
                    counters[key] += result.stats[key]
            row["us"] = statistics.median(times) * 1e6
            row["counters"] = counters
            print(json.dumps(row), flush=True)


def run(tree: Path, names: list[str], repeat: int) -> list[dict]:
    """One worker process on `tree`'s code; its rows."""
    from harness.bench.revision import worker_rows  # (the main half only: see the docstring)

    return worker_rows(HERE, tree, ["--sets", ",".join(names), "--repeat", str(repeat)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.dlx_ab",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.dlx_ab --base main --rounds 5",
    )
    parser.add_argument("--base", default="main", help="git revision to compare with")
    parser.add_argument("--sets", default="gen9-hard", help="built-in corpora, comma-separated")
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs of each version")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each puzzle")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = args.sets.split(",")
    if args.worker:
        worker(names, args.repeat)
        return 0
    from harness.bench.revision import export

    with tempfile.TemporaryDirectory(prefix="dlx-ab-") as tmp:
        trees = {"before": export(args.base, Path(tmp)), "after": ROOT}
        rows: dict[tuple[str, str, int], list[dict]] = {}
        load = []
        for _ in range(args.rounds):
            for k, tree in trees.items():
                load.append(os.getloadavg()[0])
                for r in run(tree, names, args.repeat):
                    rows.setdefault((k, r["set"], r["limit"]), []).append(r)
    print(
        f"# dlx: this checkout against {args.base} — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{os.cpu_count()} cores, load average {min(load):.1f}–{max(load):.1f}; median µs "
        f"per puzzle (staged work), median of {args.rounds} alternating rounds\n"
    )
    heads = ["set", "limit", "puzzles", "before µs", "after µs", "after/before", "same counters"]
    print("| " + " | ".join(heads) + " |")
    print("|" + " --- |" * len(heads))
    for name in names:
        for limit in (1, 2):
            b, a = rows[("before", name, limit)], rows[("after", name, limit)]
            tb = statistics.median(r["us"] for r in b) if "us" in b[0] else None
            ta = statistics.median(r["us"] for r in a) if "us" in a[0] else None
            same = "-" if tb is None or ta is None else str(b[0]["counters"] == a[0]["counters"])
            cells = [
                name,
                str(limit),
                str(a[0]["puzzles"]),
                "-" if tb is None else f"{tb:.0f}",
                "-" if ta is None else f"{ta:.0f}",
                "-" if tb is None or ta is None else f"{ta / tb:.3f}",
                same.lower(),
            ]
            print("| " + " | ".join(cells) + " |")
    print("\nEvery answer of both versions passed solvers.check.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
