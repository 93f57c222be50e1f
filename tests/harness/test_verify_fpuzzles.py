"""Variant puzzles read from f-puzzles files go through `verify` like any other corpus.

Each puzzle of ``tests/data/variants6.json`` that has an f-puzzles form (one per
constraint kind) is written as its own f-puzzles JSON file; the folder is the
corpus.  The solvers that take every kind solve them and their equivalent forms,
each answer checked against the rules and the givens, and a resumed run notices
when a file of the folder changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpora import fpuzzles
from corpora.corpus import read_puzzles
from harness.cli import main
from harness.runner import CommandError, make_study, resume_study
from harness.store import Store
from tests.paths import DATA

PUZZLES = [
    p.grid
    for p in read_puzzles(DATA / "variants6.json")
    if not any(c.kind == "greater-than" for c in p.grid.constraints)
]


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "fpuzzles"
    folder.mkdir()
    for index, grid in enumerate(PUZZLES):
        data = fpuzzles.to_fpuzzles(grid, title=f"puzzle {index}")
        (folder / f"p{index:02d}.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_the_folder_reads_back_as_the_same_puzzles(tmp_path):
    assert [p.grid for p in read_puzzles(_folder(tmp_path))] == PUZZLES
    assert len({c.kind for grid in PUZZLES for c in grid.constraints}) >= 17


@pytest.mark.slow
def test_verify_over_f_puzzles_files_finds_no_wrong_answer_and_no_disagreement(tmp_path, capsys):
    pytest.importorskip("ortools")
    pytest.importorskip("pysat")
    db = tmp_path / "v.sqlite"
    argv = ["verify", "--corpus", str(_folder(tmp_path)), "--solver", "cpsat", "--solver", "sat"]
    argv += ["--executor", "serial", "--metamorphic", "1", "--db", str(db), "--no-progress"]
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0, out
    assert "verify: no wrong answers" in out
    assert "disagree" not in out.lower()
    with Store(db) as store:
        (run,) = store.runs()
        results = list(store.results([run.id]))
    # both solvers, every puzzle, each in its given form and one equivalent form
    assert len(results) == 2 * 2 * len(PUZZLES)
    assert {r.verdict for r in results} == {"CORRECT"}


def test_a_changed_file_of_a_folder_corpus_stops_a_resume(tmp_path):
    folder = _folder(tmp_path)
    with Store(tmp_path / "db.sqlite") as store:
        run_id = store.start_run("x", make_study([str(folder)], ["cpsat"]).settings())
        first = folder / "p00.json"
        first.write_text(json.dumps(fpuzzles.to_fpuzzles(PUZZLES[1])), encoding="utf-8")
        with pytest.raises(CommandError, match="changed since run 1 started"):
            resume_study(store, run_id)
