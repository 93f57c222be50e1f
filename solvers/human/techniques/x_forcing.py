"""Forcing X-chains, as Sudoku Explainer finds them: one digit, static links, both ways.

Assume a candidate of digit d true (*on*) or false (*off*) and follow only the
links of that digit: a candidate on turns off d in its peers (weak links); a
candidate off turns on the other place of d in a unit where d has just two
places (strong links).  If assuming the candidate on forces it off, it is
false; if assuming it off forces it on, it is true.  The X-chains with
targets seeing both ends are the first kind; the second kind places a digit.

The search is breadth-first, so each conclusion comes with its shortest
chain; Sudoku Explainer rates it 6.6 plus the length bonus of the chain's
candidates (the assumption, the links and the conclusion), and takes the
lowest rating.
"""

from __future__ import annotations

from collections import deque

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits, cells_with, fruitless, mark_fruitless, peer_masks
from solvers.human.techniques.wings import strong_links

RATING = 6.6


def _shortest(start: int, on: bool, with_d: int, peers, partners) -> list[tuple[int, bool]] | None:
    """The shortest chain from (start, on) to (start, not on), or None."""
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, on): None}
    queue = deque([(start, on)])
    goal = (start, not on)
    while queue:
        cell, state = queue.popleft()
        nexts = (
            [(p, False) for p in bits(peers[cell] & with_d)]
            if state
            else [(p, True) for p in partners.get(cell, ())]
        )
        for node in nexts:
            if node == goal:
                path = [node, (cell, state)]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            if node not in parent:
                parent[node] = (cell, state)
                queue.append(node)
    return None


def forcing_x_chain(state: CandidateState) -> Step | None:
    """The forcing X-chain with the lowest Sudoku Explainer rating (then the shortest,
    then the lowest digit and cell)."""
    peers = peer_masks(state.shape)
    best: tuple | None = None
    for d in range(1, state.n + 1):
        if fruitless(state, "forcing_x_chain", d):
            continue
        partners: dict[int, list[int]] = {}
        for _, a, b in strong_links(state, d):
            partners.setdefault(a, []).append(b)
            partners.setdefault(b, []).append(a)
        if not partners:
            continue
        with_d = cells_with(state, d)
        found = False
        for start in bits(with_d):
            for on in (True, False):
                if not on and start not in partners:
                    continue  # off leads nowhere without a strong link
                bound = best[0] if best is not None else None
                path = _shortest(start, on, with_d, peers, partners)
                if path is None:
                    continue
                found = True
                if bound is not None and len(path) >= bound:
                    continue
                best = (len(path), d, start, on, path)
        if not found:
            mark_fruitless(state, "forcing_x_chain", d)
    if best is None:
        return None
    nodes, d, start, on, path = best
    return Step(
        "forcing_x_chain",
        () if on else ((start, d),),
        ((start, d),) if on else (),
        tuple(dict.fromkeys(c for c, _ in path)),
        (),
        (d,),
        round(RATING + length_bonus(nodes), 1),
        state.shape,
        tuple((c, d if s else -d) for c, s in path),
    )
