"""The one technique table: every technique with its family, ratings, level and order.

The engine tries techniques in table order and applies the first step found,
so the order is the engine's idea of "easiest first".  It follows the
Sudoku-Explainer-style ratings (``se``), with ties kept in the order listed.
``score`` and ``level`` are HoDoKu-style: a solve path scores the sum of its
steps' scores, and its level is the hardest technique's level, raised while
the score exceeds that level's maximum (see `solvers.human.rating`).

Where a rating scale has no entry for a technique (Sudoku Explainer has no
locked pair, W-Wing or simple colouring; HoDoKu rates chains by kind, not
length), the table gives the value of the closest technique it has, noted in
``note``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, partial

from solvers.human.profiling import charged
from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import (
    aligned,
    als,
    als_wings,
    avoidable,
    bug,
    chains,
    colouring,
    cycles,
    direct,
    finned_fish,
    fish,
    forcing,
    grouped_links,
    intersections,
    medusa,
    rectangles,
    rectangles_extra,
    singles,
    subsets,
    sue_de_coq,
    uniqueness,
    wings,
    x_forcing,
)
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import cells_with, eliminate_from, peer_masks
from solvers.human.techniques.wings import strong_links

Finder = Callable[[CandidateState], "Step | None"]

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")


@dataclass(frozen=True)
class Technique:
    """One row of the technique table."""

    name: str
    title: str
    family: str
    tier: int  # 1: the methods of the project's source write-ups; 2: the rest
    se: float  # Sudoku-Explainer-style rating (the lowest, for variable ones)
    score: int  # HoDoKu-style score per step
    level: str  # HoDoKu-style level
    find: Finder
    enabled: bool = True
    assumes_unique: bool = False  # sound only when the puzzle has one solution
    note: str = ""


@dataclass(frozen=True)
class Sized:
    """A finder for subsets or fish of size k; the table supplies its rating."""

    find: Callable[..., Step | None]
    k: int


@dataclass(frozen=True)
class Rated:
    """A finder whose steps take the table's rating."""

    find: Callable[..., Step | None]


def _finned(k: int, sashimi: bool) -> Sized:
    """The finder of finned (or sashimi) fish of size k."""
    return Sized(partial(finned_fish.finned_fish, sashimi=sashimi), k)


def _se_x_chain(step: Step) -> float:
    """Sudoku Explainer's rating of an X-chain of k cells: a bidirectional X-cycle (6.5)
    when its ends see each other, else a forcing X-chain (6.6), plus the length bonus
    of the candidates its chain takes (k for a cycle, k + 2 with the target)."""
    k = len(step.cells)
    first, last = step.cells[0], step.cells[-1]
    if peer_masks(step.shape)[first] >> last & 1:
        return round(6.5 + length_bonus(k), 1)
    return round(6.6 + length_bonus(k + 2), 1)


def _se_xy_chain(step: Step) -> float:
    """Sudoku Explainer's rating of an XY-chain of k bivalue cells: a forcing chain with
    cell and unit links (7.0), plus the length bonus of its 2k + 2 candidates (2k for a
    cycle, when the ends see each other)."""
    k = len(step.cells)
    first, last = step.cells[0], step.cells[-1]
    loop = peer_masks(step.shape)[first] >> last & 1
    return round(7.0 + length_bonus(2 * k + (0 if loop else 2)), 1)


def _se_strong_links(step: Step) -> float:
    """Sukaku Explainer's rating of a chain of k strong links on one digit (k = 2 or 3):
    4.0 or 5.4 when every link lies in parallel lines, 5.6 for three links mixing a box,
    a row and a column, else 4.1 or 5.5."""
    n = step.shape.size
    cells = step.cells
    kinds = {
        "row" if a // n == b // n else "col" if a % n == b % n else "box"
        for a, b in zip(cells[0::2], cells[1::2], strict=True)
    }
    base = 4.0 if len(cells) == 4 else 5.4
    if len(kinds) == 1 and "box" not in kinds:
        return base
    return round(base + (0.2 if len(kinds) == 3 else 0.1), 1)


