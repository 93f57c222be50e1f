"""Truth for whole corpora, streamed into the store (``verify --truth-only``).

A puzzle whose truth the store already holds keeps it; truths are written
one chunk per transaction, so a corpus of millions of puzzles keeps memory flat.
"""

from __future__ import annotations

from corpora import truth as corpus_truth
from corpora.corpus import Corpus
from corpora.truth import TruthSummary, corpus_truths
from harness.records import Truth, puzzle_text, solution_text
from harness.store import Store
from solvers.oracle import oracle_name


def store_truths(store: Store, corpus: Corpus, *, chunk: int | None = None) -> TruthSummary:
    """Establish the truth of every puzzle of `corpus` and store it, `chunk` at a time."""
    chunk = chunk or corpus_truth.CHUNK
    summary = TruthSummary(corpus.name, oracle_name())
    pending: list[Truth] = []
    for truth in corpus_truths(corpus, summary, chunk=chunk):
        text, box = puzzle_text(truth.puzzle.grid)
        answer = solution_text(truth.solution) if truth.solution is not None else None
        pending.append(Truth(text, truth.kind, answer, summary.oracle, box))
        if len(pending) >= chunk:
            store.add_truths(pending)
            pending = []
    store.add_truths(pending)
    return summary
