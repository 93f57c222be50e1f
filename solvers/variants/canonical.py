"""The canonical JSON form of constraints and of whole puzzles (the native format).

A constraint is an object naming its kind and its fields, cells written as
``rXcY`` (1-based, any case on input)::

    {"kind": "killer", "cells": ["r1c1", "r1c2"], "total": 10}
    {"kind": "thermometer", "cells": ["r2c2", "r2c3", "r3c4"]}
    {"kind": "jigsaw", "regions": [["r1c1", "r1c2", ...], ...]}
    {"kind": "anti-knight"}

A puzzle adds its shape and givens::

    {"size": 9, "givens": "53..7....6..195...", "constraints": [...]}

``givens`` is a one-line grid (``.`` or ``0`` blank) or a list of N*N
integers (0 blank), ``box`` (``[rows, cols]``) is needed only for an unusual
box shape, and ``title`` and ``solution`` are optional.  Writing gives each
constraint its canonical fields in canonical order, so a puzzle has exactly one
form: equal puzzles write equal text.

>>> from solvers.variants.constraints import Killer
>>> g = Grid(2, 2, (1,) + (0,) * 15, constraints=(Killer((1, 2), 5),))
>>> puzzle_data(g)
{'size': 4, 'givens': '1...............', 'constraints': [{'kind': 'killer', 'cells': ['r1c2',
'r1c3'], 'total': 5}]}
>>> from_json(to_json(g)) == g
True
"""

from __future__ import annotations

import json
import re
from dataclasses import MISSING
from typing import Any

from solvers.grid import Grid, box_shape_for, default_symbols
from solvers.variants.constraints import KINDS, Constraint, ConstraintError, fields_of

PUZZLE_KEYS = ("size", "box", "givens", "constraints", "title", "solution")
_CELL_DEPTH = {"cell": 0, "regions": 2}  # how deep cell names nest in a field (default 1)
_CELL = re.compile(r"[rR](\d+)[cC](\d+)")


class PuzzleDataError(ValueError):
    """Data that is not a puzzle in the native form; the message says which part."""


# -- one constraint ------------------------------------------------------------------
def cell_name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def parse_cell(text: Any, size: int) -> int:
    """The index of a cell named ``rXcY`` (1-based) in a side-`size` grid."""
    match = _CELL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ConstraintError(f"{text!r} is not a cell name such as r1c1")
    row, col = int(match[1]), int(match[2])
    if not (1 <= row <= size and 1 <= col <= size):
        raise ConstraintError(f"cell {text} is outside the {size}x{size} grid")
    return (row - 1) * size + col - 1


def constraint_data(constraint: Constraint, size: int) -> dict[str, Any]:
    """The canonical JSON-ready form of one constraint."""
    data: dict[str, Any] = {"kind": constraint.kind}
    for f in fields_of(type(constraint)):
        value = getattr(constraint, f.name)
        if value is not None:
            data[f.name] = _write(value, size) if f.name in constraint.cell_fields else value
    return data


def _write(value: Any, size: int) -> Any:
    if isinstance(value, int):
        return cell_name(value, size)
    return [_write(v, size) for v in value]


def _read(value: Any, size: int, depth: int) -> Any:
    """Cell names (a name, a list of names, or at depth 2 a list of such lists) as indices."""
    if depth == 0:
        return parse_cell(value, size)
    if not isinstance(value, list):
        raise ConstraintError(f"expected a list of cell names, not {value!r}")
    return tuple(_read(v, size, depth - 1) for v in value)


