"""The Sudoku vocabulary: shapes, cells, units, peers, and the immutable `Grid`.

A grid of side ``N = box_rows * box_cols`` has ``N*N`` *cells*, numbered in
reading order (cell ``i`` is row ``i // N``, column ``i % N``).  A *unit* is a
row, a column or a box: ``N`` cells that must hold the digits ``1..N`` once
each.  Two cells are *peers* when they share a unit.  A *candidate* is a digit
that a cell may still take.  Digits are stored as ints, ``0`` meaning empty.

    >>> g = Grid.parse("1... 3..2 ...3 ..2.")
    >>> g.size, g.box_rows, g.box_cols, g.cells[:4]
    (4, 2, 2, (1, 0, 0, 0))
    >>> g.format()
    '1...3..2...3..2.'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.variants.constraints import Constraint

BLANKS = ".0-*_"
"""Characters read as an empty cell in character notations."""
MAX_SIDE = 100
"""The largest side `Grid.parse` reads (10,000 cells); a longer text is refused, not read."""

_SEPARATOR_LINE = re.compile(r"^[\s\-+=|:]*$")
_MULTI_DIGIT = re.compile(r"-1|\d{2,3}")


class PuzzleFormatError(ValueError):
    """Text that is not a puzzle; says what was expected and where."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = message
        self.source = source
        self.line = line
        self.column = column
        if source is not None:
            where = ":".join(str(p) for p in (source, line, column) if p is not None)
            super().__init__(f"{where}: {message}")
        elif line is not None:
            at = f"line {line}" + (f", column {column}" if column is not None else "")
            super().__init__(f"{message} ({at})")
        else:
            super().__init__(message)


