"""The fault suite for containment: no process outlives a run, and each fault gets its status.

Each test runs ``sudoku-bench run`` as a separate process with a solver that
misbehaves, then scans the machine for what is left: processes whose command
line carries a marker the test planted, and processes carrying the run's
own marker (`harness.containment.MARKER`) with the run's pid.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest

from harness import containment
from tests.paths import PLUGINS

PLUGINS = str(PLUGINS)
PUZZLES = ("1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2")  # 4x4
HANGS_ON = ".2.1"  # the prefix of the puzzle the faults pick (not the warm-up's)

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="containment is Linux's (prctl)"
)


def start(tmp_path: Path, solver: str, *extra: str, timeout: float = 5) -> subprocess.Popen[str]:
    (tmp_path / "set.txt").write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PLUGINS, os.environ.get("PYTHONPATH", "")])}
    command = ["run", "--corpus", "set.txt", "--solver", solver, "--plugin", "faulty_solvers"]
    return subprocess.Popen(
        [sys.executable, "-m", "harness.cli", *command, "--timeout", str(timeout), *extra,
         "--db", "db.sqlite", "--jobs", "1", "--no-progress"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def with_marker(mark: str) -> list[psutil.Process]:
    found = []
    for process in containment.processes():
        with contextlib.suppress(psutil.Error):
            if mark in process.cmdline():  # an argument of its own (not the run's solver spec)
                found.append(process)
    return found


def owned_by(pid: int) -> list[psutil.Process]:
    """Processes carrying the marker of the run whose pid is `pid`."""
    found = []
    for process in containment.processes():
        with contextlib.suppress(psutil.Error):
            value = process.environ().get(containment.MARKER, "")
            if value.startswith(f"{pid}-"):
                found.append(process)
    return found


def left(mark: str, pid: int, within: float = 10.0) -> list[psutil.Process]:
    """What is still alive of a run `within` seconds from now (killed if anything, so a
    failing test leaves nothing behind either)."""
    deadline = time.monotonic() + within
    while True:
        alive = [p for p in [*with_marker(mark), *owned_by(pid)] if _alive(p)]
        if not alive or time.monotonic() > deadline:
            containment.kill(alive)
            return alive
        time.sleep(0.1)


def _alive(process: psutil.Process) -> bool:
    with contextlib.suppress(psutil.Error):
        return process.status() != psutil.STATUS_ZOMBIE
    return False


def statuses(tmp_path: Path) -> dict[str, tuple[str, str]]:
    with sqlite3.connect(tmp_path / "db.sqlite") as raw:
        rows = raw.execute("SELECT puzzle, status, error FROM results").fetchall()
    return {puzzle: (status, error) for puzzle, status, error in rows}


def finish(process: subprocess.Popen[str], timeout: float = 60) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=timeout)
    finally:
        process.kill()
    return process.returncode, err


def test_a_plugin_child_in_its_own_session_is_killed_after_the_solve(tmp_path: Path) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    run = start(tmp_path, f"faulty[fault=spawn,prefix={HANGS_ON},mark={mark}]")
    code, err = finish(run)
    assert code == 0, err
    assert {status for status, _ in statuses(tmp_path).values()} == {"SOLVED"}
    assert left(mark, run.pid, within=3) == []


def wait_for_marker(mark: str, run: subprocess.Popen[str], within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not with_marker(mark):
        assert run.poll() is None, run.communicate()[1]
        assert time.monotonic() < deadline, "the solver's child never started"
        time.sleep(0.05)


def test_kill_9_of_the_run_with_a_worker_stuck_leaves_no_process(tmp_path: Path) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    # the worker blocks the alarm and sleeps: only a kill stops it; its child left the group
    run = start(tmp_path, f"faulty[fault=spawnhang,prefix={HANGS_ON},mark={mark}]", timeout=60)
    try:
        wait_for_marker(mark, run)
        time.sleep(0.3)  # the worker is now in its stuck solve
        assert owned_by(run.pid), "the run's workers carry its marker"
    finally:
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
    assert left(mark, run.pid) == []


def test_a_worker_that_exits_with_status_0_is_an_error_at_once(tmp_path: Path) -> None:
    # were it taken for a hang, the run would wait 2 x (60 + grace) s: finish() gives it 60
    run = start(tmp_path, f"faulty[fault=exit0,prefix={HANGS_ON}]", timeout=60)
    code, err = finish(run, timeout=60)
    assert code == 0, err
    found = statuses(tmp_path)
    culprit = next(key for key in found if key.startswith(HANGS_ON))
    assert found[culprit][0] == "ERROR"
    assert found[culprit][1] == "the worker exited with status 0 during the solve"
    assert sorted(status for status, _ in found.values()) == ["ERROR", "SOLVED", "SOLVED"]
    assert left("no-marker", run.pid, within=3) == []


def test_a_solve_stuck_past_its_limit_is_killed_and_blamed_alone(tmp_path: Path) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    solver = f"faulty[fault=spawnhang,prefix={HANGS_ON},mark={mark}]"
    run = start(tmp_path, solver, "--batch", "3", timeout=1)
    code, err = finish(run)
    assert code == 0, err
    found = sorted(statuses(tmp_path).values())
    assert [status for status, _ in found] == ["SOLVED", "SOLVED", "TIMEOUT"]
    # killed by the tracker at its own limit, not by the batch's hard limit
    assert "did not stop at its 1 s time limit" in found[2][1]
    assert left(mark, run.pid) == []


LEAK_C = r"""
#include <stdio.h>
#include <unistd.h>
/* leak MARK PYTHON PROGRAM ARGS...: start a child in a session of its own that sleeps
   with MARK on its command line, say so on stderr, then become PROGRAM ARGS. */
