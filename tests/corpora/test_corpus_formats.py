"""Reading puzzle files: every layout, gzip, ids, fields, solutions, bad records."""

from __future__ import annotations

import gzip
import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpora.corpus import ReadReport, puzzle_key, puzzles_from_argument, read_puzzles
from corpora.fill import random_solution
from corpora.formats import sniff
from corpora.writers import FORMATS, Row, write_rows
from solvers.grid import Grid, PuzzleFormatError

# corpora/data/gen9-easy.txt line 25, blanks written as 0; solution from corpora/data/index.json.
EASY = "053004019010080600000007005006300000700000030000061000300005000108039500090700000"
EASY_SOLUTION = "853624719917583642624197385246378951781952436539461278362845197178239564495716823"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def grids(path, **kw):
    return [p.grid for p in read_puzzles(path, **kw)]


def test_lines_with_every_blank_comments_fields_and_ids(tmp_path):
    text = "\n".join(
        [
            "# a comment",
            EASY,
            EASY.replace("0", "."),
            "",
            EASY.replace("0", "-") + "  ER=1.2  easy",
            EASY.replace("0", "*"),
            EASY.replace("0", "_"),
        ]
    )
    path = write(tmp_path, "easy.txt", text)
    puzzles = list(read_puzzles(path))
    assert [p.id for p in puzzles] == [f"easy.txt:{n}" for n in (2, 3, 5, 6, 7)]
    assert len({p.grid for p in puzzles}) == 1
    assert puzzles[2].fields == ("ER=1.2", "easy")
    assert puzzles[0].key == puzzles[4].key == puzzle_key(Grid.parse(EASY))


def test_crlf_line_ends_and_a_byte_order_mark(tmp_path):
    path = tmp_path / "windows.txt"
    path.write_bytes(b"\xef\xbb\xbf# exported\r\n" + EASY.encode() + b"\r\n" + EASY.encode())
    puzzles = list(read_puzzles(path))
    assert [p.id for p in puzzles] == ["windows.txt:2", "windows.txt:3"]
    assert puzzles[1].grid == Grid.parse(EASY)
    csv_path = tmp_path / "bom.csv"
    csv_path.write_bytes(b"\xef\xbb\xbfquizzes,solutions\r\n" + f"{EASY},{EASY_SOLUTION}".encode())
    assert grids(csv_path) == [Grid.parse(EASY)]


def test_trailing_solution_is_recognised_and_checked(tmp_path):
    wrong = EASY_SOLUTION[:2] + "9" + EASY_SOLUTION[3:]  # r1c3 is a given 3
    path = write(tmp_path, "s.txt", f"{EASY} {EASY_SOLUTION}\n{EASY} {wrong}\n")
    first, second = read_puzzles(path)
    assert first.solution == Grid.parse(EASY_SOLUTION)
    assert second.solution is None  # disagrees with a given: just a field
    assert second.fields == (wrong,)


def test_comma_separated_puzzle_and_solution_without_header(tmp_path):
    path = write(tmp_path, "pairs.txt", f"{EASY},{EASY_SOLUTION}\n")
    (puzzle,) = read_puzzles(path)
    assert puzzle.grid == Grid.parse(EASY)
    assert puzzle.solution == Grid.parse(EASY_SOLUTION)


def test_a_line_of_numbers_is_one_puzzle_of_any_size(tmp_path):
    nine = " ".join(EASY)
    commas = ",".join(EASY)
    path = write(tmp_path, "numbers.txt", f"{nine}\n{commas}\n")
    assert grids(path) == [Grid.parse(EASY)] * 2
    sixteen = Grid.empty(4).replace([(i % 16) + 1 if i % 5 == 0 else 0 for i in range(256)])
    assert sixteen.format("numbers").count("\n") == 15
    path = write(tmp_path, "n16.txt", " ".join(map(str, sixteen.cells)) + "\n")
    assert grids(path) == [sixteen]


def test_pictures_separated_by_blank_lines_rules_and_titles(tmp_path):
    picture = Grid.parse(EASY).format("pretty")
    euler = "\n".join(EASY[r * 9 : r * 9 + 9] for r in range(9))
    text = f"{picture}\n\n{picture}\nGrid 02\n{euler}\nGrid 03\n{euler}\n"
    path = write(tmp_path, "pictures.txt", text)
    puzzles = list(read_puzzles(path))
    assert [p.grid for p in puzzles] == [Grid.parse(EASY)] * 4
    assert [p.id for p in puzzles] == [
        "pictures.txt:1",
        "pictures.txt:13",
        "pictures.txt:25",
        "pictures.txt:35",
    ]
    assert puzzles[2].fields == ("Grid 02",)


