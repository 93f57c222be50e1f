"""The `sudoku-bench` command: solvers table, solve, bench, and clear errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from harness.cli import main
from solvers.testing import PUZZLE_9X9_EASY, PUZZLE_16X16


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solvers_table_lists_dlx(capsys):
    status, out, _ = run(capsys, "solvers")
    assert status == 0
    assert "dlx" in out
    assert "exact-cover" in out
    status, out, _ = run(capsys, "solvers", "--json")
    assert any(row["name"] == "dlx" and row["complete"] for row in json.loads(out))


def test_solve_9x9_and_16x16(capsys):
    status, out, _ = run(capsys, "solve", PUZZLE_9X9_EASY, "--limit", "2")
    assert status == 0
    assert "SOLVED (proved unique)" in out
    assert "verified" in out
    status, out, _ = run(capsys, "solve", PUZZLE_16X16)
    assert status == 0
    assert "SOLVED" in out


def test_solve_json_and_file(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n{PUZZLE_9X9_EASY}\n\n{'.' * 81}\n")
    status, out, _ = run(capsys, "solve", str(path), "--json", "--limit", "2")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [(r["puzzle_id"], r["status"]) for r in lines] == [
        ("two.txt:2", "SOLVED"),
        ("two.txt:4", "MULTIPLE"),
    ]
    assert all(r["verified"] for r in lines)


def test_solve_json_verifies_nothing_without_a_solution(capsys):
    status, out, _ = run(capsys, "solve", "1...3..2...3..2.", "--budget", "1", "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["status"] == "BUDGET"
    assert answer["solutions"] == []
    assert answer["verified"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "1...3..x...3..2."], "illegal character 'x'"),
        (["solve", PUZZLE_9X9_EASY[:80]], "found 80"),
        (["solve", PUZZLE_9X9_EASY, "--solver", "nosuch"], "unknown solver 'nosuch'"),
        (["solve", PUZZLE_9X9_EASY, "--solver", "dlx[depth=2]"], "no parameter depth"),
        (["solve", "./missing/file.txt"], "no such file"),
        (["solve", PUZZLE_9X9_EASY, "--limit", "0"], "limit must be"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_bad_line_in_a_file_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(f"{PUZZLE_9X9_EASY}\n{PUZZLE_9X9_EASY[:-1]}?\n")
    status, _, err = run(capsys, "solve", str(path))
    assert status == 2
    assert "bad.txt:2:81: illegal character '?'" in err


def test_bench_prints_figures(tmp_path, capsys):
    path = tmp_path / "set.txt"
    path.write_text(f"{PUZZLE_9X9_EASY}\n{PUZZLE_9X9_EASY}\n")
    status, out, _ = run(capsys, "bench", "--solver", "dlx", str(path))
    assert status == 0
    assert "median µs" in out
    assert "SOLVED 2" in out


def test_console_script_runs_without_traceback():
    exe = shutil.which("sudoku-bench") or f"{sys.executable} -m harness.cli"
    proc = subprocess.run(
        [*exe.split(), "solve", "not a puzzle"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("sudoku-bench: error:")
    assert "Traceback" not in proc.stderr
