"""Duplicate puzzles inside and across corpora: exact copies, and isomorphic ones.

`Duplicates` sees puzzles one at a time, corpus after corpus, and says of
each whether it repeats an earlier one: the same text (an exact copy), or
the same canonical form (`corpora.canonical`: equal up to relabelling,
row, column, band and stack permutations and transposition).  It remembers
one key per distinct puzzle, so memory grows with the distinct puzzles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from corpora.canonical import Canonicalizer, kind
from corpora.corpus import Puzzle, puzzle_key

NEW, COPY, ISOMORPH = "new", "copy", "isomorph"


@dataclass
class Duplicates:
    """The first corpus of each puzzle seen, by exact key and by canonical form."""

    isomorphs: bool = True  # False: exact copies only (no canonical forms: faster)
    by_text: dict[str, str] = field(default_factory=dict)  # puzzle key -> first corpus
    by_form: dict[str, str] = field(default_factory=dict)  # canonical form -> first corpus
    counts: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)  # full / partial / none
    canonicalizer: Canonicalizer = field(default_factory=Canonicalizer)

    def see(self, corpus: str, puzzle: Puzzle) -> tuple[str, str | None]:
        """(NEW, None), or (COPY or ISOMORPH, the corpus of the first one it repeats)."""
        key = puzzle_key(puzzle.grid)
        first = self.by_text.get(key)
        form = self._form(puzzle) if self.isomorphs else None
        if first is not None:
            verdict: tuple[str, str | None] = (COPY, first)
        elif form is not None and form in self.by_form:
            verdict = (ISOMORPH, self.by_form[form])
        else:
            verdict = (NEW, None)
        self.by_text.setdefault(key, corpus)
        if form is not None:
            self.by_form.setdefault(form, corpus)
        if verdict[0] != NEW:
            self.counts[(corpus, verdict[0], verdict[1] or "")] += 1
        return verdict

    def _form(self, puzzle: Puzzle) -> str | None:
        form = self.canonicalizer(puzzle.grid)
        self.kinds[kind(puzzle.grid) if form is not None else "none"] += 1
        return form

    def lines(self, corpus: str) -> list[str]:
        """What `corpus` repeats: of itself, and of each earlier corpus."""
        found = []
        for (name, what, first), n in sorted(self.counts.items()):
            if name != corpus:
                continue
            where = "earlier in this corpus" if first == corpus else f"of {first}"
            how = "exact copies" if what == COPY else "isomorphic copies (not exact)"
            found.append(f"{n} {how} {where}")
        return found
