"""The line protocol: how a puzzle is written to a program and its answer read back.

One request line per puzzle (harness -> program), ending in a newline::

    PUZZLE limit=K [budget=N] [time=S] [box=RxC]

``PUZZLE`` is the *symbol form* for sides up to 35: one token of N*N
characters, ``.`` for a blank and the digits ``1-9`` then ``A-Z`` (9x9: 81
characters; 16x16: ``1-9A-G``).  Larger sides, and any side when a definition
says ``format = "numbers"``, use the *integer form*: N*N integers separated by
single spaces, ``0`` for a blank.  The fields follow: ``limit`` (solutions
to look for; 2 proves uniqueness) always, ``budget`` (search nodes) and
``time`` (seconds) when the solve has them, ``box`` only when the box shape
is not the usual one for the side (the most square one, rows <= columns).
A program may ignore every field it does not use.

One answer line per request (program -> harness)::

    GRID [exhausted] [key=value ...]          a solution (a bare grid: SOLVED)
    SOLVED GRID [exhausted] [key=value ...]   the same, spelled out
    MULTIPLE GRID GRID [GRID ...] [exhausted] [key=value ...]
    UNSOLVABLE | INVALID [key=value ...]      proved: no solution / the givens break the rules
    STUCK | TIMEOUT | BUDGET | MEMOUT [key=value ...]
    ERROR free text

``GRID`` is written in the form of the request.  ``exhausted`` says the
search explored everything, so ``SOLVED GRID exhausted`` after ``limit=2`` is
a proof of uniqueness.  Fields are the program's statistics: ``time_us``
(its own solve time in microseconds, stored as ``solver_time`` in seconds),
``nodes``, ``guesses``, ``backtracks``, ``propagations``, ``stopped=TIMEOUT``
or ``stopped=BUDGET`` (a limit ended a search that had found solutions), and
any other ``key=value``, kept under its own name.  Anything else is an
``ERROR`` that quotes the line.

>>> from solvers.grid import Grid
>>> puzzle = Grid.parse("1... 3..2 ...3 ..2.")
>>> request(puzzle, 2, None, None)
b'1...3..2...3..2. limit=2\\n'
>>> result = answer("SOLVED 1234341221434321 exhausted time_us=3.5 nodes=4", puzzle, 2)
>>> result.status.value, result.exhausted, dict(result.stats)
('SOLVED', True, {'solver_time': 3.5e-06, 'search': 3.5e-06, 'nodes': 4})
"""

from __future__ import annotations

from functools import cache

from solvers.base import SolveResult, Status
from solvers.grid import Grid, box_shape_for, default_symbols

FORMATS = ("auto", "numbers")
# Answer words that carry no grid; the ones that prove something are exhausted.
_NO_GRID = {
    Status.UNSOLVABLE: True,
    Status.INVALID: True,
    Status.STUCK: False,
    Status.TIMEOUT: False,
    Status.BUDGET: False,
    Status.MEMOUT: False,
}
_STOPPED = (Status.TIMEOUT, Status.BUDGET)
QUOTED = 200  # characters of a bad answer quoted in the message


class BadAnswer(ValueError):
    """An answer line that breaks the protocol."""


def symbol_form(puzzle: Grid, form: str) -> bool:
    """True when `puzzle` travels as one token of symbols, False for the integer form."""
    return form != "numbers" and _has_symbols(puzzle.size)


@cache
def _has_symbols(size: int) -> bool:
    return bool(default_symbols(size))


def encode(grid: Grid, symbols: bool) -> str:
    """A grid in the protocol's symbol or integer form."""
    if symbols:
        return bytes(grid.cells).translate(_encoding(grid.size)).decode("ascii")
    return " ".join(map(str, grid.cells))


@cache
def _encoding(size: int) -> bytes:
    """bytes.translate table: a digit (a byte 0..N) to its symbol, 0 to a blank."""
    alphabet = ("." + default_symbols(size)).encode("ascii")
    return alphabet + bytes(256 - len(alphabet))


def request(
    puzzle: Grid,
    limit: int,
    budget: int | None,
    time_limit: float | None,
    form: str = "auto",
) -> bytes:
    """The request line for one solve."""
    fields = [f"limit={limit}"]
    if budget is not None:
        fields.append(f"budget={budget}")
    if time_limit is not None:
        fields.append(f"time={time_limit:.6g}")
    if (puzzle.box_rows, puzzle.box_cols) != _usual_box(puzzle.size):
        fields.append(f"box={puzzle.box_rows}x{puzzle.box_cols}")
    text = encode(puzzle, symbol_form(puzzle, form))
    return f"{text} {' '.join(fields)}\n".encode("ascii")


@cache
def _usual_box(size: int) -> tuple[int, int]:
    return box_shape_for(size)


@cache
def _decoding(size: int) -> bytes:
    """bytes.translate table: a symbol to its digit, a blank to 0, anything else to 255."""
    table = bytearray([255]) * 256
    for value, symbol in enumerate(default_symbols(size), 1):
        table[ord(symbol)] = table[ord(symbol.lower())] = value
    table[ord(".")] = table[ord("0")] = 0
    return bytes(table)


