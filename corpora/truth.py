"""Truth for whole corpora, streamed into the store (``verify --truth-only``).

The oracle (`solvers.oracle`) counts the solutions of each puzzle (0, 1, 2+)
chunk by chunk — with ``fast`` installed, one compiled call per chunk on
every core, else ``dlx`` puzzle by puzzle — and the truths are written to
the store per chunk, so memory stays flat for corpora of millions of
puzzles.  A puzzle whose truth the store already holds keeps it.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from harness.corpus import Corpus
from harness.records import Truth, puzzle_text
from harness.store import Store
from solvers.oracle import oracle_name, truth_stream
from solvers.verify import conflicts

CHUNK = 20_000  # puzzles per oracle call and per store transaction


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


def store_truths(store: Store, corpus: Corpus, *, chunk: int = CHUNK) -> TruthSummary:
    """Establish the truth of every puzzle of `corpus` and store it."""
    summary = TruthSummary(corpus.name, oracle_name())
    started = time.perf_counter()
    pending: list[Truth] = []
    for puzzle, count, solution in truth_stream(corpus.puzzles(), chunk=chunk):
        text, box = puzzle_text(puzzle.grid)
        answer = None
        if count >= 2:
            kind = "multiple"
        elif count == 1 and solution is not None:
            kind, answer = "unique", puzzle_text(solution)[0]
        else:
            kind = "invalid" if conflicts(puzzle.grid) else "none"
        summary.kinds[kind] += 1
        pending.append(Truth(text, kind, answer, summary.oracle, box))
        if len(pending) >= chunk:
            store.add_truths(pending)
            pending = []
    store.add_truths(pending)
    summary.seconds = time.perf_counter() - started
    return summary
