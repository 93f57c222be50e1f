"""The HoDoKu figures: a second pass over the puzzle in HoDoKu's order of techniques.

HoDoKu scores a puzzle by the path its own solver takes: at each state it tries
its techniques in a fixed order (full house, naked single, hidden single, locked
pair ... forcing nets), applies the first step found, and adds that technique's
score; the level is the highest level among the techniques used, raised while
the score passes the level's maximum.  The engine's own path follows Sudoku
Explainer's order instead, so its techniques, and therefore the sum, differ.

`hodoku_path` solves the puzzle again with HoDoKu's order (`ORDER`: HoDoKu 2.2's
default solver steps with their scores and levels, each with the finders that
find its steps) and sums HoDoKu's scores.  Where the choice among several steps
decides the rest of the path, it chooses as HoDoKu does: the singles come from
two queues filled as candidates disappear (a cell left with one candidate, a unit
left with one place for a digit), oldest first (`Queues`, kept beside the
engine's state); locked candidates, subsets, wings, empty rectangles and remote
pairs have finders of their own in HoDoKu's scan order and definitions
(`solvers.human.hodoku_finders`); X-chains, XY-chains and nice loops are chosen
by most eliminations (`solvers.human.hodoku_chains`).  The other techniques use
the engine's finders, which choose among equal steps by their own scan, so a
path can still part from HoDoKu's there.  HoDoKu's Franken fish have no finder;
its grouped nice loops are found as the engine's grouped turbot fish and grouped
three-link chains.  Its forcing chains and nets are its own, from its tables
(`solvers.human.hodoku_tabling`), and where they fail, as HoDoKu does, the pass
guesses (`BruteForce`): the default configuration's pass always finishes.
Engine techniques HoDoKu lacks (`ENGINE_ONLY`, the engine's forcing chains among
them) come after all of HoDoKu's, so another configuration's pass finishes
wherever the engine does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import solvers
from solvers.fast import available as fast_available
from solvers.grid import Grid
from solvers.human.engine import check_step
from solvers.human.hodoku_finders import FINDERS, STANDS_FOR, Finder
from solvers.human.state import CandidateState, digits
from solvers.human.step import Step
from solvers.human.table import BY_NAME, resolve


@dataclass(frozen=True)
class HodokuStep:
    """One of HoDoKu's solver steps: its place in HoDoKu's order, name, score and level,
    and the finders that find it (engine technique names, or the pass's own)."""

    index: int
    name: str
    score: int
    level: str
    finders: tuple[str, ...]


def _steps(text: str) -> tuple[HodokuStep, ...]:
    out = []
    for line in text.strip().splitlines():
        head, finders = line.split("|")
        index, score, level, name = head.split(None, 3)
        out.append(HodokuStep(int(index), name.strip(), int(score), level, tuple(finders.split())))
    return tuple(out)


ORDER: tuple[HodokuStep, ...] = _steps(
    """
100  4   Easy    Full House                 | full_house
200  4   Easy    Naked Single               | naked_single
300  14  Easy    Hidden Single              | hidden_single
1000 40  Medium  Locked Pair                | locked_pair
1100 60  Medium  Locked Triple              | locked_triple
1200 50  Medium  Locked Candidates Type 1   | pointing
1210 50  Medium  Locked Candidates Type 2   | claiming
1300 60  Medium  Naked Pair                 | naked_pair
1400 80  Medium  Naked Triple               | naked_triple
1500 70  Medium  Hidden Pair                | hidden_pair
1600 100 Medium  Hidden Triple              | hidden_triple
2000 120 Hard    Naked Quadruple            | naked_quad
2100 150 Hard    Hidden Quadruple           | hidden_quad
2200 140 Hard    X-Wing                     | x_wing
2300 150 Hard    Swordfish                  | swordfish
2400 160 Hard    Jellyfish                  | jellyfish
2800 110 Hard    Remote Pair                | remote_pair
2900 100 Hard    BUG+1                      | bug_plus_one
3000 130 Hard    Skyscraper                 | skyscraper
3100 150 Hard    2-String Kite              | two_string_kite
3120 120 Hard    Turbot Fish                | turbot_fish
3170 120 Hard    Empty Rectangle            | empty_rectangle
3200 150 Hard    W-Wing                     | w_wing
3300 160 Hard    XY-Wing                    | xy_wing
3400 180 Hard    XYZ-Wing                   | xyz_wing
3500 100 Hard    Uniqueness Test 1          | unique_rectangle
3600 100 Hard    Uniqueness Test 2          | unique_rectangle_2
3700 100 Hard    Uniqueness Test 3          | unique_rectangle_3
3800 100 Hard    Uniqueness Test 4          | unique_rectangle_4
3900 100 Hard    Uniqueness Test 5          | unique_rectangle_5
4000 100 Hard    Uniqueness Test 6          | unique_rectangle_6
4010 100 Hard    Hidden Rectangle           | hidden_rectangle
4020 100 Hard    Avoidable Rectangle Type 1 | avoidable_rectangle_1
4030 100 Hard    Avoidable Rectangle Type 2 | avoidable_rectangle_2
4100 130 Hard    Finned X-Wing              | finned_x_wing
4200 150 Hard    Sashimi X-Wing             | sashimi_x_wing
4300 200 Unfair  Finned Swordfish           | finned_swordfish
4400 240 Unfair  Sashimi Swordfish          | sashimi_swordfish
4500 250 Unfair  Finned Jellyfish           | finned_jellyfish
4600 260 Unfair  Sashimi Jellyfish          | sashimi_jellyfish
5300 250 Unfair  Sue de Coq                 | sue_de_coq
5330 150 Hard    Simple Colors              | simple_colouring
5360 200 Hard    Multi Colors               | multi_colouring
5400 260 Unfair  X-Chain                    | x_chains three_strong_links x_chain forcing_x_chain
5500 260 Unfair  XY-Chain                   | xy_chains xy_chain
5600 280 Unfair  Nice Loop/AIC              | nice_loops bidirectional_cycle forcing_chain
5650 300 Unfair  Grouped Nice Loop/AIC      | grouped_turbot_fish grouped_three_strong_links
5700 300 Unfair  ALS-XZ                     | wxyz_wing vwxyz_wing uvwxyz_wing als_xz
5800 320 Unfair  ALS-XY-Wing                | als_xy_wing
5900 340 Unfair  ALS-XY-Chain               | als_chain
8500 500 Extreme Forcing Chain              | tabled_chains
8600 700 Extreme Forcing Net                | tabled_nets
8900 10000 Extreme Brute Force              | brute_force
"""
)
"""HoDoKu 2.2's default solver steps, in its order, with its scores and levels, and the
finders standing for each (tried in the order listed).  The pass's own finders are in
`solvers.human.hodoku_finders` (``brute_force`` is `BruteForce`, bound to the solution);
the rest are engine techniques.  HoDoKu's
Franken X-Wing and Swordfish, also on by default there, have no finder here."""

SINGLES = ("full_house", "naked_single", "hidden_single")

PLACING = frozenset(
    {"Full House", "Naked Single", "Hidden Single", "Forcing Chain", "Forcing Net", "Brute Force"}
)
"""The HoDoKu steps that place digits; the others only eliminate, so where an engine
technique places a digit (a BUG+1, say) the pass eliminates the cell's other candidates
instead and lets a naked single place it, as HoDoKu does."""

ENGINE_ONLY: tuple[str, ...] = (
    "aligned_pair_exclusion",
    "aligned_triple_exclusion",
    "unique_loop",
    "bug_type_2",
    "bug_type_4",
    "bug_type_3",
    "bug_plus_n",
    "medusa_3d",
    "death_blossom",
    "nishio",
    "cell_forcing_chain",
    "region_forcing_chain",
    "dynamic_forcing_chain",
    "dynamic_forcing_chain_plus",
    "nested_forcing_chain",
    "nested_multiple_chain",
    "nested_dynamic_chain",
)
"""Engine techniques HoDoKu's default solver does not use, tried after all of HoDoKu's
steps with the technique table's score and level (the direct techniques are left out:
HoDoKu takes their two steps one at a time).  The engine's forcing chains are here: the
default configuration's pass takes HoDoKu's tables and brute force instead, so only a
configuration without them reaches these."""

HODOKU_DEFAULT = frozenset(name for step in ORDER for name in step.finders)
"""The finders of HoDoKu's default steps: the pass of the default configuration uses
them all, some of which (finned fish, Sue de Coq, the almost locked sets) the engine's
own path leaves off."""


@dataclass
class HodokuPath:
    """What the HoDoKu-order pass did: its score, the techniques used with their counts,
    and whether it finished."""

    score: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # HoDoKu step name -> steps
    levels: set[str] = field(default_factory=set)
    solved: bool = False

    @property
    def steps(self) -> int:
        return sum(self.counts.values())


class Queues:
    """HoDoKu's bookkeeping of singles, beside the engine's state.

    ``naked`` holds (cell, digit) for each cell left with one candidate, ``hidden``
    (cell, digit) for each unit left with one place for a digit (the unit's lowest
    such cell), both in the order the candidates went: placing a digit removes it from
    the peers in cell order, then the cell's other candidates in digit order.
    """

    def __init__(self, grid: Grid) -> None:
        s = grid.shape
        self.n = s.size
        self.units = s.units
        self.cell_units = s.cell_units
        self.peers = s.peers
        self.cand = [(1 << self.n) - 1] * s.ncells
        self.values = [0] * s.ncells
        self.free = [self.n] * (3 * self.n * self.n)  # free[u*n + d-1]: open cells of u taking d
        self.naked: deque[tuple[int, int]] = deque()
        self.hidden: deque[tuple[int, int]] = deque()
        for cell, digit in enumerate(grid.cells):
            if digit:
                self.place(cell, digit)

    def _lowest(self, u: int, bit: int) -> int | None:
        cand = self.cand
        return next((c for c in self.units[u] if cand[c] & bit), None)

    def _fewer(self, u: int, digit: int) -> None:
        i = u * self.n + digit - 1
        self.free[i] -= 1
        if self.free[i] == 1:
            cell = self._lowest(u, 1 << (digit - 1))
            if cell is not None:
                self.hidden.append((cell, digit))

    def eliminate(self, cell: int, digit: int) -> None:
        bit = 1 << (digit - 1)
        m = self.cand[cell]
        if not m & bit:
            return
        m ^= bit
        self.cand[cell] = m
        for u in self.cell_units[cell]:
            self._fewer(u, digit)
        if m and not m & (m - 1):
            self.naked.append((cell, m.bit_length()))

    def place(self, cell: int, digit: int) -> None:
        if self.values[cell] == digit:
            return
        self.values[cell] = digit
        for p in self.peers[cell]:
            self.eliminate(p, digit)
        m = self.cand[cell]
        self.cand[cell] = 0
        n = self.n
        for d in range(1, n + 1):
            if m >> (d - 1) & 1:
                for u in self.cell_units[cell]:
                    i = u * n + d - 1
                    self.free[i] -= 1
                    if self.free[i] == 1 and d != digit:
                        other = self._lowest(u, 1 << (d - 1))
                        if other is not None:
                            self.hidden.append((other, d))

    def follow(self, state: CandidateState) -> None:
        """Catch up with changes the engine's state made beyond a step's own (none in a
        classic grid): placements first, then eliminations, in cell order."""
        if self.cand == state.cand and self.values == state.values:
            return  # (in step: the usual case)
        for cell, value in enumerate(state.values):
            if value and not self.values[cell]:
                self.place(cell, value)
        for cell, m in enumerate(state.cand):
            extra = self.cand[cell] & ~m
            while extra:
                low = extra & -extra
                extra ^= low
                self.eliminate(cell, low.bit_length())

    def full_house(self) -> tuple[int, int] | None:
        """The oldest naked single that is the last open cell of a unit (the queue kept)."""
        n, free = self.n, self.free
        for cell, digit in self.naked:
            if self.values[cell]:
                continue
            for u in self.cell_units[cell]:
                if all(free[u * n + d] == 0 for d in range(n) if d != digit - 1):
                    return cell, digit
        return None

    def naked_single(self) -> tuple[int, int] | None:
        """The oldest naked single still open (older entries dropped)."""
        while self.naked:
            cell, digit = self.naked.popleft()
            if not self.values[cell]:
                return cell, digit
        return None

    def hidden_single(self) -> tuple[int, int] | None:
        """The oldest queued hidden single of an open cell; as in HoDoKu, an entry that no
        longer holds ends the look for this step."""
        while self.hidden:
            cell, digit = self.hidden.popleft()
            if not self.values[cell]:
                for u in self.cell_units[cell]:
                    if self.free[u * self.n + digit - 1] == 1:
                        return cell, digit
                return None
        return None


def pass_steps(techniques: str | Iterable[str] | None) -> list[tuple[HodokuStep, str, Finder]]:
    """(HoDoKu step, finder name, finder) in the pass's order for an engine configuration:
    its techniques, and for the default configuration (None or ``all``) and ``extended``
    every finder of HoDoKu's default steps; then the configured techniques HoDoKu lacks."""
    chosen = {t.name for t in resolve(techniques)}
    if techniques is None or techniques in ("all", "extended"):
        chosen |= HODOKU_DEFAULT
    out = []
    for step in ORDER:
        for name in step.finders:
            if name in chosen or STANDS_FOR.get(name, name) in chosen:
                find = _unguessed if name == "brute_force" else FINDERS.get(name)
                out.append((step, name, find or BY_NAME[name].find))
    for name in ENGINE_ONLY:
        if name in chosen:
            t = BY_NAME[name]
            out.append((HodokuStep(9000, t.title, t.score, t.level, (name,)), name, t.find))
    return out


def hodoku_path(
    grid: Grid,
    techniques: str | Iterable[str] | None = None,
    start: CandidateState | None = None,
    *,
    solution: Grid | None = None,
    unique: Grid | None = None,
) -> HodokuPath:
    """Solve `grid` in HoDoKu's order with the engine's finders (see the module doc);
    `techniques` is the engine configuration, `start` the grid's untouched state (it is
    copied, not changed); with `solution`, every step is checked against it first
    (`UnsoundStep`).  `unique`, the grid's solution where it is known to be the only
    one, spares brute force solving the grid (it would find that solution)."""
    state = (start or CandidateState.from_grid(grid)).copy()
    queues = Queues(grid)
    order = pass_steps(techniques)
    singles = [(kind, name, getattr(queues, name)) for kind, name, _ in order if name in SINGLES]
    guess = BruteForce(solution or unique)
    others = [
        (kind, guess.find if name == "brute_force" else find)
        for kind, name, find in order
        if name not in SINGLES
    ]
    path = HodokuPath()
    memo = state.memo
    while state.empty and not state.contradiction:
        memo.trim()
        step = None
        for kind, name, single in singles:  # noqa: B007 (used after the loop)
            found = single()
            if found is not None:
                cell, digit = found
                step = Step(name, (found,), (), (cell,), (), (digit,), 0.0, state.shape)
                break
        else:
            for kind, find in others:  # noqa: B007 (used after the loop)
                step = find(state)
                if step is not None:
                    break
            else:
                return path  # stuck
            if step.placements and kind.name not in PLACING:
                instead = _instead(state, step.placements) + step.eliminations
                step = step._replace(placements=(), eliminations=instead)
        if solution is not None:
            check_step(step, solution)
        path.score += kind.score
        path.counts[kind.name] = path.counts.get(kind.name, 0) + 1
        path.levels.add(kind.level)
        before = state.changes
        for cell, digit in step.placements:
            state.place(cell, digit)
            queues.place(cell, digit)
        for cell, digit in step.eliminations:
            state.eliminate(cell, digit)
            queues.eliminate(cell, digit)
        if state.changes == before:
            raise RuntimeError(f"the HoDoKu pass's {kind.name} step changes nothing: {step}")
        queues.follow(state)
    path.solved = state.solved
    return path


def _unguessed(state: CandidateState) -> Step | None:
    """Brute force without a solution to take the digit from (`hodoku_path` binds one)."""
    return None


class BruteForce:
    """HoDoKu's last resort, where no technique finds a step: the solution's digit in the
    middle open cell (in cell order).  The solution is the one given to `hodoku_path`, or
    the state's, solved (by ``dlx``) the first time brute force is asked for."""

    def __init__(self, solution: Grid | None) -> None:
        self.solution = solution

    def find(self, state: CandidateState) -> Step | None:
        if self.solution is None:  # the state's placements are sound: solve from them
            grid = state.to_grid()
            self.solution = only_solution(grid)
            if self.solution is None:
                result = solvers.get("dlx").solve(grid, limit=1)
                if result.solution is None:
                    return None
                self.solution = result.solution
        open_cells = [c for c, v in enumerate(state.values) if not v]
        if not open_cells:
            return None
        cell = open_cells[len(open_cells) // 2]
        digit = self.solution.cells[cell]
        return Step("brute_force", ((cell, digit),), (), (cell,), (), (digit,), 0.0, state.shape)


def only_solution(grid: Grid) -> Grid | None:
    """The solution of a 9x9 grid when the compiled solver (``fast``, with numba) proves it
    the only one, or None: then brute force takes it as it would take ``dlx``'s first
    solution, the same grid, without the slower search."""
    if grid.shape.size != 9 or grid.shape.box_rows != 3 or not fast_available():
        return None
    result = solvers.get("fast").solve(grid, limit=2)
    return result.solution if result.unique else None


def _instead(state: CandidateState, placements: tuple) -> tuple:
    """The eliminations that leave each placed digit alone in its cell."""
    return tuple(
        (cell, d) for cell, digit in placements for d in digits(state.cand[cell]) if d != digit
    )
