"""`sudoku-bench run`: a study of solvers x corpora, isolated, stored, resumable."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

import solvers
from harness import studyfile, tally, trust
from harness.commands import solvers_files
from harness.environment import usable_cores
from harness.errors import CommandError
from harness.executors import EXECUTORS
from harness.runner import DEFAULTS as STUDY_DEFAULTS
from harness.runner import (
    TIMINGS,
    Execution,
    RunDone,
    Study,
    make_study,
    resume_hint,
    resume_study,
    run_study,
)
from harness.store import DEFAULT_DB, Store

EPILOG = """examples:
  sudoku-bench run --corpus top1465.txt --solver dlx --solver 'cpsat[workers=1]'
  sudoku-bench run reports/study.toml                          # a study file (TOML)
  sudoku-bench run reports/study.toml --timeout 5              # ... with an option changed
  sudoku-bench run --corpus a.txt --corpus b.txt --timeout 5 --repeat 3 --jobs 1   # exact timings
  sudoku-bench run --corpus top1465.txt --metamorphic 2        # also 2 equivalent forms per puzzle
  sudoku-bench run --resume                                    # finish the last interrupted run
  sudoku-bench run --resume --trust-stored                     # ... one that imports plug-ins
  sudoku-bench run --corpus big.txt --executor dask            # a local Dask cluster
  sudoku-bench run --corpus big.txt --scheduler tcp://host:8786
  sudoku-bench run --solvers-file my.toml --solver mysolver --solver dlx --corpus gen9-hard

Each solve runs in a worker process with a hard wall-clock limit (--timeout) and
a memory limit (--memory, resident memory of the worker and its children, watched
from outside): a solver that hangs, crashes or runs out of memory is recorded
TIMEOUT, ERROR or MEMOUT and the run goes on; a solver that needs more than the
limit just to load is recorded MEMOUT without running. Results are
stored as they arrive; Ctrl-C (or a kill) keeps them, and --resume finishes the
run. Every answer is checked by the verifier and against the oracle's truth.

A study file sets the same options in TOML, and solvers as parameter grids:
  corpora = ["gen9-easy", "gen9-extreme"]
  timeout = 2
  [solvers]
  dlx = {}
  cpsat = {workers = [1, 2], model = ["integer", "boolean"]}   # four variants
