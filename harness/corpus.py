"""Reading puzzles from files and command-line arguments.

A file holds one puzzle per line (blanks ``. 0 - * _``; ``#`` comments;
anything after the first whitespace on a line is a trailing field, such as a
rating) or multi-line grid pictures separated by blank lines.  Every error
names the file, the line and, where it can, the column.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from solvers.grid import Grid, PuzzleFormatError


@dataclass(frozen=True)
class Puzzle:
    """A puzzle with a stable id (``file:line``) and its trailing fields."""

    id: str
    grid: Grid
    fields: tuple[str, ...] = ()


def _blocks(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Group lines into puzzles: one per line, or pictures between blank lines."""
    block: list[str] = []
    start = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            if block:
                yield start, block
                block = []
            continue
        if not block:
            start = number
        block.append(line)
    if block:
        yield start, block


def _is_one_per_line(block: list[str]) -> bool:
    first = block[0].split()[0] if block[0].split() else ""
    return len(first) >= 16 and len(first) in {16, 36, 81, 144, 256, 625}


def read_puzzles(path: str | os.PathLike[str]) -> Iterator[Puzzle]:
    """Every puzzle in a file, with ids ``name:line``; raises `PuzzleFormatError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not a text file ({exc.reason})", source=str(path)) from None
    found = False
    for start, block in _blocks(text.splitlines()):
        if _is_one_per_line(block):
            for offset, line in enumerate(block):
                puzzle_text, *fields = line.split()
                grid = Grid.parse(puzzle_text, source=str(path), first_line=start + offset)
                found = True
                yield Puzzle(f"{path.name}:{start + offset}", grid, tuple(fields))
        else:
            grid = Grid.parse("\n".join(block), source=str(path), first_line=start)
            found = True
            yield Puzzle(f"{path.name}:{start}", grid)
    if not found:
        raise PuzzleFormatError("no puzzle found (the file is empty)", source=str(path))


BUILTIN_DIR = Path(__file__).resolve().parent.parent / "corpora"


@dataclass(frozen=True)
class Corpus:
    """A named set of puzzles; `puzzles()` streams them with stable ids."""

    name: str
    path: Path

    def puzzles(self) -> Iterator[Puzzle]:
        return read_puzzles(self.path)


def builtin_names() -> list[str]:
    """Names of the corpora shipped in the `corpora` package."""
    return sorted(p.stem for p in BUILTIN_DIR.glob("*.txt"))


def open_corpus(name_or_path: str) -> Corpus:
    """A built-in corpus by name, or a puzzle file by path."""
    builtin = BUILTIN_DIR / f"{name_or_path}.txt"
    if builtin.is_file():
        return Corpus(name_or_path, builtin)
    path = Path(name_or_path)
    if path.is_file():
        return Corpus(path.stem, path)
    raise PuzzleFormatError(
        f"no corpus {name_or_path!r}: not a built-in name ({', '.join(builtin_names()) or 'none'}) "
        "and not a file"
    )


def puzzles_from_argument(text: str) -> list[Puzzle]:
    """A puzzle given on the command line, or a file of puzzles if it names one."""
    if os.path.isfile(text):
        return list(read_puzzles(text))
    if len(text) < 200 and os.sep in text and not os.path.exists(text):
        raise PuzzleFormatError(f"no such file: {text}")
    return [Puzzle("argument", Grid.parse(text))]
