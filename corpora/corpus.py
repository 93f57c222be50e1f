"""Puzzle collections: reading files of any common layout, and the built-in corpora.

`read_puzzles(path)` streams the puzzles of a file (one per line, grid
pictures, SDK/SDM, CSV with ``quizzes,solutions`` columns; gzip read
transparently; see `corpora.formats`) as `Puzzle`s with stable ids
``file:line``, and the puzzles with constraints of JSON and f-puzzles files
(`corpora.native`, ids ``file:K``); a directory is read file by file.  A
bad record raises `PuzzleFormatError` naming the file, line and column, or,
with ``strict=False``, is counted in a `ReadReport` and skipped.
`open_corpus(name_or_path)` gives a built-in corpus (see
``corpora/data/index.json``), a downloaded collection (`corpora.fetch`), a
file or a directory.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "two.txt"
    >>> _ = path.write_text("# two 4x4 puzzles\\n1...3..2...3..2. rated 1.2\\n....3..2...3..2.\\n")
    >>> [(p.id, p.grid.givens, p.fields) for p in read_puzzles(path)]
    [('two.txt:2', 5, ('rated', '1.2')), ('two.txt:3', 4, ())]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from corpora import fpuzzles, native
from corpora.formats import Record, base_name, open_text, read_records
from corpora.trusted import trusted_grid
from corpora.writers import SYMBOLS_DIRECTIVE
from solvers.base import Status
from solvers.grid import (
    AmbiguousNotation,
    Grid,
    PuzzleFormatError,
    box_shape_for,
    default_symbols,
)

BUILTIN_DIR = Path(__file__).resolve().parent / "data"
INDEX_FILE = BUILTIN_DIR / "index.json"
KEEP_ERRORS = 20
"""Bad records a `ReadReport` keeps in full (the rest are only counted)."""


@dataclass(frozen=True)
class Puzzle:
    """A puzzle with a stable id (``file:line``), its trailing fields, and its
    solution when the file gives one."""

    id: str
    grid: Grid
    fields: tuple[str, ...] = ()
    solution: Grid | None = None

    @property
    def key(self) -> str:
        """A content id: the same puzzle has the same key in any file."""
        return puzzle_key(self.grid)


def puzzle_key(grid: Grid) -> str:
    """12 hex digits of the SHA-256 of the puzzle's shape and cells (and constraints)."""
    text = f"{grid.box_rows}x{grid.box_cols}:" + ",".join(map(str, grid.cells))
    if grid.constraints:
        from solvers.variants.canonical import to_json

        text += ":" + to_json(grid)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass
class ReadReport:
    """What a lenient read skipped: how many bad records, and the first few."""

    source: str
    layout: str = ""
    puzzles: int = 0
    bad: int = 0
    errors: list[PuzzleFormatError] = field(default_factory=list)

    def add(self, error: PuzzleFormatError) -> None:
        self.bad += 1
        if len(self.errors) < KEEP_ERRORS:
            self.errors.append(error)

    def summary(self) -> str:
        """One line for stderr, or '' when nothing was skipped."""
        if not self.bad:
            return ""
        return (
            f"{self.source}: skipped {self.bad} bad record(s) of {self.puzzles + self.bad}; "
            f"first: {self.errors[0]}"
        )


