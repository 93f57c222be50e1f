"""The progress bar of a run: done/total, rate, ETA, and failures so far.

Drawn on stderr with tqdm when stderr is a terminal; silent otherwise, so
logs and pipes get only the final table.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any


class Progress:
    """Counts solves as they are stored; shows a bar when `enabled`."""

    def __init__(self, total: int, *, enabled: bool | None = None, done: int = 0) -> None:
        self.counts: Counter[str] = Counter()
        self._bar: Any = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, initial=done, unit="solve", file=sys.stderr, dynamic_ncols=True
            )

    def add(self, statuses: Iterable[str], wrong: int = 0) -> None:
        """Record stored results: their statuses and how many were judged wrong."""
        n = 0
        for status in statuses:
            self.counts[status] += 1
            n += 1
        self.counts["WRONG"] += wrong
        if self._bar is not None:
            c = self.counts
            self._bar.set_postfix(
                timeouts=c["TIMEOUT"] + c["BUDGET"],
                errors=c["ERROR"] + c["MEMOUT"],
                wrong=c["WRONG"],
                refresh=False,
            )
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