int main(int argc, char **argv) {
    if (argc < 4) return 2;
    if (fork() == 0) {
        setsid();
        execl(argv[2], argv[2], "-c", "import time; time.sleep(600)", argv[1], (char *)0);
        _exit(127);
    }
    fprintf(stderr, "leak: started a child\n");
    fflush(stderr);
    execv(argv[3], argv + 3);
    return 127;
}
"""


@pytest.fixture(scope="module")
def leak(c_solver: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wrapper (C) that leaves a child in its own session, then runs the test solver."""
    folder = tmp_path_factory.mktemp("leak")
    (folder / "leak.c").write_text(LEAK_C, encoding="utf-8")
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None  # c_solver skips without one
    subprocess.run(
        [compiler, "-o", str(folder / "leak"), str(folder / "leak.c")],
        check=True,
        capture_output=True,
    )
    return folder / "leak"


@pytest.mark.parametrize("protocol", ["per-puzzle", "line"])
@pytest.mark.parametrize("fault", ["none", "hang"])
def test_an_external_programs_children_in_their_own_session_are_killed(
    tmp_path: Path, leak: Path, c_solver: Path, protocol: str, fault: str
) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    once = " --once" if protocol == "per-puzzle" else ""
    hang = f" --fault hang --on {HANGS_ON}" if fault == "hang" else ""
    command = f"{leak} {mark} {sys.executable} {c_solver}{once}{hang}"
    (tmp_path / "leaky.toml").write_text(
        f'[[solver]]\nname = "leaky"\ncommand = "{command}"\nprotocol = "{protocol}"\n'
        'complete = true\nsummary = "leaves a child"\n',
        encoding="utf-8",
    )
    run = start(tmp_path, "leaky", "--solvers-file", "leaky.toml", timeout=1)
    code, err = finish(run)
    assert code == 0, err
    found = statuses(tmp_path)
    expected = {key: "TIMEOUT" if hang and key.startswith(HANGS_ON) else "SOLVED" for key in found}
    assert {key: status for key, (status, _) in found.items()} == expected
    for status, error in found.values():
        if status == "TIMEOUT" and "killed by the harness" not in error:
            # the worker's own limit struck (on a loaded machine the harness's kill, 0.5 s
            # later, can come first): what the program printed last is kept
            assert "no answer within the 1 s limit" in error
            assert "leak: started a child" in error
    assert left(mark, run.pid) == []


def plant_stale_run(tmp_path: Path, mark: str) -> subprocess.Popen[bytes]:
    """A lock file of run 7 whose process is gone, and a process that run left running."""
    dead = "4194303-1"  # no process has this pid and start time
    (tmp_path / "db.sqlite.run-7.lock").write_text(
        f"pid 4194303 on elsewhere, since 2026-01-01\n{containment.MARKER}={dead}\n",
        encoding="utf-8",
    )
    return subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)", mark],
        env={**os.environ, containment.MARKER: dead},
    )


def test_a_new_run_kills_and_reports_what_a_dead_run_left_on_its_database(
    tmp_path: Path,
) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    stale = plant_stale_run(tmp_path, mark)
    try:
        with_marker_deadline = time.monotonic() + 10
        while not with_marker(mark) and time.monotonic() < with_marker_deadline:
            time.sleep(0.05)
        run = start(tmp_path, "faulty")
        code, err = finish(run)
        assert code == 0, err
        assert "1 processes of a dead run (run-7, pid 4194303 on elsewhere" in err
        assert stale.wait(timeout=10) == -signal.SIGKILL
    finally:
        stale.kill()
        stale.wait()


def test_kill_9_of_the_run_with_a_hung_external_program_leaves_no_process(
    tmp_path: Path, leak: Path, c_solver: Path
) -> None:
    mark = f"mark-{uuid.uuid4().hex}"
    # the program leaves a child in its own session, then hangs with a child of its own
    command = f"{leak} {mark} {sys.executable} {c_solver} --fault hang --on {HANGS_ON}"
    (tmp_path / "leaky.toml").write_text(
        f'[[solver]]\nname = "leaky"\ncommand = "{command}"\nprotocol = "line"\n'
        'complete = true\nsummary = "leaves a child, then hangs"\n',
        encoding="utf-8",
    )
    run = start(tmp_path, "leaky", "--solvers-file", "leaky.toml", timeout=60)
    try:
        wait_for_marker(mark, run)
        deadline = time.monotonic() + 30
        # fork server, worker, guard, the program, its child, the child in its own session
        while len(owned_by(run.pid)) < 6:
            assert time.monotonic() < deadline, "the program never started in a worker"
            time.sleep(0.1)
    finally:
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
    assert left(mark, run.pid) == []


SWEEP = """
import subprocess, sys, time
from harness import containment
assert containment.become_subreaper()
kept = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "kept"])
# a child that leaves a grandchild in its own session and exits: the grandchild is adopted
subprocess.run([sys.executable, "-c",
    "import subprocess, sys; subprocess.Popen([sys.executable, '-c', "
    "'import time; time.sleep(60)', 'orphan'], start_new_session=True)"], check=True)
time.sleep(0.2)
orphans = [p for p in containment.children() if p != kept.pid]
print(len(orphans), containment.sweep(keep=lambda: [kept.pid]), kept.poll() is None,
      containment.sweep(keep=lambda: [kept.pid]))
kept.kill()
"""


def test_sweep_kills_adopted_orphans_and_spares_the_kept_programs() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SWEEP], capture_output=True, text=True, timeout=30, check=True
    )
    # one orphan adopted, killed; the kept program still runs; nothing left the second time
    assert done.stdout.split() == ["1", "1", "True", "0"]
