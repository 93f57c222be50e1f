"""Truth at scale: solution counts (0, 1, 2+) and solutions for whole corpora.

Puzzles are solved in chunks with `solve_many` and the answers streamed, so
memory stays flat however long the corpus is.  `truth_stream` takes any
iterable of puzzles; `truth_file` reads one-puzzle-per-line files with NumPy
instead of `Grid.parse` (about 60 µs a line), which dominates at millions of
puzzles.

>>> import solvers
>>> from solvers.fast import truth_stream
>>> puzzles = [solvers.Grid.parse("1... 3..2 ...3 ..2."), solvers.Grid.empty(2)]
>>> [(count, str(grid)) for _, count, grid in truth_stream(puzzles)]
[(1, '1234341221434321'), (2, '1234431234212143')]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from solvers.fast.batch import Batch, solve_many
from solvers.grid import BLANKS, Grid

CHUNK = 20_000  # puzzles per compiled call
T = TypeVar("T")


def truth_chunks(
    puzzles: Iterable[T], *, chunk: int = CHUNK, threads: int | None = None
) -> Iterator[tuple[list[T], Batch]]:
    """Runs of consecutive puzzles of one shape, each with its answers (limit 2).

    `puzzles` yields `Grid` objects or records with a ``grid`` attribute
    (such as the harness's `Puzzle`); each run comes back as given.
    """
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, not {chunk!r}")
    items: list[T] = []
    grids: list[Grid] = []
    for item in puzzles:
        grid = grid_of(item)
        if grids and (len(grids) >= chunk or grid.shape is not grids[0].shape):
            yield items, solve_many(grids, limit=2, threads=threads)
            items, grids = [], []
        items.append(item)
        grids.append(grid)
    if grids:
        yield items, solve_many(grids, limit=2, threads=threads)


def truth_stream(
    puzzles: Iterable[T], *, chunk: int = CHUNK, threads: int | None = None
) -> Iterator[tuple[T, int, Grid | None]]:
    """Each puzzle, in order, with its solution count (0, 1, or 2 for two or more)
    and a solution (None when there is none).

    Conflicting givens count as no solution.
    """
    for items, batch in truth_chunks(puzzles, chunk=chunk, threads=threads):
        for i, item in enumerate(items):
            count = int(batch.counts[i])
            solution = grid_of(item).replace(batch.solutions[i, 0].tolist()) if count else None
            yield item, count, solution


def grid_of(item: Any) -> Grid:
    """The grid of a puzzle given as a `Grid` or as a record with a ``grid``."""
    grid = item if isinstance(item, Grid) else getattr(item, "grid", None)
    if not isinstance(grid, Grid):
        raise TypeError(f"expected Grid puzzles (or records with .grid), not {type(item).__name__}")
    return grid


def read_chunks(
    path: str | os.PathLike[str], *, chunk: int = CHUNK
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(line numbers, puzzles as digit rows) for a file of one 9x9 (or smaller) puzzle per line.

    Comment (``#``) and blank lines are skipped, and anything after the first
    whitespace on a line ignored, as `corpora.corpus.read_puzzles` does.  A line
    that is not a puzzle raises `PuzzleFormatError` with its position.
    """
    lookup = np.full(256, -1, dtype=np.int8)
    for ch in BLANKS:
        lookup[ord(ch)] = 0
    for d in range(1, 10):
        lookup[ord(str(d))] = d
    width = 0
    with open(path, encoding="utf-8") as handle:
        numbered = enumerate(handle, 1)
        while True:
            block = list(islice(numbered, chunk))
            if not block:
                break
            numbers, texts = [], []
            for number, line in block:
                text = line.split(maxsplit=1)[0] if line.strip() else ""
                if not text or text.startswith("#"):
                    continue
                width = width or len(text)
                numbers.append(number)
                texts.append(text)
            if not texts:
                continue
            raw = b"".join(t.encode("utf-8").ljust(width, b"?")[:width] for t in texts)
            cells = lookup[np.frombuffer(raw, dtype=np.uint8)].reshape(len(texts), width)
            lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
            side = int(round(width**0.5))
            bad = (lengths != width) | (cells < 0).any(axis=1) | (cells > side).any(axis=1)
            if side * side != width or side > 9 or bad.any():
                row = int(np.argmax(bad)) if bad.any() else 0
                Grid.parse(texts[row], source=str(path), first_line=numbers[row])
                raise _unreadable(path, numbers[row], side, width)
            yield np.array(numbers, dtype=np.int64), cells


def _unreadable(path: str | os.PathLike[str], line: int, side: int, width: int) -> ValueError:
    from solvers.grid import PuzzleFormatError

    return PuzzleFormatError(
        f"the fast reader takes one puzzle of up to 9x9 per line, all {width} characters "
        f"long (found a {side}x{side} puzzle or a line of another length); "
        "use corpora.corpus.read_puzzles with truth_stream instead",
        source=str(path),
        line=line,
    )


def truth_file(
    path: str | os.PathLike[str], *, chunk: int = CHUNK, threads: int | None = None
) -> Iterator[tuple[str, int, str]]:
    """For each puzzle of a one-per-line file: (id ``name:line``, count 0/1/2, solution line).

    The solution is written with digits ('' when there is none); ids match
    those of `corpora.corpus.read_puzzles`.
    """
    name = Path(path).name
    for numbers, cells in read_chunks(path, chunk=chunk):
        batch = solve_many(cells, limit=2, threads=threads)
        width = cells.shape[1]
        text = (batch.solutions[:, 0, :] + ord("0")).astype(np.uint8).tobytes().decode("ascii")
        for i, number in enumerate(numbers.tolist()):
            count = int(batch.counts[i])
            yield f"{name}:{number}", count, text[i * width : (i + 1) * width] if count else ""
