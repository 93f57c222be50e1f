"""Clue-pattern symmetries: the groups of cells a generator removes together.

A symmetric puzzle keeps or removes whole *orbits*: the cells a symmetry maps
onto each other.  The symmetry is of the clue positions only (the digits are
free), so every kind applies to every box shape, 6x6 included.

>>> orbits(4, "rot180")[:2]
[(0, 15), (1, 14)]
>>> orbits(4, "none")[:2]
[(0,), (1,)]
"""

from __future__ import annotations

from collections.abc import Callable

Map = Callable[[int, int, int], tuple[int, int]]  # (row, col, side) -> (row, col)

_IDENTITY: Map = lambda r, c, n: (r, c)  # noqa: E731
_ROT90: Map = lambda r, c, n: (c, n - 1 - r)  # noqa: E731
_ROT180: Map = lambda r, c, n: (n - 1 - r, n - 1 - c)  # noqa: E731
_ROT270: Map = lambda r, c, n: (n - 1 - c, r)  # noqa: E731
_MIRROR: Map = lambda r, c, n: (r, n - 1 - c)  # noqa: E731
_FLIP: Map = lambda r, c, n: (n - 1 - r, c)  # noqa: E731
_DIAGONAL: Map = lambda r, c, n: (c, r)  # noqa: E731
_ANTIDIAGONAL: Map = lambda r, c, n: (n - 1 - c, n - 1 - r)  # noqa: E731

SYMMETRIES: dict[str, tuple[Map, ...]] = {
    "none": (_IDENTITY,),
    "rot180": (_IDENTITY, _ROT180),
    "rot90": (_IDENTITY, _ROT90, _ROT180, _ROT270),
    "mirror": (_IDENTITY, _MIRROR),
    "flip": (_IDENTITY, _FLIP),
    "diagonal": (_IDENTITY, _DIAGONAL),
    "antidiagonal": (_IDENTITY, _ANTIDIAGONAL),
    "dihedral": (
        _IDENTITY,
        _ROT90,
        _ROT180,
        _ROT270,
        _MIRROR,
        _FLIP,
        _DIAGONAL,
        _ANTIDIAGONAL,
    ),
}
"""Each symmetry as the group of maps that generate its orbits."""


def orbits(size: int, kind: str) -> list[tuple[int, ...]]:
    """The cell groups of a symmetry, each sorted, in order of their first cell."""
    try:
        maps = SYMMETRIES[kind]
    except KeyError:
        raise ValueError(
            f"unknown symmetry {kind!r}: expected one of {', '.join(SYMMETRIES)}"
        ) from None
    seen: set[int] = set()
    groups = []
    for cell in range(size * size):
        if cell in seen:
            continue
        r, c = divmod(cell, size)
        group = tuple(sorted({rr * size + cc for rr, cc in (f(r, c, size) for f in maps)}))
        seen.update(group)
        groups.append(group)
    return groups


def is_symmetric(cells: tuple[int, ...] | list[int], size: int, kind: str) -> bool:
    """True when every orbit is either all clues or all blanks."""
    return all(len({bool(cells[i]) for i in group}) == 1 for group in orbits(size, kind))
