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
lowest rating.  The search here goes a layer at a time, each layer's cells as
one mask; a digit's shortest chain reads only the digit's cells, so it is kept
with them and searched again only when they change.  The chain reported is
found again by the plain per-candidate search: the one that search meets first.
"""

from __future__ import annotations

from collections import deque
from importlib.util import find_spec

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits, cells_with, fruitless, mark_fruitless, peer_masks
from solvers.human.techniques.wings import strong_links

RATING = 6.6
KEY = "forcing_x_chain"
_NO_BOUND = 1 << 30


def shortest_path(
    start: int, on: bool, with_d: int, peers, partners
) -> list[tuple[int, bool]] | None:
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


def _links(state: CandidateState, d: int) -> dict[int, int]:
    """Each cell's strong-link partners on digit `d`, as a cell mask."""
    partners: dict[int, int] = {}
    for _, a, b in strong_links(state, d):
        partners[a] = partners.get(a, 0) | 1 << b
        partners[b] = partners.get(b, 0) | 1 << a
    return partners


def _length(start: int, on: bool, with_d: int, peers, partners, bound: int) -> int | None:
    """The number of candidates of the shortest chain from (start, on) to (start, not
    on), or None when there is none shorter than `bound`; breadth first, a layer at a
    time, the layer's cells as one mask."""
    seen = [0, 0]  # cells reached off, on
    seen[on] = 1 << start
    frontier = 1 << start
    state = on
    nodes = 1
    goal = 1 << start
    while frontier and nodes + 1 < bound:
        nxt = 0
        if state:
            for c in bits(frontier):
                nxt |= peers[c]
            nxt &= with_d
        else:
            for c in bits(frontier):
                nxt |= partners.get(c, 0)
        state = not state
        nodes += 1
        if state != on and nxt & goal:
            return nodes
        frontier = nxt & ~seen[state]
        seen[state] |= frontier
    return None


def chainless(state: CandidateState, d: int) -> bool:
    """Whether digit `d` has no forcing X-chain (no candidate assumed true forces itself
    false, nor false forces itself true)."""
    return fruitless(state, KEY, d) or _digit_best(state, d) is None


def _digit_best(state: CandidateState, d: int) -> tuple[int, int, bool] | None:
    """(candidates, start, on) of the shortest forcing X-chain on digit `d` (the lowest
    start, assumed on first, on a tie), or None.  It reads the digit's cells only, so it
    is kept with them in `state.fruitless` and found again only when they change."""
    with_d = cells_with(state, d)
    mark = state.fruitless.get((KEY, "best", d))
    if mark is not None and mark[0] == with_d:
        return mark[1]
    best = compiled_best(state, with_d, d) if COMPILED else searched_best(state, with_d, d)
    state.fruitless[(KEY, "best", d)] = (with_d, best)
    if best is None:
        mark_fruitless(state, KEY, d)
    return best


def searched_best(state: CandidateState, with_d: int, d: int) -> tuple[int, int, bool] | None:
    """`_digit_best`'s search, in Python (`with_d`: the digit's cells)."""
    partners = _links(state, d)
    peers = peer_masks(state.shape)
    best: tuple[int, int, bool] | None = None
    for start in bits(with_d) if partners else ():
        for on in (True, False):
            if not on and start not in partners:
                continue  # off leads nowhere without a strong link
            nodes = _length(start, on, with_d, peers, partners, best[0] if best else _NO_BOUND)
            if nodes is not None:
                best = (nodes, start, on)
    return best


COMPILED = find_spec("numba") is not None
"""Whether the search runs compiled (`x_forcing_kernel`): numba is installed."""


def compiled_best(state: CandidateState, with_d: int, d: int) -> tuple[int, int, bool] | None:
    """`searched_best` by the compiled kernel: the same chain."""
    import numpy as np

    from solvers.human.techniques.x_forcing_kernel import digit_best, geometry

    units, peers = geometry(state.shape)
    row = np.frombuffer(with_d.to_bytes(8 * peers.shape[1], "little"), dtype="<u8")
    pos = state.derived("positions-array", lambda st: np.array(st.pos, dtype=np.int64))
    nodes, start, on = digit_best(row, d - 1, pos, units, peers)
    return None if nodes < 0 else (nodes, start, on)


def forcing_x_chain(state: CandidateState) -> Step | None:
    """The forcing X-chain with the lowest Sudoku Explainer rating (then the shortest,
    then the lowest digit and cell)."""
    best: tuple | None = None
    for d in range(1, state.n + 1):
        if fruitless(state, KEY, d):
            continue
        found = _digit_best(state, d)
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], d, *found[1:])
    if best is None:
        return None
    nodes, d, start, on = best
    peers = peer_masks(state.shape)
    # the reported chain is the first the old per-candidate search met: its partner order
    partner_lists: dict[int, list[int]] = {}
    for _, a, b in strong_links(state, d):
        partner_lists.setdefault(a, []).append(b)
        partner_lists.setdefault(b, []).append(a)
    path = shortest_path(start, on, cells_with(state, d), peers, partner_lists)
    assert path is not None
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
