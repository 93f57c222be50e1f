"""Progress off a terminal: a line at a fixed interval and one at the end, never silence.

The clock is a counter the test advances, so nothing depends on real time.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from harness.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_come_at_the_interval_and_at_the_end():
    out, clock = io.StringIO(), Clock()
    progress = Progress(400, out=out, clock=clock, every=30)
    progress.add(["SOLVED"] * 50)
    assert out.getvalue() == ""  # not yet 30 s
    clock.now = 31
    progress.add(["SOLVED"] * 49 + ["TIMEOUT"], wrong=2)
    first = out.getvalue().splitlines()
    assert first == [
        "progress: 100/400 solves (25%), 3.2/s, about 2 min left; timeouts 1, errors 0, wrong 2"
    ]
    clock.now = 40
    progress.add(["ERROR"])
    assert len(out.getvalue().splitlines()) == 1  # the next line is due at 61 s
    clock.now = 400
    progress.add(["SOLVED"] * 299)
    progress.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[-1].startswith("progress: 400/400 solves (100%), 1.0/s; timeouts 1, errors 1")


def test_no_lines_when_disabled():
    out, clock = io.StringIO(), Clock()
    progress = Progress(10, enabled=False, out=out, clock=clock, every=1)
    clock.now = 5
    progress.add(["SOLVED"] * 10)
    progress.close()
    assert out.getvalue() == ""


def test_a_run_with_stderr_in_a_file_prints_progress_lines(tmp_path: Path):
    command = [sys.executable, "-m", "harness.cli", "run", "--corpus", "gen4", "--solver", "dlx",
               "--executor", "serial", "--db", str(tmp_path / "db.sqlite")]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "progress: 50/50 solves (100%)" in done.stderr
