"""`sudoku-bench export`: the files are the models the solvers run, and real tools read them.

The DIMACS text is solved by PySAT and, where installed, by CaDiCaL reading the
file; the MiniZinc model and data by the `minizinc` program.  Several puzzles
go to a directory; misuse is one clear line.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

import solvers
from harness.cli import main
from solvers import Grid
from solvers.sat import cnf
from solvers.testing import PUZZLE_4X4, PUZZLE_9X9_HARDER


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _read_dimacs(text: str) -> tuple[int, list[list[int]]]:
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    _, _, variables, count = header.split()
    body = [line for line in text.splitlines() if line and line[0] not in "cp"]
    clauses = [[int(v) for v in line.split()[:-1]] for line in body]
    assert len(clauses) == int(count)
    return int(variables), clauses


@pytest.mark.parametrize("encoding", ["minimal", "extended"])
def test_dimacs_is_the_encoding_and_solves_to_the_solution(capsys, encoding):
    pytest.importorskip("pysat")
    from pysat.solvers import Solver as PySat

    status, out, _ = run(capsys, "export", PUZZLE_9X9_HARDER, "--encoding", encoding)
    assert status == 0
    variables, clauses = _read_dimacs(out)
    puzzle = Grid.parse(PUZZLE_9X9_HARDER)
    assert variables == 729
    assert len(clauses) == len(cnf.clauses(3, 3, encoding)) + len(cnf.givens(puzzle))
    with PySat(name="cadical153", bootstrap_with=clauses) as sat:
        assert sat.solve()
        grid = cnf.decode(puzzle, [v for v in sat.get_model() if v > 0])
    assert grid == solvers.get("dlx").solve(puzzle).solution


@pytest.mark.skipif(
    shutil.which("cadical") is None, reason="not installed: apt-get install cadical"
)
def test_a_sat_binary_reads_the_exported_file(tmp_path, capsys):
    target = tmp_path / "puzzle.cnf"
    assert run(capsys, "export", PUZZLE_4X4, "--out", str(target))[0] == 0
    done = subprocess.run(["cadical", "-q", str(target)], capture_output=True, text=True)
    assert done.returncode == 10
    assert "s SATISFIABLE" in done.stdout


@pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="not installed: apt-get install minizinc"
)
def test_minizinc_reads_the_exported_models(tmp_path, capsys):
    one = tmp_path / "one.mzn"
    assert run(capsys, "export", PUZZLE_4X4, "--format", "mzn", "--out", str(one))[0] == 0
    alone = subprocess.run(
        ["minizinc", "--solver", "gecode", str(one)], capture_output=True, text=True
    )
    assert alone.returncode == 0
    assert "1, 2, 3, 4" in alone.stdout  # the first row of the solution
    many = tmp_path / "many"
    status, out, _ = run(
        capsys, "export", "gen9-hard", "--format", "mzn", "--max", "2", "--out", str(many)
    )
    assert status == 0
    assert "wrote 2 .dzn files and sudoku_bench.mzn" in out
    assert sorted(p.name for p in many.iterdir()) == ["00001.dzn", "00002.dzn", "sudoku_bench.mzn"]
    data = subprocess.run(
        ["minizinc", "--solver", "gecode", "sudoku_bench.mzn", "00002.dzn"],
        cwd=many,
        capture_output=True,
        text=True,
    )
    assert data.returncode == 0
    assert "x =" in data.stdout


def test_a_corpus_goes_to_a_directory_one_file_per_puzzle(tmp_path, capsys):
    out_dir = tmp_path / "cnf"
    status, out, _ = run(capsys, "export", "gen9-hard", "--max", "3", "--out", str(out_dir))
    assert status == 0
    files = sorted(p.name for p in out_dir.iterdir())
    assert files == ["00001.cnf", "00002.cnf", "00003.cnf"]
    first = (out_dir / "00001.cnf").read_text()
    assert first.startswith("c sudoku-bench export: ")
    assert _read_dimacs(first)[0] == 729


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "gen9-hard", "--max", "3"], "give a directory"),
        (["export", "gen9-hard", "--max", "3", "--out", "x.cnf"], "need a directory"),
        (["export", "no/such/file.txt"], "no such file"),
    ],
)
def test_misuse_is_one_clear_line(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert "Traceback" not in err


def test_help_teaches_by_example(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    out = capsys.readouterr().out
    assert "sudoku-bench export gen9-hard --format mzn --out mzn/" in out
    assert "minizinc --solver gecode" in out