def read_puzzles(
    path: str | os.PathLike[str],
    *,
    strict: bool = True,
    layout: str = "auto",
    report: ReadReport | None = None,
    name: str | None = None,
    symbols: str | None = None,
    zero_based: bool = False,
) -> Iterator[Puzzle]:
    """Stream every puzzle in a file, with ids ``name:line``.

    `strict` makes the first bad record a `PuzzleFormatError`; otherwise bad
    records are counted in `report` (pass one to see them) and skipped.
    `layout` is ``auto`` (sniffed), ``lines``, ``pictures`` or ``csv``.
    `symbols` and `zero_based` choose the notation as in `Grid.parse`; without
    them, a record two notations read differently (a 16x16 puzzle with ``1-9``
    and ``A-F`` alone) takes the notation of the file's earlier records or of
    its own solution field and, when neither tells, the project's own
    (``1-9A-G``, what its writers write), so the files it wrote read back.
    """
    path = Path(path)
    source = str(path)
    report = report if report is not None else ReadReport(source)
    if path.is_dir():
        yield from _read_directory(path, strict, layout, report, symbols, zero_based)
        return
    name = name or base_name(path)
    if layout == "auto" and native.is_structured(path):
        yield from _read_structured(path, name, strict, report)
        return
    notation = _Notation(symbols, zero_based, path=path)
    try:
        report.layout, records = read_records(path, layout)
        for record in records:
            try:
                puzzle = _puzzle(record, source, name, notation)
            except PuzzleFormatError as error:
                if strict:
                    raise
                report.add(error)
                continue
            report.puzzles += 1
            yield puzzle
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not a text file ({exc.reason})", source=source) from None
    except ValueError as exc:
        if isinstance(exc, PuzzleFormatError):
            raise
        raise PuzzleFormatError(str(exc), source=source) from None
    if not report.puzzles:
        if report.errors:
            raise PuzzleFormatError(
                f"no puzzle could be read ({report.bad} bad record(s)); first: "
                f"{report.errors[0].reason}",
                source=source,
                line=report.errors[0].line,
                column=report.errors[0].column,
            )
        raise PuzzleFormatError(f"no puzzle found ({_emptiness(path)})", source=source)


def _emptiness(path: Path) -> str:
    """Why a file gave no record: it is empty, or holds only comments and blank lines."""
    try:
        empty = path.stat().st_size == 0
    except OSError:
        empty = False
    return "the file is empty" if empty else "the file holds only comments and blank lines"


def directory_files(path: Path) -> list[Path]:
    """The files a directory corpus is read from: in name order, hidden files left out."""
    return sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))


def _read_directory(
    path: Path,
    strict: bool,
    layout: str,
    report: ReadReport,
    symbols: str | None,
    zero_based: bool,
) -> Iterator[Puzzle]:
    """Every puzzle file of a directory, in name order (hidden files left out)."""
    files = directory_files(path)
    if not files:
        raise PuzzleFormatError("no puzzle files in this directory", source=str(path))
    for file in files:
        yield from read_puzzles(
            file,
            strict=strict,
            layout=layout,
            report=report,
            symbols=symbols,
            zero_based=zero_based,
        )


def _read_structured(path: Path, name: str, strict: bool, report: ReadReport) -> Iterator[Puzzle]:
    """The puzzles of a JSON or f-puzzles file (see `corpora.native`), ids ``name:K``."""
    report.layout = "json"
    entries = native.read(path)
    while True:
        try:
            index, _, grid, extra = next(entries)
        except StopIteration:
            break
        except PuzzleFormatError as error:
            if strict:
                raise
            report.add(error)
            break  # a structured file is decoded as a whole: the rest cannot be placed
        report.puzzles += 1
        title = extra.get("title")
        yield Puzzle(f"{name}:{index}", grid, (title,) if title else (), extra.get("solution"))
    if not report.puzzles:
        if report.errors:
            raise report.errors[0]
        raise PuzzleFormatError("no puzzle found (the file lists none)", source=str(path))


@dataclass
class _Notation:
    """What a file's records say about its notation: options given, symbols seen per side."""

    symbols: str | None = None
    zero_based: bool = False
    seen: dict[int, str] = field(default_factory=dict)  # side -> symbols of an earlier record
    path: Path | None = None  # the file, read for ``# symbols:`` comments when in doubt

    def parse(self, record: Record, source: str) -> Grid:
        try:
            grid = Grid.parse(
                record.text,
                source=source,
                first_line=record.line,
                symbols=self.symbols,
                zero_based=self.zero_based,
            )
        except AmbiguousNotation as error:
            grid = self._settle(record, source, error)
        if grid.size in (16, 25):
            self.seen.setdefault(grid.size, grid.symbols)
        return grid

    def _settle(self, record: Record, source: str, error: AmbiguousNotation) -> Grid:
        """The reading the file's comments, earlier records or the record's solution choose."""
        if self.path is not None:  # once, and only for a file that needs it
            self.seen = {**declared_symbols(self.path), **self.seen}
            self.path = None
        hints = list(self.seen.values())
        if record.solution:
            with contextlib.suppress(ValueError):
                hints.append(Grid.parse(record.solution).symbols)
        for symbols in hints:
            try:
                return Grid.parse(
                    record.text, source=source, first_line=record.line, symbols=symbols
                )
            except ValueError:
                continue
        if not error.readings:
            raise error
        # Nothing tells: read it in the project's own notation, the one its writers write.
        return Grid.parse(
            record.text, source=source, first_line=record.line, symbols=error.readings[0]
        )


