"""`sudoku-bench verify`: run solvers and report every wrong answer; a CI gate."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import tempfile
from collections import Counter
from collections.abc import Iterator

from tabulate import tabulate

from corpora.corpus import open_corpus
from harness.commands.run import add_study_arguments, apply_study_file, execute, study_from
from harness.crosscheck import ANSWERS, ORACLE_WRONG
from harness.errors import CommandError
from harness.records import ResultRecord, Verdict
from harness.report.escape import terminal
from harness.store import DEFAULT_DB, Store
from harness.tally import unchecked_note
from harness.truth_store import store_truths
from solvers.base import Status

EPILOG = """examples:
  sudoku-bench verify --corpus top1465.txt --solver mine --plugin mysolver
  sudoku-bench verify --corpus puzzles.txt                    # every available solver
  sudoku-bench verify --corpus puzzles.txt --metamorphic 0 --db checks.sqlite
  sudoku-bench verify --truth-only --corpus big.txt --db truth.sqlite   # truth only, streamed

Exit status: 0 when every answer was checked and none was wrong; 1 when any
was wrong (a bad grid, a false UNSOLVABLE, a false claim of uniqueness, or a
transformed puzzle answered differently), when an answer could not be checked
(no truth for its puzzle: see --accept-unknown), or when a solver answered
nothing at all; 2 on bad input. Timeouts and errors of a solver that answered
some puzzles are counted, not failures."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "verify",
        help="cross-check solvers on a corpus; exit 1 on any wrong or unchecked answer",
        description="Run solvers on a corpus as 'run' does (isolated, with limits), check "
        "every answer against the rules, the givens and the oracle's truth, also on random "
        "equivalent forms of each puzzle (digits relabelled, rows, columns, bands and stacks "
        "permuted, transposed), and print every finding.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_study_arguments(parser, metamorphic=2)
    parser.add_argument(
        "--db", metavar="FILE", help="keep the results in FILE (default: a temporary database)"
    )
    parser.add_argument(
        "--accept-unknown",
        action="store_true",
        help="exit 0 even when some answers could not be checked (no oracle truth for their "
        "puzzles); they are still counted and listed",
    )
    parser.add_argument(
        "--truth-only",
        action="store_true",
        help="only establish each puzzle's truth (0 / 1 / 2+ solutions, the solution) with the "
        f"oracle and store it in --db (default {DEFAULT_DB}); streamed, for corpora of millions",
    )
    parser.set_defaults(run=run)
    return parser


@contextlib.contextmanager
def database(path: str | None) -> Iterator[str]:
    """The database to use: the one given, or a temporary file removed afterwards."""
    if path:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="sudoku-bench-verify-") as tmp:
        yield os.path.join(tmp, "verify.sqlite")


def findings(store: Store, run_id: int) -> Iterator[ResultRecord]:
    """Wrong answers, and answers that prove the oracle wrong."""
    for record in store.results([run_id]):
        if record.verdict == Verdict.WRONG or record.reason.startswith(ORACLE_WRONG):
            yield record


def silent_solvers(store: Store, run_id: int) -> list[str]:
    """One line per solver that answered none of its puzzles (every result a failure)."""
    statuses: dict[str, Counter[Status]] = {}
    for solver, _, status, _, count in store.status_counts(run_id):
        statuses.setdefault(solver, Counter())[status] += count
    lines = []
    for solver, counts in statuses.items():
        if not any(counts[s] for s in ANSWERS):
            total = sum(counts.values())
            how = ", ".join(f"{status} {n}" for status, n in counts.most_common())
            lines.append(f"{solver} answered none of its {total} puzzles ({how})")
    return lines


def _answer(record: ResultRecord) -> str:
    return f"{record.status} {record.solution}" if record.solution else record.status


def _truth(store: Store, record: ResultRecord) -> str:
    truth = store.truth(record.puzzle, record.box)
    if truth is None:
        return "unknown"
    return f"{truth.kind} {truth.solution}" if truth.solution else truth.kind


def _on_puzzles(keys: list[tuple[str, str, str]]) -> str:
    """Where findings outnumber the (solver, puzzle) pairs they concern, say so: the table
    above counts puzzles, the findings every answered form."""
    pairs = len(set(keys))
    if pairs == len(keys):
        return ""
    return (
        f" on {pairs} solver x puzzle pair{'s' if pairs != 1 else ''} (each equivalent form "
        "is listed apart; the table above and the report count a puzzle once)"
    )


def truth_only(args: argparse.Namespace) -> int:
    """Store the oracle's truth for every puzzle of the corpora; run no solvers."""
    if not args.corpus:
        raise CommandError("--truth-only needs --corpus")
    with Store(args.db or DEFAULT_DB) as store:
        for name in args.corpus:
            print(store_truths(store, open_corpus(name)).line())
    return 0


def run(args: argparse.Namespace) -> int:
    if args.truth_only:
        return truth_only(args)
    apply_study_file(args)
    if args.metamorphic is None:
        args.metamorphic = 2
    args.resume = None
    study = study_from(args)
    kept = args.db
    with database(args.db) as path, Store(path) as store:
        args.db, args.temporary_db = path, not kept
        done = execute(store, args, study, None)
        if done.interrupted:
            return 130
        found = list(findings(store, done.run_id))
        keys = [(record.solver, record.corpus, record.puzzle_id) for record in found]
        rows = [
            [
                record.solver,
                f"{record.puzzle_id}" + (f" (form {record.variant})" if record.variant else ""),
                record.reason,
                _answer(record),
                _truth(store, record),
            ]
            for record in found
        ]
        silent = silent_solvers(store, done.run_id)
        unknown = unchecked_note(store, done.run_id)
        failed = bool(rows or silent or (unknown and not args.accept_unknown))
        print()
        for line in silent:
            print(f"verify: {terminal(line)}: nothing of it was checked")
        if unknown:
            accepted = (
                " (accepted: --accept-unknown)"
                if args.accept_unknown
                else ("; --accept-unknown accepts that")
            )
            print(f"verify: {terminal(unknown)}{accepted}")
        if not rows:
            print(f"verify: no wrong answers in {done.stored} results")
            return 1 if failed else 0
        count = len(rows)
        where = f"; stored in {kept} (sudoku-bench report --db {shlex.quote(kept)})" if kept else ""
        print(f"verify: {count} finding{'s' if count != 1 else ''}{_on_puzzles(keys)}{where}")
        cells = [[terminal(cell) for cell in row] for row in rows]
        print(tabulate(cells, headers=["solver", "puzzle", "finding", "answer", "truth"]))
        return 1
