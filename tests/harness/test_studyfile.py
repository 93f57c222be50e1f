"""Study files: TOML options and solver parameter grids, stored with the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import studyfile
from harness.cli import main
from harness.errors import CommandError
from harness.store import Store
from tests.paths import ROOT

UNIQUE = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2"]

STUDY = """\
name = "grid"
corpora = ["set.txt"]
timeout = 3
jobs = 1
executor = "serial"
db = "study.sqlite"
limit = 2

[solvers]
dlx = {}
cpsat = {workers = 1, model = ["integer", "boolean"]}
"""


def write(folder: Path, text: str = STUDY) -> Path:
    (folder / "set.txt").write_text("\n".join(UNIQUE) + "\n", encoding="utf-8")
    path = folder / "study.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_parameter_grid_expands_to_every_combination_in_order() -> None:
    specs = studyfile.expand_solvers(
        {"mrv": {}, "cpsat": {"workers": [1, 2], "model": ["integer", "boolean"]}}
    )
    assert specs == [
        "mrv",
        "cpsat[model=integer,workers=1]",
        "cpsat[model=integer,workers=2]",
        "cpsat[model=boolean,workers=1]",
        "cpsat[model=boolean,workers=2]",
    ]
    assert studyfile.expand_solvers({"fast": {"locked": [True, False]}}) == [
        "fast[locked=true]",
        "fast[locked=false]",
    ]


def test_a_study_file_runs_and_is_stored_with_the_run(tmp_path: Path, monkeypatch, capsys) -> None:
    path = write(tmp_path)
    monkeypatch.chdir(tmp_path.parent)  # relative paths are read from the file's folder
    assert main(["run", str(path), "--no-progress"]) == 0
    with Store(str(tmp_path / "study.sqlite"), create=False) as store:
        run = store.run(1)
        solvers = {r.solver for r in store.results([1])}
        verdicts = {r.verdict for r in store.results([1])}
    assert solvers == {"dlx", "cpsat[model=boolean]", "cpsat"}  # canonical specs
    assert verdicts == {"CORRECT"}
    assert run.settings["timeout"] == 3.0
    assert run.settings["study_file"]["text"] == STUDY
    assert run.settings["study_file"]["name"] == "grid"
    assert "dlx" in capsys.readouterr().out


def test_command_line_options_win_over_the_study_file(tmp_path: Path) -> None:
    path = write(tmp_path)
    db = tmp_path / "other.sqlite"
    assert main(["run", str(path), "--timeout", "7", "--solver", "dlx", "--db", str(db)]) == 0
    with Store(str(db), create=False) as store:
        assert store.run(1).settings["timeout"] == 7.0
        assert {r.solver for r in store.results([1])} == {"dlx"}


def test_verify_takes_a_study_file(tmp_path: Path) -> None:
    path = write(tmp_path, STUDY.replace('model = ["integer", "boolean"]', 'model = "boolean"'))
    assert main(["verify", str(path), "--metamorphic", "1"]) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("timeout = 'soon'\n", "timeout = 'soon' is not a whole number or a number"),
        ("colour = 3\n", "unknown key 'colour'"),
        ("corpora = 3\n", "corpora must be a list of strings"),
        ("[solvers]\ndlx = 3\n", "solvers.dlx must be a table of parameters"),
        ("timeout = \n", "not valid TOML"),
        ("jobs = true\n", "jobs = True is not a whole number"),
    ],
)
def test_a_bad_study_file_is_refused_naming_the_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CommandError, match=message) as caught:
        studyfile.load(path)
    assert str(path) in str(caught.value)


def test_a_missing_study_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no study file"):
        studyfile.load(tmp_path / "nope.toml")


def test_resume_refuses_a_study_file(tmp_path: Path, capsys) -> None:
    path = write(tmp_path)
    assert main(["run", str(path), "--resume"]) != 0
    assert "a study file" in capsys.readouterr().err


def test_the_example_study_names_only_real_solvers_and_parameters() -> None:
    from harness.runner import load_solvers_files
    from solvers.registry import parse_spec, solver_class, unregister

    example = studyfile.load(ROOT / "reports" / "study.toml")
    load_solvers_files(example.solvers_files)  # registers csolver (the command is not run)
    families = set()
    try:
        for spec in example.solvers:
            name, options = parse_spec(spec)
            cls = solver_class(name)
            assert set(options) <= set(cls.parameters), spec
            families.add(cls.family)
    finally:
        unregister("csolver")
    assert {"human", "search", "exact-cover", "cp", "sat"} <= families
    assert {"dimacs[binary=minisat]", "dimacs[binary=cadical]", "minizinc[solver=gecode]"} <= set(
        example.solvers
    )
    assert sum(s.startswith("cpmpy[") for s in example.solvers) >= 2
