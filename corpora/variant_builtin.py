"""The recipes of the built-in variant corpora: puzzles with constraints, made from fixed seeds.

Each corpus is one or more ``sudoku-bench generate --variant`` runs (a
`VariantPart`), written as a native JSON list, one puzzle per line
(`corpora.native`), with the same index entry as the classic corpora
(`corpora.builtin`) plus ``kinds``: how many puzzles carry each constraint
kind.  Every puzzle's solution is unique by construction (the generator
proves it with CP-SAT); the index holds it as the puzzle's truth.

There are no difficulty levels: the generator's difficulty targets are classic ratings.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from corpora.variant_generate import ORDER, Made, kinds_of, make_many
from solvers.base import Status
from solvers.grid import box_shape_for
from solvers.variants import kinds
from solvers.variants.canonical import puzzle_data


@dataclass(frozen=True)
class VariantPart:
    """One ``generate --variant`` run: the kinds (together in each puzzle), box, count, seed."""

    count: int
    seed: str
    kinds: tuple[str, ...]
    box: tuple[int, int] = (3, 3)

    @property
    def size(self) -> int:
        return self.box[0] * self.box[1]

    def command(self) -> str:
        """The `sudoku-bench generate` command line that makes the same puzzles."""
        words = ["sudoku-bench", "generate"]
        for kind in kinds_of(self.kinds):
            words += ["--variant", kind]
        if box_shape_for(self.size) == self.box:
            words += ["--size", str(self.size)]
        else:
            words += ["--box", f"{self.box[0]}x{self.box[1]}"]
        words += ["--count", str(self.count), "--seed", self.seed]
        return shlex.join(words)

    def make(self, count: int | None = None, *, jobs: int = 1) -> Iterator[Made]:
        """The puzzles (the first `count` of them when given), as ``generate --variant``
        makes them."""
        n = self.count if count is None else min(count, self.count)
        return make_many(self.kinds, self.box, n, self.seed, jobs=jobs)


@dataclass(frozen=True)
class VariantRecipe:
    """A built-in variant corpus: its name, what it is for, and the runs that make it."""

    name: str
    description: str
    parts: tuple[VariantPart, ...]

    @property
    def file(self) -> str:
        return f"{self.name}.json"


def _one_kind(name: str, kind: str, what: str) -> VariantRecipe:
    return VariantRecipe(
        name, f"50 9x9 {what} puzzles ({kind}), unique", (VariantPart(50, name, (kind,)),)
    )


MIXED = (("killer", "diagonal"), ("jigsaw", "xv"), ("thermometer", "kropki"))
"""The combinations of kinds the mixed corpus adds to its single kinds."""

RECIPES: tuple[VariantRecipe, ...] = (
    _one_kind("killer9", "killer", "killer"),
    _one_kind("jigsaw9", "jigsaw", "jigsaw"),
    _one_kind("x9", "diagonal", "X (both diagonals)"),
    _one_kind("thermo9", "thermometer", "thermometer"),
    _one_kind("antiknight9", "anti-knight", "anti-knight"),
    _one_kind("kropki9", "kropki", "Kropki"),
    VariantRecipe(
        "mixed9",
        f"3 9x9 puzzles of every constraint kind, and 3 of each of {len(MIXED)} "
        "combinations; unique",
        (
            *(VariantPart(3, f"mixed9-{kind}", (kind,)) for kind in ORDER),
            *(VariantPart(3, f"mixed9-{'+'.join(ks)}", ks) for ks in MIXED),
        ),
    ),
    VariantRecipe(
        "variants6",
        "3 6x6 puzzles of every constraint kind; unique",
        tuple(VariantPart(3, f"variants6-{kind}", (kind,), (2, 3)) for kind in ORDER),
    ),
    VariantRecipe(
        "jigsaw16",
        "10 16x16 jigsaw puzzles, unique",
        (VariantPart(10, "jigsaw16", ("jigsaw",), (4, 4)),),
    ),
)
"""``jigsaw16`` is small because each 16x16 puzzle takes about half a minute to make (a
random layout solved, then 256 uniqueness proofs); some random 16x16 layouts have no
solution at all, and the generator draws another (`corpora.variant_generate.LAYOUTS`)."""


def build(
    r: VariantRecipe,
    *,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The file text and index entry of a variant corpus (as `corpora.builtin.build`)."""
    made: list[Made] = []
    for part in r.parts:
        if progress:
            progress(f"{r.name}: {part.command()}")
        for m in part.make(jobs=jobs):
            made.append(m)
            if tick:
                tick()
    text = "[\n" + ",\n".join(json.dumps(puzzle_data(m.puzzle)) for m in made) + "\n]\n"
    return text, entry(r, made)


def entry(r: VariantRecipe, made: list[Made]) -> dict[str, Any]:
    """The index entry: the classic corpora's fields, ``kinds``, and the truth per puzzle."""
    givens = [m.puzzle.givens for m in made]
    carried = Counter(kind for m in made for kind in kinds(m.puzzle))
    return {
        "name": r.name,
        "file": r.file,
        "description": r.description,
        "sizes": sorted({m.puzzle.size for m in made}),
        "count": len(made),
        "statuses": {Status.SOLVED: len(made)},
        "clues": {
            "min": min(givens),
            "max": max(givens),
            "mean": round(sum(givens) / len(givens), 1),
        },
        "kinds": {kind: carried[kind] for kind in ORDER if carried[kind]},
        "levels": {},
        "made": [part.command() for part in r.parts],
        "rated_by": None,
        "truth": [
            {
                "id": f"{r.name}:{k}",
                "status": Status.SOLVED,
                "solutions": 1,
                "clues": m.puzzle.givens,
                "solution": m.solution.format("line"),
            }
            for k, m in enumerate(made, 1)
        ],
    }
