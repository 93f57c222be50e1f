"""Truth into the store: whole corpora streamed (``verify --truth-only``), and a run's puzzles.

`store_truths` streams whole corpora through the oracle's batch API; a puzzle
whose truth the store already holds keeps it, and truths are written one
chunk per transaction, so a corpus of millions of puzzles keeps memory flat.

`settle` is how a run gets its truths: in the parent process, before any
worker starts, so none of the user's limits (``--memory``, ``--timeout``)
applies to the oracle.  Each puzzle is asked of a chain of complete solvers
(`solvers.oracle.oracle_chain`: the oracle, then fall-backs) until one gives
a conclusive, verified answer; a puzzle none can settle is kept with the
reasons, so its verdicts say why they are ``UNKNOWN``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from corpora import truth as corpus_truth
from corpora.corpus import Corpus
from corpora.truth import TruthSummary, corpus_truths
from harness.crosscheck import answer_problems
from harness.records import Truth, grid_of, puzzle_text, solution_text
from harness.store import Store
from solvers.base import Solver, SolveResult, Status
from solvers.grid import Grid
from solvers.oracle import oracle_name
from solvers.registry import get
from solvers.verify import conflicts

ORACLE_SECONDS = 60.0  # per puzzle and oracle: the least time a truth is given
GIVE_UP_AFTER = 3  # an oracle that fails this many puzzles in a row is asked no more
SETTLE_CHUNK = 1000  # puzzles looked up and stored per transaction

Key = tuple[str, str]  # (puzzle text, box), as stored


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


@dataclass
class Settlement:
    """How a run's truths were had: found now, known before, and the puzzles left without."""

    oracles: tuple[str, ...]
    found: int = 0
    known: int = 0
    unsettled: dict[Key, str] = field(default_factory=dict)  # puzzle -> why it has no truth

    def why(self, key: Key) -> str:
        """Why a puzzle has no truth, for its verdicts' reason."""
        return self.unsettled.get(key) or f"no oracle ({', '.join(self.oracles)}) answered"


def settle(
    store: Store,
    keys: Iterable[Key],
    oracles: Sequence[str],
    *,
    time_limit: float = ORACLE_SECONDS,
    chunk: int = SETTLE_CHUNK,
) -> Settlement:
    """Establish and store the truth of every puzzle in `keys` the store does not know yet."""
    settlement = Settlement(tuple(oracles))
    chain = _Chain(oracles, time_limit)
    stream = iter(keys)
    while batch := list(dict.fromkeys(islice(stream, chunk))):
        known = store.truths(batch)
        settlement.known += len(known)
        found: list[Truth] = []
        for key in batch:
            if key in known:
                continue
            truth, why = chain.ask(key)
            if truth is None:
                settlement.unsettled[key] = why
            else:
                found.append(truth)
        store.add_truths(found)
        settlement.found += len(found)
    return settlement


class _Chain:
    """The oracles of one settlement, each created once, dropped after repeated failures."""

    def __init__(self, oracles: Sequence[str], time_limit: float) -> None:
        self.oracles = list(oracles)
        self.time_limit = time_limit
        self.dropped: dict[str, str] = {}  # oracle -> why it is asked no more
        self.failures: dict[str, int] = dict.fromkeys(self.oracles, 0)
        self.solvers: dict[str, Solver] = {}

    def ask(self, key: Key) -> tuple[Truth | None, str]:
        """The truth of one puzzle, or None and why each oracle failed."""
        try:
            grid = grid_of(*key)
        except ValueError as exc:
            return None, f"the puzzle cannot be read: {exc}"
        reasons = []
        for spec in self.oracles:
            if spec in self.dropped:
                reasons.append(self.dropped[spec])
                continue
            truth, why = self._ask_one(spec, grid, key)
            if truth is not None:
                self.failures[spec] = 0
                return truth, ""
            reasons.append(f"{spec}: {why}")
        return None, "; ".join(reasons)

    def _ask_one(self, spec: str, grid: Grid, key: Key) -> tuple[Truth | None, str]:
        try:
            if spec not in self.solvers:
                self.solvers[spec] = get(spec)
            solver = self.solvers[spec]
            support = solver.handles(grid)
            if not support:
                return None, support.reason
            result = solver.solve(grid, limit=2, time_limit=self.time_limit)
        except Exception as exc:  # MemoryError included: the next oracle is asked
            why = f"{type(exc).__name__}: {exc}".rstrip(": ")
            self.failures[spec] += 1
            if self.failures[spec] >= GIVE_UP_AFTER:
                self.dropped[spec] = f"{spec}: {why}"  # the same words: one reason, counted once
            return None, why
        return conclusion(result, grid, key, spec)


def conclusion(result: SolveResult, grid: Grid, key: Key, oracle: str) -> tuple[Truth | None, str]:
    """The truth a complete solver's answer (asked for two solutions) establishes, or why none.

    Every solution is verified first: an oracle's bad grid settles nothing.
    """
    problem = answer_problems(grid, result.status, result.solutions)
    if problem:
        return None, f"gave a bad answer ({problem})"
    texts = [solution_text(s) for s in result.solutions]
    status = result.status
    kind = None
    if status is Status.INVALID or (status is Status.UNSOLVABLE and conflicts(grid)):
        kind = "invalid"
    elif status is Status.MULTIPLE:
        kind = "multiple"
    elif status is Status.SOLVED and result.exhausted:
        kind = "unique"
    elif status is Status.UNSOLVABLE and result.exhausted:
        kind = "none"
    if kind is None:
        detail = f": {result.message}" if result.message else ""
        return None, f"{status.value}{detail}"
    solution = texts[0] if kind == "unique" else None
    return Truth(key[0], kind, solution, oracle, key[1]), ""


def puzzle_keys(corpora: Iterable[Corpus]) -> Iterator[Key]:
    """The stored (text, box) of every readable puzzle of some corpora, streamed."""
    for corpus in corpora:
        for puzzle in corpus.puzzles(strict=False):
            yield puzzle_text(puzzle.grid)
