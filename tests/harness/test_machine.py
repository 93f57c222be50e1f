"""The machine's state: recorded when a run starts, turned into report notes, and --pin."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from harness import machine, studyfile
from harness.cli import main
from harness.commands.run import DEFAULTS
from harness.records import ResultRecord, RunInfo
from harness.report import build_report
from harness.report.render_text import render_markdown
from harness.report.tables import run_table
from harness.runner import Study, make_study

CAN_PIN = hasattr(os, "sched_setaffinity") and len(machine.usable_cores()) >= 2


def sysfs(root: Path, governors: list[str], boost: str | None = None) -> Path:
    """A fake /sys/devices/system/cpu with these governors on cores 0, 1, ..."""
    for core, governor in enumerate(governors):
        folder = root / f"cpu{core}" / "cpufreq"
        folder.mkdir(parents=True)
        (folder / "scaling_governor").write_text(governor + "\n")
    if boost is not None:
        (root / "cpufreq").mkdir(exist_ok=True)
        (root / "cpufreq" / "boost").write_text(boost + "\n")
    return root


def test_governors_and_boost_come_from_sysfs(tmp_path: Path) -> None:
    root = sysfs(tmp_path, ["powersave", "performance", "powersave"], boost="1")
    assert machine.governors([0, 1, 2], root) == {"powersave": 2, "performance": 1}
    assert machine.governors([0], root) == {"powersave": 1}
    assert machine.boost(root) is True
    (root / "cpufreq" / "boost").write_text("0\n")
    assert machine.boost(root) is False


def test_intel_pstate_says_whether_turbo_is_on(tmp_path: Path) -> None:
    (tmp_path / "intel_pstate").mkdir()
    (tmp_path / "intel_pstate" / "no_turbo").write_text("0\n")
    assert machine.boost(tmp_path) is True
    (tmp_path / "intel_pstate" / "no_turbo").write_text("1\n")
    assert machine.boost(tmp_path) is False


def test_unknown_facts_are_left_out(tmp_path: Path) -> None:
    assert machine.governors([0, 1], tmp_path) == {}
    assert machine.boost(tmp_path) is None
    assert machine.state(None, tmp_path) == {}
    cores = len(machine.usable_cores())
    assert machine.state([0.5, 0.4, 0.3], tmp_path) == {"free_cores": max(0.0, cores - 0.5)}


def test_free_cores_are_the_usable_ones_less_the_load() -> None:
    assert machine.free_cores([1.25, 3.0, 3.0], 4) == 2.75
    assert machine.free_cores([6.0, 3.0, 3.0], 4) == 0.0
    assert machine.free_cores(None, 4) is None


def test_scaling_names_what_lets_the_clock_change() -> None:
    assert machine.scaling({"governors": {"performance": 8}, "boost": False}) is None
    assert machine.scaling({}) is None
    assert machine.scaling({"governors": {"powersave": 6, "performance": 2}}) == (
        "frequency governor powersave on 6 of 8 cores"
    )
    assert machine.scaling({"governors": {"performance": 4}, "boost": True}) == "turbo boost on"


# -- notes in the report, from a faked machine state ----------------------------------
RECORDS = [
    ResultRecord(1, "dlx", "c", "p1", "", 0, "SOLVED", wall=0.01, verdict="CORRECT"),
    ResultRecord(1, "dlx", "c", "p2", "", 0, "SOLVED", wall=0.02, verdict="CORRECT"),
]
STEADY = RunInfo(
    1,
    "2026-01-01T00:00:00+00:00",
    "2026-01-01T00:01:00+00:00",
    "sudoku-bench run",
    settings={"timeout": 10.0, "workers": 1, "pin": False},
    machine={
        "usable_cores": 4,
        "governors": {"performance": 4},
        "boost": False,
        "free_cores": 3.8,
        "load_start": [0.2, 0.2, 0.2],
    },
)


def notes(run: RunInfo) -> list[str]:
    return build_report(RECORDS, [run]).notes


def test_a_steady_machine_gets_no_condition_note() -> None:
    assert notes(STEADY) == []


def test_an_old_run_without_the_facts_gets_no_condition_note() -> None:
    old = dataclasses.replace(STEADY, settings={"timeout": 10.0}, machine={"cores": 4})
    assert notes(old) == []


def test_frequency_scaling_is_noted_in_every_format() -> None:
    scaled = dataclasses.replace(
        STEADY, machine={**STEADY.machine, "governors": {"powersave": 4}, "boost": True}
    )
    (note,) = notes(scaled)
    assert note.startswith("run 1 ran with the CPU clock free to change")
    assert "frequency governor powersave on 4 of 4 cores and turbo boost on" in note
    report = build_report(RECORDS, [scaled])
    assert f"> **Note:** {note}" in render_markdown(report)
    values = {row[0]: row[1] for row in run_table(report).rows}
    assert values["frequency governor"] == "powersave (4 cores)"
    assert values["turbo boost"] == "on"
    assert values["free cores at start"] == "3.8"
    assert values["CPU pinning"] == "no"


def test_the_environment_shows_the_solver_footprints() -> None:
    run = dataclasses.replace(
        STEADY, settings={**STEADY.settings, "footprints": {"dlx": 25, "cpsat": None}}
    )
    values = {row[0]: row[1] for row in run_table(build_report(RECORDS, [run])).rows}
    assert values["solver footprints"] == "dlx 25 MB, cpsat ?"


def test_workers_above_the_free_cores_or_the_cores_are_noted() -> None:
    crowded = dataclasses.replace(
        STEADY, settings={**STEADY.settings, "workers": 3}, machine={**STEADY.machine}
    )
    crowded.machine["free_cores"] = 1.5
    (note,) = notes(crowded)
    assert note.startswith("run 1 started 3 workers with 1.5 of 4 cores free")
    over = dataclasses.replace(STEADY, settings={**STEADY.settings, "workers": 6})
    (note,) = notes(over)
    assert note.startswith("run 1 ran 6 workers on 4 usable cores")


def test_each_resumed_session_is_judged_on_its_own_facts() -> None:
    resumed = {"workers": 2, "free_cores": 0.5, "governors": {"performance": 4}}
    run = dataclasses.replace(STEADY, settings={**STEADY.settings, "resumed": [resumed]})
    (note,) = notes(run)
    assert note.startswith("run 1 (resumed, session 2) started 2 workers with 0.5 of 4 cores free")
    alone = {"workers": 1, "free_cores": 0.25}
    run = dataclasses.replace(STEADY, settings={**STEADY.settings, "resumed": [alone]})
    (note,) = notes(run)
    assert note.startswith("run 1 (resumed, session 2) started 1 worker with 0.25 of 4 cores free")


# -- the run records the facts; --pin ---------------------------------------------------
def test_a_run_records_the_machine_state_at_its_start(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen4", "--solver", "dlx", "--jobs", "1", "--db", str(db)]
    assert main([*args, "--no-progress"]) == 0
    with sqlite3.connect(db) as raw:
        settings, facts = (
            json.loads(v) for v in raw.execute("SELECT settings, machine FROM runs").fetchone()
        )
    assert settings["workers"] == 1
    assert settings["pin"] is False
    assert isinstance(facts["free_cores"], float)
    assert facts["free_cores"] <= len(machine.usable_cores())
    assert facts["cpu"]  # the CPU model, as before
    for key in ("governors", "boost"):  # recorded where the kernel shows them
        assert (key in facts) == (key in machine.state([0.0, 0.0, 0.0]))


def test_the_pin_default_is_the_same_everywhere_and_old_studies_load() -> None:
    defaults = inspect.signature(make_study).parameters
    assert DEFAULTS["pin"] is False
    assert defaults["pin"].default is False
    assert Study.__dataclass_fields__["pin"].default is False
    old = {"corpora": ["gen4"], "solvers": ["dlx"], "timeout": 5.0}  # stored before --pin
    assert Study.from_settings(old).pin is False


def test_a_study_file_may_ask_for_pinning(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text('corpora = ["gen4"]\npin = true\n[solvers]\ndlx = {}\n', encoding="utf-8")
    assert studyfile.load(path).options["pin"] is True
    path.write_text('corpora = ["gen4"]\npin = "yes"\n', encoding="utf-8")
    with pytest.raises(Exception, match="pin = 'yes' is not true or false"):
        studyfile.load(path)


def test_pinning_what_cannot_be_pinned_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "db.sqlite")
    base = ["run", "--corpus", "gen4", "--solver", "dlx", "--pin", "--db", db, "--no-progress"]
    assert main([*base, "--executor", "serial"]) == 2
    assert "the serial executor has none" in capsys.readouterr().err
    too_many = str(len(machine.usable_cores()) + 1)
    assert main([*base, "--jobs", too_many]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--pin gives each worker a core of its own" in err


@pytest.mark.skipif(not CAN_PIN, reason="pinning needs sched_setaffinity and two usable cores")
def test_workers_claim_distinct_cores_until_none_is_left(tmp_path: Path) -> None:
    cores = machine.usable_cores()
    code = (
        "import sys, time; from harness import machine; "
        "print(machine.pin(sys.argv[1]), machine.pinned_core(), flush=True); time.sleep(30)"
    )
    claimers = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE)
        for _ in range(len(cores) + 1)
    ]
    try:
        said = [c.stdout.readline().decode().split() for c in claimers]
    finally:
        for c in claimers:
            c.kill()
            c.wait()
    claimed = [int(core) for core, pinned in said if core != "None" and core == pinned]
    assert sorted(claimed) == cores  # one each, on the core it claimed
    assert sum(core == "None" for core, _ in said) == 1  # and nothing for the one too many


@pytest.mark.skipif(not CAN_PIN, reason="pinning needs sched_setaffinity and two usable cores")
def test_a_pinned_run_records_each_result_core_and_the_cores_used(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    args = ["run", "--corpus", "gen9-hard", "--solver", "dlx", "--pin", "--jobs", "2"]
    assert main([*args, "--db", str(db), "--no-progress"]) == 0
    with sqlite3.connect(db) as raw:
        settings = json.loads(raw.execute("SELECT settings FROM runs").fetchone()[0])
        cores = {row[0] for row in raw.execute("SELECT json_extract(stats, '$.core') FROM results")}
    assert settings["pin"] is True
    assert None not in cores  # every result says where it ran
    assert cores <= set(machine.usable_cores())
    # the cores the workers reported, the oracle's truth batches included
    assert cores <= set(settings["pinned_cores"]) <= set(machine.usable_cores())
    from harness.store import Store

    with Store(db, create=False) as store:
        report = build_report(store.results([1]), [store.run(1)])
    values = {row[0]: row[1] for row in run_table(report).rows}
    assert values["CPU pinning"].startswith("each worker on a core of its own (cores ")
