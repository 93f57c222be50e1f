"""The shipped corpora: index and files agree, the truth is true, and a sample
of every corpus regenerates byte for byte from its recipe."""

from __future__ import annotations

import itertools

import pytest

import solvers
from corpora import builtin
from corpora.corpus import BUILTIN_DIR, builtin_index, builtin_names, open_corpus
from harness.cli import main
from solvers import oracle
from solvers.grid import Grid
from solvers.verify import check, conflicts

INDEX = builtin_index()
NAMES = list(INDEX)
CLASSIC = [
    r.name for r in builtin.CLASSIC
]  # the variant corpora: tests/corpora/test_corpus_variants.py


def test_every_recipe_has_its_file_and_index_entry():
    assert [r.name for r in builtin.RECIPES] == NAMES
    assert builtin_names() == NAMES
    for r in builtin.RECIPES:
        assert (BUILTIN_DIR / r.file).is_file()
        assert INDEX[r.name]["made"] == [part.command() for part in r.parts]
        assert INDEX[r.name]["count"] == sum(part.count for part in r.parts)


@pytest.mark.parametrize("name", NAMES)
def test_index_agrees_with_the_file(name):
    entry = INDEX[name]
    corpus = open_corpus(name)
    puzzles = list(corpus.puzzles())
    truth = corpus.truth()
    assert len(puzzles) == entry["count"]
    assert [p.id for p in puzzles] == list(truth)
    assert sorted({p.grid.size for p in puzzles}) == entry["sizes"]
    givens = [p.grid.givens for p in puzzles]
    assert (min(givens), max(givens)) == (entry["clues"]["min"], entry["clues"]["max"])
    for puzzle, known in zip(puzzles, truth.values(), strict=True):
        if known.status == "SOLVED":
            solution = Grid.parse(known.solution, box=(puzzle.grid.box_rows, puzzle.grid.box_cols))
            assert not check(puzzle.grid, solution), puzzle.id
        else:
            assert known.solution is None
        assert bool(conflicts(puzzle.grid)) == (known.status == "INVALID"), puzzle.id


@pytest.mark.parametrize("name", [n for n in CLASSIC if max(INDEX[n]["sizes"]) <= 12])
def test_truth_is_what_a_complete_solver_finds(name):
    """Every puzzle up to 12x12: the solution count the index claims."""
    corpus = open_corpus(name)
    puzzles = list(corpus.puzzles())
    results = oracle.solve_many([p.grid for p in puzzles], limit=2)
    for puzzle, known, result in zip(puzzles, corpus.truth().values(), results, strict=True):
        assert result.status.value == known.status, puzzle.id
        assert len(result.solutions) == known.solutions, puzzle.id
        if known.status == "SOLVED":
            assert result.exhausted
            assert result.solution.format() == known.solution


def test_large_grids_truth_on_a_sample():
    dlx = solvers.get("dlx")
    for name in ("gen16", "edge-multiple", "edge-unsolvable"):
        corpus = open_corpus(name)
        for puzzle, known in itertools.islice(
            zip(corpus.puzzles(), corpus.truth().values(), strict=True), 0, None, 7
        ):
            if puzzle.grid.size == 16:
                result = dlx.solve(puzzle.grid, limit=2)
                assert result.status.value == known.status, puzzle.id


@pytest.mark.parametrize("name", [n for n in NAMES if "level" in str(INDEX[n]["made"])])
def test_difficulty_corpora_hold_their_level(name):
    entry = INDEX[name]
    (level,) = entry["levels"]
    assert entry["levels"][level] == entry["count"]
    assert entry["rated_by"]
    assert name == f"gen9-{level.lower()}"


def _sample(r: builtin.Recipe):
    """(line offset in the file, part, how many) for the first puzzles of each part."""
    offset = len(builtin.header(r))
    for part in r.parts:
        yield offset, part, min(part.count, 1 if part.size >= 25 else 2)
        offset += part.count


# Corpora whose recipe no longer reproduces them (a declared gap, a strict xfail, with the
# reason), until the next `corpora build`: e.g. after a change of the engine's levels.
STALE: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=STALE[n], strict=True)) if n in STALE else n
        for n in CLASSIC
    ],
)
def test_a_sample_regenerates_byte_for_byte(name):
    r = builtin.recipe(name)
    lines = (BUILTIN_DIR / r.file).read_text(encoding="utf-8").splitlines()
    assert lines[: len(builtin.header(r))] == builtin.header(r)
    for offset, part, k in _sample(r):
        made = builtin.make_part(part, count=k)
        assert [builtin.puzzle_line(m) for m in made] == lines[offset : offset + k]


def test_the_documented_command_makes_the_same_puzzles(capsys):
    r = builtin.recipe("gen6")
    (part,) = r.parts
    argv = part.command().split()[1:]
    argv[argv.index("--count") + 1] = "3"
    assert main(argv) == 0
    out = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]
    lines = (BUILTIN_DIR / r.file).read_text(encoding="utf-8").splitlines()
    start = len(builtin.header(r))
    assert out == lines[start : start + 3]


def test_index_text_is_valid_json_in_recipe_order(tmp_path):
    import json

    text = (BUILTIN_DIR / "index.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == builtin.INDEX_FORMAT
    assert builtin.index_text(data["corpora"]) == text


def test_corpora_command_lists_names_and_spreads(capsys):
    assert main(["corpora"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        assert name in out
    assert "Unfair" in out
    assert "top1465" in out


def test_inspect_command_reports_bad_lines(tmp_path, capsys):
    path = tmp_path / "mixed.txt"
    good = open_corpus("gen9-easy").path.read_text().splitlines()[-1]
    path.write_text(f"{good}\n{good[:80]}\n{good}\n")
    assert main(["corpora", "inspect", str(path)]) == 0
    captured = capsys.readouterr()
    assert "2 puzzles (lines layout)" in captured.out
    assert "bad records skipped: 1" in captured.err
    assert "mixed.txt:2" in captured.err
    assert main(["corpora", "inspect", str(path), "--strict"]) == 2
    assert "mixed.txt:2" in capsys.readouterr().err


def test_open_corpus_by_name_path_or_neither(tmp_path):
    corpus = open_corpus("gen4")
    assert corpus.builtin
    assert next(corpus.puzzles()).id.startswith("gen4:")
    path = tmp_path / "mine.txt"
    path.write_text("1...3..2...3..2.\n")
    mine = open_corpus(str(path))
    assert (mine.name, mine.builtin, mine.truth()) == ("mine", False, {})
    with pytest.raises(ValueError, match="not a built-in name"):
        open_corpus("no-such-corpus")