def declared_symbols(path: Path) -> dict[int, str]:
    """Side -> alphabet from ``# symbols: 123456789ABCDEFG`` comments (the writers add them)."""
    found: dict[int, str] = {}
    with open_text(path) as stream:
        for line in stream:
            text = line.strip()
            if text.startswith(SYMBOLS_DIRECTIVE):
                symbols = text[len(SYMBOLS_DIRECTIVE) :].strip()
                found.setdefault(len(symbols), symbols)
    return found


def _puzzle(record: Record, source: str, name: str, notation: _Notation | None = None) -> Puzzle:
    notation = notation or _Notation()
    grid = (None if notation.symbols or notation.zero_based else _fast_grid(record.text)) or (
        notation.parse(record, source)
    )
    fields = record.fields if record.title is None else (record.title, *record.fields)
    solution = _solution(record.solution, grid) if record.solution else None
    return Puzzle(f"{name}:{record.line}", grid, fields, solution)


@cache
def _table(length: int) -> tuple[dict[str, int], int, int, str] | None:
    """Symbol lookup for one-line puzzles whose notation needs no guessing."""
    if length not in (16, 36, 81, 144):
        return None  # 16x16 and 25x25 have two notations each: Grid.parse guesses
    size = {16: 4, 36: 6, 81: 9, 144: 12}[length]
    symbols = default_symbols(size)
    table = {ch: i + 1 for i, ch in enumerate(symbols)}
    table.update({ch.lower(): i for ch, i in list(table.items()) if ch.isalpha()})
    table.update(dict.fromkeys(".0-*_", 0))
    rows, cols = box_shape_for(size)
    return table, rows, cols, symbols


def _fast_grid(text: str) -> Grid | None:
    """The common case without Grid.parse's tokenizer; None to take the slow path."""
    known = _table(len(text))
    if known is None:
        return None
    table, rows, cols, symbols = known
    try:
        cells = tuple([table[ch] for ch in text])
    except KeyError:
        return None  # let Grid.parse say which character and where
    return trusted_grid(rows, cols, cells, symbols)


def _solution(text: str, puzzle: Grid) -> Grid | None:
    """A trailing field that is a complete grid agreeing with the givens, else None."""
    try:
        grid = _fast_grid(text) or Grid.parse(
            text, box=(puzzle.box_rows, puzzle.box_cols), symbols=puzzle.symbols or None
        )
    except ValueError:
        return None
    if grid.box_rows != puzzle.box_rows or not grid.is_complete:
        return None
    if any(g and g != s for g, s in zip(puzzle.cells, grid.cells, strict=True)):
        return None
    return grid


# -- corpora -------------------------------------------------------------------
@dataclass(frozen=True)
class Truth:
    """What is known about one puzzle of a corpus without solving it."""

    status: Status  # SOLVED (unique), MULTIPLE, UNSOLVABLE or INVALID
    solutions: int  # 0, 1, or 2 meaning "two or more"
    solution: str | None = None  # the unique solution, line format


