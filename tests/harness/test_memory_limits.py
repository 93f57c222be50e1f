"""The memory limit: the watcher on real processes, solver footprints, and whole runs under
``--memory`` from 100 MB up (no traceback, no crash, MEMOUT where it belongs, resume)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness import footprint, memory
from harness.tasks import Batch, Item, WorkerSettings
from tests.paths import PLUGINS

MB = memory.MB
PLUGINS = str(PLUGINS)
HOLD = "import sys, time; kept = bytearray(int(sys.argv[1]) << 20); time.sleep(60)"


def hold(mb: int) -> subprocess.Popen[bytes]:
    """A Python process that holds `mb` MB of touched memory for a minute."""
    return subprocess.Popen([sys.executable, "-c", HOLD, str(mb)])


def settle(process: subprocess.Popen[bytes], mb: int) -> None:
    """Wait until the process holds at least `mb` MB."""
    deadline = time.monotonic() + 30
    while memory.tree_rss(process.pid) < mb * MB:
        assert time.monotonic() < deadline, "the process never took its memory"
        time.sleep(0.02)


def ended(process: subprocess.Popen[bytes], seconds: float = 10) -> int | None:
    try:
        return process.wait(seconds)
    except subprocess.TimeoutExpired:
        return None


@pytest.fixture
def watcher():
    watching = memory.Watcher()
    yield watching
    watching.close()


def test_the_watcher_kills_a_process_over_its_ceiling_and_says_so(watcher) -> None:
    process = hold(120)
    try:
        settle(process, 120)
        memory.announce(watcher.channel, process.pid, 60 * MB)
        assert ended(process) == -9
        assert watcher.killed(process.pid) > 30 * MB  # held 120 MB, 60 over its ceiling
        assert watcher.killed(process.pid) is None  # told once
    finally:
        process.kill()


GROW = (
    "import sys, time; kept = [bytearray(20 << 20)]; sys.stdin.readline(); "
    "kept.append(bytearray(100 << 20)); print('grown', flush=True); time.sleep(60)"
)


def test_the_watcher_spares_a_process_under_its_ceiling_or_past_its_batch(watcher) -> None:
    small = hold(20)
    grower = subprocess.Popen(
        [sys.executable, "-c", GROW], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        settle(small, 20)
        settle(grower, 20)
        memory.announce(watcher.channel, small.pid, 400 * MB)
        memory.announce(watcher.channel, grower.pid, 60 * MB)
        memory.announce(watcher.channel, grower.pid, 0)  # its batch ended: no ceiling now
        time.sleep(0.2)
        grower.stdin.write("grow\n")
        grower.stdin.flush()
        assert grower.stdout.readline() == "grown\n"
        assert memory.tree_rss(grower.pid) > 100 * MB
        assert ended(small, 1) is None
        assert ended(grower, 0.1) is None
        assert watcher.killed(small.pid) is None
        assert watcher.killed(grower.pid) is None
    finally:
        small.kill()
        grower.kill()


def test_the_watcher_counts_and_kills_the_children_too(watcher, tmp_path: Path) -> None:
    """A small parent whose child holds the memory: the tree is over, so both die."""
    pid_file = tmp_path / "child.pid"
    code = textwrap.dedent(f"""
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", {HOLD!r}, "120"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        settle(parent, 120)
        child = int(pid_file.read_text())
        assert memory.resident([parent.pid]) < 60 * MB  # the parent alone is under
        memory.announce(watcher.channel, parent.pid, 60 * MB)
        assert ended(parent) == -9
        deadline = time.monotonic() + 10
        while _alive(child):
            assert time.monotonic() < deadline, "the child outlived the kill"
            time.sleep(0.02)
        assert watcher.killed(parent.pid) > 40 * MB  # over its 60 MB by the child's 120
    finally:
        parent.kill()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_batch_budget_is_the_limit_less_the_solver_footprint() -> None:
    settings = WorkerSettings(memory_mb=300, footprints=(("cpsat", 120),), watch=object())
    item = Item("c", "1", "1...3..2...3..2.")
    assert memory.budget(settings, Batch("cpsat", (item,), 2, 1.0)) == 180 * MB
    assert memory.budget(settings, Batch("dlx", (item,), 2, 1.0)) == 300 * MB  # unmeasured
    assert memory.budget(WorkerSettings(memory_mb=None), Batch("cpsat", (item,), 2, 1.0)) is None


