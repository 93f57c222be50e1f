"""f-puzzles puzzles: its JSON, and the compressed form its links carry, in and out.

f-puzzles (the web editor most variant setters share puzzles with) saves a
puzzle as JSON: ``size``, a ``grid`` of cells (``value`` with ``given``, and a
``region`` index for irregular regions), one list per constraint kind
(``killercage``, ``thermometer``, ``arrow``, ``difference`` and ``ratio`` for
Kropki dots, ``xv``, ``odd``/``even``, ``littlekillersum``, ``sandwichsum``,
``extraregion``), flags for whole-grid rules (``antiknight``, ``antiking``,
``nonconsecutive``, ``disjointgroups``, ``diagonal+``/``diagonal-``), and
``negative`` naming the kinds whose marks are all given.  A link carries the
same JSON compressed with lz-string and written in base64 after ``?load=``.

Anything the model cannot represent (a renban line, a quadruple, a cosmetic
line or text that may state a rule, given pencil marks) is refused with its
f-puzzles name, never dropped.  f-puzzles has no greater-than sign: a puzzle
with one cannot be written in this form.

>>> from solvers.variants import Killer
>>> puzzle = Grid.empty(2).with_constraints((Killer((0, 1), 3),))
>>> data = to_fpuzzles(puzzle)
>>> data["killercage"]
[{'cells': ['R1C1', 'R1C2'], 'value': '3'}]
>>> from_fpuzzles(data) == puzzle
True
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections import defaultdict
from typing import Any

from solvers.grid import Grid, shape
from solvers.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    ConstraintError,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)
from solvers.variants.canonical import box_for

FLAGS: dict[str, Constraint] = {
    "antiknight": AntiKnight(),
    "antiking": AntiKing(),
    "nonconsecutive": NonConsecutive(),
    "disjointgroups": DisjointGroups(),
    "diagonal-": Diagonal("main"),  # top left to bottom right
    "diagonal+": Diagonal("anti"),  # bottom left to top right
}
NEGATIVE: dict[str, Constraint] = {
    "difference": KropkiNegative("white"),
    "ratio": KropkiNegative("black"),
    "xv": XVNegative(),
}
NEGATIVE_NAME = {"white": "difference", "black": "ratio"}
LISTS = (
    "killercage",
    "littlekillersum",
    "sandwichsum",
    "thermometer",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "odd",
    "even",
    "extraregion",
)
IGNORED = ("title", "author", "ruleset", "solution", "truecandidatesoptions", "disabledlogic")
"""Keys that state no rule: metadata and the editor's display options."""
CELL_KEYS = (
    *("value", "given", "region"),
    *("c", "highlight", "centerPencilMarks", "cornerPencilMarks", "candidates"),  # display only
)
DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}
_LINK = re.compile(r"[?&]load=([^&#\s]+)")


class FPuzzlesError(ValueError):
    """An f-puzzles puzzle this project cannot read or write; the message names the item."""


# -- reading -----------------------------------------------------------------------
def decode(text: str) -> dict[str, Any]:
    """The JSON of an f-puzzles link, or of its compressed base64 string alone."""
    import lzstring

    text = text.strip()
    match = _LINK.search(text)
    packed = urllib.parse.unquote(match.group(1) if match else text).replace(" ", "+")
    try:
        raw = lzstring.decompress_from_base64(packed)
        data = json.loads(raw) if raw else None
    except (ValueError, IndexError, KeyError):
        data = None
    if not isinstance(data, dict):
        raise FPuzzlesError("not an f-puzzles link or compressed puzzle (lz-string base64)")
    return data


