"""`sudoku-bench explain` in words: the header, a comment line, the techniques' usual names."""

from __future__ import annotations

import pytest

from harness.cli import main
from solvers.grid import shape
from solvers.human.step import Step
from solvers.human.table import TECHNIQUES
from solvers.human.trace import english, technique_title

# corpora/data/gen9-minimal.txt line 60: one X-Wing, the hardest step.
EXPERT = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
NINE = shape(3, 3)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("line", ["#comment", "# hardest puzzles database", "  #x"])
def test_a_comment_line_is_named_as_such(capsys, line):
    status, out, err = run(capsys, "explain", line)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "is a comment line" in err
    assert "holds no puzzle" in err
    assert "text is empty" not in err


def test_the_header_names_the_puzzle_in_words(capsys):
    status, out, _ = run(capsys, "explain", EXPERT)
    assert status == 0
    first = out.splitlines()[0]
    assert first == "== The puzzle: 24 givens; techniques: all"
    assert "argument" not in out


def test_a_puzzle_of_a_file_keeps_its_id(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# one puzzle\n" + EXPERT + "\n")
    status, out, _ = run(capsys, "explain", str(path))
    assert status == 0
    assert out.splitlines()[0].startswith("== Puzzle p.txt:")


def test_the_title_comes_from_the_table():
    assert technique_title("uvwxyz_wing") == "UVWXYZ-Wing"
    assert technique_title("nested_forcing_chain") == "Nested forcing chain"
    assert technique_title("no_such_thing") == "no_such_thing"


def test_an_als_wing_reads_as_a_sentence():
    # cells r1c1, r1c2, r1c3 (the set) and r5c3 (the bivalue cell); removes 9 from r3c3
    step = Step("uvwxyz_wing", (), ((20, 9),), (0, 1, 2, 38), (), (4, 9), 6.6, NINE)
    text = english(step)
    assert text.startswith("UVWXYZ-Wing: the cells r1c1, r1c2, r1c3 are almost locked")
    assert "bivalue cell r5c3 holds 4/9" in text
    assert text.endswith(": removes 9 from r3c3")
    assert "uvwxyz_wing" not in text


def _minimal_step(name: str) -> Step:
    return Step(name, (), ((0, 1),), (0, 1), (), (1, 2), 5.0, NINE)


@pytest.mark.parametrize(
    "name",
    [t.name for t in TECHNIQUES if t.family in ("uniqueness", "chains") and "grouped" in t.name]
    + ["unique_rectangle_2", "unique_rectangle_3", "unique_rectangle_4", "unique_loop"],
)
def test_the_fallback_text_names_the_technique(name):
    text = english(_minimal_step(name))
    assert text.startswith(technique_title(name))
    assert name not in text


def test_an_invalid_puzzle_is_named_in_words(capsys):
    status, out, _ = run(capsys, "explain", "11.." + "." * 12)
    assert status == 0
    assert out.startswith("== The puzzle: invalid puzzle: ")


def test_a_forcing_x_chain_reads_in_eureka_notation():
    # corpora/data/gen9-extreme.txt: r1c9=2 -> r1c1<>2 -> r9c1=2 -> r8c3<>2 -> r8c9=2 -> r1c9<>2
    chain = ((8, 2), (0, -2), (72, 2), (65, -2), (71, 2), (8, -2))
    step = Step("forcing_x_chain", (), ((8, 2),), (), (), (2,), 6.9, NINE, chain=chain)
    text = english(step)
    assert text.startswith("Forcing X-chain on 2: (2)r1c9-(2)r1c1=(2)r9c1-(2)r8c3=(2)r8c9-(2)r1c9;")
    assert "->" not in text
    assert "<>" not in text.split(";")[0]
    assert text.endswith(": removes 2 from r1c9")


def test_a_placing_forcing_x_chain_starts_with_a_strong_link():
    # assuming r1c1 is not 5 forces it to be 5: the chain starts off, so '=' comes first
    chain = ((0, -5), (4, 5), (22, -5), (20, 5), (2, -5), (0, 5))
    step = Step("forcing_x_chain", ((0, 5),), (), (), (), (5,), 6.9, NINE, chain=chain)
    text = english(step)
    assert "(5)r1c1=(5)r1c5-(5)r3c5=(5)r3c3-(5)r1c3=(5)r1c1" in text
    assert "assuming r1c1<>5 forces its opposite" in text
