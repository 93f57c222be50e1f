"""`fast` against an earlier version of itself: ``python -m harness.bench.fast_ab --help``.

Prints µs per puzzle and guesses per puzzle for ``limit=1`` and ``limit=2``
(one thread, `solve_many`) on the three shared 9x9 sets and on the project's
16x16 and 25x25 corpora, for this checkout and for a git revision (default
``main``), side by side with the ratio and tdoku's figures measured on the same kind of machine.

Each version runs in its own fresh process (its own numba cache, its own
``PYTHONPATH``), and the two alternate round by round, so a change in the
machine's load falls on both; a figure is the median over rounds of each
round's median.  Times are CPU seconds of the solving thread.  Every answer
is checked in the worker with `solvers.check` (a failure aborts the run).
``--uniqueness`` instead proves uniqueness with ``limit=2`` on every shared
corpus with the default level and with ``intersections=off`` (cell
branching, no intersection rule), checking every solution found.
``--single N`` also times the first N puzzles of each set one at a time
through the registered solver (``Solver.stage``, only ``run`` timed), the
path a study's single-puzzle timings take.

The worker half of this file imports only the standard library, NumPy and
`solvers`, so the same file drives an older checkout.
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
from typing import Any

# The public collections (not shipped): a folder of NAME.txt files.
CORPORA = Path(os.environ.get("SUDOKU_BENCH_CORPORA", "corpora-public"))
SETS9 = ("magictour_top1465", "forum_hardest_sample2000", "clue17_sample2000")
BIG = (
    "gen12",
    "gen16",
    "gen25",
)  # project corpora (corpora/data), in relabelled and permuted forms
TDOKU = {  # tdoku on the same kind of machine: (limit, µs, guesses per puzzle)
    ("magictour_top1465", 1): (6.4, 6.07),
    ("magictour_top1465", 2): (9.5, 8.94),
    ("forum_hardest_sample2000", 1): (28.0, 33.8),
    ("forum_hardest_sample2000", 2): (52.0, 61.3),
    ("clue17_sample2000", 1): (3.5, 0.57),
    ("clue17_sample2000", 2): (3.6, 0.74),
}
HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]


def _load(name: str, forms: int) -> tuple[Any, tuple[int, int]]:
    """A set as (digits, box shape): a shared 9x9 file, or a project corpus in `forms` forms."""
    import numpy as np

    import solvers

    if name.startswith("gen"):
        from solvers.transforms import random_transform

        path = Path(solvers.__file__).resolve().parents[1] / "corpora" / "data" / f"{name}.txt"
        lines = [x.split()[0] for x in path.read_text().splitlines() if x.strip()]
        grids = [solvers.Grid.parse(x) for x in lines if not x.startswith("#")]
        rows = []
        for k in range(forms):
            for g in grids:
                t = random_transform(g, random.Random(f"{name}-{k}"))[0]
                rows.append(t.apply(g).cells if k else g.cells)
        return np.array(rows, dtype=np.int8), (grids[0].box_rows, grids[0].box_cols)
    from solvers.fast.truth import read_chunks

    return np.concatenate([c for _, c in read_chunks(CORPORA / f"{name}.txt")]), (3, 3)


def single_times(cells: Any, box: tuple[int, int], limit: int, repeat: int) -> float:
    """CPU µs per puzzle of staged single solves (``run`` alone), median of `repeat` passes."""
    import solvers

    fast = solvers.get("fast")
    grids = [solvers.Grid(box[0], box[1], tuple(row)) for row in cells.tolist()]
    for g in grids:  # warm-up, and every answer checked
        staged = fast.stage(g, limit=limit)
        result = staged.finish(staged.run())
        if result.solution is None or solvers.check(g, result.solution):
            raise SystemExit(f"single solve of {g.format('line')}: {result.status}")
    passes = []
    for _ in range(repeat):
        total = 0.0
        for g in grids:
            staged = fast.stage(g, limit=limit)
            start = time.thread_time()
            staged.run()
            total += time.thread_time() - start
        passes.append(total / len(grids) * 1e6)
    return statistics.median(passes)


def worker(names: list[str], repeat: int, forms: int, single: int = 0) -> None:
    """Time each set and limit `repeat` times (after a warm-up); print one JSON line each.

    Where the code has the `intersections` switch, the other setting is timed
    too, interleaved (keys ending in ``_alt``): ``off`` where the default
    applies the intersection rule (9x9 ``bands``, 16x16 and up), else ``on``.
    """
    import inspect

    import solvers
    from solvers.fast.batch import solve_many

    switch = "intersections" in inspect.signature(solve_many).parameters
    for name in names:
        cells, box = _load(name, forms)
        runs: dict[str, dict[str, bool]] = {"": {}}
        if switch:
            from solvers.fast.tables import rules

            runs["_alt"] = {"intersections": rules(box[0] * box[1]) < 2}  # off where it is on
        for limit in (1, 2):
            times: dict[str, list[float]] = {k: [] for k in runs}
            batches = {
                k: solve_many(cells, limit=limit, threads=1, box=box, **o) for k, o in runs.items()
            }
            for _ in range(repeat):
                for k, options in runs.items():
                    start = time.thread_time()
                    batches[k] = solve_many(cells, limit=limit, threads=1, box=box, **options)
                    times[k].append(time.thread_time() - start)
            row: dict[str, object] = {"set": name, "limit": limit, "puzzles": len(cells)}
            if single:
                row["single_us"] = single_times(cells[:single], box, limit, repeat)
            if switch:
                row["alt"] = "on" if runs["_alt"]["intersections"] else "off"
            for k, batch in batches.items():
                wrong = 0
                for i in range(len(cells)):
                    puzzle = solvers.Grid(box[0], box[1], tuple(cells[i].tolist()))
                    answer = batch.grid(i)
                    wrong += answer is None or bool(solvers.check(puzzle, answer))
                if wrong:
                    raise SystemExit(f"{name} limit={limit}: {wrong} answers fail solvers.check")
                row["us" + k] = statistics.median(times[k]) / len(cells) * 1e6
                row["guesses" + k] = float(batch.guesses.mean())
                row["unique" + k] = int(batch.unique.sum()) if limit == 2 else None
            print(json.dumps(row), flush=True)


def uniqueness() -> None:
    """Every shared 9x9 corpus with limit=2, default level and `off`: counts and checks."""
    import numpy as np

    import solvers
    from solvers.fast.batch import solve_many
    from solvers.fast.truth import read_chunks

    print("| corpus | puzzles | unique | 2+ | none | answers failing check | settings agree |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in sorted(CORPORA.glob("*.txt")):
        cells = np.concatenate([c for _, c in read_chunks(path)])
        off = solve_many(cells, limit=2, threads=1, intersections=False)
        on = solve_many(cells, limit=2, threads=1)
        bad = 0
        for batch in (off, on):
            for i in range(len(cells)):
                puzzle = solvers.Grid(3, 3, tuple(cells[i].tolist()))
                for k in range(min(int(batch.counts[i]), 2)):
                    answer = batch.grid(i, k)
                    bad += answer is None or bool(solvers.check(puzzle, answer))
        unique = off.unique
        agree = (
            (off.counts == on.counts).all()
            and (off.exhausted == on.exhausted).all()
            and (off.solutions[unique, 0] == on.solutions[unique, 0]).all()
        )
        counts = (
            f"{int(unique.sum())} | {int((off.counts >= 2).sum())} | {int((off.counts == 0).sum())}"
        )
        print(f"| {path.stem} | {len(cells)} | {counts} | {bad} | {'yes' if agree else 'NO'} |")


def run(
    tree: Path, cache: Path, names: list[str], repeat: int, forms: int, single: int = 0
) -> list[dict]:
    """One worker process on `tree`'s code; its rows."""
    from harness.bench.revision import worker_rows  # (the main half only: see the docstring)

    args = ["--sets", ",".join(names), "--repeat", str(repeat), "--forms", str(forms)]
    args += ["--single", str(single)]
    return worker_rows(HERE, tree, args, {"NUMBA_CACHE_DIR": str(cache)})


