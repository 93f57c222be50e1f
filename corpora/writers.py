"""Writing puzzles: one per line, pictures, CSV, JSON lines, or numbers.

Every format writes what `corpora.corpus.read_puzzles` reads back (JSON
lines aside, which is for tools): the puzzle, optionally its solution, and
named fields such as the clue count or the rating.

    >>> import io
    >>> from solvers.grid import Grid
    >>> out = io.StringIO()
    >>> _ = write_rows([Row(Grid.parse("1... 3..2 ...3 ..2."), extra={"clues": 4})], out, "csv")
    >>> print(out.getvalue().strip())
    puzzle,clues
    1...3..2...3..2.,4
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from solvers.grid import Grid

FORMATS = ("line", "pretty", "csv", "json", "numbers")
AMBIGUOUS_SIDES = (16, 25)  # sides two symbol alphabets can spell
SYMBOLS_DIRECTIVE = "# symbols:"  # a comment that tells readers a side's alphabet


@dataclass(frozen=True)
class Row:
    """A puzzle to write, with its solution (if shown) and named fields."""

    puzzle: Grid
    solution: Grid | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _text(grid: Grid) -> str:
    """A grid on one line: symbols when it has them, else comma-separated numbers."""
    return grid.format("line") if grid.symbols else ",".join(map(str, grid.cells))


def write_rows(
    rows: Iterable[Row], out: IO[str], fmt: str = "line", *, header: Iterable[str] = ()
) -> int:
    """Write rows in a format; `header` lines become ``#`` comments where the
    format has them (line, pretty, numbers).  Returns the number written.

    Pictures (pretty, numbers) hold one grid each, so they leave solutions out;
    `Row.extra` goes on a comment line above each picture.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt in ("line", "pretty", "numbers"):
        for line in header:
            out.write(f"# {line}\n")
    writer = None
    count = 0
    declared: set[int] = set()
    for row in rows:
        side = row.puzzle.size
        if fmt in ("line", "pretty") and side in AMBIGUOUS_SIDES and side not in declared:
            out.write(f"{SYMBOLS_DIRECTIVE} {row.puzzle.symbols}\n")  # the reader's notation
            declared.add(side)
        if fmt == "line":
            parts = [_text(row.puzzle)]
            if row.solution is not None:
                parts.append(_text(row.solution))
            parts.extend(f"{k}={v}" for k, v in row.extra.items())
            out.write(" ".join(parts) + "\n")
        elif fmt in ("pretty", "numbers"):
            style = "pretty" if fmt == "pretty" else "numbers"
            if row.extra:
                out.write("# " + " ".join(f"{k}={v}" for k, v in row.extra.items()) + "\n")
            out.write(row.puzzle.format(style) + "\n\n")
        elif fmt == "csv":
            names = ["puzzle"] + (["solution"] if row.solution is not None else [])
            names += list(row.extra)
            if writer is None:
                writer = csv.writer(out, lineterminator="\n")
                writer.writerow(names)
            values = [_text(row.puzzle)]
            if row.solution is not None:
                values.append(_text(row.solution))
            writer.writerow(values + list(row.extra.values()))
        else:
            record = {"puzzle": _text(row.puzzle), "size": row.puzzle.size}
            if row.solution is not None:
                record["solution"] = _text(row.solution)
            out.write(json.dumps({**record, **row.extra}) + "\n")
        count += 1
    return count
