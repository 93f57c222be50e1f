"""`sudoku-bench corpora`: the built-in corpora, public collections to fetch,
reading a puzzle file, and rebuilding the built-ins."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from tabulate import tabulate

from corpora import fetch
from corpora.corpus import ReadReport, builtin_index, open_corpus, read_puzzles
from corpora.duplicates import NEW, Duplicates
from corpora.formats import LAYOUTS
from harness.errors import CommandError
from harness.records import puzzle_text
from solvers.variants import KINDS, kinds

EPILOG = """examples:
  sudoku-bench corpora                        # built-in corpora and collections to fetch
  sudoku-bench corpora fetch top1465          # download, verify (SHA-256), cache
  sudoku-bench corpora inspect puzzles.csv.gz # layout, sizes, clues, bad lines
  sudoku-bench corpora inspect big.txt --strict
  sudoku-bench corpora inspect gen9-hard      # a built-in corpus by name
  sudoku-bench corpora inspect a.txt b.txt --dedupe unique.txt   # isomorphic duplicates out
  sudoku-bench corpora inspect mixed9         # constraint kinds and puzzles carrying each
  sudoku-bench corpora build --check          # regenerate the built-ins, compare bytes
  sudoku-bench corpora build --only gen16 --jobs 2

Any command taking --corpus accepts a built-in name (gen9-hard), a fetched
collection's name (top1465), or a file path."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "corpora",
        help="list built-in corpora; fetch public collections; inspect or rebuild puzzle files",
        description="Without an action: list the built-in corpora (name, sizes, count, "
        "clues, difficulty spread) and the public collections that can be fetched.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run_list)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")

    get = actions.add_parser(
        "fetch",
        help="download a public collection into the user cache, verified by SHA-256",
        description="Download a collection from the catalogue, check its size and SHA-256, "
        "and store it in the user cache directory (SUDOKU_BENCH_CACHE overrides). A "
        "download that does not match is refused and nothing is stored.",
    )
    get.add_argument("name", metavar="NAME", help=f"one of {', '.join(fetch.CATALOGUE)}")
    get.add_argument("--sha256", metavar="HEX", help="expected checksum (overrides the catalogue)")
    get.add_argument("--force", action="store_true", help="download again even if cached")
    get.set_defaults(run=run_fetch)

    look = actions.add_parser(
        "inspect",
        help="read a puzzle file: layout, sizes, clues, constraint kinds, bad lines",
        description="Read every puzzle of a file (streamed; gzip read transparently) and "
        "summarise it: sizes, clues and, for puzzles with constraints, how many puzzles "
        "carry each kind. Bad records are counted and the first ones shown; --strict stops "
        "at the first.",
    )
    look.add_argument(
        "file", metavar="CORPUS", nargs="+",
        help="a puzzle file, a built-in corpus or a fetched collection (several: duplicates "
        "across them are counted too)",
    )  # fmt: skip
    look.add_argument("--strict", action="store_true", help="the first bad record is an error")
    look.add_argument(
        "--no-isomorphs", action="store_true",
        help="count exact copies only, not isomorphic ones (canonical forms cost about 10 ms "
        "per 9x9 puzzle)",
    )  # fmt: skip
    look.add_argument(
        "--dedupe", metavar="OUT",
        help="write the puzzles to OUT, one per line, each duplicate (exact or isomorphic, "
        "inside or across the corpora) left out",
    )  # fmt: skip
    look.add_argument("--layout", default="auto", choices=LAYOUTS, help="how puzzles sit in it")
    look.set_defaults(run=run_inspect)

    make = actions.add_parser(
        "build",
        help="regenerate the built-in corpora byte for byte (or --check them)",
        description="Regenerate the built-in corpora from their recipes (fixed seeds) and "
        "rewrite corpora/data/*.txt, *.json and corpora/data/index.json; --check only compares and exits 1 "
        "on a difference.",
    )
    make.add_argument("--only", action="append", metavar="NAME", help="just this corpus")
    make.add_argument("--check", action="store_true", help="compare, do not write")
    make.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes")
    make.set_defaults(run=run_build)
    return parser


