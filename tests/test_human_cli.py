"""`sudoku-bench explain` and `sudoku-bench rate`."""

from __future__ import annotations

import csv
import io
import json

from harness.cli import main

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EXPERT = ".43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71."
STUCK = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6....."


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _file(tmp_path, *puzzles):
    path = tmp_path / "puzzles.txt"
    path.write_text("# test puzzles\n" + "\n".join(puzzles) + "\n")
    return str(path)


def test_explain_text(capsys):
    status, out, _ = run(capsys, "explain", EXPERT)
    assert status == 0
    assert "X-Wing on 6 in rows 1, 9 (columns 6, 9): removes 6 from r4c9, r7c6, r7c9" in out
    assert "Solved by logic in" in out
    assert "ER 3.2" in out
    assert "class Expert" in out


def test_explain_compact_and_candidates(capsys):
    status, out, _ = run(capsys, "explain", EXPERT, "--format", "compact", "--candidates")
    assert status == 0
    assert "x_wing: r4c9<>6 r7c6<>6 r7c9<>6" in out
    assert "-+-" in out  # candidate grids drawn before the steps


def test_explain_stuck_prints_the_candidate_grid(capsys):
    status, out, _ = run(capsys, "explain", STUCK, "--techniques", "tier1")
    assert status == 0
    assert "Stuck after" in out
    assert "the candidates:" in out


def test_explain_json_lines(capsys):
    status, out, _ = run(capsys, "explain", EASY, "--format", "json", "--candidates")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    steps, final = lines[:-1], lines[-1]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert all("candidates" in s and s["text"] and s["compact"] for s in steps)
    assert final["status"] == "solved"
    assert final["rating"]["class"] in ("Simple", "Easy")
    assert final["grid"].startswith("483921657")


def test_explain_check_mode(capsys):
    status, out, _ = run(capsys, "explain", EXPERT, "--check")
    assert status == 0
    assert "steps checked against the solution, all sound" in out


def test_explain_invalid_puzzle(capsys):
    status, out, _ = run(capsys, "explain", "11.." + "." * 12)
    assert status == 0
    assert "invalid puzzle" in out


def test_rate_table_and_summary(capsys, tmp_path):
    status, out, _ = run(capsys, "rate", _file(tmp_path, EASY, EXPERT, STUCK))
    assert status == 0
    assert "x_wing 1" in out
    assert "3 puzzles, finished by logic alone: 2 (66.7%)" in out
    assert "class: " in out
    assert "Expert 2" in out


def test_rate_csv(capsys, tmp_path):
    status, out, err = run(capsys, "rate", _file(tmp_path, EASY, EXPERT), "--format", "csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["er"] for r in rows] == ["1.2", "3.2"]
    assert rows[1]["class"] == "Expert"
    assert rows[1]["logic"] == "yes"
    assert "2 puzzles" in err  # the summary goes to stderr


def test_rate_json_with_check(capsys, tmp_path):
    path = _file(tmp_path, EXPERT)
    status, out, _ = run(
        capsys, "rate", path, "--format", "json", "--check", "--techniques", "tier1"
    )
    assert status == 0
    record, summary = (json.loads(line) for line in out.splitlines())
    assert record["config"] == "tier1"
    assert record["status"] == "stuck"
    assert record["engine"].startswith("sudoku-bench human engine")
    assert any("soundness" in line for line in summary["summary"])


def test_unknown_technique_is_a_usage_error(capsys):
    status, _, err = run(capsys, "rate", EASY, "--techniques", "magic")
    assert status == 2
    assert "unknown technique 'magic'" in err
    status, _, err = run(capsys, "explain", EASY, "--techniques", "magic")
    assert status == 2
