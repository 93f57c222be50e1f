"""One definition of a solve's time, CPU of the process tree, peak memory and phases.

No assertion here depends on the machine's speed: each compares a recorded
figure with a sleep, a CPU burn or an allocation the test itself makes, by
"at least" (what the span must include) or by "less than the sleep" (what it
must leave out), with margins of whole tenths of a second.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solvers
from harness.bench.timing import bench
from harness.cli import main
from harness.commands.run import DEFAULTS
from harness.measure import measured_solve
from harness.records import ResultRecord
from harness.report.clocks import clock_notes, retimed
from harness.store import SCHEMA_VERSION, Store
from harness.tasks import Batch, Item
from harness.worker import solve_item
from solvers import Grid, Solver, SolveResult, Staged, registry
from solvers.base import SPANS, Limits

PUZZLE = Grid.parse("1... 3..2 ...3 ..2.")
SOLUTION = "1234341221434321"
SLEEP = 0.3


class SlowAround(Solver):
    """Sleeps while staging and while building its result, never in `run`."""

    name, family, complete, summary, source = "slow-around", "search", True, "test", "test"

    def _stage(self, puzzle, limit, time_limit, budget, trace):  # noqa: ANN001
        time.sleep(SLEEP)
        answer = solvers.get("dlx").solve(puzzle, limit=limit)

        def finish(raw: SolveResult) -> SolveResult:
            time.sleep(SLEEP)
            return raw

        return Staged(lambda: answer, finish)

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        raise AssertionError("the harness must stage, not solve")


@pytest.fixture
def slow_around():
    registry.register(SlowAround)
    yield "slow-around"
    registry.unregister("slow-around")


PROGRAM = """
import sys, time
burn_until = time.process_time() + {burn}
while time.process_time() < burn_until:
    pass
hold = bytearray({mb} * 1024 * 1024)
for i in range(0, len(hold), 4096):
    hold[i] = 1