def alternative(rows: list[dict]) -> str:
    """'µs, guesses (on|off)' for the non-default intersections setting, if it was timed."""
    if "us_alt" not in rows[0]:
        return "-"
    us = statistics.median(r["us_alt"] for r in rows)
    return f"{rows[0]['alt']}: {us:.1f} µs, {rows[0]['guesses_alt']:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.fast_ab",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.fast_ab --base main --rounds 5",
    )
    parser.add_argument("--base", default="main", help="git revision to compare with")
    parser.add_argument("--sets", default=",".join(SETS9 + BIG), help="9x9 sets and gen12/16/25")
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs of each version")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure in a round")
    parser.add_argument("--forms", type=int, default=20, help="forms of each 16x16/25x25 puzzle")
    parser.add_argument(
        "--uniqueness",
        action="store_true",
        help="instead: prove uniqueness (limit=2) on every shared corpus, check every answer",
    )
    parser.add_argument(
        "--single",
        type=int,
        default=0,
        metavar="N",
        help="also time the first N puzzles of each set solved one at a time (Solver.stage)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = args.sets.split(",")
    if args.worker:
        worker(names, args.repeat, args.forms, args.single)
        return 0
    if args.uniqueness:
        uniqueness()
        return 0
    from harness.bench.revision import export

    with tempfile.TemporaryDirectory(prefix="fast-ab-") as tmp:
        base = export(args.base, Path(tmp))
        trees = {"before": base, "after": ROOT}
        caches = {k: Path(tmp) / f"cache-{k}" for k in trees}
        for k in trees:  # compile both into their caches before timing
            run(trees[k], caches[k], names, 1, 1)
        rows: dict[tuple[str, str, int], list[dict]] = {}
        load = []
        for _ in range(args.rounds):
            for k in trees:
                load.append(os.getloadavg()[0])
                for r in run(trees[k], caches[k], names, args.repeat, args.forms, args.single):
                    rows.setdefault((k, r["set"], r["limit"]), []).append(r)
    print(
        f"# fast: this checkout against {args.base} — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{os.cpu_count()} cores, load average {min(load):.1f}–{max(load):.1f}; one thread, "
        f"CPU µs per puzzle, median of {args.rounds} alternating rounds x {args.repeat} runs\n"
    )
    heads = ["set", "limit", "before µs", "after µs", "after/before", "tdoku µs", "after/tdoku"]
    heads += ["guesses before", "guesses after", "tdoku guesses", "unique"]
    heads += ["other intersections setting: µs, guesses"]
    print("| " + " | ".join(heads) + " |")
    print("|" + " --- |" * len(heads))
    for name in names:
        for limit in (1, 2):
            b = rows[("before", name, limit)]
            a = rows[("after", name, limit)]
            tb = statistics.median(r["us"] for r in b)
            ta = statistics.median(r["us"] for r in a)
            td, tg = TDOKU.get((name, limit), (None, None))
            cells = [
                name,
                str(limit),
                f"{tb:.1f}",
                f"{ta:.1f}",
                f"{ta / tb:.2f}",
                f"{td}" if td else "-",
                f"{ta / td:.2f}" if td else "-",
                f"{b[0]['guesses']:.2f}",
                f"{a[0]['guesses']:.2f}",
                f"{tg}" if tg else "-",
                f"{a[0]['unique']}/{a[0]['puzzles']}" if limit == 2 else "",
                alternative(a),
            ]
            print("| " + " | ".join(cells) + " |")
    if args.single:
        print(
            f"\nOne puzzle at a time (`Solver.stage`, `run` timed), first {args.single} puzzles:\n"
        )
        print("| set | limit | before µs | after µs | after/before |")
        print("| --- | --- | --- | --- | --- |")
        for name in names:
            for limit in (1, 2):
                tb = statistics.median(r["single_us"] for r in rows[("before", name, limit)])
                ta = statistics.median(r["single_us"] for r in rows[("after", name, limit)])
                print(f"| {name} | {limit} | {tb:.1f} | {ta:.1f} | {ta / tb:.2f} |")
    print(
        "\nEvery answer of both versions passed solvers.check; 'unique' is the count proved "
        "unique with limit=2. The last column: this checkout with intersections off where "
        "its default applies the rule, on where not, timed in the same rounds."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
