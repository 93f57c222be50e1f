"""The puzzle generator: a random complete grid, then clues removed while the
solution stays unique.

Each puzzle is carved from a random solution (`corpora.fill`): the clue
groups of the chosen symmetry are visited in a random order and a group is
removed when the puzzle keeps exactly one solution, as a complete solver
proves with ``limit=2`` (`solvers.oracle`) — or, cheaper, as singles prove
when every removed cell is forced straight back.  Removing clues can only add
solutions, so a clue that could not go once can never go later: one pass
leaves a puzzle from which no single group can be removed.  ``minimal``
verifies the stronger property cell by cell.

Puzzle ``i`` of a run with seed ``s``, attempt ``j``, draws every random choice
from ``random.Random(f"{s}:{i}:{j}")``, so the same seed gives the same
puzzles on every machine, in any order, with any number of workers, and with
whichever complete solver the oracle uses (the answers of a complete solver
do not depend on which one it is).

    >>> spec = Spec(box=(2, 2))
    >>> made = make(spec, seed=1, index=0)
    >>> made.puzzle.size, made.status, made.solution.is_complete
    (4, <Status.SOLVED: 'SOLVED'>, True)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from corpora import rating
from corpora.broken import break_puzzle
from corpora.fill import random_solution
from corpora.symmetry import SYMMETRIES, orbits
from corpora.trusted import with_cells
from solvers import oracle
from solvers.base import Status
from solvers.grid import Grid, box_shape_for

KINDS = ("unique", "invalid", "unsolvable", "multiple", "solved", "empty")
"""What to make: proper puzzles; broken ones for testing solvers' error paths
(conflicting givens, no solution, several solutions); or the trivial ends, a
random solved grid and the empty grid."""

FLOOR_SHARE = {16: 0.44, 25: 0.51}
"""Default lowest clue share per side, where a pure-Python uniqueness check is
still cheap (measured: below about 40% of 16x16 and 48% of 25x25 the dlx
checks grow from milliseconds to seconds).  Smaller sides go to minimal."""


class TargetNotMet(RuntimeError):
    """No puzzle met the target within the attempts allowed."""


@dataclass(frozen=True)
class Spec:
    """What a generated puzzle must be; every field has a usable default."""

    box: tuple[int, int] = (3, 3)
    kind: str = "unique"
    symmetry: str = "none"
    minimal: bool = False
    clues: tuple[int, int] | None = None  # inclusive range of givens
    difficulty: str | None = None  # a rating.LEVELS name
    rating: tuple[float, float] | None = None  # SE-style ER range
    require: tuple[str, ...] = ()  # techniques the solve path must use
    attempts: int = 100  # fresh grids tried per puzzle before giving up
    budget: int | None = None  # nodes per check; None: no cap (a cap makes output oracle-dependent)

    def __post_init__(self) -> None:
        rows, cols = self.box
        if rows < 1 or cols < 1 or rows * cols < 4:
            raise ValueError(f"a box of {rows}x{cols} makes no puzzle: the side must be >= 4")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if self.symmetry not in SYMMETRIES:
            raise ValueError(
                f"unknown symmetry {self.symmetry!r}: expected one of {', '.join(SYMMETRIES)}"
            )
        if self.clues is not None:
            low, high = self.clues
            if not 0 <= low <= high <= self.size**2:
                raise ValueError(f"clues {low}..{high}: expected 0 <= MIN <= MAX <= {self.size**2}")
        if self.difficulty is not None:
            object.__setattr__(self, "difficulty", rating.level_name(self.difficulty))
        if self.require:
            names = tuple(rating.technique_name(t) for t in self.require)
            object.__setattr__(self, "require", names)
        if self.rating is not None and not self.rating[0] <= self.rating[1]:
            raise ValueError(f"rating {self.rating[0]}..{self.rating[1]}: MIN > MAX")
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, not {self.attempts}")

    @property
    def size(self) -> int:
        return self.box[0] * self.box[1]

    @property
    def rated(self) -> bool:
        """True when the target needs the human engine's rating."""
        return bool(self.difficulty or self.rating or self.require)

    def clue_range(self) -> tuple[int, int]:
        """The givens allowed: the explicit range, or from the default floor up."""
        if self.clues is not None:
            return self.clues
        if self.minimal:
            return 0, self.size**2
        share = FLOOR_SHARE.get(self.size, 0.0)
        return math.ceil(share * self.size**2), self.size**2


