"""A solver's output is kept with its result, cut short, and never floods the run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from harness.capture import KEEP, OutputTrap, shorten, with_output
from harness.cli import main
from harness.store import Store
from harness.tasks import Outcome
from tests.paths import PLUGINS

PLUGINS = str(PLUGINS)
PUZZLES = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2"]


def test_each_take_returns_what_was_written_since_the_last() -> None:
    with OutputTrap() as trap:
        os.write(1, b"first\n")
        os.write(2, b"then an error\n")
        assert trap.take() == "first\nthen an error"  # (print, from workers: the run test)
        assert trap.take() == ""
        os.write(2, b"second\n")
        assert trap.take() == "second"


def test_a_long_output_keeps_its_two_ends() -> None:
    with OutputTrap(keep=10) as trap:
        os.write(1, b"HEAD" + b"x" * 100_000 + b"TAIL")
        text = trap.take()
    assert text.startswith("HEADxxxxxx\n")
    assert text.endswith("\nxxxxxxTAIL")
    assert "100,008 bytes in all, the middle left out" in text
    assert shorten("a" * 25, 10) == "a" * 10 + "\n[... 5 characters left out ...]\n" + "a" * 10


def test_the_output_goes_to_the_stats_and_to_a_failures_error() -> None:
    solved = with_output(Outcome("SOLVED", stats='{"nodes": 3}'), "progress: 50%")
    assert json.loads(solved.stats) == {"nodes": 3, "output": "progress: 50%"}
    assert solved.error == ""
    failed = with_output(Outcome("ERROR", error="RuntimeError: x"), "the state is broken")
    assert failed.error == "RuntimeError: x; output: the state is broken"
    assert with_output(solved, "") is solved


def test_a_run_keeps_solver_output_out_of_its_own(
    tmp_path: Path, faulty: None, monkeypatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(PLUGINS)
    corpus = tmp_path / "set.txt"
    corpus.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    db = tmp_path / "db.sqlite"
    status = main(
        ["run", "--corpus", str(corpus), "--solver", "faulty[fault=chatty]",
         "--solver", f"faulty[fault=complain,prefix={PUZZLES[1][:4]}]", "--plugin",
         "faulty_solvers", "--jobs", "2", "--db", str(db), "--no-progress"]
    )  # fmt: skip
    out, err = capfd.readouterr()
    assert status == 0, err
    assert "chatter" not in out + err
    assert "noise" not in out + err
    assert len(out) + len(err) < 20_000
    with Store(db, create=False) as store:
        records = list(store.results([1]))
    chatty = [r for r in records if r.solver == "faulty[fault=chatty]"]
    assert {r.status for r in chatty} == {"SOLVED"}
    for r in chatty:
        assert r.stats["output"].startswith("chatter chatter")
        assert r.stats["output"].endswith("noise noise")
        assert "the middle left out" in r.stats["output"]
        assert len(r.stats["output"]) < 2 * KEEP + 100
    complained = [r for r in records if r.status == "ERROR"]
    assert len(complained) == 1
    assert complained[0].error.endswith("; output: faulty: cannot go on, the state is broken")