class AmbiguousNotation(PuzzleFormatError):
    """Text that two notations read as different puzzles; an option must choose.

    `readings` holds the two symbol sets when the choice is between symbols.
    """

    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Shape:
    """The fixed geometry of one box shape: units and peers, computed once."""

    box_rows: int
    box_cols: int

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def ncells(self) -> int:
        return self.size * self.size

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def col_of(self, cell: int) -> int:
        return cell % self.size

    def box_of(self, cell: int) -> int:
        r, c = divmod(cell, self.size)
        return (r // self.box_rows) * self.box_rows + c // self.box_cols

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """All 3N units: rows 0..N-1, then columns N..2N-1, then boxes 2N..3N-1."""
        n, br, bc = self.size, self.box_rows, self.box_cols
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        boxes = [
            tuple((top + dr) * n + left + dc for dr in range(br) for dc in range(bc))
            for top in range(0, n, br)
            for left in range(0, n, bc)
        ]
        return tuple(rows + cols + boxes)

    @cached_property
    def cell_units(self) -> tuple[tuple[int, int, int], ...]:
        """For each cell, the indices of its row, column and box units."""
        n = self.size
        return tuple(
            (cell // n, n + cell % n, 2 * n + self.box_of(cell)) for cell in range(self.ncells)
        )

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the sorted cells sharing a unit with it (itself excluded)."""
        units = self.units
        return tuple(
            tuple(sorted({p for u in us for p in units[u]} - {cell}))
            for cell, us in enumerate(self.cell_units)
        )

    def unit_name(self, unit: int) -> str:
        """A human name for a unit index: 'row 4', 'column 7', 'box 2' (1-based)."""
        kind, index = divmod(unit, self.size)
        return f"{('row', 'column', 'box')[kind]} {index + 1}"

    def cell_name(self, cell: int) -> str:
        """The usual rXcY name of a cell (1-based)."""
        r, c = divmod(cell, self.size)
        return f"r{r + 1}c{c + 1}"


@cache
def shape(box_rows: int, box_cols: int) -> Shape:
    """The shared `Shape` for a box shape (tables are built once per shape)."""
    if box_rows < 1 or box_cols < 1 or box_rows * box_cols < 2:
        raise ValueError(f"no Sudoku has {box_rows}x{box_cols} boxes")
    return Shape(box_rows, box_cols)


def box_shape_for(size: int) -> tuple[int, int]:
    """The usual box shape for a side: the most square factorisation, rows <= cols.

    >>> box_shape_for(9), box_shape_for(6), box_shape_for(12), box_shape_for(16)
    ((3, 3), (2, 3), (3, 4), (4, 4))
    """
    rows = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if rows < 2 and size != 2:
        raise ValueError(f"a side of {size} has no box shape (it is prime)")
    return rows, size // rows


def default_symbols(size: int) -> str:
    """The symbols written for digits 1..N: '1'-'9', then letters."""
    alphabet = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if size > len(alphabet):
        return ""  # no single-character notation; numbers are written instead
    return alphabet[:size]


@cache
def _allowed_bytes(n: int) -> bytes:
    return bytes(range(n + 1))


def _plain_cells(cells: tuple[int, ...] | list[int], n: int) -> tuple[int, ...] | None:
    """The cells as a tuple of plain ints when every one is an integer 0..n, else None.

    Grids are built by the million (readers, generator, harness), so the common
    sizes are checked at C speed through ``bytes``; NumPy integers come out as
    plain ints, so results always serialise.
    """
    if not isinstance(cells, (tuple, list)):  # e.g. a NumPy array: never its raw buffer
        cells = tuple(cells)
    if n < 256:
        try:
            raw = bytes(cells)
        except (TypeError, ValueError):
            return None
        return None if raw.translate(None, _allowed_bytes(n)) else tuple(raw)
    if all(isinstance(v, int) and 0 <= v <= n for v in cells):
        return tuple(int(v) for v in cells)
    return None


_ALTERNATIVE_SYMBOLS = {
    16: ("123456789ABCDEFG", "0123456789ABCDEF"),
    25: ("123456789ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQRSTUVWXY"),
}


_CLASSIC: tuple[Constraint, ...] = ()  # no constraints: classic Sudoku


@dataclass(frozen=True)
class Grid:
    """An immutable Sudoku grid of any box shape; cells are ints, 0 = empty.

    Build one with `Grid.parse` (any common notation) or directly from cells:

        >>> Grid(2, 2, (0,) * 16).size
        4

    A puzzle with rules beyond rows, columns and boxes (a killer cage, a
    thermometer, jigsaw regions: `solvers.variants`) carries them in
    ``constraints``, validated, deduplicated and sorted when the grid is built,
    and part of its equality and hash.  The constraints live on the grid
    rather than in a separate puzzle type so that every path that takes a
    puzzle (`Solver.solve`, the verifier, readers, transforms) receives them
    without a second signature, and `replace` keeps them, so a grid derived
    from a puzzle stays that puzzle.  Classic Sudoku is the empty tuple, which
    costs one truth test per grid.  `Solver.handles` refuses a puzzle whose
    constraint kinds a solver does not declare, so no classic method can
    silently use box units on a jigsaw (whose box shape is then nominal).
    """

    box_rows: int
    box_cols: int
    cells: tuple[int, ...]
    symbols: str = field(default="", compare=False, repr=False)
    constraints: tuple[Constraint, ...] = field(default=_CLASSIC, repr=False)

    def __post_init__(self) -> None:
        n = self.box_rows * self.box_cols
        shape(self.box_rows, self.box_cols)  # validates the box shape
        if len(self.cells) != n * n:
            raise ValueError(f"a {n}x{n} grid has {n * n} cells, not {len(self.cells)}")
        plain = _plain_cells(self.cells, n)  # also turns lists and arrays into tuples
        if plain is not None:
            object.__setattr__(self, "cells", plain)
        else:
            i, v = next(
                (i, v)
                for i, v in enumerate(self.cells)
                if not isinstance(v, int) or not 0 <= v <= n
            )
            raise ValueError(
                f"cell {shape(self.box_rows, self.box_cols).cell_name(i)} "
                f"holds {v!r}: expected 0 (empty) or a digit 1..{n}"
            )
        if not self.symbols:
            object.__setattr__(self, "symbols", default_symbols(n))
        if self.constraints is not _CLASSIC:  # the shared empty tuple: one identity test
            from solvers.variants.puzzle import settle

            object.__setattr__(self, "constraints", settle(self.constraints, self.shape))

    @classmethod
    def trusted(
        cls,
        box_rows: int,
        box_cols: int,
        cells: tuple[int, ...],
        symbols: str = "",
        constraints: tuple[Constraint, ...] = _CLASSIC,
    ) -> Grid:
        """A grid of cells the caller has already checked (a tuple of ints 0..N, N*N of
        them) and constraints already settled for this shape, built without checking
        them again: readers and the generator build millions of grids from cells they
        have just validated, and the check would be most of their run time."""
        grid = object.__new__(cls)
        object.__setattr__(grid, "box_rows", box_rows)
        object.__setattr__(grid, "box_cols", box_cols)
        object.__setattr__(grid, "cells", cells)
        object.__setattr__(grid, "symbols", symbols or default_symbols(box_rows * box_cols))
        object.__setattr__(grid, "constraints", constraints)
        return grid

    # -- derived views -------------------------------------------------
    @property
    def size(self) -> int:
        """The side N (and the largest digit)."""
        return self.box_rows * self.box_cols

    @property
    def shape(self) -> Shape:
        return shape(self.box_rows, self.box_cols)

    @property
    def givens(self) -> int:
        """How many cells are filled."""
        return sum(1 for v in self.cells if v)

    @property
    def is_complete(self) -> bool:
        return all(self.cells)

    def __getitem__(self, rc: tuple[int, int]) -> int:
        r, c = rc
        return self.cells[r * self.size + c]

    def rows(self) -> list[list[int]]:
        """The cells as a list of rows (a fresh, mutable copy)."""
        n = self.size
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]

    def replace(self, cells: tuple[int, ...] | list[int]) -> Grid:
        """A grid of the same shape, symbols and constraints with other cells."""
        grid = Grid(self.box_rows, self.box_cols, tuple(cells), self.symbols)
        if self.constraints:  # already settled for this shape
            object.__setattr__(grid, "constraints", self.constraints)
        return grid

    def with_constraints(self, constraints: tuple[Constraint, ...] | list[Constraint]) -> Grid:
        """The same cells under other constraints (``()`` for the classic puzzle)."""
        return Grid(self.box_rows, self.box_cols, self.cells, self.symbols, tuple(constraints))

    @classmethod
    def empty(cls, box_rows: int = 3, box_cols: int | None = None) -> Grid:
        """The empty grid of a box shape (square boxes when one side is given)."""
        box_cols = box_rows if box_cols is None else box_cols
        n = box_rows * box_cols
        return cls(box_rows, box_cols, (0,) * (n * n))

    # -- text ----------------------------------------------------------
    @classmethod
    def parse(
        cls,
        text: str,
        *,
        size: int | None = None,
        box: tuple[int, int] | None = None,
        symbols: str | None = None,
        zero_based: bool = False,
        source: str | None = None,
        first_line: int = 1,
    ) -> Grid:
        """Read a puzzle from any common notation, guessing the size.

        Accepts one-line strings (blanks ``. 0 - * _``), multi-line pictures with
        ``| + -`` separators (which give the box shape: 3x2 boxes stay 3x2),
        letters for 16x16 (``0-9A-F`` or ``1-9A-G``) and 25x25 (``A-Y`` or
        ``1-9A-P``), and whitespace- or comma-separated integers for any size
        (``0`` or ``-1`` blank; ``zero_based`` reads digits ``0..N-1`` with
        ``-1`` blank).  ``size``, ``box`` and ``symbols`` override the guesses;
        ``source`` and ``first_line`` place errors in a file.

        Text that two notations read differently is refused with
        `AmbiguousNotation` rather than guessed: a 16x16 puzzle written with
        ``1-9`` and ``A-F`` alone (``symbols=`` says which), or integers with
        ``-1`` and ``0`` and no ``N`` (``zero_based=`` says which).

            >>> Grid.parse("4 0 0 0  0 0 0 3  0 3 0 0  0 0 0 1").givens
            4
            >>> Grid.parse("123")
            Traceback (most recent call last):
            ...
            solvers.grid.PuzzleFormatError: expected a square number ... (line 1, column 3)
        """
        return _parse(text, size, box, symbols, zero_based, source, first_line)

    def format(self, style: str = "line", *, blank: str = ".") -> str:
        """Write the grid: ``line`` (one string), ``pretty`` (boxes drawn) or
        ``numbers`` (space-separated integers, any size)."""
        if style == "numbers" or not self.symbols:
            n = self.size
            return "\n".join(
                " ".join(str(v) for v in self.cells[r * n : (r + 1) * n]) for r in range(n)
            )
        chars = [self.symbols[v - 1] if v else blank for v in self.cells]
        if style == "line":
            return "".join(chars)
        if style == "pretty":
            return _pretty(chars, self.box_rows, self.box_cols)
        raise ValueError(f"unknown style {style!r}: expected line, pretty or numbers")

    def __str__(self) -> str:
        return self.format("line")


def _pretty(chars: list[str], box_rows: int, box_cols: int) -> str:
    n = box_rows * box_cols
    rule = "-+-".join("-" * (2 * box_cols - 1) for _ in range(n // box_cols))
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append(rule)
        row = chars[r * n : (r + 1) * n]
        lines.append(" | ".join(" ".join(row[c : c + box_cols]) for c in range(0, n, box_cols)))
    return "\n".join(lines)


# -- parsing -----------------------------------------------------------------
Token = tuple[str, int, int]  # text, line, column (1-based)


def _tokens(text: str, first_line: int, numeric: bool | None = None) -> Tokens:
    """Split the text into cell tokens, find the notation and the separators' box shape.

    `numeric` forces integer tokens (True) or characters (False); None guesses.
    """
    lines = [
        (first_line + i, line)
        for i, line in enumerate(text.splitlines())
        if not line.lstrip().startswith("#")
    ]
    rules = [False] * len(lines)
    if len(lines) > 1:  # a picture: rule lines such as '------+------' separate bands
        rules = [bool(_SEPARATOR_LINE.match(line)) for _, line in lines]
    if numeric is None:
        numeric = any(
            "," in line
            or (len(line.split()) > 1 and any(_MULTI_DIGIT.fullmatch(t) for t in line.split()))
            for _, line in lines
        )
    split = _numeric_cells if numeric else _character_cells
    tokens: list[Token] = []
    stacks: list[int] = []  # cells per '|'-separated segment of each row
    bands: list[int] = [0]  # cell rows per rule-separated band
    for (no, line), rule in zip(lines, rules, strict=True):
        if rule:
            bands.append(0)
            continue
        segments = [split(segment, no, offset) for segment, offset in _segments(line)]
        stacks.extend(len(cells) for cells in segments if cells)
        tokens.extend(cell for cells in segments for cell in cells)
        bands[-1] += 1
    box_rows = _common([b for b in bands if b]) if any(rules) else None
    box_cols = _common(stacks) if "|" in text else None
    return Tokens(tokens, numeric, box_rows, box_cols)


@dataclass(frozen=True)
class Tokens:
    """The cells of a text, whether they are integers, and the box shape its separators draw."""

    cells: list[Token]
    numeric: bool
    box_rows: int | None  # cell rows between rule lines, when there are rule lines
    box_cols: int | None  # cells between '|' separators, when there are separators


def _segments(line: str) -> list[tuple[str, int]]:
    """The parts of a row between '|' separators, with the column where each starts."""
    parts, start = [], 0
    for part in line.split("|"):
        parts.append((part, start))
        start += len(part) + 1
    return parts


def _numeric_cells(segment: str, line: int, offset: int) -> list[Token]:
    return [(m.group(), line, offset + m.start() + 1) for m in re.finditer(r"[^\s,]+", segment)]


def _character_cells(segment: str, line: int, offset: int) -> list[Token]:
    return [(ch, line, offset + col + 1) for col, ch in enumerate(segment) if not ch.isspace()]


def _common(counts: list[int]) -> int | None:
    """The one count every separator group shares (a border's empty group aside), else None."""
    return counts[0] if counts and len(set(counts)) == 1 else None


def _parse(
    text: str,
    size: int | None,
    box: tuple[int, int] | None,
    symbols: str | None,
    zero_based: bool,
    source: str | None,
    first_line: int,
) -> Grid:
    if not isinstance(text, str):
        raise TypeError(f"Grid.parse takes text, not {type(text).__name__}")
    _check_options(size, box, symbols)
    read = _tokens(text, first_line, True if zero_based else None)
    tokens = read.cells
    if not tokens:
        raise PuzzleFormatError(
            "no puzzle found (the text is empty)", line=first_line, column=1, source=source
        )
    n = size or (box[0] * box[1] if box else math.isqrt(len(tokens)))
    if not read.numeric and not symbols and n * n == len(tokens) and not default_symbols(n):
        # A side with no one-character notation (36 and more) is written in integers,
        # even when every value has one digit.
        as_numbers = _tokens(text, first_line, True)
        if len(as_numbers.cells) == len(tokens):
            read, tokens = as_numbers, as_numbers.cells
    if n > MAX_SIDE:
        raise PuzzleFormatError(
            f"{len(tokens)} cells would make a {n}x{n} grid; the largest side read is "
            f"{MAX_SIDE} ({MAX_SIDE * MAX_SIDE} cells)",
            **_at(tokens[0]),
            source=source,
        )
    if n * n != len(tokens) or n < 4:
        expected = (
            f"{n * n} cells for {n}x{n}"
            if size or box
            else "a square number of cells (16 for 4x4, 81 for 9x9, ...)"
        )
        extra = n * n < len(tokens) and (size or box)
        where, what = (tokens[n * n], "the first extra") if extra else (tokens[-1], "the last")
        raise PuzzleFormatError(
            f"expected {expected}, found {len(tokens)}; {what} cell",
            **_at(where),
            source=source,
        )
    try:
        box_rows, box_cols = box or _drawn_box(read, n) or box_shape_for(n)
    except ValueError as exc:
        raise PuzzleFormatError(
            f"{len(tokens)} cells: {exc}", **_at(tokens[0]), source=source
        ) from None
    if read.numeric:
        if not zero_based:
            _refuse_zero_based(tokens, n, source)
        shift = 1 if zero_based else 0
        cells = [_integer_cell(tok, n, shift, source) for tok in tokens]
        chosen = default_symbols(n)
    else:
        chosen = symbols or _guess_symbols(n, "".join(t for t, _, _ in tokens), tokens, source)
        if not chosen:
            raise PuzzleFormatError(
                f"a {n}x{n} grid has no one-character notation: write integers",
                **_at(tokens[0]),
                source=source,
            )
        if len(chosen) != n:
            raise PuzzleFormatError(
                f"symbols={chosen!r} names {len(chosen)} digits; a {n}x{n} grid has {n}",
                **_at(tokens[0]),
                source=source,
            )
        index = {ch: i + 1 for i, ch in enumerate(chosen)}
        index.update({ch.lower(): i for ch, i in list(index.items()) if ch.isalpha()})
        cells = [_symbol_cell(tok, index, chosen, source) for tok in tokens]
    return Grid(box_rows, box_cols, tuple(cells), chosen)


def _at(token: Token) -> dict[str, int]:
    """The line and column of a cell token, as `PuzzleFormatError` takes them."""
    return {"line": token[1], "column": token[2]}


def _check_options(size: int | None, box: tuple[int, int] | None, symbols: str | None) -> None:
    """Options that contradict themselves or each other: refused before the text is read."""
    if size is not None and not 4 <= size <= MAX_SIDE:
        raise PuzzleFormatError(f"size={size}: a side is 4 to {MAX_SIDE}")
    if box is not None:
        rows, cols = box
        if rows < 1 or cols < 1 or not 4 <= rows * cols <= MAX_SIDE:
            raise PuzzleFormatError(f"box={rows}x{cols}: no Sudoku has such boxes")
        if size is not None and rows * cols != size:
            raise PuzzleFormatError(f"box={rows}x{cols} makes a side of {rows * cols}, not {size}")
    if symbols is not None and len(set(symbols.upper())) != len(symbols):
        raise PuzzleFormatError(f"symbols={symbols!r} names a digit twice")


def _drawn_box(read: Tokens, n: int) -> tuple[int, int] | None:
    """The box shape a picture's separators draw, when they draw one of side `n`."""
    rows, cols = read.box_rows, read.box_cols
    if rows and cols:
        return (rows, cols) if rows * cols == n else None
    if rows and n % rows == 0 and rows < n:
        return rows, n // rows
    if cols and n % cols == 0 and cols < n:
        return n // cols, cols
    return None


def _guess_symbols(n: int, chars: str, tokens: list[Token], source: str | None) -> str:
    upper = chars.upper()
    if n not in _ALTERNATIVE_SYMBOLS:
        return default_symbols(n)
    natural, other = _ALTERNATIVE_SYMBOLS[n]
    if n == 16:
        # '0' is a digit in 0-9A-F only when blanks are written otherwise.
        if "G" not in upper and "0" in upper and any(b in upper for b in ".-*_"):
            return other
        if "G" not in upper and all(upper.count(ch) == n for ch in other):
            return other  # a complete grid in 0-9A-F (a solution field, say)
        if "G" in upper or "0" in upper:
            return natural
        used = set(upper) - set(BLANKS)
    else:
        if any(ch in "123456789" for ch in upper):
            return natural
        if set(upper) - set(BLANKS) - set(natural):
            return other
        used = set(upper) - set(BLANKS)
    if not used:
        return natural  # no givens: every reading is the same empty grid
    first = next(t for t in tokens if t[0].upper() in used)
    error = AmbiguousNotation(
        f"a {n}x{n} puzzle written with {''.join(sorted(used))} alone reads as "
        f"{_span(natural)} or as {_span(other)} (every digit shifted by one); say which "
        f"with symbols='{natural}' or symbols='{other}'",
        source=source,
        line=first[1],
        column=first[2],
    )
    error.readings = (natural, other)
    raise error


def _span(symbols: str) -> str:
    """'1-9A-G' for '123456789ABCDEFG'."""
    digits = "".join(ch for ch in symbols if ch.isdigit())
    letters = "".join(ch for ch in symbols if ch.isalpha())
    parts = [f"{p[0]}-{p[-1]}" for p in (digits, letters) if p]
    return "".join(parts)


def _refuse_zero_based(tokens: list[Token], n: int, source: str | None) -> None:
    """Integers with both -1 and 0 and no N read 0-based too: make the caller choose."""
    values = {t[0] for t in tokens}
    if "-1" in values and "0" in values and str(n) not in values:
        first = next(t for t in tokens if t[0] == "0")
        raise AmbiguousNotation(
            f"integers with -1 and 0 and no {n}: 0 is a blank if digits are 1..{n}, or a "
            f"digit if they are 0..{n - 1} with -1 blank; say which with zero_based=True "
            "(or write every blank the same way)",
            source=source,
            line=first[1],
            column=first[2],
        )


def _symbol_cell(tok: Token, index: dict[str, int], symbols: str, source: str | None) -> int:
    ch, line, col = tok
    if ch in index:
        return index[ch]
    if ch in BLANKS:
        return 0
    raise PuzzleFormatError(
        f"illegal character {ch!r}: expected one of {symbols} or a blank ({BLANKS})",
        source=source,
        line=line,
        column=col,
    )


def _integer_cell(tok: Token, n: int, shift: int, source: str | None) -> int:
    """One integer cell; `shift` 1 reads 0-based digits (with -1 blank)."""
    text, line, col = tok
    if text in (".", "-", "_", "*"):
        return 0
    try:
        value = int(text)
    except ValueError:
        value = None
    low, high = -1, n - shift
    if value is None or not low <= value <= high:
        blanks = "-1 for a blank" if shift else "0 / -1 for a blank"
        raise PuzzleFormatError(
            f"illegal value {text!r}: expected an integer {1 - shift}..{high}, or {blanks}",
            source=source,
            line=line,
            column=col,
        )
    return value + shift if value >= 0 and shift else max(value, 0)


def easy_grid(box_rows: int, box_cols: int) -> Grid:
    """A full grid of the shape with one cell per row left empty (naked singles only):
    the puzzle that warms a solver up (imports, caches, JIT) without testing it."""
    n = box_rows * box_cols
    cells = [
        0
        if c == (r * box_cols + r // box_rows) % n
        else (box_cols * (r % box_rows) + r // box_rows + c) % n + 1
        for r in range(n)
        for c in range(n)
    ]
    return Grid(box_rows, box_cols, tuple(cells))