def spec_for_size(size: int, **options: object) -> Spec:
    """A `Spec` for a side (4, 6, 9, 12, 16, 25, ...) with its usual box shape."""
    return Spec(box=box_shape_for(size), **options)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Made:
    """One generated puzzle and what is known about it."""

    index: int
    puzzle: Grid
    solution: Grid | None  # the unique solution (unique, unsolvable-from); None otherwise
    status: Status  # the truth: SOLVED (unique), MULTIPLE, UNSOLVABLE or INVALID
    seed: str  # the seed of the attempt that made it
    attempts: int
    rated: rating.Rated | None = None
    minimal: bool | None = None  # verified when asked for
    undecided: int = 0  # uniqueness checks the budget cut short (clue kept)
    misses: Counter[str] = field(default_factory=Counter)  # why earlier attempts failed


def make(spec: Spec, *, seed: int | str, index: int) -> Made:
    """Puzzle `index` of the run with `seed`; `TargetNotMet` after `spec.attempts`."""
    misses: Counter[str] = Counter()
    for attempt in range(spec.attempts):
        attempt_seed = f"{seed}:{index}:{attempt}"
        made, miss = _attempt(spec, random.Random(attempt_seed), attempt_seed)
        if made is not None:
            return replace(made, index=index, attempts=attempt + 1, misses=misses)
        misses[miss] += 1
    spread = ", ".join(f"{why} {n}" for why, n in misses.most_common())
    hint = ""
    if spec.minimal and spec.symmetry != "none":
        hint = (
            "; symmetric puzzles are seldom minimal cell by cell (about 4 in 100 for rot180, "
            "almost never for rot90 or dihedral)"
        )
    raise TargetNotMet(
        f"puzzle {index} (seed {seed}): no puzzle met the target in {spec.attempts} "
        f"attempts ({spread}); raise --attempts or relax the target{hint}"
    )


def _attempt(spec: Spec, rng: random.Random, seed: str) -> tuple[Made | None, str]:
    """One fresh grid carved to the target; (None, reason) when it misses."""
    solution = random_solution(*spec.box, rng)
    if spec.kind in ("solved", "empty"):
        return _trivial(spec, solution, seed), ""
    low, high = spec.clue_range()
    stop_at = rng.randint(low, high) if spec.clues is not None else low
    puzzle, undecided = carve(
        solution, rng, spec.symmetry, floor=low, stop_at=stop_at, budget=spec.budget
    )
    if not low <= puzzle.givens <= high:
        return None, f"{puzzle.givens} clues"
    made = Made(0, puzzle, solution, Status.SOLVED, seed, 0, undecided=undecided)
    if spec.minimal:
        if not is_minimal(puzzle):
            return None, "not minimal"
        made = replace(made, minimal=True)
    if spec.rated:
        rated = rating.rate(puzzle)
        miss = _rating_miss(spec, rated)
        if miss:
            return None, miss
        made = replace(made, rated=rated)
    if spec.kind == "unique":
        return made, ""
    broken = break_puzzle(spec.kind, puzzle, solution, rng, spec.symmetry)
    if broken is None:
        return None, f"no {spec.kind} variant"
    return replace(made, puzzle=broken[0], solution=None, status=broken[1]), ""


def _rating_miss(spec: Spec, rated: rating.Rated) -> str:
    if spec.difficulty and rated.level != spec.difficulty:
        return f"level {rated.level}"
    if spec.rating and not spec.rating[0] <= rated.er <= spec.rating[1]:
        return f"ER {rated.er:.1f}"
    missing = [t for t in spec.require if t not in rated.techniques]
    if missing:
        return f"without {missing[0]}"
    return ""


