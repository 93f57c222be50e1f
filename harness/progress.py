"""How far a run has got: done/total, rate, ETA, and failures so far.

On a terminal, a tqdm bar on stderr.  Elsewhere (a log file, a pipe, a CI
job) a bar would be noise, but silence for minutes looks like a hang: one
line every `LINE_EVERY` seconds instead, and one at the end::

    progress: 1,200/4,400 solves (27%), 6.0/s, about 9 min left; timeouts 3, errors 0, wrong 0
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from harness.records import Verdict
from solvers.base import Status

LINE_EVERY = 30.0  # seconds between progress lines when stderr is not a terminal


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Counts solves as they are stored; shows a bar on a terminal, lines elsewhere.

    `enabled`: True for the bar, False for nothing, None to choose by whether
    `out` is a terminal.  `clock` and `every` set when lines are due.
    """

    def __init__(
        self,
        total: int,
        *,
        enabled: bool | None = None,
        done: int = 0,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = LINE_EVERY,
    ) -> None:
        self.counts: Counter[str] = Counter()
        self.total, self.done, self.start_done = total, done, done
        self._out = out or sys.stderr
        self._clock, self._every = clock, every
        self._bar: Any = None
        self._lines = False
        self._started = self._last = clock()
        terminal = self._out.isatty()
        if enabled or (enabled is None and terminal):
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, initial=done, unit="solve", file=self._out, dynamic_ncols=True
            )
        elif enabled is None:
            self._lines = True

    def add(self, statuses: Iterable[Status], wrong: int = 0) -> None:
        """Record stored results: their statuses and how many were judged wrong."""
        n = 0
        for status in statuses:
            self.counts[status] += 1
            n += 1
        self.counts[Verdict.WRONG] += wrong
        self.done += n
        if self._bar is not None:
            c = self.counts
            self._bar.set_postfix(
                timeouts=c[Status.TIMEOUT] + c[Status.BUDGET],
                errors=c[Status.ERROR] + c[Status.MEMOUT],
                wrong=c[Verdict.WRONG],
                refresh=False,
            )
            self._bar.update(n)
        elif self._lines and self._clock() - self._last >= self._every:
            self._line()

    def line(self) -> str:
        """The progress so far as one line."""
        c = self.counts
        elapsed = self._clock() - self._started
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        left = self.total - self.done
        eta = f", about {_duration(left / rate)} left" if rate > 0 and left > 0 else ""
        timeouts = c[Status.TIMEOUT] + c[Status.BUDGET]
        errors = c[Status.ERROR] + c[Status.MEMOUT]
        return (
            f"progress: {self.done:,}/{self.total:,} solves{share}, {rate:.1f}/s{eta}; "
            f"timeouts {timeouts}, errors {errors}, wrong {c[Verdict.WRONG]}"
        )

    def _line(self) -> None:
        self._last = self._clock()
        print(self.line(), file=self._out, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._lines:
            self._line()
            self._lines = False
