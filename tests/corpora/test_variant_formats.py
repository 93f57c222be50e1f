"""Files of variant puzzles: the native JSON form and f-puzzles (plain, compressed, links)."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from corpora import fpuzzles, native
from corpora.corpus import open_corpus, puzzles_from_argument, read_puzzles
from harness.cli import main
from solvers.grid import Grid, PuzzleFormatError
from solvers.variants import (
    XV,
    Arrow,
    Diagonal,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)
from solvers.variants.canonical import puzzle_data
from tests.paths import DATA

DATA = DATA / "variants6.json"
PUZZLES = [p.grid for p in read_puzzles(DATA)]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- the native form -------------------------------------------------------------------
def test_a_native_file_reads_as_a_corpus_with_titles_and_solutions():
    puzzles = list(read_puzzles(DATA))
    assert [p.id for p in puzzles[:2]] == ["variants6.json:1", "variants6.json:2"]
    assert puzzles[0].fields[0].startswith("jigsaw:")
    assert puzzles[0].solution is not None
    assert puzzles[0].solution.is_complete


def test_native_files_round_trip_one_puzzle_or_a_list(tmp_path):
    listed = tmp_path / "many.json"
    native.write([(g, {"title": f"p{i}"}) for i, g in enumerate(PUZZLES)], listed)
    assert [p.grid for p in read_puzzles(listed)] == PUZZLES
    single = tmp_path / "one.txt"  # the content decides, not the name
    single.write_text(json.dumps({"size": 4, "givens": "1...", "constraints": []}))
    with pytest.raises(PuzzleFormatError, match="givens"):
        list(read_puzzles(single))
    single.write_text(json.dumps({"givens": "1" + "." * 15}))
    assert [p.grid.cells[0] for p in read_puzzles(single)] == [1]


def test_a_directory_is_a_corpus_of_its_files(tmp_path):
    native.write([(PUZZLES[0], {})], tmp_path / "a.json")
    (tmp_path / "b.txt").write_text("1...3..2...3..2.\n")
    (tmp_path / ".hidden").write_text("not a puzzle")
    corpus = open_corpus(str(tmp_path))
    ids = [p.id for p in corpus.puzzles()]
    assert ids == ["a.json:1", "b.txt:1"]
    assert [p.id for p in puzzles_from_argument(str(tmp_path))] == ids


def test_a_bad_constraint_in_a_native_file_names_the_file_and_the_constraint(tmp_path):
    data = json.loads(DATA.read_text())[:2]
    data[1]["constraints"][0]["cells"] = ["r1c1", "r9c9"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PuzzleFormatError) as caught:
        list(read_puzzles(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: puzzle 2: constraint 1 (extra-region): ")
    assert "outside the 6x6 grid" in message
    assert "\n" not in message


def test_broken_json_names_the_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('[\n {"size": 9,,}\n]')
    with pytest.raises(PuzzleFormatError, match=r"broken.json:2:\d+: not JSON"):
        list(read_puzzles(path))


def test_a_lenient_read_counts_a_bad_structured_file(tmp_path):
    from corpora.corpus import ReadReport

    good, bad = tmp_path / "a.json", tmp_path / "b.json"
    native.write([(PUZZLES[0], {})], good)
    bad.write_text('{"size": 9, "constraints": [{"kind": "magic"}]}')
    report = ReadReport(str(tmp_path))
    assert len(list(read_puzzles(tmp_path, strict=False, report=report))) == 1
    assert report.bad == 1
    assert "unknown constraint kind 'magic'" in str(report.errors[0])


# -- f-puzzles ---------------------------------------------------------------------------
WRITABLE = [p for p in PUZZLES if not any(c.kind == "greater-than" for c in p.constraints)]


@pytest.mark.parametrize("puzzle", WRITABLE, ids=[p.constraints[0].kind for p in WRITABLE])
def test_f_puzzles_json_and_its_compressed_form_round_trip(puzzle):
    data = fpuzzles.to_fpuzzles(puzzle)
    assert fpuzzles.from_fpuzzles(json.loads(json.dumps(data))) == puzzle
    packed = fpuzzles.encode(puzzle)
    assert fpuzzles.from_fpuzzles(fpuzzles.decode(packed)) == puzzle
    link = "https://example.org/?load=" + urllib.parse.quote(packed, safe="")
    assert fpuzzles.from_fpuzzles(fpuzzles.decode(link)) == puzzle


def test_a_greater_than_sign_has_no_f_puzzles_form():
    puzzle = next(p for p in PUZZLES if p.constraints[0].kind == "greater-than")
    with pytest.raises(fpuzzles.FPuzzlesError, match="f-puzzles has no greater-than sign"):
        fpuzzles.to_fpuzzles(puzzle)


# As f-puzzles writes a 4x4 puzzle: cell names R1C1, region numbers, clue cells outside
# the grid, arrow lines starting in the circle, blank clues, display-only keys.
HAND = {
    "size": 4,
    "title": "hand",
    "author": "me",
    "ruleset": "",
    "grid": [
        [{"value": 1, "given": True, "region": 0}, {"region": 0}, {"region": 1}, {"region": 1}],
        [{"region": 0}, {"region": 0}, {"region": 1}, {"region": 1, "c": "#FF0000"}],
        [{"region": 2}, {"region": 2}, {"region": 3, "value": 2}, {"region": 3}],
        [{"region": 2}, {"region": 3}, {"region": 2}, {"region": 3, "centerPencilMarks": [1]}],
    ],
    "diagonal-": True,
    "diagonal+": False,
    "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R4C4", "R3C4"]}],
    "littlekillersum": [
        {"cell": "R0C2", "cells": ["R1C3", "R2C4"], "direction": "DR", "value": "5"},
        {"cell": "R5C2", "cells": ["R4C1"], "direction": "UL", "value": ""},
    ],
    "sandwichsum": [{"cell": "R0C3", "value": "0"}, {"cell": "R2C0", "value": "5"}],
    "thermometer": [{"lines": [["R2C1", "R3C2"], ["R2C1", "R3C1", "R4C2"]]}],
    "arrow": [{"cells": ["R1C4"], "lines": [["R1C4", "R2C3"]]}],
    "difference": [{"cells": ["R1C2", "R1C3"]}, {"cells": ["R2C2", "R2C3"], "value": "2"}],
    "ratio": [{"cells": ["R3C3", "R4C3"]}],
    "xv": [{"cells": ["R2C1", "R2C2"], "value": "V"}],
    "odd": [{"cell": "R4C4"}],
    "even": [{"cell": "R3C1"}],
    "negative": ["ratio", "xv"],
    "truecandidatesoptions": ["colored"],
}


def test_an_f_puzzles_file_as_the_editor_writes_it():
    grid = fpuzzles.from_fpuzzles(HAND)
    assert grid.cells[0] == 1
    assert grid.cells[10] == 0  # a value without "given" is no given
    expected = {
        Jigsaw(((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 14), (10, 11, 13, 15))),
        Diagonal("main"),
        Killer((0, 1), 3),
        Killer((11, 15)),
        LittleKiller((2, 7), 5),
        Sandwich((2, 6, 10, 14), 0),
        Sandwich((4, 5, 6, 7), 5),
        Thermometer((4, 9)),
        Thermometer((4, 8, 13)),
        Arrow((3,), (6,)),
        Kropki((1, 2)),
        Kropki((5, 6), "white", 2),
        Kropki((10, 14), "black"),
        XV((4, 5), 5),
        Parity(15, "odd"),
        Parity(8, "even"),
        KropkiNegative("black"),
        XVNegative(),
    }
    assert set(grid.constraints) == expected
    assert fpuzzles.from_fpuzzles(fpuzzles.to_fpuzzles(grid)) == grid


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"renban": [{"lines": [["R1C1", "R1C2"]]}]}, "f-puzzles 'renban': not supported"),
        ({"text": [{"cells": ["R1C1"], "value": "hi"}]}, "f-puzzles 'text': not supported"),
        ({"killercage": [{"cells": "R1C1"}]}, "f-puzzles killercage 1: expected a list of cells"),
        ({"killercage": [{"cells": ["R1C1"], "value": "x"}]}, "killercage 1: value 'x' is not"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]}, "killercage 1: killer cage"),
        ({"killercage": [{"value": "3"}]}, "killercage 1: missing 'cells'"),
        ({"thermometer": [{"lines": [["R1C1", "R5C1"]]}]}, "cell R5C1 is outside the 4x4 grid"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "W"}]}, "xv 1: value 'W' is neither"),
        ({"negative": ["renban"]}, "'negative' \\['renban'\\]"),
        ({"sandwichsum": [{"cell": "R2C2", "value": "3"}]}, "is not outside a row or column"),
        ({"size": 40}, "size: expected a side"),
    ],
)
def test_f_puzzles_input_it_cannot_take_is_refused_by_name(change, message):
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **change}
    with pytest.raises(fpuzzles.FPuzzlesError, match=message):
        fpuzzles.from_fpuzzles(data)


def test_f_puzzles_regions_of_the_wrong_size_and_given_pencil_marks_are_refused():
    data = {
        "size": 4,
        "grid": [[{"region": 0 if r + c == 0 else 1} for c in range(4)] for r in range(4)],
    }
    with pytest.raises(fpuzzles.FPuzzlesError, match="grid regions: jigsaw"):
        fpuzzles.from_fpuzzles(data)
    data = {"size": 4, "grid": [[{"givenPencilMarks": [1, 2]}] * 4] * 4}
    with pytest.raises(fpuzzles.FPuzzlesError, match="'givenPencilMarks' not supported"):
        fpuzzles.from_fpuzzles(data)
    with pytest.raises(fpuzzles.FPuzzlesError, match="not an f-puzzles link"):
        fpuzzles.decode("N4IgnotReallyCompressed")


def test_f_puzzles_files_and_links_are_corpora(tmp_path):
    plain = tmp_path / "hand.json"
    plain.write_text(json.dumps(HAND))
    (read,) = read_puzzles(plain)
    assert read.id == "hand.json:1"
    assert read.fields == ("hand",)
    links = tmp_path / "links.txt"
    links.write_text("# two links\n" + "".join(f"{fpuzzles.encode(p)}\n" for p in WRITABLE[:2]))
    assert [p.grid for p in read_puzzles(links)] == WRITABLE[:2]
    assert [p.id for p in read_puzzles(links)] == ["links.txt:1", "links.txt:2"]
    (argument,) = puzzles_from_argument("https://example.org/?load=" + fpuzzles.encode(WRITABLE[0]))
    assert argument.grid == WRITABLE[0]


# -- the command line --------------------------------------------------------------------
def test_a_malformed_cage_is_one_line_naming_the_file_and_exit_2(tmp_path, capsys):
    data = dict(HAND, killercage=[{"cells": ["R1C1", "R1C2"], "value": "20"}])
    path = tmp_path / "cage.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "solve", str(path), "--solver", "cpsat")
    assert status == 2
    assert err.count("\n") == 1
    assert f"{path}" in err
    assert "killercage 1: killer cage r1c1 r1c2 (sum 20)" in err
    assert "Traceback" not in err


def test_solve_takes_a_variant_file_and_skips_solvers_that_do_not(capsys):
    status, out, _ = run(capsys, "solve", str(DATA), "--solver", "dlx")
    assert status == 0
    assert "skipped: dlx does not take thermometer constraints" in out
    pytest.importorskip("ortools")
    status, out, _ = run(capsys, "solve", str(DATA), "--solver", "cpsat", "--limit", "2")
    assert status == 0
    assert out.count("SOLVED (proved unique)") == len(PUZZLES)
    assert "WRONG" not in out


@pytest.mark.parametrize("command", ["rate", "explain", "export --format dzn"])
def test_classic_only_commands_refuse_variant_puzzles(capsys, command):
    status, _, err = run(capsys, *command.split()[:1], str(DATA), *command.split()[1:])
    assert status == 2
    assert f"sudoku-bench {command} takes classic Sudoku" in err
    assert "jigsaw constraints" in err


def test_run_finds_the_truth_of_variant_puzzles_and_skips_with_the_reason(tmp_path, capsys):
    pytest.importorskip("ortools")
    status, out, _ = run(
        capsys,
        "run",
        "--corpus",
        str(DATA),
        "--solver",
        "cpsat",
        "--solver",
        "dlx",
        "--executor",
        "serial",
        "--db",
        str(tmp_path / "v.sqlite"),
    )
    assert status == 0
    assert "note: dlx skipped 1 puzzle: dlx does not take thermometer constraints" in out
    from harness.store import Store

    with Store(tmp_path / "v.sqlite") as store:
        verdicts = {r.verdict for r in store.results([1])}
    assert verdicts == {"CORRECT"}


def test_greater_than_reads_from_the_native_form_only():
    grid = Grid.empty(2).with_constraints((GreaterThan((0, 1)),))
    assert native.puzzle_of(puzzle_data(grid))[0] == grid