def test_pictures_without_separators_split_by_row_count(tmp_path):
    rows = "\n".join(EASY[r * 9 : r * 9 + 9] for r in range(9))
    path = write(tmp_path, "packed.txt", f"{rows}\n{rows}\n")
    assert grids(path, layout="pictures") == [Grid.parse(EASY)] * 2


def test_sdk_with_metadata_and_sections(tmp_path):
    rows = "\n".join(EASY[r * 9 : r * 9 + 9].replace("0", ".") for r in range(9))
    text = f"#AAuthor\n#DA description\n[Puzzle]\n{rows}\n[State]\n{rows.replace('.', '1')}\n"
    path = write(tmp_path, "one.sdk", text)
    assert grids(path) == [Grid.parse(EASY)]


def test_sdm_is_one_puzzle_per_line(tmp_path):
    path = write(tmp_path, "many.sdm", EASY + "\n" + EASY + "\n")
    assert grids(path) == [Grid.parse(EASY)] * 2


@pytest.mark.parametrize(
    ("header", "puzzle_col"),
    [("quizzes,solutions", 0), ("puzzle,solution", 0), ("id,puzzle,solution,clues,difficulty", 1)],
)
def test_csv_columns_as_public_data_sets_use(tmp_path, header, puzzle_col):
    names = header.split(",")
    values = {"id": "7", "puzzle": EASY, "quizzes": EASY, "solution": EASY_SOLUTION}
    values |= {"solutions": EASY_SOLUTION, "clues": "25", "difficulty": "0.0"}
    row = ",".join(values[n] for n in names)
    path = write(tmp_path, "data.csv", f"{header}\n{row}\n{row}\n")
    puzzles = list(read_puzzles(path))
    assert [p.id for p in puzzles] == ["data.csv:2", "data.csv:3"]
    assert puzzles[0].grid == Grid.parse(EASY)
    assert puzzles[0].solution == Grid.parse(EASY_SOLUTION)
    if puzzle_col:
        assert puzzles[0].fields == ("id=7", "clues=25", "difficulty=0.0")


def test_csv_without_a_puzzle_column_is_an_error(tmp_path):
    path = write(tmp_path, "bad.csv", "a,b\n1,2\n")
    with pytest.raises(PuzzleFormatError, match="bad.csv"):
        list(read_puzzles(path, layout="csv"))


def test_gzip_is_read_transparently(tmp_path):
    path = tmp_path / "easy.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(f"# compressed\n{EASY}\n")
    (puzzle,) = read_puzzles(path)
    assert puzzle.id == "easy.txt:2"
    assert puzzle.grid == Grid.parse(EASY)
    csv_path = tmp_path / "data.csv.gz"
    with gzip.open(csv_path, "wt", encoding="utf-8") as f:
        f.write(f"quizzes,solutions\n{EASY},{EASY_SOLUTION}\n")
    assert grids(csv_path) == [Grid.parse(EASY)]


def test_letters_for_16x16_and_25x25(tmp_path):
    rng = random.Random(3)
    lines = []
    expected = []
    for box in (4, 5):
        solution = random_solution(box, box, rng)
        cells = [v if rng.random() < 0.5 else 0 for v in solution.cells]
        puzzle = solution.replace(cells)
        expected.append(puzzle)
        lines.append(puzzle.format("line"))
    path = write(tmp_path, "big.txt", "\n".join(lines) + "\n")
    assert grids(path) == expected


def test_bad_lines_strict_names_file_line_and_column(tmp_path):
    path = write(tmp_path, "mixed.txt", f"{EASY}\n{EASY[:40]}x{EASY[41:]}\n{EASY[:80]}\n{EASY}\n")
    with pytest.raises(PuzzleFormatError) as caught:
        list(read_puzzles(path))
    error = caught.value
    assert (error.source, error.line, error.column) == (str(path), 2, 41)
    assert "'x'" in str(error)


def test_bad_lines_lenient_are_counted_reported_and_skipped(tmp_path):
    bad = f"{EASY[:40]}x{EASY[41:]}"
    path = write(tmp_path, "mixed.txt", f"{EASY}\n{bad}\n{EASY[:80]}\n{EASY}\n")
    report = ReadReport(str(path))
    puzzles = list(read_puzzles(path, strict=False, report=report))
    assert [p.id for p in puzzles] == ["mixed.txt:1", "mixed.txt:4"]
    assert report.bad == 2
    assert [e.line for e in report.errors] == [2, 3]
    assert "skipped 2 bad record(s) of 4" in report.summary()
    assert "mixed.txt:2:41" in report.summary()


def test_only_bad_records_is_an_error_even_when_lenient(tmp_path):
    path = write(tmp_path, "junk.txt", "1234567890123456789\n")
    with pytest.raises(PuzzleFormatError, match="no puzzle could be read"):
        list(read_puzzles(path, strict=False))


