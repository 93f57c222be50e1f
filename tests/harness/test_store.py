"""The results database: round trips, one row per task, and refusing files it must not touch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.records import ResultRecord, Truth
from harness.store import SCHEMA_VERSION, Store, StoreError


def record(run_id: int, puzzle_id: str = "c:1", **fields) -> ResultRecord:
    base = dict(
        run_id=run_id,
        solver="dlx",
        corpus="c",
        puzzle_id=puzzle_id,
        puzzle="1...3..2...3..2.",
        repeat=0,
        status="SOLVED",
        solution="1234341221434321",
        solutions_found=1,
        exhausted=True,
        wall=0.001,
        cpu=0.001,
        stats={"nodes": 3},
        time_limit=10.0,
    )
    return ResultRecord(**{**base, **fields})


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "study.sqlite"


def test_a_run_and_its_results_round_trip(db: Path) -> None:
    with Store(db) as store:
        run_id = store.start_run(
            "sudoku-bench run --corpus c",
            {"timeout": 10, "seed": 7},
            git_commit="abc",
            versions={"python": "3.11"},
            machine={"cores": 2},
        )
        rows = [record(run_id, f"c:{i}", repeat=i % 2, variant=i % 3) for i in range(5)]
        assert store.add_results(rows) == 5
    with Store(db, create=False) as store:
        info = store.run(run_id)
        assert (info.command, info.settings, info.git_commit) == (
            "sudoku-bench run --corpus c",
            {"timeout": 10, "seed": 7},
            "abc",
        )
        assert info.versions == {"python": "3.11"}
        assert info.machine == {"cores": 2}
        assert info.finished is None
        assert list(store.results()) == rows
        assert store.last_run_id() == run_id == store.last_unfinished_run_id()
        store.finish_run(run_id)
        assert store.run(run_id).finished is not None
        assert store.last_unfinished_run_id() is None


@given(
    status=st.sampled_from(["SOLVED", "TIMEOUT", "ERROR"]),
    wall=st.none() | st.floats(0, 1e6),
    stats=st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
    error=st.text(max_size=20),
    verdict=st.sampled_from([None, "CORRECT", "WRONG", "UNKNOWN"]),
    box=st.sampled_from(["", "3x2"]),
)
def test_every_field_survives_the_database(status, wall, stats, error, verdict, box) -> None:
    with Store(":memory:") as store:
        run_id = store.start_run("x", {})
        row = record(
            run_id, status=status, wall=wall, stats=stats, error=error, verdict=verdict, box=box
        )
        store.add_results([row])
        assert list(store.results()) == [row]


def test_a_task_is_stored_once(db: Path) -> None:
    with Store(db) as store:
        run_id = store.start_run("x", {})
        assert store.add_results([record(run_id), record(run_id)]) == 1
        assert store.add_results([record(run_id, status="TIMEOUT")]) == 0
        assert store.add_results([record(run_id, repeat=1), record(run_id, variant=1)]) == 2
        assert store.count_results(run_id) == 3
        assert store.done_keys(run_id, "dlx", "c") == {("c:1", 0, 0), ("c:1", 1, 0), ("c:1", 0, 1)}
        assert store.done_keys(run_id, "mrv", "c") == set()


def test_results_filter_by_run_and_stream_in_order(db: Path) -> None:
    with Store(db) as store:
        first, second = store.start_run("a", {}), store.start_run("b", {})
        store.add_results([record(first, f"c:{i}") for i in range(2500)])
        store.add_results([record(second, "c:1")])
        ids = [r.puzzle_id for r in store.results([first])]
        assert ids == [f"c:{i}" for i in range(2500)]
        assert [r.run_id for r in store.results([second])] == [second]
        assert list(store.results([])) == []
        assert sum(1 for _ in store.results()) == 2501
        assert [r.id for r in store.runs()] == [first, second]


def test_verdicts_are_set_on_pending_results(db: Path) -> None:
    with Store(db) as store:
        run_id = store.start_run("x", {})
        store.add_results([record(run_id, "c:1"), record(run_id, "c:2", verdict="CORRECT")])
        pending = list(store.pending(run_id))
        assert [r.puzzle_id for _, r in pending] == ["c:1"]
        store.set_verdicts([(pending[0][0], "WRONG", "bad grid")])
        assert [(r.verdict, r.reason) for r in store.results()] == [
            ("WRONG", "bad grid"),
            ("CORRECT", ""),
        ]
        assert len(store.puzzle_results(run_id, "1...3..2...3..2.")) == 2


def test_a_truth_is_stored_once_per_puzzle(db: Path) -> None:
    with Store(db) as store:
        assert store.truth("1...3..2...3..2.") is None
        first = Truth("1...3..2...3..2.", "unique", "1234341221434321", "dlx")
        store.add_truths([first, Truth("1...3..2...3..2.", "multiple", None, "other")])
        assert store.truth("1...3..2...3..2.") == first
        assert store.truth("1...3..2...3..2.", "3x2") is None


def test_the_file_is_in_wal_mode_with_a_schema_version(db: Path) -> None:
    Store(db).close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("SELECT version FROM schema").fetchall() == [(SCHEMA_VERSION,)]


def test_an_unknown_run_names_the_known_ones(db: Path) -> None:
    with Store(db) as store:
        store.start_run("x", {})
        with pytest.raises(StoreError, match=r"no run 9 \(runs: 1\)"):
            store.run(9)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"puzzle,solution\n1...,1234\n", "not a usable sudoku-bench database"),
        (b"SQLite format 3\x00" + bytes(range(256)) * 16, "not a usable sudoku-bench database"),
    ],
    ids=["text", "corrupt"],
)
def test_a_file_that_is_not_a_database_is_refused_untouched(
    db: Path, content: bytes, message: str
) -> None:
    db.write_bytes(content)
    with pytest.raises(StoreError, match=message):
        Store(db)
    assert db.read_bytes() == content


def test_another_sqlite_database_is_refused(db: Path) -> None:
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="not a sudoku-bench one"):
        Store(db)


@pytest.mark.parametrize(("version", "age"), [(0, "older"), (SCHEMA_VERSION + 1, "newer")])
def test_another_schema_version_is_refused(db: Path, version: int, age: str) -> None:
    Store(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE schema SET version = ?", (version,))
    with pytest.raises(StoreError, match=f"written by an? {age} sudoku-bench"):
        Store(db)


def test_readers_do_not_create_a_database(db: Path) -> None:
    with pytest.raises(StoreError, match="no database at"):
        Store(db, create=False)
    assert not db.exists()
    with pytest.raises(StoreError, match="is a directory"):
        Store(db.parent)
