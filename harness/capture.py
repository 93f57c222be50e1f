"""What a solver prints, kept with its result instead of flooding the run's terminal.

While a worker solves a batch, its standard output and error (file
descriptors 1 and 2, so C code and child programs are caught too) go to a
temporary file.  After each solve the file is read and emptied: the text is
kept with that solve's result (``stats["output"]``), cut to its first and last
`KEEP` characters, and quoted at the end of the error text of a solve that
failed, where it most often says why.  The file never holds more than one
solve's output.

>>> import os
>>> with OutputTrap() as trap:
...     _ = os.write(1, b"chatty\\n")
...     trap.take()
'chatty'
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import tempfile
from collections.abc import Sequence

from harness.tasks import Outcome
from solvers.base import Status

KEEP = 1000  # characters kept from each end of a solve's output
ERROR_TAIL = 300  # characters of the output's end quoted in a failed solve's error
FAILED = frozenset({Status.ERROR, Status.MEMOUT, Status.TIMEOUT})


class OutputTrap:
    """Redirect file descriptors 1 and 2 to a temporary file; `take` what was written since."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._file: int | None = None
        self._saved: list[int] = []

    def __enter__(self) -> OutputTrap:
        _flush()
        try:
            saved = [os.dup(1), os.dup(2)]
        except OSError:  # no standard output to redirect: nothing to trap
            return self
        handle, path = tempfile.mkstemp(prefix="sudoku-bench-output-")
        os.unlink(path)  # gone when closed, however the worker ends
        self._file, self._saved = handle, saved
        os.dup2(handle, 1)
        os.dup2(handle, 2)
        return self

    def __exit__(self, *exc: object) -> None:
        _flush()
        for fd, saved in zip((1, 2), self._saved, strict=True):
            os.dup2(saved, fd)
            os.close(saved)
        self._saved = []
        if self._file is not None:
            os.close(self._file)
            self._file = None

    def take(self) -> str:
        """The output written since the last call (its ends, when long), and empty the file."""
        if self._file is None:
            return ""
        _flush()
        size = os.lseek(self._file, 0, os.SEEK_CUR)
        if not size:
            return ""
        limit = 4 * self.keep  # bytes: a UTF-8 character takes at most four
        if size <= 2 * limit:
            text = shorten(_decode(os.pread(self._file, size, 0)).strip(), self.keep)
        else:  # read only the ends of a long output
            head = _decode(os.pread(self._file, limit, 0)).lstrip()[: self.keep]
            tail = _decode(os.pread(self._file, limit, size - limit)).rstrip()[-self.keep :]
            text = f"{head}\n[... {size:,} bytes in all, the middle left out ...]\n{tail}"
        os.ftruncate(self._file, 0)
        os.lseek(self._file, 0, os.SEEK_SET)
        return text

    def attach(self, outcome: Outcome) -> Outcome:
        """`outcome` with the output taken now kept in its stats (and its error, if it failed)."""
        return with_output(outcome, self.take())

    def attach_all(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        """Outcomes solved in one call share its output: each keeps it."""
        text = self.take()
        return [with_output(o, text) for o in outcomes]


def with_output(outcome: Outcome, text: str) -> Outcome:
    """An outcome that keeps a solve's output."""
    if not text:
        return outcome
    stats = json.loads(outcome.stats)
    stats["output"] = text
    error = outcome.error
    if outcome.status in FAILED:
        tail = text[-ERROR_TAIL:]
        error = f"{error}; output: {tail}" if error else f"output: {tail}"
    return dataclasses.replace(outcome, stats=json.dumps(stats, default=str), error=error)


def shorten(text: str, keep: int) -> str:
    """`text` cut to its first and last `keep` characters, saying how much was left out."""
    if len(text) <= 2 * keep:
        return text
    left_out = len(text) - 2 * keep
    return f"{text[:keep]}\n[... {left_out} characters left out ...]\n{text[-keep:]}"


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