@pytest.mark.parametrize(
    ("content", "why"),
    [("", "the file is empty"), ("# only a comment\n\n", "only comments and blank lines")],
)
def test_files_without_puzzles_say_why(tmp_path, content, why):
    path = write(tmp_path, "empty.txt", content)
    with pytest.raises(PuzzleFormatError, match=why):
        list(read_puzzles(path))


def test_binary_file_is_a_format_error(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(128, 256)) * 4)
    with pytest.raises(PuzzleFormatError, match="not a text file"):
        list(read_puzzles(path))


def test_reading_streams_lazily(tmp_path):
    """The first puzzle arrives before a later bad line is even read."""
    path = write(tmp_path, "lazy.txt", EASY + "\n" + "bad line\n" * 10 + EASY[:3] + "\n")
    puzzles = read_puzzles(path)
    assert next(puzzles).grid == Grid.parse(EASY)
    with pytest.raises(PuzzleFormatError, match="lazy.txt:2"):
        next(puzzles)


def test_sniff_prefers_lines_for_one_line_puzzles_and_pictures_otherwise():
    assert sniff("x.txt", [EASY + "\n"]) == "lines"
    assert sniff("x.txt", ["1 0 0 0\n", "0 0 0 3\n", "0 3 0 0\n", "0 0 0 1\n"]) == "pictures"
    assert sniff("x.txt", ["quizzes,solutions\n"]) == "csv"
    assert sniff("x.csv", ["anything\n"]) == "csv"
    assert sniff("x.sdk", [EASY + "\n"]) == "pictures"


def test_puzzles_from_argument(tmp_path):
    assert puzzles_from_argument(EASY)[0].grid == Grid.parse(EASY)
    path = write(tmp_path, "p.txt", EASY + "\n")
    assert puzzles_from_argument(str(path))[0].id == "p.txt:1"
    with pytest.raises(PuzzleFormatError, match="no such file"):
        puzzles_from_argument(str(tmp_path / "missing" / "x.txt"))


@st.composite
def puzzles(draw):
    box = draw(st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    solution = random_solution(*box, rng)
    share = draw(st.floats(0.0, 1.0))
    cells = [v if rng.random() < share else 0 for v in solution.cells]
    return solution.replace(cells), solution


@settings(max_examples=40, deadline=None)
@given(
    items=st.lists(puzzles(), min_size=1, max_size=4),
    fmt=st.sampled_from([f for f in FORMATS if f != "json"]),
)
def test_written_files_read_back(tmp_path_factory, items, fmt):
    with_solution = fmt in ("line", "csv")
    rows = [Row(p, s if with_solution else None, {"n": i}) for i, (p, s) in enumerate(items)]
    out = io.StringIO()
    write_rows(rows, out, fmt, header=["written by a test"])
    path = tmp_path_factory.mktemp("w") / ("out.csv" if fmt == "csv" else "out.txt")
    path.write_text(out.getvalue(), encoding="utf-8")
    layout = "pictures" if fmt in ("pretty", "numbers") else "auto"
    read = list(read_puzzles(path, layout=layout))
    assert [p.grid for p in read] == [p for p, _ in items]
    if with_solution:
        assert [p.solution for p in read] == [s for _, s in items]


def test_json_lines_carry_puzzle_solution_and_fields():
    import json

    puzzle, solution = Grid.parse(EASY), Grid.parse(EASY_SOLUTION)
    out = io.StringIO()
    write_rows([Row(puzzle, solution, {"level": "Easy"})], out, "json")
    assert json.loads(out.getvalue()) == {
        "puzzle": EASY.replace("0", "."),
        "size": 9,
        "solution": EASY_SOLUTION,
        "level": "Easy",
    }


@pytest.mark.parametrize("fmt", ["line", "pretty"])
def test_a_written_16x16_puzzle_that_two_alphabets_could_spell_reads_back(tmp_path, fmt):
    # only 1-9 and A-F: it reads as 1-9A-G or, shifted, as 0-9A-F; the writer says which
    cells = [0] * 256
    for i, digit in enumerate([1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15]):
        cells[i * 17 % 256] = digit
    puzzle = Grid(4, 4, tuple(cells))
    out = io.StringIO()
    write_rows([Row(puzzle)], out, fmt)
    assert "# symbols: 123456789ABCDEFG" in out.getvalue()
    path = tmp_path / "one.txt"
    path.write_text(out.getvalue(), encoding="utf-8")
    layout = "pictures" if fmt == "pretty" else "auto"
    assert [p.grid for p in read_puzzles(path, layout=layout)] == [puzzle]


def test_json_file_without_puzzles_says_so(tmp_path):
    path = write(tmp_path, "none.json", "[]\n")
    with pytest.raises(PuzzleFormatError, match="the file lists none"):
        list(read_puzzles(path))
