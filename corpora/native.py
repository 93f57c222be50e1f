"""Files of puzzles with constraints: the native JSON form and f-puzzles, read and written.

A *structured* puzzle file is JSON or an f-puzzles link:

- the native form (`solvers.variants.canonical`): one puzzle object, or a
  list of them, each ``{"size", "givens", "constraints", "title"?, "solution"?}``;
- an f-puzzles JSON object (it has a ``grid``), or a list of them;
- an f-puzzles link or its compressed string, one per line.

The corpus readers (`corpora.corpus.read_puzzles`) send such files here, so
``sudoku-bench solve``, ``run`` and the rest take them as they take puzzle
text files.  Puzzles get the ids ``file:K``, K counting from 1.  A puzzle that
cannot be read raises `PuzzleFormatError` naming the file, the puzzle and the
constraint.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corpora import fpuzzles
from corpora.formats import open_text
from solvers.grid import Grid, PuzzleFormatError
from solvers.variants import ConstraintError
from solvers.variants.canonical import PuzzleDataError, puzzle_data, puzzle_from_data

JSON_SUFFIXES = (".json", ".json.gz")
_JSON_START = re.compile(r'\{\s*"|\[\s*[{\]]')  # an object, or a list of objects (not "[Puzzle]")


def is_structured(path: Path) -> bool:
    """Whether a file holds JSON puzzles or f-puzzles links rather than grid text."""
    if path.name.lower().endswith(JSON_SUFFIXES):
        return True
    try:
        with open_text(path) as stream:
            head = stream.read(4096).lstrip()
    except UnicodeDecodeError:
        return False  # not text: the grid readers say so
    lines = [ln for ln in head.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(_JSON_START.match(head)) or bool(lines and fpuzzles.looks_compressed(lines[0]))


def read_entries(path: Path) -> Iterator[tuple[int, Any]]:
    """(line, decoded JSON) for each puzzle of a structured file, lazily decoded."""
    source = str(path)
    with open_text(path) as stream:
        text = stream.read()
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise PuzzleFormatError(
                f"not JSON: {error.msg}", source=source, line=error.lineno, column=error.colno
            ) from None
        items = data if isinstance(data, list) else [data]
        for item in items:
            yield 0, item
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line.strip()


def puzzle_of(entry: Any) -> tuple[Grid, dict[str, Any]]:
    """The puzzle of one entry (native JSON, f-puzzles JSON or link) and its extra fields."""
    if isinstance(entry, str):
        return fpuzzles.from_fpuzzles(fpuzzles.decode(entry)), {}
    if fpuzzles.is_fpuzzles(entry):
        extra = {"title": entry["title"]} if entry.get("title") else {}
        return fpuzzles.from_fpuzzles(entry), extra
    return puzzle_from_data(entry)


def read(path: Path) -> Iterator[tuple[int, int, Grid, dict[str, Any]]]:
    """(index from 1, line or 0, puzzle, extra fields) for each puzzle of a structured file.

    Raises `PuzzleFormatError` naming the file, the puzzle's place and what is wrong.
    """
    source = str(path)
    for index, (line, entry) in enumerate(read_entries(path), 1):
        try:
            grid, extra = puzzle_of(entry)
        except (ConstraintError, PuzzleDataError, fpuzzles.FPuzzlesError) as error:
            where = f"puzzle {index}" if not line else None
            message = f"{where}: {error}" if where else str(error)
            raise PuzzleFormatError(message, source=source, line=line or None) from None
        yield index, line, grid, extra


def write(puzzles: list[tuple[Grid, dict[str, Any]]], path: str | os.PathLike[str]) -> None:
    """Write puzzles (with ``title`` or ``solution`` extras) as a native JSON list, one
    puzzle per line."""
    lines = [json.dumps(puzzle_data(grid, **extra)) for grid, extra in puzzles]
    Path(path).write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
