"""The results database: one SQLite file per study, written as results arrive.

Three tables hold a study: ``runs`` (one row per ``sudoku-bench run``: command,
settings, versions, machine, git commit), ``results`` (one row per solve, with
a UNIQUE key so a resumed run can never store a task twice) and ``truths``
(what the oracle established per puzzle, stored once and shared by runs).
The file is in WAL mode, so reports can read while a run writes, and every
batch of results is its own small transaction, so killing the writer at any
moment loses at most the batch in flight.

    >>> with Store(":memory:") as store:
    ...     run_id = store.start_run("sudoku-bench run", {"timeout": 10})
    ...     store.runs()[0].settings
    {'timeout': 10}

A file that is not a sudoku-bench database, a corrupt one or one from another
schema version raises `StoreError` with the reason; it is never overwritten.
So does a write to a read-only file.  A write that finds the file locked by
another writer waits for it (``BUSY_SECONDS`` at a time, ``LOCK_ATTEMPTS``
times, saying so through `notice`) before it gives up with `StoreError`;
what was stored before stays stored.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from harness.crosscheck import ANSWERS
from harness.records import ResultRecord, RunInfo, Truth, Verdict, typed_outcome
from solvers.base import Status

DEFAULT_DB = "sudoku-bench.sqlite"
SCHEMA_VERSION = 2
BUSY_SECONDS = 10.0  # how long SQLite waits for another writer's lock, each attempt
LOCK_ATTEMPTS = 6  # attempts of a write before a locked file is an error

_SCHEMA = """
CREATE TABLE schema (version INTEGER NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    finished TEXT,
    command TEXT NOT NULL,
    settings TEXT NOT NULL,
    git_commit TEXT,
    versions TEXT NOT NULL,
    machine TEXT NOT NULL
);
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    solver TEXT NOT NULL,
    corpus TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    variant INTEGER NOT NULL,
    puzzle TEXT NOT NULL,
    box TEXT NOT NULL,
    status TEXT NOT NULL,
    solution TEXT,
    solutions_found INTEGER NOT NULL,
    exhausted INTEGER NOT NULL,
    wall REAL,
    cpu REAL,
    stats TEXT NOT NULL,
    error TEXT NOT NULL,
    verdict TEXT,
    reason TEXT NOT NULL,
    time_limit REAL,
    solve_limit INTEGER NOT NULL,
    peak_rss_mb REAL,
    UNIQUE (run_id, solver, corpus, puzzle_id, repeat, variant)
);
CREATE INDEX results_pending ON results (run_id, verdict);
CREATE INDEX results_puzzle ON results (puzzle, box);
CREATE TABLE truths (
    puzzle TEXT NOT NULL,
    box TEXT NOT NULL,
    kind TEXT NOT NULL,
    solution TEXT,
    oracle TEXT NOT NULL,
    PRIMARY KEY (puzzle, box)
);
"""

_RESULT_COLUMNS = (
    "run_id, solver, corpus, puzzle_id, puzzle, repeat, status, solution, solutions_found, "
    "exhausted, wall, cpu, stats, error, verdict, time_limit, variant, reason, box, solve_limit, "
    "peak_rss_mb"
)

# Schema upgrades, from the version a database has to the next one; each keeps every row.
_MIGRATIONS: dict[int, str] = {
    1: "ALTER TABLE results ADD COLUMN peak_rss_mb REAL",  # 2: peak memory per solve
}


class StoreError(ValueError):
    """A database the store cannot use: not SQLite, corrupt, or another schema version."""


def _warn(line: str) -> None:
    print(f"sudoku-bench: warning: {line}", file=sys.stderr)


def _locked(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _read_only(exc: sqlite3.Error) -> bool:
    return "readonly" in str(exc) or "read-only" in str(exc)


def now() -> str:
    """The current time, ISO 8601 in UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """A study's SQLite database; use as a context manager.

    ``Store(path)`` creates the file when it does not exist (``create=False``
    refuses instead, for readers such as reports).  `notice` hears about waits
    for another writer's lock (default: a warning on stderr).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_DB,
        *,
        create: bool = True,
        notice: Callable[[str], None] | None = None,
        busy_seconds: float | None = None,
        lock_attempts: int | None = None,
    ) -> None:
        self.path = str(path)
        self._select_columns = _RESULT_COLUMNS  # what reads ask for (older files lack some)
        self.notice = notice or _warn
        self.busy_seconds = BUSY_SECONDS if busy_seconds is None else busy_seconds
        self.lock_attempts = max(1, LOCK_ATTEMPTS if lock_attempts is None else lock_attempts)
        memory = self.path == ":memory:"
        if not memory:
            if Path(self.path).is_dir():
                raise StoreError(f"{self.path} is a directory, not a database file")
            if not create and not Path(self.path).exists():
                raise StoreError(f"no database at {self.path} (create one with 'sudoku-bench run')")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc})") from None
        try:
            self._open(create)
        except sqlite3.OperationalError as exc:
            self._db.close()
            if _locked(exc) or _read_only(exc):
                raise self._write_error(exc) from None
            raise StoreError(
                f"{self.path} is not a usable sudoku-bench database ({exc}); "
                "choose another file with --db"
            ) from None
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(
                f"{self.path} is not a usable sudoku-bench database ({exc}); "
                "choose another file with --db"
            ) from None
        except StoreError:
            self._db.close()
            raise

    def _open(self, create: bool) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            if not create:
                raise StoreError(f"{self.path} is an empty database, not a sudoku-bench one")
            if self.path != ":memory:":
                db.execute("PRAGMA journal_mode = WAL")
            db.executescript(
                f"BEGIN; {_SCHEMA} INSERT INTO schema (version) VALUES ({SCHEMA_VERSION}); COMMIT;"
            )
        elif "schema" not in tables:
            raise StoreError(
                f"{self.path} is an SQLite database but not a sudoku-bench one "
                f"(tables: {', '.join(sorted(tables))}); choose another file with --db"
            )
        else:
            row = db.execute("SELECT version FROM schema").fetchone()
            version = row[0] if row else None
            if version in _MIGRATIONS and version < SCHEMA_VERSION:
                version = self._migrate(version)
            if version != SCHEMA_VERSION:
                age = "an older" if (version or 0) < SCHEMA_VERSION else "a newer"
                raise StoreError(
                    f"{self.path} was written by {age} sudoku-bench (schema {version}; this "
                    f"version uses schema {SCHEMA_VERSION}); use that version to read it, or "
                    "start a new database with --db"
                )
            if self.path != ":memory:":
                db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")

    def _migrate(self, version: int) -> int:
        """Bring an older database to this schema, keeping every row; a database that
        cannot be written (read-only) is read as it is, the new columns empty."""
        steps = "; ".join(_MIGRATIONS[v] for v in range(version, SCHEMA_VERSION))
        try:
            self._db.executescript(
                f"BEGIN; {steps}; UPDATE schema SET version = {SCHEMA_VERSION}; COMMIT;"
            )
        except sqlite3.OperationalError as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            if not _read_only(exc):
                raise
            self._select_columns = _RESULT_COLUMNS.replace("peak_rss_mb", "NULL")
        return SCHEMA_VERSION

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs -------------------------------------------------------------
    def start_run(
        self,
        command: str,
        settings: dict[str, Any],
        *,
        git_commit: str | None = None,
        versions: dict[str, str] | None = None,
        machine: dict[str, Any] | None = None,
    ) -> int:
        """Record a new run and return its id."""
        cursor = self._write(
            "INSERT INTO runs (started, command, settings, git_commit, versions, machine) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                now(),
                command,
                json.dumps(settings),
                git_commit,
                json.dumps(versions or {}),
                json.dumps(machine or {}),
            ),
        )
        return int(cursor.lastrowid or 0)

    def update_settings(self, run_id: int, settings: dict[str, Any]) -> None:
        self._write("UPDATE runs SET settings = ? WHERE id = ?", (json.dumps(settings), run_id))

    def update_machine(self, run_id: int, machine: dict[str, Any]) -> None:
        """Replace a run's machine record (the load average at its end is added last)."""
        self._write("UPDATE runs SET machine = ? WHERE id = ?", (json.dumps(machine), run_id))

    def finish_run(self, run_id: int) -> None:
        self._write("UPDATE runs SET finished = ? WHERE id = ?", (now(), run_id))

    def discard_run(self, run_id: int) -> bool:
        """Remove a run that stored no result (a command that failed before any); True if
        it was removed.  A run with results is never removed."""
        cursor = self._write(
            "DELETE FROM runs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM results WHERE run_id = ?)",
            (run_id, run_id),
        )
        return cursor.rowcount > 0

    def runs(self) -> list[RunInfo]:
        """Every run, oldest first."""
        rows = self._db.execute(
            "SELECT id, started, finished, command, settings, git_commit, versions, machine "
            "FROM runs ORDER BY id"
        )
        return [_run_info(row) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; `StoreError` when there is no such run."""
        row = self._db.execute(
            "SELECT id, started, finished, command, settings, git_commit, versions, machine "
            "FROM runs WHERE id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            known = ", ".join(str(r.id) for r in self.runs()) or "none yet"
            raise StoreError(f"{self.path} has no run {run_id} (runs: {known})")
        return _run_info(row)

    def last_run_id(self) -> int | None:
        row = self._db.execute("SELECT max(id) FROM runs").fetchone()
        return row[0]

    def last_unfinished_run_id(self) -> int | None:
        row = self._db.execute("SELECT max(id) FROM runs WHERE finished IS NULL").fetchone()
        return row[0]

    # -- results ----------------------------------------------------------
    def add_results(self, records: Iterable[ResultRecord]) -> int:
        """Store records in one transaction; returns how many were new.

        A record whose key (run, solver, corpus, puzzle id, repeat, variant) is
        already stored is left out: the UNIQUE key makes a task land once.
        """
        rows = [_result_row(r) for r in records]
        before = self._db.total_changes
        self._write(
            f"INSERT OR IGNORE INTO results ({_RESULT_COLUMNS}) "
            f"VALUES ({', '.join('?' * len(_RESULT_COLUMNS.split(',')))})",
            rows,
            many=True,
        )
        return self._db.total_changes - before

    def results(self, run_ids: Sequence[int] | None = None) -> Iterator[ResultRecord]:
        """The results of some runs (all when None), in the order stored; streamed."""
        yield from (record for _, record in self._select_results(run_ids))

    def _select_results(
        self, run_ids: Sequence[int] | None, where: str = "", args: Sequence[Any] = ()
    ) -> Iterator[tuple[int, ResultRecord]]:
        """(row id, record) pairs, read in chunks so writes may go on in between."""
        clauses, params = [], list(args)
        if where:
            clauses.append(where)
        if run_ids is not None:
            ids = list(run_ids)
            if not ids:
                return
            clauses.append(f"run_id IN ({', '.join('?' * len(ids))})")
            params.extend(ids)
        last = 0
        while True:
            sql = (
                f"SELECT id, {self._select_columns} FROM results WHERE id > ?"
                + "".join(f" AND {c}" for c in clauses)
                + " ORDER BY id LIMIT 2000"
            )
            rows = self._db.execute(sql, [last, *params]).fetchall()
            if not rows:
                return
            for row in rows:
                yield row[0], _record(row[1:])
            last = rows[-1][0]

    def pending(self, run_id: int) -> Iterator[tuple[int, ResultRecord]]:
        """Results of a run that have no verdict yet, with their row ids."""
        return self._select_results([run_id], "verdict IS NULL")

    def puzzle_results(self, run_id: int, puzzle: str, box: str = "") -> list[ResultRecord]:
        """Every result of a run on one puzzle (all solvers, repeats and variants)."""
        return [
            r for _, r in self._select_results([run_id], "puzzle = ? AND box = ?", (puzzle, box))
        ]

    def set_verdicts(self, verdicts: Iterable[tuple[int, Verdict, str]]) -> None:
        """Give results (by row id) their verdict and reason, in one transaction."""
        self._write(
            "UPDATE results SET verdict = ?, reason = ? WHERE id = ?",
            [(verdict, reason, row_id) for row_id, verdict, reason in verdicts],
            many=True,
        )

    def done_keys(self, run_id: int, solver: str, corpus: str) -> set[tuple[str, int, int]]:
        """(puzzle id, repeat, variant) of the tasks already stored, for resuming."""
        rows = self._db.execute(
            "SELECT puzzle_id, repeat, variant FROM results "
            "WHERE run_id = ? AND solver = ? AND corpus = ?",
            (run_id, solver, corpus),
        )
        return {(p, r, v) for p, r, v in rows}

    def count_results(self, run_id: int) -> int:
        return self._db.execute(
            "SELECT count(*) FROM results WHERE run_id = ?", (run_id,)
        ).fetchone()[0]

    def status_counts(self, run_id: int) -> list[tuple[str, str, Status, Verdict | None, int]]:
        """(solver, corpus, status, verdict, count) for a run, in storage order of solvers."""
        rows = self._db.execute(
            "SELECT solver, corpus, status, verdict, count(*) FROM results WHERE run_id = ? "
            "GROUP BY solver, corpus, status, verdict ORDER BY min(id)",
            (run_id,),
        )
        return [(s, c, *typed_outcome(status, verdict), n) for s, c, status, verdict, n in rows]

    def unchecked_reasons(self, run_id: int) -> list[tuple[str, int]]:
        """Why the answers of a run the cross-check could not judge (verdict ``UNKNOWN``)
        have no verdict, with how many share each reason, most common first."""
        return self._db.execute(
            "SELECT reason, count(*) FROM results WHERE run_id = ? AND verdict = ? "
            f"AND status IN ({', '.join('?' * len(ANSWERS))}) "
            "GROUP BY reason ORDER BY count(*) DESC, reason",
            (run_id, Verdict.UNKNOWN, *ANSWERS),
        ).fetchall()

    def walls(
        self, run_id: int, solver: str, corpus: str, *, statuses: Sequence[Status] = ()
    ) -> list[float]:
        """The sorted wall times of one solver on one corpus in a run; with
        `statuses`, only of results with those statuses and no WRONG verdict."""
        sql = (
            "SELECT wall FROM results WHERE run_id = ? AND solver = ? AND corpus = ? "
            "AND wall IS NOT NULL"
        )
        params: list[Any] = [run_id, solver, corpus]
        if statuses:
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            sql += " AND (verdict IS NULL OR verdict != ?)"
            params.extend([*statuses, Verdict.WRONG])
        return [row[0] for row in self._db.execute(sql + " ORDER BY wall", params)]

    def task_results(self, run_id: int) -> Iterator[ResultRecord]:
        """The results of a run ordered by solver, corpus, puzzle id, form and repeat, so
        the repeats and forms of one task come together (for folding them as a stream)."""
        cursor = self._db.execute(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE run_id = ? "
            "ORDER BY solver, corpus, puzzle_id, variant, repeat",
            (run_id,),
        )
        yield from (_record(row) for row in cursor)

    # -- truths -----------------------------------------------------------
    def truth(self, puzzle: str, box: str = "") -> Truth | None:
        """What the oracle established about a puzzle (its `ResultRecord.puzzle` text)."""
        row = self._db.execute(
            "SELECT puzzle, kind, solution, oracle, box FROM truths WHERE puzzle = ? AND box = ?",
            (puzzle, box),
        ).fetchone()
        return Truth(*row) if row else None

    def truths(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Truth]:
        """The known truths of some (puzzle, box) pairs, in one query per 500."""
        wanted = list(dict.fromkeys(keys))
        wanted_set = set(wanted)
        found: dict[tuple[str, str], Truth] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            rows = self._db.execute(
                "SELECT puzzle, kind, solution, oracle, box FROM truths WHERE puzzle IN "
                f"({', '.join('?' * len(chunk))})",
                [puzzle for puzzle, _ in chunk],
            )
            for row in rows:
                truth = Truth(*row)
                if (truth.puzzle, truth.box) in wanted_set:
                    found[truth.puzzle, truth.box] = truth
        return found

    def add_truths(self, truths: Iterable[Truth]) -> None:
        """Store truths; one already known for a puzzle is kept."""
        self._write(
            "INSERT OR IGNORE INTO truths (puzzle, box, kind, solution, oracle) "
            "VALUES (?, ?, ?, ?, ?)",
            [(t.puzzle, t.box, t.kind, t.solution, t.oracle) for t in truths],
            many=True,
        )

    # -- writing ----------------------------------------------------------
    def _write(self, sql: str, params: Sequence[Any], *, many: bool = False) -> sqlite3.Cursor:
        """One statement in its own transaction; another writer's lock is waited out
        (`lock_attempts` times), any other failure to write is a `StoreError`."""
        for attempt in range(1, self.lock_attempts + 1):
            try:
                with self._transaction():
                    if many:
                        return self._db.executemany(sql, params)
                    return self._db.execute(sql, params)
            except sqlite3.OperationalError as exc:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                if not _locked(exc) or attempt == self.lock_attempts:
                    raise self._write_error(exc, attempt) from None
                self.notice(
                    f"{self.path} is locked by another process; waiting "
                    f"(attempt {attempt + 1} of {self.lock_attempts})"
                )
        raise AssertionError("unreachable")  # pragma: no cover

    def _write_error(self, exc: sqlite3.Error, attempts: int = 1) -> StoreError:
        """The one-line error for a database that cannot be written."""
        if _read_only(exc):
            return StoreError(
                f"{self.path} is read-only ({exc}): nothing can be stored in it; "
                "make it writable, or choose another file with --db"
            )
        if _locked(exc):
            waited = self.busy_seconds * attempts
            return StoreError(
                f"{self.path} is locked by another process ({exc}, after {waited:g} s); "
                "try again once it is done"
            )
        return StoreError(f"{self.path}: cannot write ({exc})")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN ... COMMIT, or ROLLBACK on an exception (Ctrl-C included)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _run_info(row: tuple[Any, ...]) -> RunInfo:
    run_id, started, finished, command, settings, commit, versions, machine = row
    return RunInfo(
        id=run_id,
        started=started,
        finished=finished,
        command=command,
        settings=json.loads(settings),
        git_commit=commit,
        versions=json.loads(versions),
        machine=json.loads(machine),
    )


def _result_row(r: ResultRecord) -> tuple[Any, ...]:
    return (
        r.run_id,
        r.solver,
        r.corpus,
        r.puzzle_id,
        r.puzzle,
        r.repeat,
        r.status,
        r.solution,
        r.solutions_found,
        int(r.exhausted),
        r.wall,
        r.cpu,
        json.dumps(r.stats, default=str),
        r.error,
        r.verdict,
        r.time_limit,
        r.variant,
        r.reason,
        r.box,
        r.limit,
        r.peak_rss_mb,
    )


def _record(row: Sequence[Any]) -> ResultRecord:
    (
        run_id,
        solver,
        corpus,
        puzzle_id,
        puzzle,
        repeat,
        status,
        solution,
        found,
        exhausted,
        wall,
        cpu,
        stats,
        error,
        verdict,
        time_limit,
        variant,
        reason,
        box,
        limit,
        peak_rss_mb,
    ) = row
    typed = typed_outcome(status, verdict)
    return ResultRecord(
        run_id=run_id,
        solver=solver,
        corpus=corpus,
        puzzle_id=puzzle_id,
        puzzle=puzzle,
        repeat=repeat,
        status=typed[0],
        solution=solution,
        solutions_found=found,
        exhausted=bool(exhausted),
        wall=wall,
        cpu=cpu,
        stats=json.loads(stats),
        error=error,
        verdict=typed[1],
        time_limit=time_limit,
        variant=variant,
        reason=reason,
        box=box,
        limit=limit,
        peak_rss_mb=peak_rss_mb,
    )
