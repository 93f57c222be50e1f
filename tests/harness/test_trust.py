"""A database is data: resuming a stored run imports or runs nothing without consent."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.trust import program_specs, repeated, stored_code

PUZZLES = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2", "..3.4.....1.2..."]
MODULE = "planted_plugin"


@pytest.fixture
def planted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """A finished dlx run turned, as an attacker would, into an unfinished one whose
    settings import a planted plug-in and run a planted program (each leaves a mark)."""
    corpus = tmp_path / "set.txt"
    corpus.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    db = tmp_path / "db.sqlite"
    argv = ["run", "--corpus", str(corpus), "--solver", "dlx", "--executor", "serial"]
    assert main([*argv, "--db", str(db), "--no-progress"]) == 0
    capsys.readouterr()
    plugin_dir = tmp_path / "plugins"
    plugin_dir.mkdir()
    imported, ran = tmp_path / "imported.mark", tmp_path / "ran.mark"
    (plugin_dir / f"{MODULE}.py").write_text(
        f"open({str(imported)!r}, 'w').close()\n", encoding="utf-8"
    )
    program = tmp_path / "program.sh"
    program.write_text(f"touch {ran}\nwhile read line; do echo ERROR; done\n", encoding="utf-8")
    with sqlite3.connect(db) as raw:
        settings = json.loads(raw.execute("SELECT settings FROM runs").fetchone()[0])
        settings.update(
            plugins=[MODULE],
            paths=[str(plugin_dir)],
            solvers=["dlx", f"external[cmd='sh {program}']"],
        )
        raw.execute("UPDATE runs SET finished = NULL, settings = ?", (json.dumps(settings),))
        raw.execute("DELETE FROM results WHERE id > 2")
    yield {"db": db, "imported": imported, "ran": ran, "plugins": plugin_dir}
    sys.modules.pop(MODULE, None)
    if str(plugin_dir) in sys.path:
        sys.path.remove(str(plugin_dir))


def test_resume_refuses_a_run_that_imports_or_runs_code(planted, capsys) -> None:
    status = main(["run", "--resume", "--db", str(planted["db"]), "--executor", "serial"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1
    assert f"would import the plug-ins {MODULE} (from {planted['plugins']})" in err
    assert "and run external[cmd=" in err
    assert "--trust-stored" in err
    assert not planted["imported"].exists()
    assert not planted["ran"].exists()


def test_report_on_such_a_database_runs_nothing(planted, capsys) -> None:
    assert main(["report", "--db", str(planted["db"]), "--no-plots"]) == 0
    assert not planted["imported"].exists()
    assert not planted["ran"].exists()


def test_trust_stored_resumes_and_says_what_it_runs(planted, capsys) -> None:
    status = main(
        ["run", "--resume", "--db", str(planted["db"]), "--executor", "serial", "--trust-stored",
         "--no-progress"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"note: run 1 of {planted['db']} will import the plug-ins {MODULE}" in err
    assert planted["imported"].exists()
    assert planted["ran"].exists()


def test_options_that_do_not_match_the_stored_ones_are_refused(planted, capsys) -> None:
    status = main(
        ["run", "--resume", "--db", str(planted["db"]), "--plugin", "other", "--executor", "serial"]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert "the --plugin, --solvers-file and --solver options given are not run 1" in err
    assert not planted["imported"].exists()


def test_trust_stored_without_resume_is_refused(capsys) -> None:
    assert main(["run", "--corpus", "gen4", "--trust-stored"]) == 2
    assert "--trust-stored goes with --resume" in capsys.readouterr().err


# -- the rules, without a database --------------------------------------------------------
def test_specs_that_name_a_program_are_found() -> None:
    specs = ["dlx", "cpsat[workers=1]", "external[cmd=./x]", "dimacs", "dimacs[binary=/tmp/x]"]
    assert program_specs(specs) == ("external[cmd=./x]", "dimacs[binary=/tmp/x]")


def test_the_same_options_given_again_count_as_consent(tmp_path: Path) -> None:
    here = str(tmp_path)
    code = stored_code(["mine"], [here], [], ["external[cmd='./x --a']"])
    assert repeated(code, ["mine"], [], ['external[cmd="./x --a"]'], cwd=here)
    assert not repeated(code, ["mine"], [], [], cwd=here)  # the program is not named again
    assert not repeated(code, ["mine", "more"], [], ["external[cmd='./x --a']"], cwd=here)
    # a plug-in stored with another folder is not what --plugin would import here
    assert not repeated(code, ["mine"], [], ["external[cmd='./x --a']"], cwd=str(tmp_path / "x"))


def test_a_study_without_code_needs_no_consent() -> None:
    assert not stored_code([], [], [], ["dlx", "cpsat[workers=2]"])
