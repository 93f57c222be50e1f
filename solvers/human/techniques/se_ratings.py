"""Chain steps rated the way Sudoku Explainer and Sukaku Explainer rate them.

The chain finders rate a chain by its own kind; the explainers see some of them as
another kind of chain (an X-chain whose ends see each other is a bidirectional
X-cycle; an XY-chain is a forcing chain of cell and unit links) or rate strong-link
chains by the units their links lie in.  These finders give the chain steps the
explainers' ratings.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import chains
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import cells_with, eliminate_from, peer_masks
from solvers.human.techniques.wings import strong_links

Finder = Callable[[CandidateState], "Step | None"]


def x_chain_rating(step: Step) -> float:
    """Sudoku Explainer's rating of an X-chain of k cells: a bidirectional X-cycle (6.5)
    when its ends see each other, else a forcing X-chain (6.6), plus the length bonus
    of the candidates its chain takes (k for a cycle, k + 2 with the target)."""
    k = len(step.cells)
    first, last = step.cells[0], step.cells[-1]
    if peer_masks(step.shape)[first] >> last & 1:
        return round(6.5 + length_bonus(k), 1)
    return round(6.6 + length_bonus(k + 2), 1)


def xy_chain_rating(step: Step) -> float:
    """Sudoku Explainer's rating of an XY-chain of k bivalue cells: a forcing chain with
    cell and unit links (7.0), plus the length bonus of its 2k + 2 candidates (2k for a
    cycle, when the ends see each other)."""
    k = len(step.cells)
    first, last = step.cells[0], step.cells[-1]
    loop = peer_masks(step.shape)[first] >> last & 1
    return round(7.0 + length_bonus(2 * k + (0 if loop else 2)), 1)


def strong_links_rating(step: Step) -> float:
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


def rerated(find: Finder, rate: Callable[[Step], float]) -> Finder:
    """`find`, with each step's rating replaced by `rate(step)`."""

    def rerated(state: CandidateState) -> Step | None:
        step = find(state)
        return None if step is None else step._replace(rating=rate(step))

    return rerated


turbot_fish = rerated(chains.turbot_fish, strong_links_rating)
x_chain = rerated(chains.x_chain, x_chain_rating)
xy_chain = rerated(chains.xy_chain, xy_chain_rating)


def three_strong_links(state: CandidateState) -> Step | None:
    """Three strong links, preferring the lowest Sukaku rating: the shortest chain the
    search finds, unless another chain of three strong links rates lower (Sukaku
    Explainer rates a chain by the kinds of units its links lie in)."""
    step = chains.three_strong_links(state)
    if step is None:
        return None
    step = step._replace(rating=strong_links_rating(step))
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