time.sleep({sleep})
print("SOLVED {solution} exhausted", flush=True)
"""


def per_puzzle_program(tmp_path: Path, *, burn: float, mb: int, sleep: float) -> Solver:
    """An external program started for each puzzle: it burns CPU, holds memory, sleeps."""
    script = tmp_path / f"program_{mb}.py"
    script.write_text(
        PROGRAM.format(burn=burn, mb=mb, sleep=sleep, solution=SOLUTION), encoding="utf-8"
    )
    return solvers.get("external", cmd=f"{sys.executable} {script} {{file}}", protocol="per-puzzle")


def test_the_span_leaves_out_staging_and_result_building(slow_around):
    solver = solvers.get(slow_around)
    measured = measured_solve(solver, PUZZLE, limit=2, time_limit=10)
    assert measured.result.solution.format() == SOLUTION
    assert measured.span == "call"
    assert measured.wall < SLEEP  # neither sleep is inside the span
    batch = Batch(slow_around, (Item("c", "1", PUZZLE.format()),), 2, 10.0)
    outcome = solve_item(solver, batch, batch.items[0])
    assert outcome.status == "SOLVED"
    assert outcome.wall < SLEEP  # the worker times the same span


def test_bench_and_run_time_the_same_span(slow_around):
    class Puzzle:
        grid = PUZZLE

    (timing,) = bench([slow_around], [Puzzle()], limit=2)
    assert timing.span == "call"
    assert timing.seconds[0] < SLEEP


class WarmFirst(Solver):
    """Answers like dlx, and says in its message whether it was warmed up before."""

    name, family, complete, summary, source = "warm-first", "search", True, "test", "test"
    warmed = False

    def warm_up(self) -> None:
        WarmFirst.warmed = True

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        answer = solvers.get("dlx").solve(puzzle, limit=limit)
        return dataclasses.replace(answer, message="warm" if WarmFirst.warmed else "cold")


def test_solve_times_the_same_span_after_warming_up(slow_around, capsys):
    """`solve` leaves staging and result building out of its time, as `run` does."""
    assert main(["solve", PUZZLE.format(), "--solver", slow_around, "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    answer = json.loads(line)
    assert answer["status"] == "SOLVED"
    assert answer["verified"]
    assert answer["seconds"] < SLEEP  # neither sleep is inside the span


def test_solve_warms_each_solver_up_before_its_first_solve(capsys):
    registry.register(WarmFirst)
    WarmFirst.warmed = False
    try:
        assert main(["solve", PUZZLE.format(), "--solver", "warm-first", "--json"]) == 0
    finally:
        registry.unregister("warm-first")
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "SOLVED"
    assert answer["message"] == "warm"


def test_a_per_puzzle_program_counts_its_start_cpu_and_sleep(tmp_path):
    solver = per_puzzle_program(tmp_path, burn=0.3, mb=1, sleep=0.1)
    assert solver.timed == "process"
    measured = measured_solve(solver, PUZZLE, limit=2, time_limit=30)
    assert measured.result.status.value == "SOLVED"
    assert measured.wall >= 0.1 + 0.3  # its sleep and its CPU burn are inside the span
    assert measured.usage.children_cpu_s >= 0.3  # the child's CPU is counted
    assert measured.usage.cpu_s >= measured.usage.children_cpu_s


def test_a_child_that_holds_200_mb_shows_a_peak_of_at_least_that(tmp_path):
    solver = per_puzzle_program(tmp_path, burn=0.0, mb=200, sleep=0.0)
    batch = Batch("external", (Item("c", "1", PUZZLE.format()),), 2, 30.0)
    outcome = solve_item(solver, batch, batch.items[0])
    assert outcome.status == "SOLVED"
    assert outcome.peak_rss_mb is not None
    assert outcome.peak_rss_mb >= 200


def test_the_worker_records_the_span_and_the_breakdown(tmp_path):
    solver = per_puzzle_program(tmp_path, burn=0.2, mb=1, sleep=0.0)
    batch = Batch("external", (Item("c", "1", PUZZLE.format()),), 2, 30.0)
    outcome = solve_item(solver, batch, batch.items[0])
    stats = __import__("json").loads(outcome.stats)
    assert stats["span"] == "process"
    assert stats["cpu_children_s"] >= 0.2
    assert outcome.cpu >= stats["cpu_children_s"]


def test_every_registered_solver_declares_a_known_span():
    for name in solvers.names(runtime=False):
        assert solvers.solver_class(name).timed in SPANS, name
    assert solvers.solver_class("dimacs").timed == "process"
    assert solvers.solver_class("minizinc").timed == "process"
    assert solvers.get("external", cmd="./x").timed == "exchange"


def test_bench_has_runs_defaults_and_says_what_it_used(capsys):
    assert main(["bench", "--solver", "dlx", "--max", "3", "gen4", "--json"]) == 0
    out = __import__("json").loads(capsys.readouterr().out)
    assert out["limit"] == DEFAULTS["limit"]
    assert out["time_limit"] == DEFAULTS["timeout"]
    assert out["solvers"][0]["span"] == "call"
    assert out["solvers"][0]["median_cpu_us"] is not None


def test_bench_writes_its_output_to_a_file(tmp_path, capsys):
    path = tmp_path / "bench.txt"
    assert main(["bench", "--solver", "dlx", "--max", "3", "gen4", "--out", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert "limit=2" in text
    assert "span call:" in text


def _record(**extra: object) -> ResultRecord:
    fields = {
        "run_id": 1, "solver": "dlx", "corpus": "c", "puzzle_id": "1", "puzzle": "p",
        "repeat": 0, "status": "SOLVED", "wall": 0.5, "cpu": 0.4,
    }  # fmt: skip
    return ResultRecord(**{**fields, **extra})  # type: ignore[arg-type]


def test_an_older_database_is_migrated_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        run = store.start_run("run", {}, git_commit=None, versions={}, machine={})
        store.add_results([_record(run_id=run)])
    with sqlite3.connect(path) as db:  # as the previous version wrote it
        db.execute("ALTER TABLE results DROP COLUMN peak_rss_mb")
        db.execute("UPDATE schema SET version = 1")
    with Store(path, create=False) as store:
        (old,) = list(store.results())
        assert (old.wall, old.cpu, old.peak_rss_mb) == (0.5, 0.4, None)
        store.add_results([_record(run_id=run, puzzle_id="2", peak_rss_mb=12.5)])
        assert sorted(r.peak_rss_mb or 0 for r in store.results()) == [0, 12.5]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema").fetchone()[0] == SCHEMA_VERSION


def test_the_search_clock_reads_the_search_phase_and_names_who_lacks_it():
    records = [
        _record(stats={"search": 0.1, "span": "call"}),
        _record(solver="fast", stats={"span": "call"}),
    ]
    walls = [r.wall for r in retimed(records, [], clock="search")]
    assert walls == [0.1, 0.5]
    notes = " ".join(clock_notes(records, [], clock="search"))
    assert "fast record none" in notes
    assert "what a time covers: call (dlx, fast)" in notes


def test_cp_and_sat_record_their_phases():
    pytest.importorskip("ortools")
    stats = solvers.get("cpsat").solve(PUZZLE, limit=2).stats
    assert {"setup", "search", "calls"} <= set(stats)
    pytest.importorskip("pysat")
    stats = solvers.get("sat").solve(PUZZLE, limit=2).stats
    assert {"setup", "search"} <= set(stats)


def test_the_report_shows_cpu_peak_memory_and_the_span(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    common = ["--corpus", "gen4", "--executor", "serial", "--db", str(db), "--no-progress"]
    assert main(["run", *common, "--solver", "dlx", "--timeout", "5"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "CPU median" in out
    assert "peak MB" in out
    assert "what a time covers: call (dlx)" in out


def test_the_report_says_when_a_solver_took_several_calls():
    records = [_record(solver="dimacs", stats={"calls": 2, "span": "process"}), _record()]
    notes = " ".join(clock_notes(records, []))
    assert "dimacs (up to 2)" in notes


def test_a_sat_binarys_own_time_is_its_search_phase():
    from solvers.sat.dimacs import own_time

    assert own_time("c total process time since initialization:   0.25    seconds") == 0.25
    assert own_time("CPU time              : 0.004 s") == 0.004
    assert own_time("c 1.5 seconds total run time") == 1.5
    assert own_time("s SATISFIABLE") is None


def test_a_worker_settles_its_heap_after_warming_up(tmp_path):
    """After `prepare` (warm-ups done) what is alive is frozen out of the collector's way,
    so a full collection in a timed solve does not walk the loaded modules again."""
    code = (
        "import gc\n"
        "from harness.tasks import WorkerSettings\n"
        "from harness.worker import prepare\n"
        "assert gc.get_freeze_count() == 0\n"
        "prepare(WorkerSettings(specs=('dlx',)))\n"
        "print(gc.get_freeze_count())\n"
    )
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert int(out.stdout) > 1000