def _parallel_three_links(state: CandidateState) -> Step | None:
    """Three strong links, preferring the lowest Sukaku rating: the shortest chain the
    search finds, unless another chain of three strong links rates lower (Sukaku
    Explainer rates a chain by the kinds of units its links lie in)."""
    step = chains.three_strong_links(state)
    if step is None:
        return None
    step = step._replace(rating=_se_strong_links(step))
    if step.rating <= 5.4:
        return step
    n = state.n
    peers = peer_masks(state.shape)
    for d in range(1, n + 1):
        links = [(a, b, u) for u, x, y in strong_links(state, d) for a, b in ((x, y), (y, x))]
        if len(links) < 3:
            continue
        with_d = cells_with(state, d)
        for a1, b1, u1 in links:
            for a2, b2, u2 in links:
                if not peers[b1] >> a2 & 1 or len({a1, b1, a2, b2}) < 4:
                    continue
                for a3, b3, u3 in links:
                    if not peers[b2] >> a3 & 1 or len({a1, b1, a2, b2, a3, b3}) < 6:
                        continue
                    kinds = {u // n for u in (u1, u2, u3)}  # 0 row, 1 column, 2 box
                    if kinds not in ({0}, {1}):
                        continue
                    chain = (a1, b1, a2, b2, a3, b3)
                    targets = peers[a1] & peers[b3] & with_d
                    for c in chain:
                        targets &= ~(1 << c)
                    if targets:
                        return step._replace(
                            eliminations=eliminate_from(targets, d),
                            cells=chain,
                            digits=(d,),
                            rating=5.4,
                            chain=tuple((c, d) for c in chain),
                        )
    return step


def _rerated(find: Finder, rate: Callable[[Step], float]) -> Finder:
    """`find`, with each step's rating replaced by `rate(step)`."""

    def rerated(state: CandidateState) -> Step | None:
        step = find(state)
        return None if step is None else step._replace(rating=rate(step))

    return rerated


def _memo(name: str, find: Finder) -> Finder:
    """`find`, remembering its answer until the state changes (the cycle search asks the
    chain techniques after it what they would find; the engine then asks them again)."""

    def memo(state: CandidateState) -> Step | None:
        return state.derived(f"finder-{name}", lambda s: (charged(name, lambda: find(s)),))[0]

    return memo


def _cheapest_cycle(state: CandidateState) -> Step | None:
    """The cheapest bidirectional cycle, when it is cheaper than what the chain techniques
    after it in the table find: Sudoku Explainer searches cycles, forcing X-chains and
    forcing chains together and applies the cheapest (ties go to the later techniques
    here).  A cycle's elimination also follows from a static forcing chain (assuming the
    candidate true leads around the loop to a contradiction), so where the forcing-chain
    search finds nothing there is no cycle either; the costly forcing-chain search runs
    only when its answer can matter."""
    ceiling = 9.9
    for name in _CYCLE_RIVALS:
        rival = BY_NAME[name]
        if rival.se > ceiling - 0.05:
            continue
        step = rival.find(state)
        if step is not None and step.rating < ceiling:
            ceiling = step.rating
    forcing_chain: Step | None = None
    if ceiling == 9.9:  # no other chain: the forcing chains decide whether to look
        forcing_chain = BY_NAME["forcing_chain"].find(state)
        if forcing_chain is None:
            return None
        ceiling = forcing_chain.rating
    best = cycles.bidirectional_cycle(state, round(ceiling - 0.1, 1), kinds=(cycles.X, cycles.Y))
    if best is not None:
        ceiling = best.rating
    if ceiling > cycles.XY_CYCLE_RATING:
        xy = cycles.bidirectional_cycle(
            state, min(round(ceiling - 0.1, 1), XY_CYCLE_CEILING), kinds=(cycles.XY,)
        )
        if xy is not None:
            best = xy
    if best is None:
        return None
    if forcing_chain is None:  # a forcing chain rates 6.6 at least
        forcing_chain = BY_NAME["forcing_chain"].find(state) if best.rating >= 6.6 else None
    if forcing_chain is not None and forcing_chain.rating <= best.rating:
        return None
    return best


# XY-cycles rated above this are not searched (where no static forcing chain is found, an
# XY-cycle this long is rare, and searching for one costs more than the rest of the step)
XY_CYCLE_CEILING = 7.5
_CYCLE_RIVALS = ("forcing_x_chain", "simple_colouring", "x_chain", "w_wing", "xy_chain")


def _t(name, title, family, tier, se, score, level, find, **kw) -> Technique:
    if isinstance(find, Sized):  # the step's rating is the table's, written once
        find = partial(find.find, k=find.k, rating=se)
    elif isinstance(find, Rated):
        find = partial(find.find, rating=se)
    return Technique(name, title, family, tier, se, score, level, find, **kw)


TECHNIQUES: tuple[Technique, ...] = (
    _t("full_house", "Full house", "singles", 1, 1.0, 4, "Easy", singles.full_house),
    _t(
        "hidden_single",
        "Hidden single",
        "singles",
        1,
        1.2,
        14,
        "Easy",
        singles.hidden_single,
        note="1.2 in a box, 1.5 in a row or column",
    ),
    _t(
        "direct_pointing",
        "Direct pointing",
        "direct",
        1,
        1.7,
        64,
        "Medium",
        direct.direct_pointing,
        note="HoDoKu: a pointing and a hidden single",
    ),
    _t(
        "direct_claiming",
        "Direct claiming",
        "direct",
        1,
        1.9,
        64,
        "Medium",
        direct.direct_claiming,
        note="HoDoKu: a claiming and a hidden single",
    ),
    _t(
        "direct_hidden_pair",
        "Direct hidden pair",
        "direct",
        1,
        2.0,
        84,
        "Medium",
        direct.direct_hidden_pair,
        note="HoDoKu: a hidden pair and a hidden single",
    ),
    _t("naked_single", "Naked single", "singles", 1, 2.3, 4, "Easy", singles.naked_single),
    _t(
        "direct_hidden_triple",
        "Direct hidden triple",
        "direct",
        1,
        2.5,
        114,
        "Medium",
        direct.direct_hidden_triple,
        note="HoDoKu: a hidden triple and a hidden single",
    ),
    _t("pointing", "Pointing", "intersections", 1, 2.6, 50, "Medium", intersections.pointing),
    _t("claiming", "Claiming", "intersections", 1, 2.8, 50, "Medium", intersections.claiming),
    _t(
        "locked_pair",
        "Locked pair",
        "subsets",
        1,
        3.0,
        40,
        "Medium",
        Sized(subsets.locked_subset, 2),
        note="SE: rated as a naked pair",
    ),
    _t(
        "naked_pair",
        "Naked pair",
        "subsets",
        1,
        3.0,
        60,
        "Medium",
        Sized(subsets.naked_subset, 2),
    ),
    _t("x_wing", "X-Wing", "fish", 2, 3.2, 140, "Hard", Sized(fish.fish, 2)),
    _t(
        "hidden_pair",
        "Hidden pair",
        "subsets",
        1,
        3.4,
        70,
        "Medium",
        Sized(subsets.hidden_subset, 2),
    ),
    _t(
        "finned_x_wing",
        "Finned X-Wing",
        "fish",
        2,
        3.5,
        130,
        "Hard",
        _finned(2, False),
        enabled=False,
        note="Sudoku Explainer: none; the X-Wing's 3.2 plus 0.3 (Sukaku Explainer adds 0.3 "
        "for a grouped link; it finds these as a grouped turbot fish, 4.3)",
    ),
    _t(
        "sashimi_x_wing",
        "Sashimi X-Wing",
        "fish",
        2,
        3.6,
        150,
        "Hard",
        _finned(2, True),
        enabled=False,
        note="Sudoku Explainer: none; the X-Wing's 3.2 plus 0.4 (HoDoKu scores sashimi above "
        "finned; Sukaku Explainer finds these as a grouped turbot fish, 4.3)",
    ),
    _t(
        "locked_triple",
        "Locked triple",
        "subsets",
        1,
        3.6,
        60,
        "Medium",
        Sized(subsets.locked_subset, 3),
        note="SE: rated as a naked triple",
    ),
    _t(
        "naked_triple",
        "Naked triple",
        "subsets",
        1,
        3.6,
        80,
        "Medium",
        Sized(subsets.naked_subset, 3),
    ),
    _t("swordfish", "Swordfish", "fish", 2, 3.8, 150, "Hard", Sized(fish.fish, 3)),
    _t(
        "hidden_triple",
        "Hidden triple",
        "subsets",
        1,
        4.0,
        100,
        "Medium",
        Sized(subsets.hidden_subset, 3),
    ),
    _t(
        "skyscraper",
        "Skyscraper",
        "chains",
        2,
        4.0,
        130,
        "Hard",
        chains.skyscraper,
        note="Sukaku Explainer: 4.0 (Sudoku Explainer: a 6.6 turbot X-chain)",
    ),
    _t(
        "two_string_kite",
        "2-String Kite",
        "chains",
        2,
        4.1,
        150,
        "Hard",
        chains.two_string_kite,
        note="Sukaku Explainer: 4.1 (Sudoku Explainer: a 6.6 turbot X-chain)",
    ),
    _t(
        "turbot_fish",
        "Turbot fish",
        "chains",
        2,
        4.1,
        120,
        "Hard",
        _rerated(chains.turbot_fish, _se_strong_links),
        note="Sukaku Explainer: 4.1 (Sudoku Explainer: a 6.6 turbot X-chain)",
    ),
    _t(
        "finned_swordfish",
        "Finned Swordfish",
        "fish",
        2,
        4.1,
        200,
        "Unfair",
        _finned(3, False),
        enabled=False,
        note="Sudoku Explainer: none; the Swordfish's 3.8 plus 0.3 (Sukaku Explainer adds 0.3 "
        "for a grouped link)",
    ),
    _t(
        "sashimi_swordfish",
        "Sashimi Swordfish",
        "fish",
        2,
        4.2,
        240,
        "Unfair",
        _finned(3, True),
        enabled=False,
        note="Sudoku Explainer: none; the Swordfish's 3.8 plus 0.4 (HoDoKu scores sashimi "
        "above finned)",
    ),
    _t(
        "grouped_turbot_fish",
        "Grouped turbot fish",
        "chains",
        2,
        4.3,
        130,
        "Hard",
        grouped_links.grouped_turbot_fish,
        note="Sukaku Explainer: 4.3 (grouped strong links); HoDoKu: an empty rectangle or a "
        "grouped X-chain",
    ),
    _t("xy_wing", "XY-Wing", "wings", 2, 4.2, 160, "Hard", wings.xy_wing),
    _t("xyz_wing", "XYZ-Wing", "wings", 2, 4.4, 180, "Hard", wings.xyz_wing),
    _t(
        "unique_rectangle",
        "Unique rectangle type 1",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        uniqueness.unique_rectangle,
        assumes_unique=True,
    ),
    _t(
        "unique_rectangle_2",
        "Unique rectangle type 2",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        rectangles.unique_rectangle_2,
        assumes_unique=True,
    ),
    _t(
        "unique_rectangle_4",
        "Unique rectangle type 4",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        rectangles.unique_rectangle_4,
        assumes_unique=True,
    ),
    _t(
        "unique_rectangle_5",
        "Unique rectangle type 5",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        rectangles_extra.unique_rectangle_5,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a unique rectangle type 2",
    ),
    _t(
        "unique_rectangle_6",
        "Unique rectangle type 6",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        rectangles_extra.unique_rectangle_6,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a unique rectangle type 4",
    ),
    _t(
        "hidden_rectangle",
        "Hidden rectangle",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        rectangles_extra.hidden_rectangle,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a unique rectangle type 4",
    ),
    _t(
        "avoidable_rectangle_1",
        "Avoidable rectangle type 1",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        avoidable.avoidable_rectangle_1,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a unique rectangle type 1",
    ),
    _t(
        "avoidable_rectangle_2",
        "Avoidable rectangle type 2",
        "uniqueness",
        2,
        4.5,
        100,
        "Hard",
        avoidable.avoidable_rectangle_2,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a unique rectangle type 2",
    ),
    _t(
        "unique_rectangle_3",
        "Unique rectangle type 3",
        "uniqueness",
        2,
        4.6,
        100,
        "Hard",
        rectangles.unique_rectangle_3,
        assumes_unique=True,
        note="SE: 4.5 plus 0.1 per digit of the naked subset beyond one",
    ),
    _t(
        "unique_loop",
        "Unique loop",
        "uniqueness",
        2,
        4.6,
        100,
        "Hard",
        rectangles.unique_loop,
        assumes_unique=True,
        note="SE: 4.6 for six cells, 4.7 for eight, 5.0 for ten or more (types 1 and 2)",
    ),
    _t(
        "naked_quad",
        "Naked quad",
        "subsets",
        1,
        5.0,
        120,
        "Hard",
        Sized(subsets.naked_subset, 4),
    ),
    _t(
        "sue_de_coq",
        "Sue de Coq",
        "als",
        2,
        5.0,
        250,
        "Unfair",
        sue_de_coq.sue_de_coq,
        enabled=False,
        note="SE: none (Sudoku Explainer lacks it), rated as a naked quad: two locked sets "
        "meeting at a box-line crossing",
    ),
    _t("jellyfish", "Jellyfish", "fish", 2, 5.2, 160, "Unfair", Sized(fish.fish, 4)),
    _t(
        "hidden_quad",
        "Hidden quad",
        "subsets",
        1,
        5.4,
        150,
        "Hard",
        Sized(subsets.hidden_subset, 4),
    ),
    _t(
        "three_strong_links",
        "Three strong links",
        "chains",
        2,
        5.4,
        260,
        "Unfair",
        _parallel_three_links,
        note="Sukaku Explainer: 5.4 in parallel lines, 5.6 mixing a box, a row and a column, "
        "else 5.5",
    ),
    _t(
        "finned_jellyfish",
        "Finned Jellyfish",
        "fish",
        2,
        5.5,
        250,
        "Unfair",
        _finned(4, False),
        enabled=False,
        note="Sudoku Explainer: none; the Jellyfish's 5.2 plus 0.3 (Sukaku Explainer adds 0.3 "
        "for a grouped link)",
    ),
    _t(
        "sashimi_jellyfish",
        "Sashimi Jellyfish",
        "fish",
        2,
        5.6,
        260,
        "Unfair",
        _finned(4, True),
        enabled=False,
        note="Sudoku Explainer: none; the Jellyfish's 5.2 plus 0.4 (HoDoKu scores sashimi "
        "above finned)",
    ),
    _t(
        "grouped_three_strong_links",
        "Grouped three strong links",
        "chains",
        2,
        5.7,
        280,
        "Unfair",
        grouped_links.grouped_three_strong_links,
        note="Sukaku Explainer: 5.7; HoDoKu: a grouped X-chain",
    ),
    _t(
        "wxyz_wing",
        "WXYZ-Wing",
        "wings",
        2,
        5.5,
        300,
        "Unfair",
        als_wings.wxyz_wing,
        note="Sukaku Explainer: 5.5, 5.6 when the largest ALS cell has three digits; "
        "HoDoKu: an ALS-XZ",
    ),
    _t(
        "als_xz",
        "ALS-XZ",
        "als",
        2,
        5.5,
        300,
        "Unfair",
        als.als_xz,
        enabled=False,
        note="SE: none (Sudoku Explainer lacks it), rated as Sukaku Explainer's WXYZ-Wing (its "
        "case with a bivalue cell)",
    ),
    _t(
        "bug_plus_one",
        "BUG+1",
        "uniqueness",
        2,
        5.6,
        100,
        "Medium",
        uniqueness.bug_plus_one,
        assumes_unique=True,
    ),
    _t(
        "bug_type_2",
        "BUG type 2",
        "uniqueness",
        2,
        5.7,
        100,
        "Hard",
        bug.bug_type_2,
        assumes_unique=True,
        note="HoDoKu: rated as a BUG+1",
    ),
    _t(
        "bug_type_4",
        "BUG type 4",
        "uniqueness",
        2,
        5.7,
        100,
        "Hard",
        bug.bug_type_4,
        assumes_unique=True,
        note="HoDoKu: rated as a BUG+1",
    ),
    _t(
        "bug_plus_n",
        "BUG+n",
        "uniqueness",
        2,
        5.7,
        100,
        "Hard",
        bug.bug_plus_n,
        enabled=False,
        assumes_unique=True,
        note="SE: no such technique, rated as a BUG type 2; HoDoKu: rated as a BUG+1",
    ),
    _t(
        "bug_type_3",
        "BUG type 3",
        "uniqueness",
        2,
        5.8,
        100,
        "Hard",
        bug.bug_type_3,
        assumes_unique=True,
        note="SE: 5.7 plus 0.1 per digit of the naked subset beyond the first; "
        "HoDoKu: rated as a BUG+1",
    ),
    _t(
        "vwxyz_wing",
        "VWXYZ-Wing",
        "wings",
        2,
        6.2,
        300,
        "Unfair",
        als_wings.vwxyz_wing,
        note="Sukaku Explainer: 6.2-6.4 by the largest ALS cell; HoDoKu: an ALS-XZ",
    ),
    _t(
        "als_xy_wing",
        "ALS-XY-Wing",
        "als",
        2,
        6.2,
        320,
        "Unfair",
        als.als_xy_wing,
        enabled=False,
        note="SE: none (Sudoku Explainer lacks it), rated as Sukaku Explainer's VWXYZ-Wing "
        "(the next larger ALS wing)",
    ),
    _t(
        "aligned_pair_exclusion",
        "Aligned pair exclusion",
        "exclusion",
        2,
        6.2,
        300,
        "Unfair",
        aligned.aligned_pair_exclusion,
        note="HoDoKu: no such technique, rated as an ALS-XZ",
    ),
    _t(
        "uvwxyz_wing",
        "UVWXYZ-Wing",
        "wings",
        2,
        6.6,
        300,
        "Unfair",
        als_wings.uvwxyz_wing,
        note="Sukaku Explainer: 6.6; HoDoKu: an ALS-XZ",
    ),
    _t(
        "als_chain",
        "ALS chain",
        "als",
        2,
        6.6,
        340,
        "Unfair",
        als.als_chain,
        enabled=False,
        note="SE: none (Sudoku Explainer lacks it), rated as the shortest forcing X-chain, 6.6; "
        "HoDoKu: an ALS-XY-Chain",
    ),
    _t(
        "death_blossom",
        "Death Blossom",
        "als",
        2,
        6.6,
        360,
        "Unfair",
        als.death_blossom,
        enabled=False,
        note="SE: none (Sudoku Explainer lacks it; it would take a cell forcing chain, 8.0), "
        "rated as an ALS chain",
    ),
    _t(
        "bidirectional_cycle",
        "Bidirectional cycle",
        "chains",
        2,
        6.5,
        260,
        "Unfair",
        _cheapest_cycle,
        note="SE: an X-cycle or a Y-cycle, 6.5, or an XY-cycle, 7.0, plus the chain length "
        "bonus; HoDoKu: a continuous nice loop",
    ),
    _t(
        "forcing_x_chain",
        "Forcing X-chain",
        "chains",
        2,
        6.6,
        260,
        "Unfair",
        _memo("forcing_x_chain", x_forcing.forcing_x_chain),
        note="SE: 6.6 plus the chain length bonus; HoDoKu: an X-chain or a discontinuous nice loop",
    ),
    _t(
        "simple_colouring",
        "Simple colouring",
        "colouring",
        2,
        6.5,
        150,
        "Hard",
        _memo("simple_colouring", colouring.simple_colouring),
        note="SE: rated as a short X-chain",
    ),
    _t(
        "multi_colouring",
        "Multi-colouring",
        "colouring",
        2,
        6.6,
        200,
        "Hard",
        Rated(colouring.multi_colouring),
        enabled=False,
        note="Sudoku Explainer: none; rated as a forcing X-chain, 6.6",
    ),
    _t(
        "medusa_3d",
        "3D Medusa",
        "colouring",
        2,
        7.0,
        280,
        "Unfair",
        Rated(medusa.medusa_3d),
        enabled=False,
        note="Sudoku Explainer: none; rated as a forcing chain of cell and unit links, 7.0; "
        "HoDoKu: none, rated as a nice loop",
    ),
    _t(
        "x_chain",
        "X-chain",
        "chains",
        2,
        6.6,
        260,
        "Unfair",
        _memo("x_chain", _rerated(chains.x_chain, _se_x_chain)),
        note="SE: a forcing X-chain, 6.6, or an X-cycle, 6.5, plus the chain length bonus",
    ),
    _t(
        "forcing_chain",
        "Forcing chain",
        "forcing",
        2,
        6.6,
        500,
        "Extreme",
        _memo("forcing_chain", forcing.forcing_chain),
        note="SE: 6.6 on one digit, else 7.0, plus the chain length bonus; HoDoKu: a forcing chain",
    ),
    _t(
        "w_wing",
        "W-Wing",
        "wings",
        2,
        7.1,
        150,
        "Hard",
        _memo("w_wing", wings.w_wing),
        note="SE: a forcing chain of eight candidates, 7.1",
    ),
    _t(
        "xy_chain",
        "XY-chain",
        "chains",
        2,
        7.1,
        260,
        "Unfair",
        _memo("xy_chain", _rerated(chains.xy_chain, _se_xy_chain)),
        note="SE: a forcing chain, 7.0 plus the chain length bonus",
    ),
    _t(
        "aligned_triple_exclusion",
        "Aligned triple exclusion",
        "exclusion",
        2,
        7.5,
        300,
        "Unfair",
        aligned.aligned_triple_exclusion,
        note="HoDoKu: no such technique, rated as an ALS-XZ",
    ),
    _t(
        "nishio",
        "Nishio forcing chain",
        "forcing",
        2,
        7.5,
        500,
        "Extreme",
        forcing.nishio,
        note="SE: 7.5 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    ),
    _t(
        "cell_forcing_chain",
        "Cell forcing chain",
        "forcing",
        2,
        8.0,
        500,
        "Extreme",
        forcing.cell_forcing_chain,
        note="SE: 8.0 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    ),
    _t(
        "region_forcing_chain",
        "Region forcing chain",
        "forcing",
        2,
        8.0,
        500,
        "Extreme",
        forcing.region_forcing_chain,
        note="SE: 8.0 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    ),
    _t(
        "dynamic_forcing_chain",
        "Dynamic forcing chain",
        "forcing",
        2,
        8.5,
        700,
        "Extreme",
        forcing.dynamic_forcing_chain,
        note="SE: 8.5 plus the chain length bonus; HoDoKu: rated as a forcing net",
    ),
    _t(
        "dynamic_forcing_chain_plus",
        "Dynamic forcing chain (+)",
        "forcing",
        2,
        9.0,
        700,
        "Extreme",
        forcing.dynamic_forcing_chain_plus,
        note="SE: 9.0 plus the chain length bonus; HoDoKu: rated as a forcing net",
    ),
    _t(
        "nested_forcing_chain",
        "Nested forcing chain",
        "forcing",
        2,
        9.5,
        700,
        "Extreme",
        forcing.nested_forcing_chain,
        note="SE: 9.5 plus the chain length bonus; HoDoKu: rated as a forcing net",
    ),
)

BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}

GROUPS: dict[str, tuple[str, ...]] = {
    # the default: the techniques a Sudoku Explainer rating can follow
    "all": tuple(t.name for t in TECHNIQUES if t.enabled),
    # also the techniques Sudoku Explainer lacks (off by default: where Sudoku Explainer needs
    # a chain they would make an easier step, and the ratings would no longer follow its own)
    "extended": tuple(t.name for t in TECHNIQUES),
    "tier1": tuple(t.name for t in TECHNIQUES if t.tier == 1 and t.enabled),
    "tier2": tuple(t.name for t in TECHNIQUES if t.tier == 2 and t.enabled),
    "singles": ("full_house", "hidden_single", "naked_single"),
    "locked_candidates": ("pointing", "claiming"),
    "subsets": tuple(t.name for t in TECHNIQUES if t.family == "subsets"),
    "fish": ("x_wing", "swordfish", "jellyfish"),
    "direct": tuple(t.name for t in TECHNIQUES if t.family == "direct"),
    "forcing": tuple(t.name for t in TECHNIQUES if t.family == "forcing"),
    "no_uniqueness": tuple(t.name for t in TECHNIQUES if t.enabled and not t.assumes_unique),
    # the set before Sudoku Explainer's direct techniques and forcing chains came in: what
    # the searches built on the engine (assume) use by default, and where logic can run out
    "classic": tuple(
        t.name for t in TECHNIQUES if t.enabled and t.family not in ("direct", "forcing")
    ),
}


def resolve(techniques: str | Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques a configuration names, in table order.

    Accepts None (every enabled technique), a group (``tier1``, ``all``,
    ``singles`` ...), technique names, or a string of them joined by ``+``
    or ``,``.  Unknown names raise ValueError listing the valid ones.

    >>> [t.name for t in resolve("naked_pair+hidden_single")]
    ['hidden_single', 'naked_pair']
    """
    if techniques is None:
        techniques = "all"
    if isinstance(techniques, str):
        techniques = techniques.replace(",", "+").split("+")
    return _resolve(tuple(n.strip() for n in techniques if n.strip()))


@cache
def _resolve(names: tuple[str, ...]) -> tuple[Technique, ...]:
    chosen: set[str] = set()
    for name in names:
        if name in GROUPS:
            chosen.update(GROUPS[name])
        elif name in BY_NAME:
            chosen.add(name)
        else:
            raise ValueError(
                f"unknown technique {name!r}; choose from the groups "
                f"{', '.join(GROUPS)} or the techniques {', '.join(BY_NAME)}"
            )
    if not chosen:
        raise ValueError("no technique chosen")
    return tuple(t for t in TECHNIQUES if t.name in chosen)


def config_name(techniques: tuple[Technique, ...]) -> str:
    """A short name for a configuration: a group name when it is one, else the names joined by +."""
    names = tuple(t.name for t in techniques)
    for group in ("all", "extended", "tier1", "no_uniqueness", "classic"):
        if names == GROUPS[group]:
            return group
    return "+".join(names)


_VARIABLE = ("forcing_x_chain", "x_chain", "xy_chain", "bidirectional_cycle", "bug_type_3")


def markdown_table() -> str:
    """The technique table in Markdown, in engine order (the docs show this); the
    techniques off by default say so."""
    lines = [
        "| order | technique | family | tier | SE rating | HoDoKu score | level |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for i, t in enumerate(TECHNIQUES, 1):
        se = f"{t.se:.1f}" + ("+" if t.name in _VARIABLE or t.family == "forcing" else "")
        if t.name == "hidden_single":
            se = "1.2 / 1.5"
        name = f"`{t.name}`" + (" (assumes uniqueness)" if t.assumes_unique else "")
        if not t.enabled:
            name += " (off by default)"
        lines.append(f"| {i} | {name} | {t.family} | {t.tier} | {se} | {t.score} | {t.level} |")
    return "\n".join(lines)
