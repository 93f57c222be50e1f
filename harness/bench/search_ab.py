"""The seeded searches against an earlier version of themselves on classic puzzles.

``python -m harness.bench.search_ab [--base main] [--corpus gen9-hard]`` loads
the `mrv` and `positions` modules of a git revision beside this checkout's,
and solves every puzzle of the corpus with ``limit=2`` by both versions,
interleaved per puzzle (the order alternating), for several rounds.  It prints
each version's median µs per puzzle (the median over rounds of each round's
median) and the ratio this/base.  Every answer is checked with
`solvers.check`, and the two versions must return the same grids and node
counts.  It shows whether a change to a search costs the classic path anything.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

import solvers
import solvers.registry
from corpora.corpus import open_corpus
from solvers.base import Solver

MODULES = {"mrv": "solvers/search/mrv.py", "positions": "solvers/search/positions.py"}
SPECS = ("mrv", "mrv[singles=hidden]", "positions")
ROOT = Path(__file__).resolve().parents[2]


def base_class(name: str, revision: str) -> type[Solver]:
    """The solver class `name` as the module at `revision` defines it (not registered)."""
    source = subprocess.run(
        ["git", "show", f"{revision}:{MODULES[name]}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType(f"base_{name}")
    module.__dict__["__name__"] = module.__name__
    keep = solvers.registry.register
    solvers.registry.register = lambda cls: cls  # type: ignore[assignment]
    try:
        exec(compile(source, f"{revision}:{MODULES[name]}", "exec"), module.__dict__)
    finally:
        solvers.registry.register = keep
    found = [
        v
        for v in module.__dict__.values()
        if isinstance(v, type) and issubclass(v, Solver) and getattr(v, "name", "") == name
    ]
    return found[0]


def make(spec: str, revision: str | None) -> Solver:
    name, _, option = spec.partition("[")
    options = dict([option.rstrip("]").split("=")]) if option else {}
    if revision is None:
        return solvers.get(name, **options)
    return base_class(name, revision)(**options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="git revision to compare with")
    parser.add_argument("--corpus", default="gen9-hard", help="a corpus name or file")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the corpus")
    parser.add_argument("--solver", action="append", help=f"specs (default: {', '.join(SPECS)})")
    args = parser.parse_args(argv)
    importlib.import_module("solvers.search.mrv")
    puzzles = [p.grid for p in open_corpus(args.corpus).puzzles()]
    print(f"corpus {args.corpus}: {len(puzzles)} puzzles, {args.rounds} rounds, limit 2")
    print(f"{'solver':22} {'base µs':>10} {'this µs':>10} {'this/base':>10}")
    for spec in args.solver or SPECS:
        versions = {"base": make(spec, args.base), "this": make(spec, None)}
        medians: dict[str, list[float]] = {"base": [], "this": []}
        for round_ in range(args.rounds):
            times: dict[str, list[float]] = {"base": [], "this": []}
            for i, puzzle in enumerate(puzzles):
                order = ("base", "this") if (i + round_) % 2 == 0 else ("this", "base")
                answers = {}
                for which in order:
                    start = time.perf_counter()
                    result = versions[which].solve(puzzle, limit=2)
                    times[which].append(time.perf_counter() - start)
                    if result.solution is None or solvers.check(puzzle, result.solution):
                        raise SystemExit(f"{which} {spec}: a wrong or missing answer")
                    answers[which] = (result.solution.cells, result.stats.get("nodes"))
                if answers["base"] != answers["this"]:
                    raise SystemExit(f"{spec}: the two versions answer differently")
            for which in times:
                medians[which].append(statistics.median(times[which]))
        base, this = (statistics.median(medians[w]) * 1e6 for w in ("base", "this"))
        print(f"{spec:22} {base:10.1f} {this:10.1f} {this / base:10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
