"""Puzzle file layouts, read as streams: one record at a time, never the whole file.

A *layout* says how puzzles sit in a file:

- ``lines``: one puzzle per line (``.sdm`` files too), optionally followed by
  fields such as a rating or the solution (whitespace- or comma-separated), or a
  whole line of whitespace- or comma-separated numbers for any size;
- ``pictures``: multi-line grids separated by blank lines or title lines such
  as ``Grid 01`` (``.sdk`` files too, with their ``#`` metadata and
  ``[Puzzle]`` sections);
- ``csv``: a header naming the puzzle column (``quizzes``, ``puzzle``, ...) and
  optionally a solution column (``solutions``, ``solution``, ...), as the large
  public data sets come.

`sniff` picks the layout from the file name and its first lines; every
reader yields `Record`s (the text of one puzzle, where it starts, its fields)
and leaves parsing the grid to the caller, so one bad record costs one error,
not the file.  Files compressed with gzip are read transparently.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import IO

LAYOUTS = ("auto", "lines", "pictures", "csv")

PUZZLE_LENGTHS = {16, 36, 64, 81, 100, 144, 256, 625}
"""Cells of the sides people publish (4, 6, 8, 9, 10, 12, 16, 25)."""

PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles", "question", "grid", "sudoku")
SOLUTION_COLUMNS = ("solutions", "solution", "answer", "answers")

_NUMBER = re.compile(r"-?\d{1,3}|[.\-_*]")
_SPLIT = re.compile(r"[\s,;]+")
_TITLE = re.compile(r"^[A-Za-z][A-Za-z ]*\s[\s#:-]*\d+\s*:?$")  # Grid 01, Puzzle #3
_RULE = re.compile(r"^[\s\-+=|:]*$")
_SNIFF_LINES = 40


@dataclass(frozen=True)
class Record:
    """The text of one puzzle and where it came from (1-based line)."""

    text: str
    line: int
    fields: tuple[str, ...] = ()
    solution: str | None = None
    title: str | None = None
    column: int = 1  # where the puzzle text starts on its line


def open_text(path: str | os.PathLike[str]) -> IO[str]:
    """Open a puzzle file for reading text, gunzipping it when it is compressed."""
    path = Path(path)
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline=None)
    return path.open(encoding="utf-8-sig", newline=None)  # -sig: drop a byte-order mark


def base_name(path: str | os.PathLike[str]) -> str:
    """The file name without a ``.gz`` suffix (``top95.txt.gz`` -> ``top95.txt``)."""
    name = Path(path).name
    return name[:-3] if name.endswith(".gz") else name


def sniff(name: str, head: list[str]) -> str:
    """The layout of a file from its name and first lines (comments included)."""
    suffix = Path(name).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix == ".sdm":
        return "lines"
    if suffix == ".sdk":
        return "pictures"
    content = [ln for ln in head if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        return "lines"
    if _is_csv_header(content[0]):
        return "csv"
    block = _first_block(head)
    first = block[0] if block else content[0]
    per_line = _line_puzzle_cells(first)
    if per_line and not _is_picture(block, per_line):
        return "lines"
    return "pictures"


def _first_block(head: list[str]) -> list[str]:
    block: list[str] = []
    for line in head:
        if not line.strip() or line.lstrip().startswith("#"):
            if block:
                break
            continue
        block.append(line)
    return block


def _is_picture(block: list[str], cells: int) -> bool:
    """A block of exactly `cells` rows of `cells` cells each reads as one grid
    (16, 25 and 36 cells are also one-line puzzles of sides 4, 5 and 6)."""
    rows = [ln for ln in block if not _RULE.match(ln)]
    return cells in (16, 25, 36) and len(rows) == cells


def _line_puzzle_cells(line: str) -> int:
    """How many cells the line holds if it is a one-line puzzle, else 0."""
    tokens = [t for t in _SPLIT.split(line.strip()) if t]
    if not tokens:
        return 0
    if len(tokens) >= 16 and all(_NUMBER.fullmatch(t) for t in tokens):
        return len(tokens) if len(tokens) in PUZZLE_LENGTHS else 0
    head = tokens[0]
    return len(head) if len(head) in PUZZLE_LENGTHS else 0


def _is_csv_header(line: str) -> bool:
    names = [c.strip().strip('"').lower() for c in line.split(",")]
    return len(names) >= 1 and any(n in PUZZLE_COLUMNS for n in names)


def records(stream: Iterable[str], layout: str) -> Iterator[Record]:
    """The puzzle records of a text stream in a given layout (not ``auto``)."""
    if layout == "lines":
        return _line_records(stream)
    if layout == "pictures":
        return _picture_records(stream)
    if layout == "csv":
        return _csv_records(stream)
    raise ValueError(f"unknown layout {layout!r}: expected one of {', '.join(LAYOUTS)}")


def read_records(
    path: str | os.PathLike[str], layout: str = "auto"
) -> tuple[str, Iterator[Record]]:
    """The layout used and the records of a file, streamed (the file closes at the end)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    stream = open_text(path)
    head: list[str] = []
    try:
        for line in stream:
            head.append(line)
            if len(head) >= _SNIFF_LINES:
                break
    except UnicodeDecodeError:
        stream.close()
        raise
    if layout == "auto":
        layout = sniff(base_name(path), head)
    return layout, _closing(stream, records(chain(head, stream), layout))


