"""The shipped variant corpora: index and files agree, the truth holds on a sample, the
first puzzle of each recipe regenerates byte for byte, and `corpora inspect` shows the kinds."""

from __future__ import annotations

import itertools
import json
import shlex

import pytest

import solvers
from corpora import builtin, variant_builtin
from corpora.corpus import BUILTIN_DIR, builtin_index, open_corpus
from harness.cli import main
from solvers.grid import Grid
from solvers.variants import kinds
from solvers.variants.canonical import puzzle_data
from solvers.verify import check

pytest.importorskip("ortools")

INDEX = builtin_index()
NAMES = [r.name for r in variant_builtin.RECIPES]
CPSAT = solvers.get("cpsat")


def test_every_variant_recipe_is_built_in_with_its_json_file():
    for r in variant_builtin.RECIPES:
        assert builtin.recipe(r.name) is r
        assert (BUILTIN_DIR / r.file).is_file()
        assert INDEX[r.name]["file"] == f"{r.name}.json"
        assert INDEX[r.name]["made"] == [part.command() for part in r.parts]
        assert INDEX[r.name]["count"] == sum(part.count for part in r.parts)


@pytest.mark.parametrize("name", NAMES)
def test_index_kinds_and_truth_agree_with_the_file(name):
    entry = INDEX[name]
    corpus = open_corpus(name)
    puzzles = list(corpus.puzzles())
    truth = corpus.truth()
    assert (
        [p.id for p in puzzles]
        == list(truth)
        == [f"{name}:{k}" for k in range(1, 1 + len(puzzles))]
    )
    counted: dict[str, int] = {}
    for puzzle in puzzles:
        for kind in kinds(puzzle.grid):
            counted[kind] = counted.get(kind, 0) + 1
    assert counted == entry["kinds"]
    for puzzle, known in zip(puzzles, truth.values(), strict=True):
        assert (known.status, known.solutions) == ("SOLVED", 1)
        solution = Grid.parse(known.solution, box=(puzzle.grid.box_rows, puzzle.grid.box_cols))
        assert check(puzzle.grid, solution) == [], puzzle.id


@pytest.mark.parametrize("name", NAMES)
def test_cpsat_finds_the_unique_solution_the_index_claims_on_a_sample(name):
    corpus = open_corpus(name)
    step = 17
    sample = itertools.islice(
        zip(corpus.puzzles(), corpus.truth().values(), strict=True), 0, None, step
    )
    for puzzle, known in sample:
        result = CPSAT.solve(puzzle.grid, limit=2)
        assert result.unique, puzzle.id
        assert result.solution.format("line") == known.solution, puzzle.id


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n.endswith("16") else n for n in NAMES],
)
def test_the_first_puzzle_regenerates_byte_for_byte(name):
    r = builtin.recipe(name)
    lines = (BUILTIN_DIR / r.file).read_text(encoding="utf-8").splitlines()
    (made,) = r.parts[0].make(1)
    assert json.dumps(puzzle_data(made.puzzle)) + "," == lines[1]


def test_the_16x16_corpus_loads_and_cpsat_proves_every_puzzle_unique():
    corpus = open_corpus("jigsaw16")
    pairs = list(zip(corpus.puzzles(), corpus.truth().values(), strict=True))
    assert len(pairs) == INDEX["jigsaw16"]["count"] == 10
    for puzzle, known in pairs:
        assert puzzle.grid.size == 16
        assert kinds(puzzle.grid) == {"jigsaw"}
        result = CPSAT.solve(puzzle.grid, limit=2)
        assert result.unique, puzzle.id
        assert result.solution.format("line") == known.solution, puzzle.id
        assert check(puzzle.grid, result.solution) == []


def test_the_documented_command_makes_the_same_puzzles(capsys):
    part = builtin.recipe("variants6").parts[-1]
    argv = shlex.split(part.command())[1:]
    argv[argv.index("--count") + 1] = "2"
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = (BUILTIN_DIR / "variants6.json").read_text(encoding="utf-8").splitlines()
    at = 1 + sum(p.count for p in builtin.recipe("variants6").parts[:-1])
    assert [json.loads(line.rstrip(",")) for line in out.splitlines()[1:3]] == [
        json.loads(line.rstrip(",")) for line in lines[at : at + 2]
    ]


def test_inspect_shows_the_kinds_and_the_puzzles_carrying_each(capsys):
    assert main(["corpora", "inspect", "mixed9"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("constraint kinds"))
    entry = INDEX["mixed9"]
    assert line.endswith(", ".join(f"{k} {v}" for k, v in entry["kinds"].items()))
    assert "killer 6" in line  # 3 alone, 3 with diagonals


def test_inspect_of_classic_puzzles_shows_no_kinds(capsys):
    assert main(["corpora", "inspect", "gen4"]) == 0
    assert "constraint kinds" not in capsys.readouterr().out


def test_the_list_shows_a_variant_corpus_with_its_kinds(capsys):
    assert main(["corpora"]) == 0
    row = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("killer9 "))
    assert "killer 50" in row


def test_a_part_names_an_unusual_box_and_its_kinds_in_order():
    part = variant_builtin.VariantPart(2, "s", ("xv", "anti-knight"), (3, 2))
    assert part.command() == (
        "sudoku-bench generate --variant anti-knight --variant xv --box 3x2 --count 2 --seed s"
    )