def from_fpuzzles(data: Any) -> Grid:
    """The puzzle of f-puzzles JSON; `FPuzzlesError` names what cannot be read."""
    if not isinstance(data, dict) or "grid" not in data:
        raise FPuzzlesError("an f-puzzles puzzle is a JSON object with a 'grid'")
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= 36:
        raise FPuzzlesError(f"size: expected a side such as 9, not {size!r}")
    known = (*FLAGS, *LISTS, *IGNORED, "size", "grid", "negative")
    unknown = sorted(k for k, v in data.items() if k not in known and v not in (None, [], False))
    if unknown:
        raise FPuzzlesError(
            f"f-puzzles {', '.join(repr(k) for k in unknown)}: not supported by sudoku-bench "
            "(it would change the puzzle's rules, so it is not dropped)"
        )
    box = box_for(size)
    geometry = shape(*box)
    cells, regions = _grid(data["grid"], size, box)
    constraints: list[Constraint] = [FLAGS[k] for k in FLAGS if data.get(k) is True]
    for flag in FLAGS:
        if data.get(flag) not in (None, True, False):
            raise FPuzzlesError(f"f-puzzles {flag!r}: expected true or false")
    if regions is not None:
        constraints.append(regions)
    constraints += _negatives(data.get("negative"))
    for key in LISTS:
        items = data.get(key) or []
        if not isinstance(items, list):
            raise FPuzzlesError(f"f-puzzles {key!r}: expected a list")
        for i, item in enumerate(items, 1):
            try:
                read = READERS[key](item, size)
                for constraint in read:
                    constraint.validate(geometry)
                constraints += read
            except (ConstraintError, FPuzzlesError, KeyError, TypeError, ValueError) as error:
                detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
                raise FPuzzlesError(f"f-puzzles {key} {i}: {detail}") from None
    try:
        return Grid(box[0], box[1], tuple(cells), constraints=tuple(constraints))
    except ConstraintError as error:
        raise FPuzzlesError(str(error)) from None


