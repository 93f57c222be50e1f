"""Tables that fit the terminal: the last (free-text) column wraps to the width left."""

from __future__ import annotations

from collections.abc import Sequence

from tabulate import tabulate

MIN_LAST = 20  # columns the last column keeps however narrow the terminal


def fitted_table(
    table: Sequence[Sequence[object]],
    headers: Sequence[str],
    width: int,
    widths: Sequence[int | None] = (),
) -> str:
    """The table with its last column wrapped so that lines fit in `width` columns.

    `widths` caps the other columns (None: as wide as their text), in order.
    """
    others = list(widths) + [None] * (len(headers) - 1 - len(widths))
    last = max(MIN_LAST, width)
    while True:
        text = tabulate(table, headers=headers, maxcolwidths=[*others, last], disable_numparse=True)
        widest = max(len(line) for line in text.splitlines())
        if widest <= width or last <= MIN_LAST:
            return text
        last = max(MIN_LAST, last - (widest - width))