def carve(
    solution: Grid,
    rng: random.Random,
    symmetry: str = "none",
    *,
    floor: int = 0,
    stop_at: int = 0,
    budget: int | None = None,
) -> tuple[Grid, int]:
    """Remove clue groups in a random order while the solution stays unique.

    Never goes below `floor` givens and stops once at most `stop_at` remain.
    Returns the puzzle and how many checks the `budget` left undecided (such a
    group is kept, so the answer stays unique either way).
    """
    cells = list(solution.cells)
    groups = orbits(solution.size, symmetry)
    rng.shuffle(groups)
    givens = len(cells)
    undecided = 0
    for group in groups:
        if givens <= stop_at:
            break
        if givens - len(group) < floor:
            continue
        saved = [cells[i] for i in group]
        for i in group:
            cells[i] = 0
        verdict = _forced(cells, group, solution) or _unique(with_cells(solution, cells), budget)
        if verdict:
            givens -= len(group)
            continue
        undecided += verdict is None
        for i, v in zip(group, saved, strict=True):
            cells[i] = v
    return solution.replace(cells), undecided


def _forced(cells: list[int], group: tuple[int, ...], solution: Grid) -> bool:
    """True when every cell of the removed group is a naked or hidden single.

    Then any solution must put the removed digits back, so the puzzle keeps
    the one solution it had: uniqueness proved without a search.  (The
    candidates here come from the givens alone, a superset of the real ones,
    so a single found here is a single in every solution.)  Most removals
    while the grid is still full are settled this way.
    """
    sh = solution.shape
    peers, units = sh.peers, sh.units
    full = sh.size - 1
    for cell in group:
        seen = {cells[p] for p in peers[cell]}
        seen.discard(0)
        if len(seen) == full:
            continue  # naked single: one digit left
        digit = solution.cells[cell]
        if not any(
            all(
                cells[other] or any(cells[p] == digit for p in peers[other])
                for other in units[u]
                if other != cell
            )
            for u in sh.cell_units[cell]
        ):
            return False  # neither a naked nor a hidden single
    return True


def _unique(puzzle: Grid, budget: int | None) -> bool | None:
    """True when exactly one solution is proved; None when the budget ran out."""
    if budget is None:
        result = oracle.solve_many([puzzle], limit=2)[0]
    else:
        from solvers.registry import get

        result = get(oracle.oracle_name()).solve(puzzle, limit=2, budget=budget)
    if len(result.solutions) >= 2:
        return False
    if result.unique:
        return True
    return None if result.status in (Status.BUDGET, Status.TIMEOUT) else False


def is_minimal(puzzle: Grid) -> bool:
    """True when removing any single clue leaves two or more solutions."""
    variants = []
    for i, v in enumerate(puzzle.cells):
        if v:
            cells = list(puzzle.cells)
            cells[i] = 0
            variants.append(with_cells(puzzle, cells))
    return all(len(r.solutions) >= 2 for r in oracle.solve_many(variants, limit=2))


def _trivial(spec: Spec, solution: Grid, seed: str) -> Made:
    if spec.kind == "solved":
        return Made(0, solution, solution, Status.SOLVED, seed, 0)
    return Made(0, Grid.empty(*spec.box), None, Status.MULTIPLE, seed, 0)


# -- many puzzles ------------------------------------------------------------
def generate(
    spec: Spec,
    count: int,
    *,
    seed: int | str = 0,
    jobs: int = 1,
    start: int = 0,
) -> Iterator[Made]:
    """Puzzles ``start .. start+count-1`` of the run with `seed`, in order.

    With ``jobs > 1`` the puzzles are made in worker processes; the output is
    the same as with one job.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    if spec.rated:
        rating.require()  # fail before any work when the engine is missing
    indices = range(start, start + count)
    if jobs == 1 or count < 2:
        for index in indices:
            yield make(spec, seed=seed, index=index)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_make_job, [(spec, seed, i) for i in indices], chunksize=1)


def _make_job(job: tuple[Spec, int | str, int]) -> Made:
    spec, seed, index = job
    return make(spec, seed=seed, index=index)


def summarize(made: Sequence[Made]) -> dict[str, object]:
    """Counts and clue statistics of a batch, for progress lines and the index."""
    givens = [m.puzzle.givens for m in made]
    levels = Counter(m.rated.level for m in made if m.rated)
    return {
        "count": len(made),
        "clues": {"min": min(givens), "max": max(givens), "mean": sum(givens) / len(givens)}
        if givens
        else {},
        "levels": dict(sorted(levels.items())),
        "attempts": sum(m.attempts for m in made),
    }
