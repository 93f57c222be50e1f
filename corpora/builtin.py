"""The recipes of the built-in corpora, and the build that makes them byte for byte.

Every shipped corpus is one or more `generate` runs with fixed seeds (a
`Part`), written one puzzle per line, plus an entry in ``corpora/data/index.json``
with how it was made and, per puzzle, the known truth (status, solution count,
the solution, the rating).  ``sudoku-bench corpora build`` rewrites them all;
``--check`` regenerates without writing and fails on any difference.

The variant corpora (puzzles with constraints, as native JSON) have their
recipes in `corpora.variant_builtin`; they are built, indexed and checked here
with the rest.

Difficulty levels come from the human-style engine, so the rated corpora
depend on its version (recorded in the index): a change of the engine's
ratings shows up as a difference in ``--check``.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpora import rating, variant_builtin
from corpora.corpus import BUILTIN_DIR, INDEX_FILE
from corpora.generate import Made, Spec, generate, spec_for_size
from corpora.variant_builtin import VariantRecipe
from solvers.base import Status

INDEX_FORMAT = 1


@dataclass(frozen=True)
class Part:
    """One `generate` run: options, count and seed."""

    count: int
    seed: str
    size: int = 9
    options: dict[str, Any] = field(default_factory=dict)

    def spec(self) -> Spec:
        return spec_for_size(self.size, **self.options)

    def command(self) -> str:
        """The `sudoku-bench generate` command line that makes the same puzzles."""
        words = ["sudoku-bench", "generate", "--size", str(self.size)]
        words += ["--count", str(self.count), "--seed", self.seed]
        for key, value in self.options.items():
            option = "--" + key.replace("_", "-")
            if value is True:
                words.append(option)
            elif isinstance(value, tuple):
                words += [option, f"{value[0]}..{value[1]}"]
            else:
                words += [option, str(value)]
        return shlex.join(words)


@dataclass(frozen=True)
class Recipe:
    """A built-in corpus: its name, what it is for, and the runs that make it."""

    name: str
    description: str
    parts: tuple[Part, ...]

    @property
    def file(self) -> str:
        return f"{self.name}.txt"


_LEVEL_ATTEMPTS = 2000  # Unfair is about 1 in 16 random minimal 9x9 puzzles


def _level(level: str, seed: str) -> Recipe:
    return Recipe(
        f"gen9-{level.lower()}",
        f"200 9x9 puzzles the human engine rates {level}; unique, minimal by construction",
        (Part(200, seed, 9, {"difficulty": level, "attempts": _LEVEL_ATTEMPTS}),),
    )


def _edge(kind: str, description: str, counts: dict[int, int]) -> Recipe:
    parts = tuple(
        Part(count, f"edge-{kind}-{size}", size, {"kind": kind}) for size, count in counts.items()
    )
    return Recipe(f"edge-{kind}", description, parts)


CLASSIC: tuple[Recipe, ...] = (
    *(_level(level, f"level-{level.lower()}") for level in rating.LEVELS),
    Recipe(
        "gen9-minimal",
        "100 random 9x9 puzzles, each verified minimal (no clue can go)",
        (Part(100, "minimal-9", 9, {"minimal": True}),),
    ),
    Recipe(
        "gen9-symmetric",
        "60 9x9 puzzles with symmetric clue patterns (rot180, rot90, dihedral; 20 each)",
        (
            Part(20, "rot180-9", 9, {"symmetry": "rot180"}),
            Part(20, "rot90-9", 9, {"symmetry": "rot90"}),
            Part(20, "dihedral-9", 9, {"symmetry": "dihedral"}),
        ),
    ),
    Recipe("gen4", "50 random 4x4 puzzles, unique and minimal", (Part(50, "size-4", 4),)),
    Recipe(
        "gen6", "50 random 6x6 puzzles (2x3 boxes), unique and minimal", (Part(50, "size-6", 6),)
    ),
    Recipe(
        "gen12",
        "20 random 12x12 puzzles (3x4 boxes), unique and minimal",
        (Part(20, "size-12", 12),),
    ),
    Recipe(
        "gen16",
        "30 random 16x16 puzzles, unique, carved down to 44% clues",
        (Part(30, "size-16", 16),),
    ),
    Recipe(
        "gen25",
        "3 random 25x25 puzzles, unique, carved down to 51% clues",
        (Part(3, "size-25", 25),),
    ),
    _edge(
        "invalid",
        "givens that break the rules (a digit twice in a unit): solvers must answer INVALID",
        {4: 3, 6: 3, 9: 5, 16: 2},
    ),
    _edge(
        "unsolvable",
        "no conflicting givens but no solution: complete solvers must answer UNSOLVABLE",
        {4: 3, 6: 3, 9: 5, 16: 2},
    ),
    _edge(
        "multiple",
        "two or more solutions: with limit 2, complete solvers must answer MULTIPLE",
        {4: 3, 6: 3, 9: 5, 16: 2},
    ),
    _edge(
        "empty",
        "the empty grid of each size (very many solutions)",
        {4: 1, 6: 1, 9: 1, 12: 1, 16: 1, 25: 1},
    ),
    _edge(
        "solved",
        "a solved grid of each size: nothing to do but check",
        {4: 1, 6: 1, 9: 1, 12: 1, 16: 1, 25: 1},
    ),
)

RECIPES: tuple[Recipe | VariantRecipe, ...] = (*CLASSIC, *variant_builtin.RECIPES)
"""Every built-in corpus, in the index's order: the classic ones, then the variants."""