def constraint_from_data(data: Any, size: int) -> Constraint:
    """A constraint from its JSON form; `ConstraintError` says what is wrong with it."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ConstraintError(f"a constraint is an object with a 'kind', not {data!r}")
    kind = data["kind"]
    cls = KINDS.get(kind)
    if cls is None:
        raise ConstraintError(f"unknown constraint kind {kind!r} (kinds: {', '.join(KINDS)})")
    fields = {f.name: f for f in fields_of(cls)}
    unknown = sorted(set(data) - set(fields) - {"kind"})
    if unknown:
        raise ConstraintError(
            f"{kind}: unknown field {', '.join(map(repr, unknown))} "
            f"(fields: {', '.join(fields) or 'none'})"
        )
    values = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name in cls.cell_fields:
            depth = _CELL_DEPTH.get(name, 1)
            try:
                value = _read(value, size, depth)
            except ConstraintError as error:
                raise ConstraintError(f"{kind} {name}: {error}") from None
        values[name] = value
    missing = [n for n, f in fields.items() if n not in values and f.default is MISSING]
    if missing:
        raise ConstraintError(f"{kind}: missing {', '.join(missing)}")
    return cls(**values)


# -- one puzzle --------------------------------------------------------------------
def puzzle_data(grid: Grid, **extra: Any) -> dict[str, Any]:
    """The canonical JSON-ready form of a puzzle (``title=...`` and such go in `extra`)."""
    n = grid.size
    data: dict[str, Any] = {"size": n}
    if box_for(n) != (grid.box_rows, grid.box_cols):
        data["box"] = [grid.box_rows, grid.box_cols]
    data["givens"] = _cells_text(grid)
    data["constraints"] = [constraint_data(c, n) for c in grid.constraints]
    for key, value in extra.items():
        if value is not None:
            data[key] = _cells_text(value) if isinstance(value, Grid) else value
    return data


def _cells_text(grid: Grid) -> str | list[int]:
    symbols = default_symbols(grid.size)
    if not symbols:
        return list(grid.cells)
    return "".join(symbols[v - 1] if v else "." for v in grid.cells)


def box_for(size: int) -> tuple[int, int]:
    """The box shape a side gets when none is written (1 x N for a prime side: a jigsaw's)."""
    try:
        return box_shape_for(size)
    except ValueError:
        return 1, size


def puzzle_from_data(data: Any) -> tuple[Grid, dict[str, Any]]:
    """A puzzle from its JSON form, and its other fields (``title``, ``solution`` grid).

    Raises `PuzzleDataError` (naming the field) or `ConstraintError` (naming the
    constraint by its position, 1-based, and kind).
    """
    if not isinstance(data, dict):
        raise PuzzleDataError(f"a puzzle is a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - set(PUZZLE_KEYS))
    if unknown:
        raise PuzzleDataError(
            f"unknown field {', '.join(map(repr, unknown))} (fields: {', '.join(PUZZLE_KEYS)})"
        )
    size, box = _shape(data)
    givens = _grid(data.get("givens"), size, box, "givens")
    raw = data.get("constraints", [])
    if not isinstance(raw, list):
        raise PuzzleDataError("constraints: expected a list")
    constraints = []
    for i, item in enumerate(raw, 1):
        kind = item.get("kind", "?") if isinstance(item, dict) else "?"
        try:
            constraints.append(constraint_from_data(item, size))
        except ConstraintError as error:
            raise ConstraintError(f"constraint {i} ({kind}): {error}") from None
        except (TypeError, ValueError) as error:
            raise ConstraintError(f"constraint {i} ({kind}): {error}") from None
    grid = givens.with_constraints(tuple(constraints))
    extra: dict[str, Any] = {}
    if "title" in data:
        extra["title"] = str(data["title"])
    if data.get("solution") is not None:
        extra["solution"] = _grid(data["solution"], size, box, "solution")
    return grid, extra


def _shape(data: dict[str, Any]) -> tuple[int, tuple[int, int]]:
    box = data.get("box")
    if box is not None:
        if not (isinstance(box, list) and len(box) == 2 and all(isinstance(v, int) for v in box)):
            raise PuzzleDataError(f"box: expected [rows, cols], not {box!r}")
        box = (box[0], box[1])
    size = data.get("size")
    if size is None:
        size = _side_of(data.get("givens"))
    if not isinstance(size, int) or isinstance(size, bool) or size < 2:
        raise PuzzleDataError(f"size: expected a side such as 9, not {size!r}")
    box = box or box_for(size)
    if box[0] * box[1] != size:
        raise PuzzleDataError(f"box: {box[0]}x{box[1]} boxes do not tile a {size}x{size} grid")
    return size, box


def _side_of(givens: Any) -> Any:
    """The side the givens imply (None when they do not say)."""
    if isinstance(givens, str):
        cells = len("".join(givens.split()))
    elif isinstance(givens, list):
        cells = len(givens) ** 2 if givens and isinstance(givens[0], list) else len(givens)
    else:
        return None
    side = int(cells**0.5)
    return side if side * side == cells else None


def _grid(value: Any, size: int, box: tuple[int, int], what: str) -> Grid:
    if value is None:
        return Grid(box[0], box[1], (0,) * (size * size))
    try:
        if isinstance(value, str):
            return Grid.parse(value, box=box)
        if isinstance(value, list):
            flat = (
                [v for row in value for v in row] if value and isinstance(value[0], list) else value
            )
            return Grid(box[0], box[1], tuple(flat))
    except ValueError as error:
        raise PuzzleDataError(f"{what}: {error}") from None
    raise PuzzleDataError(f"{what}: expected a one-line grid or a list of integers")


def to_json(grid: Grid, *, indent: int | None = None, **extra: Any) -> str:
    """The puzzle as canonical JSON text (one line unless `indent`)."""
    return json.dumps(puzzle_data(grid, **extra), indent=indent)


def from_json(text: str) -> Grid:
    """The puzzle of a JSON text written by `to_json` (its extra fields dropped)."""
    return puzzle_from_data(json.loads(text))[0]
