"""Truth for whole corpora: how many solutions each puzzle has (0, 1, 2+).

The oracle (`solvers.oracle`) counts the solutions of each puzzle chunk by
chunk — with ``fast`` installed, one compiled call per chunk on every core,
else ``dlx`` puzzle by puzzle — so memory stays flat for corpora of millions
of puzzles.  `corpus_truths` streams one `PuzzleTruth` per puzzle; the
harness stores them (`harness.truth_store`, ``verify --truth-only``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from corpora.corpus import Corpus, Puzzle
from solvers.grid import Grid
from solvers.oracle import truth_stream
from solvers.verify import conflicts

CHUNK = 20_000  # puzzles per oracle call


@dataclass(frozen=True)
class PuzzleTruth:
    """What the oracle established about one puzzle."""

    puzzle: Puzzle
    kind: str  # "none", "unique", "multiple" or "invalid"
    solution: Grid | None = None  # the solution when it is unique


@dataclass
class TruthSummary:
    """How many puzzles of each kind a corpus holds, and how long it took."""

    corpus: str
    oracle: str
    kinds: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def puzzles(self) -> int:
        return sum(self.kinds.values())

    def line(self) -> str:
        """One line for the terminal."""
        kinds = ", ".join(f"{kind} {self.kinds[kind]}" for kind in sorted(self.kinds))
        rate = self.puzzles / self.seconds if self.seconds else 0.0
        return (
            f"{self.corpus}: {self.puzzles} puzzles ({kinds or 'none'}) by {self.oracle} "
            f"in {self.seconds:.1f} s ({rate:,.0f} puzzles/s)"
        )


def corpus_truths(
    corpus: Corpus, summary: TruthSummary | None = None, *, chunk: int = CHUNK
) -> Iterator[PuzzleTruth]:
    """The truth of every puzzle of `corpus`, in order; tallied into `summary` if given."""
    started = time.perf_counter()
    for puzzle, count, solution in truth_stream(corpus.puzzles(), chunk=chunk):
        if count >= 2:
            truth = PuzzleTruth(puzzle, "multiple")
        elif count == 1 and solution is not None:
            truth = PuzzleTruth(puzzle, "unique", solution)
        else:
            truth = PuzzleTruth(puzzle, "invalid" if conflicts(puzzle.grid) else "none")
        if summary is not None:
            summary.kinds[truth.kind] += 1
            summary.seconds = time.perf_counter() - started
        yield truth
