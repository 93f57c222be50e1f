"""A database that cannot be written: one clear line, a bounded wait, nothing lost.

Read-only files are simulated by opening SQLite read-only (tests may run as
root, whom file modes do not stop); locks are taken by a second connection,
as another process would take them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import runner, store
from harness.cli import main
from harness.errors import CommandError
from harness.records import ResultRecord
from harness.runner import Execution, make_study, run_study
from harness.store import Store, StoreError

PUZZLES = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2", "..3.4.....1.2..."]


def corpus(tmp_path: Path) -> str:
    path = tmp_path / "set.txt"
    path.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    return str(path)


def first_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "db.sqlite"
    argv = ["run", "--corpus", corpus(tmp_path), "--solver", "dlx", "--executor", "serial"]
    assert main([*argv, "--db", str(db), "--no-progress"]) == 0
    capsys.readouterr()
    return db


def results(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT count(*) FROM results").fetchone()[0]


@pytest.fixture
def quick_locks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waits for a lock short enough for a test: 50 ms, three attempts."""
    monkeypatch.setattr(store, "BUSY_SECONDS", 0.05)
    monkeypatch.setattr(store, "LOCK_ATTEMPTS", 3)


class Writer:
    """Another process's write lock on the database, taken and released at will."""

    def __init__(self, db: Path) -> None:
        self.raw = sqlite3.connect(db, isolation_level=None)

    def lock(self) -> None:
        self.raw.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("COMMIT")


@pytest.fixture
def writer(tmp_path: Path, capsys) -> Iterator[Writer]:
    other = Writer(first_run(tmp_path, capsys))
    yield other
    other.release()
    other.raw.close()


# -- read-only ------------------------------------------------------------------------------
def test_a_read_only_database_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch) -> None:
    db = first_run(tmp_path, capsys)
    connect = sqlite3.connect
    monkeypatch.setattr(
        sqlite3, "connect", lambda path, **kw: connect(f"file:{path}?mode=ro", uri=True, **kw)
    )
    argv = ["run", "--corpus", corpus(tmp_path), "--solver", "dlx", "--executor", "serial"]
    assert main([*argv, "--db", str(db), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudoku-bench: error: ")
    assert err.count("\n") == 1
    assert "is read-only (attempt to write a readonly database)" in err
    assert main(["report", "--db", str(db), "--no-plots"]) == 0  # reading still works
    monkeypatch.undo()
    assert results(db) == 4


# -- locked ---------------------------------------------------------------------------------
def test_a_database_locked_by_another_writer_is_one_line_and_exit_2(
    tmp_path, capsys, quick_locks, writer
) -> None:
    db = tmp_path / "db.sqlite"
    writer.lock()
    argv = ["run", "--corpus", corpus(tmp_path), "--solver", "dlx", "--executor", "serial"]
    assert main([*argv, "--db", str(db), "--no-progress"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith("sudoku-bench: error: ")
    assert "is locked by another process (database is locked, after 0.15 s)" in lines[-1]
    assert [ln for ln in lines[:-1] if "waiting (attempt" in ln] == [
        f"sudoku-bench: warning: {db} is locked by another process; waiting (attempt 2 of 3)",
        f"sudoku-bench: warning: {db} is locked by another process; waiting (attempt 3 of 3)",
    ]
    writer.release()
    assert results(db) == 4


def _record(n: int) -> ResultRecord:
    return ResultRecord(1, "dlx", "c", f"c:{n}", PUZZLES[0], 0, "SOLVED")


def test_a_write_waits_out_a_lock_that_is_released(tmp_path, capsys, writer) -> None:
    heard: list[str] = []

    def released(line: str) -> None:
        heard.append(line)
        writer.release()

    with Store(tmp_path / "db.sqlite", notice=released, busy_seconds=0.05) as kept:
        writer.lock()
        assert kept.add_results([_record(100)]) == 1
    assert len(heard) == 1
    assert heard[0].endswith("is locked by another process; waiting (attempt 2 of 6)")


def _lock_mid_run(monkeypatch, writer: Writer, *, release: bool) -> list[str]:
    """Take the writer's lock just before the run's second batch is stored."""
    heard: list[str] = []
    calls = {"n": 0}
    original = Store.add_results

    def add_results(self: Store, records):
        calls["n"] += 1
        if calls["n"] == 2:
            writer.lock()
            self.busy_seconds = 0.05
            self._db.execute("PRAGMA busy_timeout = 50")

            def notice(line: str) -> None:
                heard.append(line)
                if release:
                    writer.release()

            self.notice = notice
        return original(self, records)

    monkeypatch.setattr(Store, "add_results", add_results)
    return heard


def test_a_lock_taken_mid_run_is_waited_out(tmp_path, monkeypatch, writer) -> None:
    heard = _lock_mid_run(monkeypatch, writer, release=True)
    study = make_study([corpus(tmp_path)], ["dlx"], timeout=5)
    with Store(tmp_path / "db.sqlite") as kept:
        done = run_study(kept, study, Execution("serial", batch=1), progress=False)
        assert (done.stored, done.interrupted) == (4, False)
        assert kept.run(done.run_id).finished is not None
    assert len(heard) == 1


def test_a_lock_that_stays_ends_the_run_with_how_to_resume(
    tmp_path, monkeypatch, quick_locks, writer
) -> None:
    heard = _lock_mid_run(monkeypatch, writer, release=False)
    study = make_study([corpus(tmp_path)], ["dlx"], timeout=5)
    db = tmp_path / "db.sqlite"
    with Store(db) as kept, pytest.raises(StoreError) as failed:
        run_study(kept, study, Execution("serial", batch=1), progress=False)
    assert "is locked by another process" in str(failed.value)
    message = str(failed.value)
    assert "the 1 result stored so far is kept; resume with: sudoku-bench run --resume 2" in message
    assert len(heard) == 2
    writer.release()
    monkeypatch.undo()
    with Store(db) as kept:
        done = run_study(kept, study, Execution("serial"), resume=2, progress=False)
        assert (done.stored, done.interrupted) == (4, False)


# -- no empty runs ------------------------------------------------------------------------------
def test_a_run_that_fails_before_any_result_leaves_no_run(tmp_path, capsys, monkeypatch) -> None:
    def unreachable(*args, **kwargs):
        raise CommandError("cannot reach the Dask scheduler tcp://nowhere:1: refused")

    monkeypatch.setattr(runner, "make_executor", unreachable)
    db = str(tmp_path / "db.sqlite")
    argv = ["run", "--corpus", corpus(tmp_path), "--solver", "dlx", "--db", db, "--no-progress"]
    assert main([*argv, "--scheduler", "tcp://nowhere:1"]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
    with Store(db, create=False) as kept:
        assert kept.runs() == []
    assert main(["report", "--db", db]) == 2
    assert "holds no runs yet" in capsys.readouterr().err


def test_a_run_with_results_is_never_discarded(tmp_path, capsys) -> None:
    db = first_run(tmp_path, capsys)
    with Store(db) as kept:
        assert not kept.discard_run(1)
        assert [r.id for r in kept.runs()] == [1]
