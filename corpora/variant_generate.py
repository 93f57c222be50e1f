"""Variant puzzles with a unique solution, made from a solved grid (the generator's start).

`make(kind, box, seed)` follows one recipe for every constraint kind:

1. a random solution: of the empty grid under the kind's whole-grid rules
   (anti-knight, a jigsaw's regions, windows ...) when it has some, found by a
   complete solver that takes them from a few random givens; rules that no
   grid keeps (a random jigsaw layout can have no solution at all, as on
   16x16) are drawn again, up to `LAYOUTS` times;
2. clues of the kind that this solution keeps (cages and their sums,
   thermometers along increasing paths, dots where the digits allow them ...);
3. givens removed in random order while the puzzle keeps exactly one
   solution, as the oracle proves with ``limit=2`` (`solvers.oracle`).

Every random choice comes from ``random.Random(seed)``, so a seed gives the
same puzzle on every machine.

>>> from solvers.verify import check
>>> made = make("killer", (2, 2), seed=1)
>>> made.puzzle.constraints[0].kind, check(made.puzzle, made.solution)
('killer', [])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from solvers import oracle
from solvers.base import Status
from solvers.grid import Grid, Shape, shape
from solvers.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)

ATTEMPTS = 50  # random starts tried for a solution of the whole-grid rules
LAYOUTS = 10  # draws of the whole-grid rules tried when a draw has no solution at all


@dataclass(frozen=True)
class Made:
    """A generated puzzle and its unique solution."""

    puzzle: Grid
    solution: Grid


class NoPuzzle(RuntimeError):
    """The recipe found no puzzle (whole-grid rules no grid of this shape keeps)."""


class NoGrid(NoPuzzle):
    """The whole-grid rules themselves have no solution (proved on the empty grid)."""


# -- whole-grid rules: chosen before the solution ------------------------------------
def windows(s: Shape) -> tuple[ExtraRegion, ...]:
    """Box-shaped windows one cell in from each box corner, where they fit (windoku:
    four on 9x9, two on 6x6)."""
    n, br, bc = s.size, s.box_rows, s.box_cols
    tops = range(1, n - br + 1, br + 1)
    lefts = range(1, n - bc + 1, bc + 1)
    return tuple(
        ExtraRegion(tuple((t + i) * n + left + j for i in range(br) for j in range(bc)))
        for t in tops
        for left in lefts
    )


def random_jigsaw(s: Shape, rng: random.Random, swaps: int = 400) -> Jigsaw:
    """Irregular connected regions of N cells: the boxes, reshaped by random swaps of
    border cells between neighbouring regions that keep both regions connected."""
    n = s.size
    owner = [s.box_of(c) for c in range(s.ncells)]
    for _ in range(swaps):
        a = rng.randrange(s.ncells)
        b = rng.choice(_neighbours(a, n))
        ra, rb = owner[a], owner[b]
        if ra == rb:
            continue
        candidates = [c for c in range(s.ncells) if owner[c] == rb and c != b]
        c = rng.choice(candidates)
        if not any(owner[x] == ra for x in _neighbours(c, n)):
            continue
        owner[a], owner[c] = rb, ra  # a joins b's region, c joins a's
        if not (_connected(owner, ra, n) and _connected(owner, rb, n)):
            owner[a], owner[c] = ra, rb
    return Jigsaw(tuple(tuple(c for c in range(s.ncells) if owner[c] == r) for r in range(n)))


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def _connected(owner: list[int], region: int, n: int) -> bool:
    cells = {c for c, o in enumerate(owner) if o == region}
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for nb in _neighbours(todo.pop(), n):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


GLOBAL: dict[str, Callable[[Shape, random.Random], tuple[Constraint, ...]]] = {
    "jigsaw": lambda s, rng: (random_jigsaw(s, rng),),
    "extra-region": lambda s, rng: windows(s),
    "disjoint-groups": lambda s, rng: (DisjointGroups(),),
    "diagonal": lambda s, rng: (Diagonal("main"), Diagonal("anti")),
    "anti-knight": lambda s, rng: (AntiKnight(),),
    "anti-king": lambda s, rng: (AntiKing(),),
    "non-consecutive": lambda s, rng: (NonConsecutive(),),
}
"""The kinds whose rules come first, and the solution after."""


def random_solution(empty: Grid, rng: random.Random) -> Grid:
    """A solution of `empty`'s rules: a complete solver from a few random givens
    (fewer as attempts fail; none at the last).

    The first start proved to lead nowhere has the rules solved alone once:
    `NoGrid` when they have no solution, rather than 50 starts that cannot succeed.
    """
    n = empty.size
    checked = not empty.constraints
    for attempt in range(ATTEMPTS):
        cells = [0] * (n * n)
        count = n // 2 if attempt < ATTEMPTS // 2 else 2 if attempt < ATTEMPTS - 1 else 0
        for cell in rng.sample(range(n * n), count):
            cells[cell] = rng.randint(1, n)
        result = oracle.solve_many([empty.replace(cells)], limit=1)[0]
        if result.solution is not None:  # givens that conflict or lead nowhere: none
            return result.solution
        if result.status is Status.UNSOLVABLE and not checked:
            checked = True
            if oracle.solve_many([empty], limit=1)[0].status is Status.UNSOLVABLE:
                raise NoGrid("the whole-grid rules have no solution")
    raise NoPuzzle(f"no solution found from {ATTEMPTS} random starts")


# -- clues read off a solution -------------------------------------------------------
def _walk(
    start: int, n: int, rng: random.Random, length: int, ok: Callable[[list[int], int], bool]
) -> list[int]:
    """A random king-move path from `start` of at most `length` cells, each step
    accepted by ``ok(path, next_cell)``."""
    path = [start]
    while len(path) < length:
        r, c = divmod(path[-1], n)
        steps = [
            (r + dr) * n + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
        ]
        steps = [x for x in steps if x not in path and ok(path, x)]
        if not steps:
            break
        path.append(rng.choice(steps))
    return path


def _cages(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    """Cover the grid with connected cages of 1 to 4 cells of different digits."""
    n, v = sol.size, sol.cells
    free = set(range(n * n))
    cages = []
    while free:
        cage = [min(free)]
        free.discard(cage[0])
        target = rng.randint(2, 4)
        while len(cage) < target:
            options = [
                x
                for c in cage
                for x in _neighbours(c, n)
                if x in free and v[x] not in {v[y] for y in cage}
            ]
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            free.discard(pick)
        cages.append(Killer(tuple(cage), sum(v[c] for c in cage)))
    return tuple(cages)


def _little_killers(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    n, v = sol.size, sol.cells
    found = []
    for start in range(1, n - 1):  # down-right diagonals from the top edge
        cells = tuple((i) * n + start + i for i in range(n - start))
        found.append(LittleKiller(cells, sum(v[c] for c in cells)))
    for start in range(1, n - 1):  # down-left diagonals from the top edge
        cells = tuple(i * n + start - i for i in range(start + 1))
        found.append(LittleKiller(cells, sum(v[c] for c in cells)))
    return tuple(rng.sample(found, k=max(2, len(found) * 2 // 3)))


def _thermometers(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    n, v = sol.size, sol.cells
    found: list[Constraint] = []
    used: set[int] = set()
    for start in rng.sample(range(n * n), n * n):
        if start in used or v[start] > 2:
            continue
        path = _walk(start, n, rng, n, lambda p, x: x not in used and v[x] > v[p[-1]])
        if len(path) >= 3:
            found.append(Thermometer(tuple(path)))
            used.update(path)
        if len(found) >= n - 1:
            break
    return tuple(found)


def _arrows(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    n, v = sol.size, sol.cells
    found: list[Constraint] = []
    used: set[int] = set()
    for circle in rng.sample(range(n * n), n * n):
        if circle in used or v[circle] < 3:
            continue
        target = v[circle]
        taken = used | {circle}

        def fits(p: list[int], x: int, taken: set[int] = taken, target: int = target) -> bool:
            return x not in taken and sum(v[c] for c in p) + v[x] <= target

        for _ in range(20):
            first = rng.choice([x for x in _neighbours(circle, n) if x not in used] or [circle])
            if first == circle:
                break
            path = _walk(first, n, rng, n, fits)
            while path and sum(v[c] for c in path) > target:
                path.pop()
            if len(path) >= 2 and sum(v[c] for c in path) == target:
                found.append(Arrow((circle,), tuple(path)))
                used.update(path + [circle])
                break
        if len(found) >= n:
            break
    return tuple(found)


def _orthogonal_pairs(n: int) -> list[tuple[int, int]]:
    return [(a, a + 1) for a in range(n * n) if a % n < n - 1] + [
        (a, a + n) for a in range(n * n - n)
    ]


def _dots(sol: Grid, rng: random.Random, share: float) -> list[Constraint]:
    v = sol.cells
    found: list[Constraint] = []
    for a, b in _orthogonal_pairs(sol.size):
        white = abs(v[a] - v[b]) == 1
        black = v[a] == 2 * v[b] or v[b] == 2 * v[a]
        if (white or black) and rng.random() < share:
            colour = "black" if black and (not white or rng.random() < 0.5) else "white"
            found.append(Kropki((a, b), colour))
    return found


def _signs(sol: Grid, rng: random.Random, share: float) -> list[Constraint]:
    v = sol.cells
    return [
        XV((a, b), v[a] + v[b])
        for a, b in _orthogonal_pairs(sol.size)
        if v[a] + v[b] in (5, 10) and rng.random() < share
    ]


def _parity(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    cells = rng.sample(range(sol.size**2), sol.size**2 // 3)
    return tuple(Parity(c, "odd" if sol.cells[c] % 2 else "even") for c in cells)


def _greater(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    v = sol.cells
    pairs = rng.sample(_orthogonal_pairs(sol.size), len(_orthogonal_pairs(sol.size)) // 2)
    return tuple(GreaterThan((a, b) if v[a] > v[b] else (b, a)) for a, b in pairs)


def _sandwiches(sol: Grid, rng: random.Random) -> tuple[Constraint, ...]:
    n, v = sol.size, sol.cells
    lines = [tuple(r * n + c for c in range(n)) for r in range(n)]
    lines += [tuple(r * n + c for r in range(n)) for c in range(n)]
    found = []
    for line in lines:
        digits = [v[c] for c in line]
        low, high = sorted((digits.index(1), digits.index(n)))
        found.append(Sandwich(line, sum(digits[low + 1 : high])))
    return tuple(found)


CLUES: dict[str, Callable[[Grid, random.Random], tuple[Constraint, ...]]] = {
    "killer": _cages,
    "little-killer": _little_killers,
    "thermometer": _thermometers,
    "arrow": _arrows,
    "kropki": lambda sol, rng: tuple(_dots(sol, rng, 0.5)),
    "kropki-negative": lambda sol, rng: (
        *_dots(sol, rng, 1.0),
        KropkiNegative("white"),
        KropkiNegative("black"),
    ),
    "xv": lambda sol, rng: tuple(_signs(sol, rng, 0.6)),
    "xv-negative": lambda sol, rng: (*_signs(sol, rng, 1.0), XVNegative()),
    "parity": _parity,
    "greater-than": _greater,
    "sandwich": _sandwiches,
}
"""The kinds read off a solution."""


# -- the puzzle ----------------------------------------------------------------------
ORDER = (*GLOBAL, *CLUES)
"""Every kind the generator makes, in the order its rules are applied."""

APART: tuple[frozenset[str], ...] = (
    frozenset({"kropki", "kropki-negative"}),  # both draw dots between the same pairs
    frozenset({"xv", "xv-negative"}),  # both draw signs between the same pairs
    frozenset({"jigsaw", "disjoint-groups"}),  # disjoint groups need boxes
)
"""Kinds the recipe cannot put in one puzzle."""


def kinds_of(kind: str | Sequence[str]) -> tuple[str, ...]:
    """The kinds asked for, without repeats, in `ORDER`; `ValueError` for an unknown kind
    or kinds that cannot go together."""
    asked = (kind,) if isinstance(kind, str) else tuple(kind)
    unknown = [k for k in asked if k not in ORDER]
    if unknown or not asked:
        raise ValueError(f"unknown kind {(unknown or [''])[0]!r} (kinds: {', '.join(ORDER)})")
    chosen = tuple(k for k in ORDER if k in asked)
    for pair in APART:
        if pair <= set(chosen):
            raise ValueError(f"{' and '.join(sorted(pair))} do not go together in one puzzle")
    return chosen


def make(kind: str | Sequence[str], box: tuple[int, int] = (2, 3), seed: int | str = 0) -> Made:
    """A puzzle of one constraint kind (or several together) with a unique solution and
    few givens.

    The whole-grid rules of every kind come first, then the solution, then the clues
    of every kind read off it.  `NoPuzzle` when no solution of the rules was found.
    """
    chosen = kinds_of(kind)
    rng = random.Random(f"{'+'.join(chosen)}:{box[0]}x{box[1]}:{seed}")
    s = shape(*box)
    blank = Grid(box[0], box[1], (0,) * s.ncells)
    for _ in range(LAYOUTS):
        rules = [c for k in chosen if k in GLOBAL for c in GLOBAL[k](s, rng)]
        empty = blank.with_constraints(tuple(rules)) if rules else blank
        try:
            solution = random_solution(empty, rng)
            break
        except NoGrid:
            continue
    else:
        raise NoPuzzle(f"no draw of the whole-grid rules has a solution ({LAYOUTS} tried)")
    clues = [c for k in chosen if k in CLUES for c in CLUES[k](solution, rng)]
    if clues:
        empty = empty.with_constraints((*empty.constraints, *clues))
    puzzle = minimise(empty.replace(solution.cells), rng)
    return Made(puzzle, solution.with_constraints(()))


def make_many(
    kind: str | Sequence[str],
    box: tuple[int, int],
    count: int,
    seed: int | str,
    *,
    jobs: int = 1,
    level: str | None = None,
    attempts: int = 100,
) -> Iterator[Made]:
    """`count` puzzles, the i-th (from 0) made with seed ``f"{seed}:{i}"``, in order, by
    `jobs` processes: the same puzzles whether made in one run or several, with any `jobs`.
    With a `level`, each is the first of its seed's draws the human engine rates at it."""
    seeds = [f"{seed}:{i}" for i in range(count)]
    make_one = partial(make_at, level=level, attempts=attempts) if level else make
    if jobs == 1:
        yield from (make_one(kind, box, s) for s in seeds)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(make_one, [kind] * count, [box] * count, seeds)


def make_at(
    kind: str | Sequence[str], box: tuple[int, int], seed: int | str, *, level: str, attempts: int
) -> Made:
    """The first of the draws ``f"{seed}/{a}"`` (a = 0, 1, ...) that the human engine rates
    at difficulty `level` (`corpora.rating`); `NoPuzzle` after `attempts` draws."""
    from corpora import rating

    for a in range(attempts):
        made = make(kind, box, f"{seed}/{a}")
        if rating.rate(made.puzzle).level == level:
            return made
    raise NoPuzzle(f"no draw rated {level} in {attempts} attempts")


def minimise(puzzle: Grid, rng: random.Random) -> Grid:
    """Remove givens in random order while the puzzle keeps a unique solution."""
    cells = list(puzzle.cells)
    for cell in rng.sample(range(len(cells)), len(cells)):
        if not cells[cell]:
            continue
        digit, cells[cell] = cells[cell], 0
        if oracle.count_solutions(puzzle.replace(cells)) != 1:
            cells[cell] = digit
    return puzzle.replace(cells)