def _grid_from_symbols(token: str, puzzle: Grid) -> Grid:
    if len(token) != len(puzzle.cells):
        raise BadAnswer(f"a grid of {len(token)} characters, not {len(puzzle.cells)}")
    try:
        cells = tuple(token.encode("ascii").translate(_decoding(puzzle.size)))
    except UnicodeEncodeError:
        raise BadAnswer(f"a grid with a character that is no digit: {token!r}") from None
    try:
        return puzzle.replace(cells)
    except ValueError as exc:
        raise BadAnswer(f"a grid that cannot be read ({exc})") from None


def _grid_from_numbers(tokens: list[str], puzzle: Grid) -> Grid:
    try:
        return puzzle.replace(tuple(int(t) for t in tokens))
    except ValueError as exc:
        raise BadAnswer(f"a grid that cannot be read ({exc})") from None


def _field_value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _fields(tokens: list[str]) -> tuple[dict[str, object], bool]:
    """Statistics from ``key=value`` tokens, and the ``exhausted`` flag."""
    stats: dict[str, object] = {}
    exhausted = False
    for token in tokens:
        if token == "exhausted":
            exhausted = True
            continue
        key, eq, value = token.partition("=")
        if not eq or not key:
            raise BadAnswer(f"{token!r} is neither a grid nor a key=value field")
        if key == "time_us":
            try:
                stats["solver_time"] = stats["search"] = float(value) / 1e6
            except ValueError:
                raise BadAnswer(f"time_us={value!r} is not a number of microseconds") from None
        elif key == "stopped":
            if value.upper() not in _STOPPED:
                raise BadAnswer(f"stopped={value!r}: expected TIMEOUT or BUDGET")
            stats["stopped"] = value.upper()
        else:
            stats[key] = _field_value(value)
    return stats, exhausted


def _grids(tokens: list[str], puzzle: Grid, symbols: bool) -> tuple[list[Grid], list[str]]:
    """The grids at the front of `tokens`, and the tokens after them."""
    grids: list[Grid] = []
    at = 0
    if symbols:
        while at < len(tokens) and "=" not in tokens[at] and tokens[at] != "exhausted":
            grids.append(_grid_from_symbols(tokens[at], puzzle))
            at += 1
        return grids, tokens[at:]
    ncells = len(puzzle.cells)
    while at < len(tokens) and tokens[at].lstrip("-").isdigit():
        if len(tokens) - at < ncells:
            raise BadAnswer(f"a grid of {len(tokens) - at} numbers, not {ncells}")
        grids.append(_grid_from_numbers(tokens[at : at + ncells], puzzle))
        at += ncells
    return grids, tokens[at:]


def answer(line: str, puzzle: Grid, limit: int, form: str = "auto") -> SolveResult:
    """The `SolveResult` an answer line stands for; ``ERROR`` (quoting it) when it breaks
    the protocol.  At most `limit` solutions are kept."""
    try:
        return _answer(line, puzzle, limit, symbol_form(puzzle, form))
    except BadAnswer as exc:
        quoted = line if len(line) <= QUOTED else line[:QUOTED] + "..."
        return SolveResult(Status.ERROR, message=f"unreadable answer ({exc}): {quoted!r}")


def _answer(line: str, puzzle: Grid, limit: int, symbols: bool) -> SolveResult:
    tokens = line.split()
    if not tokens:
        raise BadAnswer("an empty line")
    word = tokens[0]
    if word == Status.ERROR:
        text = line.strip()[len(Status.ERROR) :].strip()
        return SolveResult(Status.ERROR, message=text or "the program reported an error")
    if word in _NO_GRID:
        stats, exhausted = _fields(tokens[1:])
        status = Status(word)
        return SolveResult(status, (), _NO_GRID[status] or exhausted, stats)
    if word in (Status.SOLVED, Status.MULTIPLE):
        tokens = tokens[1:]
    elif word.isupper() and word.isalpha() and len(word) != len(puzzle.cells):
        raise BadAnswer(f"unknown answer word {word!r}")
    grids, rest = _grids(tokens, puzzle, symbols)
    stats, exhausted = _fields(rest)
    if not grids:
        raise BadAnswer(f"{word} without a grid")
    if word == Status.SOLVED and len(grids) != 1:
        raise BadAnswer(f"SOLVED with {len(grids)} grids (MULTIPLE lists two or more)")
    if word == Status.MULTIPLE and len(grids) < 2:
        raise BadAnswer("MULTIPLE with one grid (it needs two or more)")
    if len(grids) > 1 and len(set(grids)) != len(grids):
        raise BadAnswer("the same solution twice")
    if len(grids) > limit:  # asked for fewer: the search was not exhausted
        grids, exhausted = grids[:limit], False
    status = Status.MULTIPLE if len(grids) >= 2 else Status.SOLVED
    return SolveResult(status, tuple(grids), exhausted, stats)