def _closing(stream: IO[str], items: Iterator[Record]) -> Iterator[Record]:
    with stream:
        yield from items


# -- lines ----------------------------------------------------------------
def _line_records(stream: Iterable[str]) -> Iterator[Record]:
    for number, raw in enumerate(stream, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        yield split_line(line, number, raw)


def split_line(line: str, number: int, raw: str | None = None) -> Record:
    """One line: a puzzle then its fields, or a line of numbers."""
    column = 1 + (len(raw) - len(raw.lstrip())) if raw is not None else 1
    tokens = line.split()
    if len(tokens) == 1 and "," in line:
        tokens = [t.strip() for t in line.split(",")]
    if len(tokens) >= 16 and all(_NUMBER.fullmatch(t) for t in _SPLIT.split(line) if t):
        return Record(line, number, column=column)
    puzzle, *fields = tokens
    solution = fields[0] if fields and len(fields[0]) == len(puzzle) else None
    return Record(puzzle, number, tuple(fields), solution, column=column)


# -- pictures ----------------------------------------------------------------
def _picture_records(stream: Iterable[str]) -> Iterator[Record]:
    """Grids of several lines, ended by a blank line, a title, or their last row."""
    rows: list[str] = []
    start = 0
    width = 0
    title: str | None = None
    skipping = False  # inside an .sdk section other than [Puzzle]
    for number, raw in enumerate(stream, 1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        is_title = _is_title(stripped)
        if not stripped or stripped.startswith("#") or is_title:
            if rows:
                yield Record("\n".join(rows), start, title=title)
                rows, title, width = [], None, 0
            if is_title:
                section = stripped.lower()
                skipping = section.startswith("[") and section != "[puzzle]"
                title = None if section.startswith("[") else stripped
            continue
        if skipping:
            continue
        if not rows:
            start = number
        if not width:
            width = _row_cells(stripped)
        rows.append(line)
        cells_rows = sum(1 for r in rows if not _RULE.match(r))
        if width >= 4 and cells_rows == width:
            yield Record("\n".join(rows), start, title=title)
            rows, title, width = [], None, 0
    if rows:
        yield Record("\n".join(rows), start, title=title)


def _row_cells(row: str) -> int:
    """Cells on one picture row: numbers when separated, else characters."""
    if _RULE.match(row):
        return 0
    tokens = [t for t in re.split(r"[\s,|]+", row) if t]
    if len(tokens) > 1 and any(len(t) > 1 for t in tokens) or "," in row:
        return len(tokens)
    return sum(1 for ch in row if not ch.isspace() and ch != "|")


def _is_title(text: str) -> bool:
    """A section marker such as ``[Puzzle]`` or a title such as ``Grid 01``."""
    return text.startswith("[") and text.endswith("]") or bool(_TITLE.match(text))


# -- csv ---------------------------------------------------------------------
def _csv_records(stream: Iterable[str]) -> Iterator[Record]:
    lines = (
        (number, line)
        for number, line in enumerate(stream, 1)
        if line.strip() and not line.lstrip().startswith("#")
    )
    numbered = _Numbered(lines)
    reader = csv.reader(numbered)
    header = next(reader, None)
    if header is None:
        return
    names = [h.strip().lower() for h in header]
    puzzle_at = _column(names, PUZZLE_COLUMNS)
    if puzzle_at is None:
        raise ValueError(
            f"line {numbered.number}: no puzzle column in the CSV header "
            f"(expected one of {', '.join(PUZZLE_COLUMNS)})"
        )
    solution_at = _column(names, SOLUTION_COLUMNS)
    others = [i for i in range(len(names)) if i not in (puzzle_at, solution_at)]
    for row in reader:
        number = numbered.number
        if puzzle_at >= len(row):
            yield Record("", number)
            continue
        solution = row[solution_at].strip() if solution_at is not None else None
        fields = tuple(f"{names[i]}={row[i].strip()}" for i in others if i < len(row))
        yield Record(row[puzzle_at].strip(), number, fields, solution or None)


def _column(names: list[str], wanted: tuple[str, ...]) -> int | None:
    for name in wanted:
        if name in names:
            return names.index(name)
    return None


class _Numbered:
    """Feeds csv.reader lines while remembering the file line of the last one."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self._lines = lines
        self.number = 0

    def __iter__(self) -> _Numbered:
        return self

    def __next__(self) -> str:
        self.number, line = next(self._lines)
        return line
