"""`sudoku-bench explain --step N` and `--format html` (and the chain in JSON lines)."""

from __future__ import annotations

import json
import re

import pytest

from harness.cli import main

# corpora/data/gen9-minimal.txt line 60: one X-Wing, the hardest step.
EXPERT = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
# The enjoysudoku forum's hardest puzzles (2011-06-26), puzzle 20: step 5 is a nested
# forcing chain.
FORUM = "........6..2....4..1...798....79.....8..5......3..8.1...6....2..9...51..4.......8"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _step_count(capsys) -> int:
    _, out, _ = run(capsys, "explain", EXPERT)
    return len(re.findall(r"^ +\d+\. ", out, flags=re.MULTILINE))


def test_step_shows_one_step_with_the_grid_before_it(capsys):
    _, whole, _ = run(capsys, "explain", EXPERT)
    x_wing = next(line for line in whole.splitlines() if "X-Wing" in line)
    number = int(x_wing.split(".")[0])
    status, out, _ = run(capsys, "explain", EXPERT, "--step", str(number))
    assert status == 0
    numbered = re.findall(r"^ +\d+\. .*$", out, flags=re.MULTILINE)
    assert numbered == [x_wing]
    assert "-+-" in out  # the candidate grid before it
    assert "Solved by logic" not in out


@pytest.mark.parametrize("number", ["0", "999"])
def test_a_step_out_of_range_is_a_usage_error(capsys, number):
    status, out, err = run(capsys, "explain", EXPERT, "--step", number)
    assert status == 2
    assert f"--step {number}: the solving path has" in err
    assert err.count("\n") == 1


def test_the_text_lists_a_forcing_chain_under_its_step(capsys):
    status, out, _ = run(capsys, "explain", FORUM, "--step", "5")
    assert status == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("   5. Nested forcing chain"))
    assert lines[at + 1 : at + 4] == [
        "      If r5c4=4:",
        "        r5c4=4 -> r5c4<>1 -> r9c6<>1",
        "        r5c4=4 -> r5c4<>2",
    ]
    assert lines[-1] == "      so r5c4<>4"


def test_json_lines_carry_a_forcing_chain_s_links(capsys):
    status, out, _ = run(capsys, "explain", FORUM, "--step", "5", "--format", "json")
    assert status == 0
    (line,) = out.splitlines()
    record = json.loads(line)
    assert record["step"] == 5
    assert record["technique"] == "nested_forcing_chain"
    assert record["links"][0] == "If r5c4=4:"
    assert record["links"][-1] == "so r5c4<>4"


def test_html_is_one_self_contained_page(capsys):
    status, out, _ = run(capsys, "explain", EXPERT, "--format", "html")
    assert status == 0
    assert out.startswith("<!DOCTYPE html>")
    assert out.rstrip().endswith("</html>")
    assert out.count('<section id="step-') == _step_count(capsys)
    assert out.count("<svg") == out.count('<section id="step-')
    # no outside resources: no scripts, stylesheets, images or links to fetch
    assert not re.search(r"<script|<link|<img|<iframe|url\(|@import", out)
    assert re.findall(r"https?://[^\"]*", out) == ["http://www.w3.org/2000/svg"] * out.count("<svg")


def test_html_marks_a_step_s_eliminations_and_pattern(capsys):
    _, whole, _ = run(capsys, "explain", EXPERT)
    x_wing = next(line for line in whole.splitlines() if "X-Wing" in line)
    number = x_wing.split(".")[0].strip()
    status, out, _ = run(capsys, "explain", EXPERT, "--format", "html", "--step", number)
    assert status == 0
    assert out.count('<section id="step-') == 1
    assert "X-Wing on 9" in out
    assert out.count('class="cand elim"') == 7  # 9 leaves seven cells
    assert out.count('class="mark-elim"') == 7
    assert out.count('class="pattern"') == 4  # the fish's four corners


def test_html_draws_a_forcing_chain_s_links(capsys):
    status, out, _ = run(capsys, "explain", FORUM, "--format", "html", "--step", "5")
    assert status == 0
    assert 'class="link"' in out
    assert 'class="cand on"' in out
    assert 'class="cand off"' in out
    assert "<pre>If r5c4=4:" in out
    assert "r5c8=9 and r5c8&lt;&gt;9 cannot both hold" in out


def test_html_refuses_a_file_of_several_puzzles(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(EXPERT + "\n" + FORUM + "\n")
    status, out, err = run(capsys, "explain", str(path), "--format", "html")
    assert status == 2
    assert out == ""
    assert "--format html draws one puzzle on one page" in err
    assert "holds 2" in err
