"""`sudoku-bench run` and `verify` as real processes: interrupted, killed, resumed, gating."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cli import main
from tests.paths import PLUGINS

PLUGINS = str(PLUGINS)
UNIQUE = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2", "..3.4.....1.2..."]


def cli(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """Start ``sudoku-bench ARGS`` with the faulty plug-in importable."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PLUGINS, os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(
        [sys.executable, "-m", "harness.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish(process: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        _kill_group(process)
    return process.returncode, out, err


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Remove whatever the process left behind (its workers), if anything."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def stored(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as raw:
            return raw.execute("SELECT count(*) FROM results").fetchone()[0]
    except sqlite3.Error:
        return 0


def wait_for(db: Path, count: int, process: subprocess.Popen[str]) -> int:
    """Wait until `count` results are stored; returns how many there are."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        n = stored(db)
        if n >= count:
            return n
        time.sleep(0.01)
    raise AssertionError(f"only {stored(db)} results stored; the run ended with {process.poll()}")


def test_interrupted_and_killed_runs_resume_to_one_result_per_task(tmp_path: Path) -> None:
    (tmp_path / "set.txt").write_text("\n".join(UNIQUE * 10) + "\n", encoding="utf-8")
    db = tmp_path / "db.sqlite"
    tasks = 40
    start = [
        "run", "--corpus", "set.txt", "--solver", "faulty[fault=slow,delay=0.1]",
        "--plugin", "faulty_solvers", "--jobs", "2", "--batch", "2", "--timeout", "5",
        "--db", "db.sqlite",
    ]  # fmt: skip
    first = cli(*start, cwd=tmp_path)
    assert wait_for(db, 6, first) < tasks
    first.send_signal(signal.SIGINT)
    code, _, err = finish(first)
    assert code == 130
    assert "resume with: sudoku-bench run --resume 1 --db db.sqlite" in err

    second = cli("run", "--resume", "--db", "db.sqlite", "--trust-stored", cwd=tmp_path)
    at_kill = wait_for(db, 20, second)
    os.kill(second.pid, signal.SIGKILL)  # the parent alone, at an arbitrary moment
    second.wait()
    _kill_group(second)
    assert at_kill < tasks

    # the plug-in named again: consent to import it (from this folder, as stored)
    again = ["--plugin", "faulty_solvers", "--solver", "faulty[fault=slow,delay=0.1]"]
    code, out, err = finish(cli("run", "--resume", "1", "--db", "db.sqlite", *again, cwd=tmp_path))
    assert code == 0, err
    assert "run 1: 40 results" in out
    with sqlite3.connect(db) as raw:
        keys = raw.execute(
            "SELECT solver, corpus, puzzle_id, repeat, variant FROM results"
        ).fetchall()
        assert len(keys) == len(set(keys)) == tasks
        assert raw.execute("SELECT count(*) FROM results WHERE verdict = 'CORRECT'").fetchone() == (
            tasks,
        )
        assert raw.execute("SELECT finished IS NOT NULL FROM runs").fetchall() == [(1,)]


def test_verify_passes_correct_solvers_and_fails_wrong_ones(tmp_path: Path) -> None:
    (tmp_path / "set.txt").write_text("\n".join(UNIQUE) + "\n", encoding="utf-8")
    common = [
        "verify",
        "--corpus",
        "set.txt",
        "--plugin",
        "faulty_solvers",
        "--timeout",
        "5",
        "--jobs",
        "2",
    ]
    code, out, err = finish(cli(*common, "--solver", "dlx", "--solver", "faulty", cwd=tmp_path))
    assert code == 0, err
    assert "verify: no wrong answers in 24 results" in out  # 4 puzzles x 3 forms x 2 solvers

    wrong = "faulty[fault=wrong,prefix=.2.1]"
    code, out, err = finish(cli(*common, "--solver", wrong, "--metamorphic", "0", cwd=tmp_path))
    assert code == 1, err
    assert "verify: 1 finding" in out
    finding = out.splitlines()[-1]  # the findings table ends the output
    assert finding.startswith(wrong)
    assert "set.txt:2" in finding
    assert "bad grid" in finding
    assert not list(tmp_path.glob("*.sqlite"))  # verify keeps no database unless asked


def test_run_prints_the_summary_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "set.txt").write_text("\n".join(UNIQUE) + "\n", encoding="utf-8")
    db = str(tmp_path / "db.sqlite")
    code = main(
        [
            "run",
            "--corpus",
            str(tmp_path / "set.txt"),
            "--solver",
            "dlx",
            "--executor",
            "serial",
            "--db",
            db,
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "run 1: 4 results" in out
    header, _, row = out.splitlines()[1:4]
    assert header.split()[:9] == [
        "solver", "corpus", "puzzles", "solved", "stuck", "timeouts", "errors", "memouts", "wrong",
    ]  # fmt: skip
    assert row.split()[:9] == ["dlx", "set", "4", "4", "0", "0", "0", "0", "0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["run", "--resume", "--corpus", "x.txt"],
            "--resume repeats the stored run's settings; drop --corpus",
        ),
        (["run", "--resume"], "has no unfinished run to resume"),
        (["run", "--solver", "dlx"], "give at least one --corpus"),
        (["run", "--corpus", "no-such-corpus"], "no corpus 'no-such-corpus'"),
    ],
)
def test_usage_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "db.sqlite"
    if "--resume" in args:
        main(
            [
                "run",
                "--corpus",
                _puzzles(tmp_path),
                "--solver",
                "dlx",
                "--executor",
                "serial",
                "--db",
                str(db),
            ]
        )
        capsys.readouterr()
    assert main([*args, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudoku-bench: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_a_file_that_is_not_a_database_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    assert main(["run", "--corpus", _puzzles(tmp_path), "--solver", "dlx", "--db", str(notes)]) == 2
    assert "is not a usable sudoku-bench database" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def _puzzles(tmp_path: Path) -> str:
    path = tmp_path / "set.txt"
    path.write_text("\n".join(UNIQUE) + "\n", encoding="utf-8")
    return str(path)
