"""`sudoku-bench export` on puzzles with constraints: DIMACS and MiniZinc models that
other tools solve to the puzzle's solution, and proved unique there too.

Every puzzle of ``tests/data/variants6.json`` (one per constraint kind) is
exported; PySAT solves the CNF text and the `minizinc` program the model.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.cli import main
from solvers.grid import Grid
from solvers.sat import cnf
from solvers.variants.canonical import puzzle_from_data, to_json
from solvers.variants.constraints import KINDS
from tests.paths import DATA

DATA = DATA / "variants6.json"
PUZZLES = {
    extra["title"].split(":")[0]: (grid, extra["solution"])
    for grid, extra in map(puzzle_from_data, json.loads(DATA.read_text(encoding="utf-8")))
}
needs_minizinc = pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="not installed: apt-get install minizinc"
)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path: Path, grid: Grid) -> Path:
    path = tmp_path / "puzzle.json"
    path.write_text(to_json(grid), encoding="utf-8")
    return path


def test_every_kind_has_a_puzzle():
    assert set(PUZZLES) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(PUZZLES))
def test_the_exported_cnf_has_exactly_the_solution(tmp_path, capsys, kind):
    pytest.importorskip("pysat")
    from pysat.formula import CNF
    from pysat.solvers import Solver

    puzzle, solution = PUZZLES[kind]
    status, text, _ = run(capsys, "export", str(_write(tmp_path, puzzle)), "--format", "dimacs")
    assert status == 0
    named = [line for line in text.splitlines() if line.startswith("c constraints ")]
    assert len(named) == 1
    assert kind in named[0].split(":")[0].split()[2:]
    with Solver(name="cadical153", bootstrap_with=CNF(from_string=text).clauses) as sat:
        assert sat.solve()
        found = cnf.decode(puzzle, sat.get_model())
        assert found.cells == solution.cells
        sat.add_clause(cnf.blocking(puzzle, found))
        assert not sat.solve()


def _minizinc(*argv: str, cwd: Path) -> list[int]:
    done = subprocess.run(
        ["minizinc", "--solver", "gecode", "--output-mode", "json", "-a", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [part for part in done.stdout.split("----------") if "{" in part]
    assert len(answers) == 1, done.stdout  # one solution, and "==========": all listed
    assert "==========" in done.stdout
    x = json.loads(answers[0])["x"]
    return [v for row in x for v in row]


@needs_minizinc
@pytest.mark.parametrize("kind", sorted(PUZZLES))
def test_minizinc_solves_the_exported_model_to_the_solution(tmp_path, capsys, kind):
    puzzle, solution = PUZZLES[kind]
    target = tmp_path / "one.mzn"
    status, _, _ = run(
        capsys, "export", str(_write(tmp_path, puzzle)), "--format", "mzn", "--out", str(target)
    )
    assert status == 0
    assert _minizinc("one.mzn", cwd=tmp_path) == list(solution.cells)


@needs_minizinc
def test_several_puzzles_get_their_own_models_beside_their_data(tmp_path, capsys):
    (killer, killer_solution), (thermo, _) = PUZZLES["killer"], PUZZLES["thermometer"]
    classic = killer.with_constraints(())
    path = tmp_path / "three.json"
    path.write_text(
        "[" + ",".join(to_json(g) for g in (killer, classic, thermo)) + "]", encoding="utf-8"
    )
    out_dir = tmp_path / "mzn"
    status, out, _ = run(capsys, "export", str(path), "--format", "mzn", "--out", str(out_dir))
    assert status == 0
    assert "wrote 3 .dzn files and sudoku_bench.mzn and 2 .mzn models" in out
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "00001.dzn",
        "00001.mzn",
        "00002.dzn",
        "00003.dzn",
        "00003.mzn",
        "sudoku_bench.mzn",
    ]
    assert _minizinc("00001.mzn", "00001.dzn", cwd=out_dir) == list(killer_solution.cells)


def test_only_variant_puzzles_need_no_shared_model(tmp_path, capsys):
    path = tmp_path / "two.json"
    grids = (PUZZLES["killer"][0], PUZZLES["sandwich"][0])
    path.write_text("[" + ",".join(to_json(g) for g in grids) + "]", encoding="utf-8")
    out_dir = tmp_path / "mzn"
    assert run(capsys, "export", str(path), "--format", "mzn", "--out", str(out_dir))[0] == 0
    assert "sudoku_bench.mzn" not in {p.name for p in out_dir.iterdir()}
    assert "killer cage" in (out_dir / "00001.mzn").read_text()


def test_export_takes_the_sums_encoding(tmp_path, capsys):
    puzzle = _write(tmp_path, PUZZLES["killer"][0])
    _, ladder, _ = run(capsys, "export", str(puzzle))
    _, combos, _ = run(capsys, "export", str(puzzle), "--sums", "combinations")
    assert "(sums=ladder)" in ladder
    assert "(sums=combinations)" in combos
    assert ladder.splitlines()[4:] != combos.splitlines()[4:]