def test_footprints_are_measured_in_fresh_workers() -> None:
    found = footprint.measure(WorkerSettings(specs=("dlx", "cpsat")), jobs=2)
    assert set(found) == {"dlx", "cpsat"}
    assert 5 < found["dlx"] < found["cpsat"]  # OR-Tools is loaded for cpsat alone


def test_a_solver_at_or_over_the_limit_cannot_start_and_the_message_names_the_limit() -> None:
    why = footprint.unfit({"dlx": 25, "cpsat": 128, "odd": None}, 100)
    assert list(why) == ["cpsat"]
    assert "--memory 129 or more" in why["cpsat"]
    assert footprint.unfit({"cpsat": 128}, None) == {}
    line = footprint.refusal({"dlx": 25, "cpsat": 128}, ["dlx", "cpsat"], 20)
    assert "dlx" in line
    assert "--memory 26 or more" in line
    assert "\n" not in line


# -- whole runs -------------------------------------------------------------------
def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PLUGINS, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def clean(stderr: str) -> None:
    """Nothing on stderr that says the harness broke: no traceback, no leaked resources."""
    for sign in ("Traceback", "resource_tracker", "leaked", "Unexpected error"):
        assert sign not in stderr, stderr


def statuses(db: Path) -> dict[str, set[str]]:
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT solver, status FROM results").fetchall()
    found: dict[str, set[str]] = {}
    for solver, status in rows:
        found.setdefault(solver, set()).add(status)
    return found


SOLVERS = ("cpsat", "fast", "dlx")