BY_NAME = {recipe.name: recipe for recipe in RECIPES}


def recipe(name: str) -> Recipe | VariantRecipe:
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"no built-in corpus {name!r}: expected one of {', '.join(BY_NAME)}"
        ) from None


# -- making ------------------------------------------------------------------
@dataclass
class Built:
    """A corpus made in memory: its file text and its index entry."""

    recipe: Recipe | VariantRecipe
    text: str
    entry: dict[str, Any]


def make_part(
    part: Part,
    *,
    jobs: int = 1,
    count: int | None = None,
    tick: Callable[[], None] | None = None,
) -> list[Made]:
    """The puzzles of one part (the first `count` of them when given); `tick` after each."""
    n = part.count if count is None else min(count, part.count)
    made = []
    for puzzle in generate(part.spec(), n, seed=part.seed, jobs=jobs):
        made.append(puzzle)
        if tick:
            tick()
    return made


def build(
    r: Recipe | VariantRecipe,
    *,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> Built:
    """Make every puzzle of a recipe and the text and index entry describing them.

    `progress` gets a line per part, `tick` a call per puzzle made (for a bar).
    """
    if isinstance(r, VariantRecipe):
        return Built(r, *variant_builtin.build(r, jobs=jobs, progress=progress, tick=tick))
    made: list[Made] = []
    for part in r.parts:
        if progress:
            progress(f"{r.name}: {part.command()}")
        made.extend(make_part(part, jobs=jobs, tick=tick))
    lines = list(header(r)) + [puzzle_line(m) for m in made]
    first_line = len(header(r)) + 1
    truth = [_truth(f"{r.name}:{first_line + i}", m) for i, m in enumerate(made)]
    return Built(r, "\n".join(lines) + "\n", _entry(r, made, truth))


def header(r: Recipe) -> list[str]:
    """The comment lines that open a corpus file."""
    return [
        f"# {r.name}: {r.description}",
        *(f"# made by: {part.command()}" for part in r.parts),
        "# rebuild byte for byte: sudoku-bench corpora build "
        f"--only {r.name}; truth per puzzle in corpora/data/index.json",
    ]


def puzzle_line(made: Made) -> str:
    return made.puzzle.format("line") if made.puzzle.symbols else made.puzzle.format("numbers")


def _rated(made: Made) -> rating.Rated | None:
    if made.rated is not None:
        return made.rated
    if made.status == Status.SOLVED and not made.puzzle.is_complete and rating.available():
        return rating.rate(made.puzzle)
    return None


def _truth(puzzle_id: str, made: Made) -> dict[str, Any]:
    solutions = {Status.SOLVED: 1, Status.MULTIPLE: 2, Status.UNSOLVABLE: 0, Status.INVALID: 0}[
        made.status
    ]
    entry: dict[str, Any] = {"id": puzzle_id, "status": made.status, "solutions": solutions}
    entry["clues"] = made.puzzle.givens
    rated = _rated(made)
    if rated is not None:
        entry.update(level=rated.level, er=rated.er)
    if made.status == Status.SOLVED and made.solution is not None:
        entry["solution"] = made.solution.format("line")
    return entry


def _entry(r: Recipe, made: list[Made], truth: list[dict[str, Any]]) -> dict[str, Any]:
    sizes = sorted({m.puzzle.size for m in made})
    givens = [m.puzzle.givens for m in made]
    levels = Counter(t["level"] for t in truth if "level" in t)
    statuses = Counter(m.status for m in made)
    engine = _engine() if levels else None
    return {
        "name": r.name,
        "file": r.file,
        "description": r.description,
        "sizes": sizes,
        "count": len(made),
        "statuses": dict(sorted(statuses.items())),
        "clues": {
            "min": min(givens),
            "max": max(givens),
            "mean": round(sum(givens) / len(givens), 1),
        },
        "levels": {level: levels[level] for level in rating.LEVELS if levels[level]},
        "made": [part.command() for part in r.parts],
        "rated_by": engine,
        "truth": truth,
    }


def _engine() -> str:
    import importlib

    return str(importlib.import_module("solvers.human").ENGINE)


# -- the index file ----------------------------------------------------------
def index_text(entries: list[dict[str, Any]]) -> str:
    """The index as JSON: one line per field, one line per puzzle's truth."""
    blocks = []
    for entry in entries:
        meta = [f'   "{k}": {json.dumps(v)}' for k, v in entry.items() if k != "truth"]
        truth = ",\n".join("    " + json.dumps(t) for t in entry["truth"])
        blocks.append("  {\n" + ",\n".join(meta) + ',\n   "truth": [\n' + truth + "\n   ]\n  }")
    body = ",\n".join(blocks)
    return f'{{\n "format": {INDEX_FORMAT},\n "corpora": [\n{body}\n ]\n}}\n'


def build_all(
    names: list[str] | None = None,
    *,
    directory: Path = BUILTIN_DIR,
    write: bool = True,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> Iterator[tuple[str, bool]]:
    """Build the named corpora (all by default); yield (name, unchanged).

    With `write`, changed files and the index are rewritten; entries of the
    corpora not rebuilt are kept as they are in the index.  `progress` and
    `tick` are as for `build` (`puzzle_count` gives the total ticks).
    """
    chosen = [recipe(n) for n in names] if names else list(RECIPES)
    index_path = directory / INDEX_FILE.name
    old = _read_index(index_path)
    entries = dict(old)
    for r in chosen:
        built = build(r, jobs=jobs, progress=progress, tick=tick)
        path = directory / r.file
        unchanged = path.is_file() and path.read_text(encoding="utf-8") == built.text
        unchanged = unchanged and old.get(r.name) == built.entry
        if write:
            path.write_text(built.text, encoding="utf-8")
        entries[r.name] = built.entry
        yield r.name, unchanged
    if write:
        ordered = [entries[r.name] for r in RECIPES if r.name in entries]
        index_path.write_text(index_text(ordered), encoding="utf-8")


def puzzle_count(names: list[str] | None = None) -> int:
    """How many puzzles building the named corpora (all by default) makes."""
    chosen = [recipe(n) for n in names] if names else list(RECIPES)
    return sum(part.count for r in chosen for part in r.parts)


def _read_index(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entry["name"]: entry for entry in data["corpora"]}