@dataclass(frozen=True)
class Corpus:
    """A named set of puzzles; `puzzles()` streams them with stable ids."""

    name: str
    path: Path
    info: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def puzzles(self, *, strict: bool = True, report: ReadReport | None = None) -> Iterator[Puzzle]:
        """Stream the puzzles; ids are ``name:line`` for built-ins, ``file:line`` otherwise."""
        name = self.name if self.builtin else None
        return read_puzzles(self.path, strict=strict, report=report, name=name)

    @property
    def builtin(self) -> bool:
        return bool(self.info.get("builtin"))

    def digest(self) -> str:
        """SHA-256 of what the puzzles are read from (a directory: its files' names and
        bytes), so that a resumed run can tell whether the corpus changed."""
        if not self.path.is_dir():
            return hashlib.sha256(self.path.read_bytes()).hexdigest()
        digest = hashlib.sha256()
        for file in directory_files(self.path):
            digest.update(file.name.encode("utf-8") + b"\0")
            digest.update(hashlib.sha256(file.read_bytes()).digest())
        return digest.hexdigest()

    def truth(self) -> dict[str, Truth]:
        """Known truth per puzzle id (built-in corpora; empty for other files)."""
        return {
            entry["id"]: Truth(Status(entry["status"]), entry["solutions"], entry.get("solution"))
            for entry in self.info.get("truth", ())
        }


@cache
def builtin_index() -> dict[str, dict[str, Any]]:
    """The index of the shipped corpora, by name (empty when there is none)."""
    if not INDEX_FILE.is_file():
        return {}
    data = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
    return {entry["name"]: {**entry, "builtin": True} for entry in data["corpora"]}


def builtin_names() -> list[str]:
    """Names of the corpora shipped in the `corpora` package, in index order."""
    names = list(builtin_index())
    extra = sorted(p.stem for p in BUILTIN_DIR.glob("*.txt") if p.stem not in names)
    return names + extra


def open_corpus(name_or_path: str) -> Corpus:
    """A built-in corpus by name, a downloaded collection by name, or a puzzle file."""
    info = builtin_index().get(name_or_path)
    builtin = BUILTIN_DIR / (info["file"] if info else f"{name_or_path}.txt")
    if builtin.is_file() and "/" not in name_or_path:
        return Corpus(name_or_path, builtin, info or {"builtin": True})
    path = Path(name_or_path)
    if path.is_file():
        for name, entry in builtin_index().items():  # a built-in given by its path
            if path.resolve() == BUILTIN_DIR / entry["file"]:
                return Corpus(name, BUILTIN_DIR / entry["file"], entry)
        return Corpus(base_name(path).rsplit(".", 1)[0], path)
    if path.is_dir():
        return Corpus(path.resolve().name, path)
    from corpora import fetch

    if name_or_path in fetch.CATALOGUE:
        return Corpus(name_or_path, fetch.cached(name_or_path), {"fetched": True})
    raise PuzzleFormatError(
        f"no corpus {name_or_path!r}: not a built-in name "
        f"({', '.join(builtin_names()) or 'none'}), not a collection to fetch "
        f"({', '.join(fetch.CATALOGUE)}), and not a file"
    )


def is_corpus_name(text: str) -> bool:
    """True when `text` names a built-in corpus or a collection of the fetch catalogue."""
    from corpora import fetch

    return text in builtin_index() or text in builtin_names() or text in fetch.CATALOGUE


_FILE_NAME = re.compile(r".*\.[A-Za-z][A-Za-z0-9]{0,7}")  # puzzles.txt, top95.sdk, a.csv.gz


def looks_like_path(text: str) -> bool:
    """True when the text reads as a file name: a path separator or a file extension."""
    return "/" in text or os.sep in text or bool(_FILE_NAME.fullmatch(text.strip()))


def puzzles_from_argument(text: str) -> list[Puzzle]:
    """A puzzle given on the command line, or the puzzles of the file or corpus it names.

    Text that is no puzzle but reads as a file name (``nofile.txt``) is
    reported as a missing file, not as a malformed puzzle.
    """
    if os.path.isfile(text) or os.path.isdir(text) or is_corpus_name(text):
        return list(open_corpus(text).puzzles())
    if fpuzzles.looks_compressed(text):
        try:
            return [Puzzle("argument", fpuzzles.from_fpuzzles(fpuzzles.decode(text)))]
        except ValueError as error:
            raise PuzzleFormatError(f"f-puzzles link: {error}") from None
    try:
        grid = Grid.parse(text)
    except PuzzleFormatError:
        if looks_like_path(text) and "\n" not in text:
            raise PuzzleFormatError(
                f"no such file: {text} (and it is neither a puzzle nor a corpus name; "
                "'sudoku-bench corpora' lists the names)"
            ) from None
        raise
    return [Puzzle("argument", grid)]