def _grid(rows: Any, size: int, box: tuple[int, int]) -> tuple[list[int], Jigsaw | None]:
    square = isinstance(rows, list) and len(rows) == size
    if not (square and all(isinstance(r, list) and len(r) == size for r in rows)):
        raise FPuzzlesError(f"grid: expected {size} rows of {size} cells")
    cells: list[int] = []
    owner: list[int] = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            where = f"grid r{r + 1}c{c + 1}"
            if not isinstance(cell, dict):
                raise FPuzzlesError(f"{where}: expected an object")
            extra = sorted(k for k in cell if k not in CELL_KEYS and cell[k] not in (None, []))
            if extra:
                raise FPuzzlesError(f"{where}: {', '.join(map(repr, extra))} not supported")
            value = cell.get("value")
            given = bool(cell.get("given")) and value is not None
            if given and not (isinstance(value, int) and 1 <= value <= size):
                raise FPuzzlesError(f"{where}: value {value!r} is not a digit 1..{size}")
            cells.append(value if given and isinstance(value, int) else 0)
            default = (r // box[0]) * (size // box[1]) + c // box[1]
            region = cell.get("region", default)
            if region is None or not isinstance(region, int):
                raise FPuzzlesError(f"{where}: region {region!r} is not a region number")
            owner.append(region)
    defaults = [
        (r // box[0]) * (size // box[1]) + c // box[1] for r in range(size) for c in range(size)
    ]
    if owner == defaults:
        return cells, None
    groups: dict[int, list[int]] = defaultdict(list)
    for cell, region in enumerate(owner):
        groups[region].append(cell)
    try:
        regions = Jigsaw(tuple(tuple(g) for _, g in sorted(groups.items())))
        regions.validate(shape(*box))
        return cells, regions
    except ConstraintError as error:
        raise FPuzzlesError(f"grid regions: {error}") from None


def _negatives(names: Any) -> list[Constraint]:
    if names in (None, []):
        return []
    if not isinstance(names, list) or any(n not in NEGATIVE for n in names):
        raise FPuzzlesError(
            f"f-puzzles 'negative' {names!r}: sudoku-bench knows {', '.join(NEGATIVE)}"
        )
    return [NEGATIVE[n] for n in names]


def _cell(name: Any, size: int) -> int:
    from solvers.variants.canonical import parse_cell

    return parse_cell(name, size)


def _cells(names: Any, size: int) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise FPuzzlesError(f"expected a list of cells, not {names!r}")
    return tuple(_cell(n, size) for n in names)


def _number(text: Any) -> int | None:
    """A clue's value: None when blank, an int otherwise."""
    if text in (None, ""):
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and re.fullmatch(r"\s*-?\d+\s*", text):
        return int(text)
    raise FPuzzlesError(f"value {text!r} is not a number")


def _killer(item: dict[str, Any], size: int) -> list[Constraint]:
    return [Killer(_cells(item["cells"], size), _number(item.get("value")))]


def _little_killer(item: dict[str, Any], size: int) -> list[Constraint]:
    total = _number(item.get("value"))
    if total is None:
        return []  # an arrow without a sum states nothing
    cells = _cells(item["cells"], size)
    clue = item.get("cell")
    if isinstance(clue, str) and cells:
        m = re.fullmatch(r"[rR](\d+)[cC](\d+)", clue)
        if m:  # the cells run away from the clue
            (r, c), (r0, c0) = divmod(cells[0], size), (int(m[1]) - 1, int(m[2]) - 1)
            if max(abs(r - r0), abs(c - c0)) != 1:
                cells = cells[::-1]
    return [LittleKiller(cells, total)]


def _sandwich(item: dict[str, Any], size: int) -> list[Constraint]:
    total = _number(item.get("value"))
    if total is None:
        return []
    m = re.fullmatch(r"[rR](\d+)[cC](\d+)", str(item["cell"]))
    if not m:
        raise FPuzzlesError(f"clue cell {item['cell']!r} is not a cell name")
    r, c = int(m[1]), int(m[2])
    if r in (0, size + 1) and 1 <= c <= size:
        line = tuple(i * size + c - 1 for i in range(size))
    elif c in (0, size + 1) and 1 <= r <= size:
        line = tuple((r - 1) * size + i for i in range(size))
    else:
        raise FPuzzlesError(f"clue cell {item['cell']} is not outside a row or column")
    return [Sandwich(line, total)]


def _lines(item: dict[str, Any]) -> list[Any]:
    lines = item["lines"]
    if not isinstance(lines, list):
        raise FPuzzlesError("lines: expected a list of lines")
    return lines


def _thermometer(item: dict[str, Any], size: int) -> list[Constraint]:
    return [Thermometer(_cells(line, size)) for line in _lines(item)]


def _arrow(item: dict[str, Any], size: int) -> list[Constraint]:
    circle = _cells(item["cells"], size)
    arrows: list[Constraint] = []
    for line in _lines(item):
        path = tuple(c for c in _cells(line, size) if c not in circle)
        arrows.append(Arrow(circle, path))
    return arrows


def _dot(colour: str) -> Any:
    def read(item: dict[str, Any], size: int) -> list[Constraint]:
        return [Kropki(_cells(item["cells"], size), colour, _number(item.get("value")))]

    return read


def _xv(item: dict[str, Any], size: int) -> list[Constraint]:
    sign = str(item.get("value", "")).upper()
    if sign not in ("X", "V"):
        raise FPuzzlesError(f"value {item.get('value')!r} is neither X nor V")
    return [XV(_cells(item["cells"], size), 10 if sign == "X" else 5)]


def _parity(kind: str) -> Any:
    def read(item: dict[str, Any], size: int) -> list[Constraint]:
        return [Parity(_cell(item["cell"], size), kind)]

    return read


def _extra_region(item: dict[str, Any], size: int) -> list[Constraint]:
    return [ExtraRegion(_cells(item["cells"], size))]


READERS = {
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "sandwichsum": _sandwich,
    "thermometer": _thermometer,
    "arrow": _arrow,
    "difference": _dot("white"),
    "ratio": _dot("black"),
    "xv": _xv,
    "odd": _parity("odd"),
    "even": _parity("even"),
    "extraregion": _extra_region,
}


# -- writing -----------------------------------------------------------------------
def to_fpuzzles(grid: Grid, *, title: str | None = None) -> dict[str, Any]:
    """The f-puzzles JSON of a puzzle; `FPuzzlesError` for a constraint it cannot hold."""
    n = grid.size
    name = _namer(n)
    regions = next((c for c in grid.constraints if isinstance(c, Jigsaw)), None)
    owner = (
        {cell: i for i, region in enumerate(regions.regions) for cell in region} if regions else {}
    )
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            digit = grid.cells[r * n + c]
            if digit:
                cell.update(value=digit, given=True)
            if regions:
                cell["region"] = owner[r * n + c]
            row.append(cell)
        rows.append(row)
    data: dict[str, Any] = {"size": n, "grid": rows}
    if title:
        data["title"] = title
    arrows: dict[tuple[int, ...], list[list[str]]] = defaultdict(list)
    for constraint in grid.constraints:
        if isinstance(constraint, Arrow):
            start = next(x for x in constraint.circle if _touch(x, constraint.path[0], n))
            arrows[constraint.circle].append(name((start, *constraint.path)))
            continue
        write = WRITERS.get(constraint.kind)
        if write is None:
            raise FPuzzlesError(f"f-puzzles has no {constraint.describe(n)}")
        key, item = write(constraint, n, name)
        if key in FLAGS:
            data[key] = True
        elif key == "negative":
            data.setdefault("negative", []).append(item)
        elif key:
            data.setdefault(key, []).append(item)
    for circle, lines in arrows.items():
        data.setdefault("arrow", []).append({"cells": name(circle), "lines": lines})
    return data


def _namer(n: int) -> Any:
    def name(cells: Any) -> Any:
        if isinstance(cells, int):
            return f"R{cells // n + 1}C{cells % n + 1}"
        return [f"R{c // n + 1}C{c % n + 1}" for c in cells]

    return name


def _touch(a: int, b: int, n: int) -> bool:
    return max(abs(a // n - b // n), abs(a % n - b % n)) == 1


def _write_little_killer(c: LittleKiller, n: int, name: Any) -> tuple[str, Any]:
    dr, dc = c.step(n)
    r, col = divmod(c.cells[0], n)
    direction = next(k for k, v in DIRECTIONS.items() if v == (dr, dc))
    clue = f"R{r - dr + 1}C{col - dc + 1}"
    item = {"cell": clue, "cells": name(c.cells), "direction": direction, "value": str(c.total)}
    return "littlekillersum", item


def _write_sandwich(c: Sandwich, n: int, name: Any) -> tuple[str, Any]:
    line = c.line(n)
    index = int(line.split()[1])
    clue = f"R{index}C0" if line.startswith("row") else f"R0C{index}"
    return "sandwichsum", {"cell": clue, "value": str(c.total)}


def _write_kropki(c: Kropki, n: int, name: Any) -> tuple[str, Any]:
    item: dict[str, Any] = {"cells": name(c.cells)}
    if c.value != (1 if c.colour == "white" else 2):
        item["value"] = str(c.value)
    return ("difference" if c.colour == "white" else "ratio"), item


def _write_killer(c: Killer, n: int, name: Any) -> tuple[str, Any]:
    item: dict[str, Any] = {"cells": name(c.cells)}
    if c.total is not None:
        item["value"] = str(c.total)
    return "killercage", item


WRITERS: dict[str, Any] = {
    "jigsaw": lambda c, n, name: ("", None),  # written as the cells' regions
    "extra-region": lambda c, n, name: ("extraregion", {"cells": name(c.cells)}),
    "disjoint-groups": lambda c, n, name: ("disjointgroups", True),
    "diagonal": lambda c, n, name: ("diagonal-" if c.direction == "main" else "diagonal+", True),
    "anti-knight": lambda c, n, name: ("antiknight", True),
    "anti-king": lambda c, n, name: ("antiking", True),
    "non-consecutive": lambda c, n, name: ("nonconsecutive", True),
    "killer": _write_killer,
    "little-killer": _write_little_killer,
    "thermometer": lambda c, n, name: ("thermometer", {"lines": [name(c.cells)]}),
    "kropki": _write_kropki,
    "kropki-negative": lambda c, n, name: ("negative", NEGATIVE_NAME[c.colour]),
    "xv": lambda c, n, name: ("xv", {"cells": name(c.cells), "value": "XV"[c.total == 5]}),
    "xv-negative": lambda c, n, name: ("negative", "xv"),
    "parity": lambda c, n, name: (c.parity, {"cell": name(c.cell)}),
    "sandwich": _write_sandwich,
}
"""How each kind is written (arrows are grouped by circle; greater-than has no form)."""


def encode(grid: Grid, *, title: str | None = None) -> str:
    """The compressed form an f-puzzles link carries after ``?load=`` (lz-string base64)."""
    import lzstring

    return str(lzstring.compress_to_base64(json.dumps(to_fpuzzles(grid, title=title))))


def is_fpuzzles(data: Any) -> bool:
    """Whether parsed JSON is an f-puzzles puzzle (it has a ``grid`` of cell objects)."""
    return isinstance(data, dict) and isinstance(data.get("grid"), list)


def looks_compressed(text: str) -> bool:
    """Whether text is an f-puzzles link or its compressed string (one line of base64
    starting as a compressed JSON object does)."""
    text = text.strip()
    return bool(_LINK.search(text)) or (
        text.startswith("N4Ig") and re.fullmatch(r"[A-Za-z0-9+/=%]+", text) is not None
    )
