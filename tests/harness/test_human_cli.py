"""`sudoku-bench explain` and `sudoku-bench rate`."""

from __future__ import annotations

import csv
import io
import json

from harness.cli import main

# The puzzles come from the project's generated corpora (corpora/data/*.txt).
# corpora/data/gen9-easy.txt line 53: singles only.
EASY = "...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7.."
# corpora/data/gen9-minimal.txt line 60: one X-Wing, the hardest step.
EXPERT = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
# corpora/data/gen9-extreme.txt line 50: logic without forcing chains gets stuck.
STUCK = "5.....4.2..9.6785.......76....49..2.8....1.4.......3..2.8..5.3..94....7...5..4..6"


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
    assert (
        "X-Wing on 9 in rows 5, 9 (columns 5, 8): "
        "removes 9 from r1c8, r4c5, r6c5, r6c8, r7c5, r8c5, r8c8\n" in out
    )
    assert "Solved by logic in" in out
    assert "ER 3.2" in out
    assert "class Expert" in out


def test_explain_compact_and_candidates(capsys):
    status, out, _ = run(capsys, "explain", EXPERT, "--format", "compact", "--candidates")
    assert status == 0
    assert "X-Wing: r1c8<>9 r4c5<>9 r6c5<>9 r6c8<>9 r7c5<>9 r8c5<>9 r8c8<>9" in out
    assert "x_wing" not in out  # the usual names, not the table's
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
    assert final["grid"].startswith("967831524")


def test_explain_check_mode(capsys):
    status, out, _ = run(capsys, "explain", EXPERT, "--check")
    assert status == 0
    assert "steps checked against the solution, all sound" in out


def test_explain_invalid_puzzle(capsys):
    status, out, _ = run(capsys, "explain", "11.." + "." * 12)
    assert status == 0
    assert "invalid puzzle" in out


def test_rate_table_and_summary(capsys, tmp_path):
    path = _file(tmp_path, EASY, EXPERT, STUCK)
    status, out, _ = run(capsys, "rate", path, "--techniques", "classic")
    assert status == 0
    assert "X-Wing 1" in " ".join(out.split())  # the usual name (the column wraps)
    assert "3 puzzles, finished by logic alone: 2 (66.7%)" in out
    assert "class: " in out
    assert "Expert 2" in out


def test_rate_one_puzzle_says_puzzle(capsys):
    status, out, _ = run(capsys, "rate", "1...3..2...3..2.")
    assert status == 0
    assert "1 puzzle, finished by logic alone: 1 (100.0%)" in out


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
