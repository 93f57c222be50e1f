"""3D Medusa: two-colouring candidates across digits.

Strong links join candidates: the two candidates of a bivalue cell, and the
two places of a digit in a unit.  Exactly one end of each link is true, so a
cluster of linked candidates splits into two colours, one all true and the
other all false.  A colour is false when, were it true, the grid would break:

- two of its candidates share a cell, or one digit of it appears twice in a unit;
- some cell would be left with no candidate (each is of the other colour or sees
  the colour's candidate of its digit).

Its candidates then go.  Otherwise an uncoloured candidate goes when either
colour rules it out (the colour holds another digit of its cell, or sees its
digit): a *trap*.  Clusters of one digit are simple colouring's business.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import bits, cells_with_each, peer_masks, seen_by
from solvers.human.techniques.wings import strong_links

Node = tuple[int, int]  # (cell, digit)
Reason = tuple[str, int, int]  # why a colour is false: ("cell" | "unit" | "empty", cell, digit)


def _clusters(state: CandidateState) -> list[tuple[list[Node], list[Node]]]:
    """The two-coloured clusters of candidates joined by strong links, in two digits or more."""
    n = state.n
    adjacent: dict[Node, list[Node]] = {}

    def link(x: Node, y: Node) -> None:
        adjacent.setdefault(x, []).append(y)
        adjacent.setdefault(y, []).append(x)

    for cell, mask in enumerate(state.cand):
        if mask.bit_count() == 2:
            low = mask & -mask
            link((cell, low.bit_length()), (cell, (mask ^ low).bit_length()))
    for d in range(1, n + 1):
        for _, a, b in strong_links(state, d):
            link((a, d), (b, d))
    seen: set[Node] = set()
    out = []
    for root in sorted(adjacent):
        if root in seen:
            continue
        colour = {root: 0}
        stack = [root]
        while stack:
            node = stack.pop()
            for other in adjacent[node]:
                if other not in colour:
                    colour[other] = 1 - colour[node]
                    stack.append(other)
        seen.update(colour)
        if len({d for _, d in colour}) < 2:
            continue
        out.append(
            (
                sorted(x for x, k in colour.items() if k == 0),
                sorted(x for x, k in colour.items() if k == 1),
            )
        )
    return out


def _by_digit(nodes: list[Node], n: int) -> list[int]:
    """A colour as one cell mask per digit (index digit - 1)."""
    out = [0] * n
    for c, d in nodes:
        out[d - 1] |= 1 << c
    return out


def medusa_3d(state: CandidateState, rating: float) -> Step | None:
    """The first cluster with a false colour (a wrap) or an uncoloured candidate both
    colours rule out (a trap)."""
    n = state.n
    peers = peer_masks(state.shape)
    with_d = cells_with_each(state)
    open_cells = 0
    for c, mask in enumerate(state.cand):
        if mask:
            open_cells |= 1 << c
    for colours in _clusters(state):
        masks = [_by_digit(nodes, n) for nodes in colours]
        seen = [[seen_by(peers, m) for m in ms] for ms in masks]
        holds = [_union(ms) for ms in masks]  # the cells holding a candidate of the colour
        for k in (0, 1):
            reason = _contradiction(masks[k], seen[k], holds[k], masks[1 - k], with_d, open_cells)
            if reason is not None:
                elims = tuple(sorted(colours[k]))
                return _step(state, colours, elims, rating, ("wrap", k, reason))
        elims_list: list[Node] = []
        for j in range(n):
            rules_out = [holds[k] | seen[k][j] for k in (0, 1)]
            targets = with_d[j] & rules_out[0] & rules_out[1] & ~(masks[0][j] | masks[1][j])
            elims_list += [(c, j + 1) for c in bits(targets)]
        if elims_list:
            return _step(state, colours, tuple(sorted(elims_list)), rating, ("trap", -1, None))
    return None


def _union(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _contradiction(
    mine: list[int], seen: list[int], holds: int, others: list[int], with_d: list[int], open_: int
) -> Reason | None:
    """Why a colour cannot be true (None when it can): a cell holding two of its
    candidates, a digit of it twice in a unit, or a cell it would empty."""
    acc = 0
    for m in mine:
        if acc & m:
            return ("cell", (acc & m).bit_length() - 1, 0)
        acc |= m
    for j, m in enumerate(mine):
        if seen[j] & m:
            return ("unit", (seen[j] & m).bit_length() - 1, j + 1)
    survivors = 0  # cells keeping a candidate were the colour true
    for j in range(len(mine)):
        survivors |= with_d[j] & ~(others[j] | seen[j])
    empty = open_ & ~holds & ~survivors
    if empty:
        return ("empty", empty.bit_length() - 1, 0)
    return None


def _step(
    state: CandidateState,
    colours: tuple[list[Node], list[Node]],
    elims: tuple[Node, ...],
    rating: float,
    why: tuple[str, int, Reason | None],
) -> Step:
    """A Medusa step; ``detail`` is (kind, false colour or -1, reason, colour A, colour B)."""
    a, b = colours
    return Step(
        "medusa_3d",
        (),
        elims,
        tuple(sorted({c for c, _ in a + b})),
        (),
        tuple(sorted({d for _, d in a + b})),
        rating,
        state.shape,
        detail=(*why, tuple(a), tuple(b)),
    )