Options on the command line win over the file; the file is stored with the run."""

# The options whose defaults the command line shows and fills in: the study's own.
DEFAULTS = {
    key: STUDY_DEFAULTS[key]
    for key in ("timeout", "memory", "repeat", "limit", "metamorphic", "timing", "pin")
}


def add_study_arguments(parser: argparse.ArgumentParser, *, metamorphic: int = 0) -> None:
    """The options `run` and `verify` share: what to solve, and where."""
    parser.add_argument(
        "study",
        nargs="?",
        metavar="STUDY.toml",
        help="a study file: the options below, and solvers as parameter grids (see the end)",
    )
    parser.add_argument(
        "--corpus",
        action="append",
        metavar="C",
        help="a puzzle file or built-in corpus name (repeatable)",
    )
    parser.add_argument(
        "--solver",
        action="append",
        metavar="S",
        help="solver spec, e.g. dlx or 'cpsat[workers=1]' (repeatable; default: every available one)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help=f"seconds per solve, enforced by killing the worker (default {DEFAULTS['timeout']:g})",
    )
    parser.add_argument(
        "--memory",
        type=int,
        metavar="MB",
        help="resident memory per solver: what it holds once loaded plus what its solves add, "
        f"child processes included; 0 for none (default {DEFAULTS['memory']})",
    )
    parser.add_argument(
        "--repeat", type=int, metavar="K", help="solves per puzzle, for stable medians (default 1)"
    )
    parser.add_argument(
        "--limit",
        type=int,
        metavar="K",
        help="solutions to look for; 2 proves uniqueness (default 2)",
    )
    parser.add_argument(
        "--metamorphic",
        type=int,
        metavar="K",
        help=f"also solve K random equivalent forms of each puzzle (default {metamorphic})",
    )
    parser.add_argument("--seed", type=int, metavar="N", help="seed for the metamorphic forms")
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help=f"worker processes (default: the usable cores, {usable_cores()}); 1 for exact timings",
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        help="process (default), serial (in this process, for debugging) or dask",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDR", help="a Dask scheduler address, e.g. tcp://host:8786"
    )
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (from the current directory too); it may register solvers",
    )
    solvers_files.add_argument(parser)
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse a corpus with a bad record (default: skip it, with a warning naming it)",
    )
    parser.add_argument(
        "--batch", type=int, metavar="N", help="puzzles per task (default: sized from the times)"
    )
    parser.add_argument(
        "--timing",
        choices=TIMINGS,
        help="single (default): each solve timed alone, set-up and result building excluded; "
        "batch: solvers with a batch API (fast) solve each task in one timed call, every "
        "puzzle credited an equal share",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        default=None,
        help="pin each worker to a usable core of its own (at most one worker per core); "
        "each result records its core",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress: no bar on a terminal, no progress line every 30 s elsewhere",
    )


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "run",
        help="run a study: solvers x corpora, isolated, stored, resumable",
        description="Solve every puzzle of the corpora with every solver in isolated worker "
        "processes under hard time and memory limits, store each result in an SQLite "
        "database as it arrives, cross-check every answer, and print a summary per solver "
        "and corpus.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_study_arguments(parser)
    parser.add_argument("--db", metavar="FILE", help=f"results database (default {DEFAULT_DB})")
    parser.add_argument(
        "--resume",
        nargs="?",
        const=-1,
        type=int,
        metavar="ID",
        help="finish run ID (default: the last unfinished run), skipping stored results",
    )
    parser.add_argument(
        "--trust-stored",
        action="store_true",
        help="with --resume: import the plug-ins and run the programs the stored run names "
        "(without it, or the same --plugin, --solvers-file and --solver options given again, "
        "a run that names any is refused: a database can come from anyone)",
    )
    parser.set_defaults(run=run)
    return parser


def apply_study_file(args: argparse.Namespace) -> None:
    """Fill the options not given on the command line from the study file, if one is named."""
    args.study_file = None
    if not getattr(args, "study", None):
        return
    loaded = studyfile.load(args.study)
    for key, value in loaded.options.items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
        elif key == "strict":
            args.strict = args.strict or value
    args.corpus = args.corpus or loaded.corpora
    args.solver = args.solver or loaded.solvers or None
    args.plugin = args.plugin or loaded.plugins
    args.solvers_file = getattr(args, "solvers_file", None) or loaded.solvers_files
    args.study_file = loaded


def study_from(args: argparse.Namespace) -> Study:
    """The study the options describe (defaults filled in)."""
    value: dict[str, Any] = {
        k: getattr(args, k) if getattr(args, k) is not None else d for k, d in DEFAULTS.items()
    }
    plugins = args.plugin or []
    if not args.solver:
        note_missing_backends()
    return make_study(
        args.corpus or [],
        args.solver,
        timeout=float(value["timeout"]),
        memory=int(value["memory"]) or None,
        repeat=int(value["repeat"]),
        limit=int(value["limit"]),
        seed=args.seed,
        metamorphic=int(value["metamorphic"]),
        plugins=plugins,
        paths=[os.getcwd()] if plugins else [],
        strict=args.strict,
        timing=str(value["timing"]),
        study_file=args.study_file.record() if getattr(args, "study_file", None) else None,
        solvers_files=args.solvers_file,
        pin=bool(value["pin"]),
    )


def note_missing_backends() -> None:
    """Say which registered solvers a default study leaves out, and how to install them."""
    missing = [n for n in solvers.names() if not solvers.solver_class(n).supported()]
    if missing:
        hints = "; ".join(f"{n}: {solvers.solver_class(n).install_hint}" for n in missing)
        print(f"note: not run, their libraries are not installed: {hints}", file=sys.stderr)


def execution_from(args: argparse.Namespace) -> Execution:
    if args.batch is not None and args.batch < 1:
        raise CommandError(f"--batch must be at least 1, not {args.batch}")
    executor = args.executor or "process"
    execution = Execution(executor, scheduler=args.scheduler, batch=args.batch)
    if args.jobs is not None:
        execution = Execution(executor, args.jobs, args.scheduler, args.batch)
    return execution


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C, so a terminated run also stops cleanly."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def execute(store: Store, args: argparse.Namespace, study: Study, resume: int | None) -> RunDone:
    """Run the study and print how it went (the summary, or how to resume)."""
    execution = execution_from(args)
    started = time.perf_counter()
    with terminate_as_interrupt():
        done = run_study(
            store,
            study,
            execution,
            command=shlex.join(["sudoku-bench", *sys.argv[1:]]),
            resume=resume,
            progress=False if args.no_progress else None,
        )
    elapsed = time.perf_counter() - started
    if done.interrupted:
        if getattr(args, "temporary_db", False):
            message = "the database was temporary (--db FILE keeps one to resume)"
        else:
            message = f"they are stored; resume with: {resume_hint(done.run_id, args.db)}"
        print(
            f"interrupted after {done.stored} of {done.tasks} results of run {done.run_id}; "
            + message,
            file=sys.stderr,
        )
        return done
    workers = (
        "in this process"
        if execution.executor == "serial"
        else (
            f"on {execution.jobs} {execution.executor} worker{'s' if execution.jobs != 1 else ''}"
            if not execution.scheduler
            else f"on the Dask cluster at {execution.scheduler}"
        )
    )
    print(
        f"run {done.run_id}: {done.stored} results in {elapsed:.1f} s {workers}; database {args.db}"
    )
    for spec, reasons in done.skip_reasons.items():
        for reason, count in reasons.items():
            print(f"note: {spec} skipped {count} puzzle{'s' if count != 1 else ''}: {reason}")
    print(tally.render(store, done.run_id))
    return done


def _check_consent(args: argparse.Namespace, stored: Study, what: str) -> None:
    """Refuse to resume a stored study that imports or runs code, unless the user consents."""
    given_specs = args.solver or []
    known = {trust.spec_key(s) for s in stored.solvers}
    extra = [s for s in given_specs if trust.spec_key(s) not in known]
    if extra:
        raise CommandError(
            f"--resume repeats the stored run's settings; {what} has no solver "
            f"{', '.join(extra)}: drop it"
        )
    code = trust.stored_code(
        stored.plugins, stored.paths, stored.solvers_files, (*stored.solvers, stored.oracle)
    )
    options = bool(args.plugin or args.solvers_file or given_specs)
    matching = options and trust.repeated(code, args.plugin, args.solvers_file or [], given_specs)
    if options and not matching:
        raise CommandError(
            f"--resume repeats the stored run's settings; the --plugin, --solvers-file and "
            f"--solver options given are not {what}'s ({code.describe() or 'it names none'})"
        )
    note = trust.consent(code, trusted=args.trust_stored, given=matching, what=what)
    if note:
        print(f"note: {note}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.resume is not None:
        given = [f"--{k}" for k in (*DEFAULTS, "corpus", "seed", "strict") if getattr(args, k)] + [
            "a study file"
        ] * bool(args.study)
        if given:
            raise CommandError(
                f"--resume repeats the stored run's settings; drop {', '.join(given)}"
            )
        args.db = args.db or DEFAULT_DB
        with Store(args.db, create=False) as store:
            run_id = args.resume if args.resume != -1 else store.last_unfinished_run_id()
            if run_id is None:
                raise CommandError(f"{args.db} has no unfinished run to resume")
            stored = Study.from_settings(store.run(run_id).settings)
            _check_consent(args, stored, f"run {run_id} of {args.db}")
            study = resume_study(store, run_id)
            done = execute(store, args, study, run_id)
    else:
        if args.trust_stored:
            raise CommandError("--trust-stored goes with --resume")
        apply_study_file(args)
        args.db = args.db or DEFAULT_DB
        if not args.corpus:
            raise CommandError(
                "give at least one --corpus, a study file (or --resume to finish a run)"
            )
        study = study_from(args)
        with Store(args.db) as store:
            done = execute(store, args, study, None)
    return 130 if done.interrupted else 0
