"""Bad values refused up front, each with one line and exit status 2, before anything runs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from harness.checks import JOBS_PER_CORE, max_jobs
from harness.cli import main
from harness.errors import CommandError
from harness.runner import Execution, make_study, run_study
from harness.store import Store
from solvers.base import UnknownOption
from solvers.registry import parse_spec

PUZZLES = ["1...3..2...3..2.", ".2.1..3.....4.2."]


def corpus(tmp_path: Path) -> str:
    path = tmp_path / "set.txt"
    path.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    return str(path)


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command; it must fail with one line on stderr and status 2."""
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("sudoku-bench: error: ")
    assert err.count("\n") == 1, err
    return err


def run_argv(tmp_path: Path, *extra: str) -> list[str]:
    db = str(tmp_path / "db.sqlite")
    return ["run", "--corpus", corpus(tmp_path), "--db", db, "--no-progress", *extra]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("inf", "--timeout must be a finite number of seconds, at most 604800 (a week), not inf"),
        ("1e308", "not 1e+308"),
        ("nan", "not nan"),
        ("0", "--timeout must be positive, not 0"),
        ("-2", "--timeout must be positive, not -2"),
    ],
)
def test_a_timeout_must_be_finite_and_positive(tmp_path, capsys, value: str, message: str) -> None:
    err = refused(capsys, run_argv(tmp_path, "--solver", "dlx", "--timeout", value))
    assert message in err
    assert not (tmp_path / "db.sqlite").exists()  # refused before the database is touched


def test_a_study_file_timeout_of_inf_is_refused(tmp_path, capsys) -> None:
    study = tmp_path / "study.toml"
    study.write_text(f'corpora = ["{corpus(tmp_path)}"]\ntimeout = inf\nsolvers = ["dlx"]\n')
    err = refused(capsys, ["run", str(study), "--db", str(tmp_path / "db.sqlite")])
    assert "--timeout must be a finite number of seconds" in err


def test_a_stored_timeout_of_inf_is_refused_on_resume(tmp_path, capsys) -> None:
    assert main(run_argv(tmp_path, "--solver", "dlx", "--executor", "serial")) == 0
    capsys.readouterr()
    db = tmp_path / "db.sqlite"
    with sqlite3.connect(db) as raw:
        settings = json.loads(raw.execute("SELECT settings FROM runs").fetchone()[0])
        settings["timeout"] = float("inf")
        raw.execute("UPDATE runs SET finished = NULL, settings = ?", (json.dumps(settings),))
    err = refused(capsys, ["run", "--resume", "--db", str(db)])
    assert "--timeout must be a finite number of seconds" in err


def test_more_jobs_than_the_machine_can_start_are_refused(tmp_path, capsys) -> None:
    err = refused(capsys, run_argv(tmp_path, "--solver", "dlx", "--jobs", "100000"))
    assert "--jobs 100000 is more worker processes than this machine can start" in err
    with Store(tmp_path / "db.sqlite", create=False) as store:
        assert store.runs() == []  # refused before a run is recorded


def test_the_jobs_bound_grows_with_the_cores() -> None:
    assert max_jobs(1) <= JOBS_PER_CORE
    assert max_jobs(4) >= max_jobs(1)


def test_run_study_refuses_too_many_jobs(tmp_path) -> None:
    study = make_study([corpus(tmp_path)], ["dlx"])
    with Store(":memory:") as store, pytest.raises(CommandError, match="more worker processes"):
        run_study(store, study, Execution("process", jobs=max_jobs(64) + 1), progress=False)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("external[cmd='/no/such/program']", "no program '/no/such/program' (no such file)"),
        ("external[cmd='no-such-program-anywhere --x']", "no program 'no-such-program-anywhere'"),
    ],
)
def test_a_missing_program_is_refused_before_the_run(tmp_path, capsys, spec, message) -> None:
    err = refused(capsys, run_argv(tmp_path, "--solver", spec))
    assert message in err


def test_a_program_that_is_not_executable_is_refused(tmp_path, capsys) -> None:
    script = tmp_path / "solver.sh"
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o644)
    err = refused(capsys, run_argv(tmp_path, "--solver", f"external[cmd='{script}']"))
    assert "is not executable (chmod +x" in err


def test_a_parameter_given_twice_is_refused(tmp_path, capsys) -> None:
    err = refused(capsys, run_argv(tmp_path, "--solver", "cpsat[workers=1,workers=2]"))
    assert "workers is given twice in 'cpsat[workers=1,workers=2]'" in err
    with pytest.raises(UnknownOption, match="given twice"):
        parse_spec("dlx[a=1, a =1]")