def run_list(args: argparse.Namespace) -> int:
    rows = []
    for name, entry in builtin_index().items():
        spread = ", ".join(f"{k} {v}" for k, v in entry.get("levels", {}).items())
        spread = spread or ", ".join(f"{k} {v}" for k, v in entry.get("kinds", {}).items())
        statuses = ", ".join(f"{k} {v}" for k, v in entry.get("statuses", {}).items())
        clues = entry.get("clues", {})
        rows.append(
            [
                name,
                "/".join(f"{s}x{s}" for s in entry.get("sizes", [])),
                entry.get("count", ""),
                f"{clues.get('min', '')}-{clues.get('max', '')}",
                spread or statuses,
            ]
        )
    if rows:
        print(
            tabulate(
                rows, headers=["corpus", "size", "count", "clues", "difficulty / kinds / truth"]
            )
        )
    else:
        print("no built-in corpora (corpora/data/index.json is missing)")
    print()
    fetched = []
    for c in fetch.CATALOGUE.values():
        where = fetch.stored_path(c.name)
        state = "cached" if where.is_file() else ("needs --sha256" if not c.sha256 else "")
        fetched.append([c.name, f"{c.size}x{c.size}", c.puzzles, state, c.description])
    print(
        tabulate(
            fetched, headers=["collection", "size", "count", "", "fetch with: corpora fetch NAME"]
        )
    )
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    path = fetch.fetch(args.name, sha256=args.sha256, force=args.force)
    print(f"{args.name}: verified and stored in {path}")
    return 0


def run_inspect(args: argparse.Namespace) -> int:
    seen = Duplicates(isomorphs=not args.no_isomorphs)
    out = open(args.dedupe, "w", encoding="utf-8") if args.dedupe else None  # noqa: SIM115
    kept = 0
    try:
        for name in args.file:
            kept += _inspect(name, args, seen, out)
    finally:
        if out is not None:
            out.close()
    if seen.isomorphs and seen.kinds:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(seen.kinds.items()))
        print(f"canonical forms: {kinds} (full: the whole symmetry group; partial: relabelling "
              "and transposition only, for shapes past 9x9; none: too symmetric)")  # fmt: skip
    if out is not None:
        print(f"wrote {kept} puzzles, duplicates left out, to {args.dedupe}", file=sys.stderr)
    return 0


def _inspect(name: str, args: argparse.Namespace, seen: Duplicates, out: Any) -> int:
    """Summarise one corpus, count what it repeats; returns how many puzzles it wrote."""
    path = open_corpus(name).path
    report = ReadReport(name)
    sizes: Counter[int] = Counter()
    carried: Counter[str] = Counter()  # puzzles carrying each constraint kind
    low, high, total, solutions, kept = 1 << 30, 0, 0, 0, 0  # running figures: memory stays flat
    for puzzle in read_puzzles(path, strict=args.strict, layout=args.layout, report=report):
        sizes[puzzle.grid.size] += 1
        carried.update(kinds(puzzle.grid) or ("classic",))
        givens = puzzle.grid.givens
        low, high, total = min(low, givens), max(high, givens), total + givens
        solutions += puzzle.solution is not None
        verdict, _ = seen.see(name, puzzle)
        if out is not None and verdict == NEW:
            out.write(puzzle_text(puzzle.grid)[0] + "\n")
            kept += 1
    print(f"{name}: {report.puzzles} puzzles ({report.layout} layout)")
    print("sizes: " + ", ".join(f"{s}x{s} {n}" for s, n in sorted(sizes.items())))
    print(f"clues: min {low}, max {high}, mean {total / max(report.puzzles, 1):.1f}")
    if carried and set(carried) != {"classic"}:
        print("constraint kinds (puzzles carrying each): " + _kinds_line(carried))
    if solutions:
        print(f"solutions given: {solutions}")
    repeats = seen.lines(name)
    print("duplicates: " + ("; ".join(repeats) if repeats else "none"))
    if report.bad:
        print(f"bad records skipped: {report.bad}", file=sys.stderr)
        for error in report.errors:
            print(f"  {error}", file=sys.stderr)
        if report.bad > len(report.errors):
            print(f"  ... and {report.bad - len(report.errors)} more", file=sys.stderr)
    return kept


def _kinds_line(carried: Counter[str]) -> str:
    """Kinds in the order `KINDS` lists them, puzzles without constraints last."""
    order = [*KINDS, "classic"]
    return ", ".join(f"{kind} {carried[kind]}" for kind in order if carried[kind])


def run_build(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from corpora.builtin import build_all, puzzle_count

    if args.jobs < 1:
        raise CommandError(f"--jobs {args.jobs}: expected 1 or more")
    changed = []
    bar = tqdm(
        total=puzzle_count(args.only),
        unit="puzzle",
        file=sys.stderr,
        dynamic_ncols=True,
        disable=not sys.stderr.isatty(),  # a bar on a terminal; logs get the lines alone
    )
    with bar:
        for name, unchanged in build_all(
            args.only,
            write=not args.check,
            jobs=args.jobs,
            progress=lambda line: tqdm.write(line, file=sys.stderr),
            tick=lambda: bar.update(),
        ):
            state = "unchanged" if unchanged else "DIFFERENT" if args.check else "rewritten"
            tqdm.write(f"{name}: {state}", file=sys.stdout)
            if not unchanged:
                changed.append(name)
    if args.check and changed:
        print(
            f"{len(changed)} corpora differ from their recipes: {', '.join(changed)}",
            file=sys.stderr,
        )
        return 1
    return 0