@pytest.mark.slow
@pytest.mark.parametrize("limit", [100, 300, 600, 1000])
def test_a_run_under_any_memory_limit_ends_cleanly_and_resumes(tmp_path: Path, limit: int) -> None:
    pytest.importorskip("numba")
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--memory", str(limit), "--db", str(db), "--no-progress"]
    for solver in SOLVERS:
        args += ["--solver", solver]
    first = cli(*args, cwd=tmp_path)
    assert first.returncode in (0, 2), first.stderr
    clean(first.stderr)
    if first.returncode == 2:  # refused before the run: one line that names the limit
        assert first.stderr.count("\n") == 1
        assert "--memory" in first.stderr
        return
    found = statuses(db)
    assert set(found) == set(SOLVERS)
    assert found["dlx"] == {"SOLVED"}  # dlx needs far less than 100 MB: it always runs
    for solver in SOLVERS:
        # whatever the limit, a solver solves or is out of memory: never an error
        assert found[solver] <= {"SOLVED", "MEMOUT"}, (solver, found)
        if "MEMOUT" in found[solver]:
            assert f"{solver} cannot start within the {limit} MB" in first.stderr
    # Lose half the results and the end mark, as a killed run would; --resume finishes it.
    with sqlite3.connect(db) as raw:
        total = raw.execute("SELECT count(*) FROM results").fetchone()[0]
        raw.execute("DELETE FROM results WHERE id % 2 = 0")
        raw.execute("UPDATE runs SET finished = NULL")
    again = cli("run", "--resume", "--db", str(db), "--no-progress", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    clean(again.stderr)
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM results").fetchone()[0] == total
        assert raw.execute("SELECT finished FROM runs").fetchone()[0] is not None
    assert statuses(db) == found


def test_at_100_mb_cpsat_cannot_start_and_dlx_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--solver", "cpsat", "--solver", "dlx", "--memory", "100"]
    done = cli(*args, "--db", str(db), "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    clean(done.stderr)
    assert statuses(db) == {"cpsat": {"MEMOUT"}, "dlx": {"SOLVED"}}
    with sqlite3.connect(db) as raw:
        query = "SELECT DISTINCT error FROM results WHERE solver = 'cpsat'"
        (error,) = raw.execute(query).fetchone()
    assert error.startswith("cannot start within the 100 MB memory limit")
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith(("cpsat", "dlx"))]
    assert {row[0]: row[-1] for row in rows} == {"dlx": "1", "cpsat": "—"}  # no rank for cpsat


def test_a_limit_no_solver_can_start_in_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--solver", "dlx", "--memory", "5", "--db", str(db)]
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    clean(done.stderr)
    assert done.stderr.startswith("sudoku-bench: error: no solver can start within the 5 MB")
    assert done.stderr.count("\n") == 1
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM runs").fetchone()[0] == 0


def test_an_external_program_over_the_limit_is_memout(tmp_path: Path, c_solver: Path) -> None:
    """The program is a child of the worker: its memory counts, and it is killed with it."""
    definitions = tmp_path / "solvers.toml"
    definitions.write_text(
        f'[[solver]]\nname = "c"\ncommand = "{c_solver}"\ncomplete = true\n', encoding="utf-8"
    )
    puzzles = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2"]
    (tmp_path / "set.txt").write_text("\n".join(puzzles) + "\n", encoding="utf-8")
    hog = f"c[args=--fault hog --on {puzzles[1][:6]}]"
    args = ["run", "--solvers-file", str(definitions), "--corpus", "set.txt", "--solver", hog]
    args += ["--solver", "dlx", "--memory", "150", "--timeout", "20", "--db", "db.sqlite"]
    done = cli(*args, "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    clean(done.stderr)
    with sqlite3.connect(tmp_path / "db.sqlite") as raw:
        rows = raw.execute("SELECT solver, puzzle, status, error FROM results").fetchall()
    table = {(solver, puzzle): (status, error) for solver, puzzle, status, error in rows}
    status, error = table[hog, puzzles[1]]
    assert status == "MEMOUT"
    assert "over its 150 MB memory limit" in error
    assert table[hog, puzzles[0]][0] == table[hog, puzzles[2]][0] == "SOLVED"
    assert {table["dlx", p][0] for p in puzzles} == {"SOLVED"}


def test_running_out_of_memory_while_creating_a_solver_is_memout(monkeypatch) -> None:
    from harness import worker

    def starved(spec: str, **options: object) -> None:
        raise MemoryError

    monkeypatch.setattr(worker, "get", starved)
    item = Item("c", "1", "1...3..2...3..2.")
    outcomes = worker.solve_batch(Batch("nowhere", (item, item), 2, 1.0))
    assert [o.status for o in outcomes] == ["MEMOUT", "MEMOUT"]
    assert "out of memory creating nowhere" in outcomes[0].error


# -- the pool survives its own breakage -------------------------------------------
def _pool_workers() -> list[int]:
    import multiprocessing

    return [p.pid for p in multiprocessing.active_children() if p.name == "pebble_pool_worker"]


def test_a_broken_pool_is_replaced_and_the_batch_still_runs() -> None:
    from harness.executors import IsolatedPool

    pool = IsolatedPool(WorkerSettings(memory_mb=None, specs=("dlx",)), 1)
    item = Item("c", "1", "1...3..2...3..2.")
    try:
        assert [o.status for o in pool.isolate(Batch("dlx", (item,), 2, 5.0))] == ["SOLVED"]
        for pid in _pool_workers():  # a worker dies while no task runs: pebble's pool breaks
            os.kill(pid, 9)
        time.sleep(1.0)
        assert [o.status for o in pool.isolate(Batch("dlx", (item,), 2, 5.0))] == ["SOLVED"]
    finally:
        pool.stop()


def test_workers_that_cannot_start_end_the_run_with_one_line() -> None:
    from harness.executors import IsolatedPool, PoolFailed

    settings = WorkerSettings(memory_mb=None, imports=("no_such_module_anywhere",))
    pool = IsolatedPool(settings, 1)
    item = Item("c", "1", "1...3..2...3..2.")
    try:
        with pytest.raises(PoolFailed, match="failed 4 times in a row") as failed:
            pool.isolate(Batch("dlx", (item,), 2, 5.0))
    finally:
        pool.stop()
    assert "\n" not in str(failed.value)


def test_a_worker_that_cannot_start_says_why_in_one_line() -> None:
    code = (
        "from harness import worker; from harness.tasks import WorkerSettings; "
        "worker.initialize(WorkerSettings(imports=('no_such_module_anywhere',)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 3
    assert done.stderr == (
        "sudoku-bench: a worker could not start: "
        "ModuleNotFoundError: No module named 'no_such_module_anywhere'\n"
    )


def test_a_worker_killed_for_its_memory_leaks_nothing(tmp_path: Path) -> None:
    """numba (loaded for fast) makes a process-shared lock in each worker; a worker killed
    over its limit must not leave it to the resource tracker, which would warn at the end."""
    pytest.importorskip("numba")
    puzzles = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2"]
    (tmp_path / "set.txt").write_text("\n".join(puzzles) + "\n", encoding="utf-8")
    hog = "faulty[fault=hog,prefix=.2.1]"
    args = ["run", "--plugin", "faulty_solvers", "--corpus", "set.txt", "--solver", hog]
    args += ["--solver", "fast", "--memory", "400", "--timeout", "20", "--db", "db.sqlite"]
    done = cli(*args, "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    clean(done.stderr)
    found = statuses(tmp_path / "db.sqlite")
    assert found == {hog: {"SOLVED", "MEMOUT"}, "fast": {"SOLVED"}}
