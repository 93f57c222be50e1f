"""Bidirectional cycles, the Sudoku Explainer way: X-cycles, Y-cycles and XY-cycles.

A *cycle* is a loop of implications that leads from a candidate assumed
true back to itself:

- true(c, d) makes false d in c's peers and, in Y and XY-cycles, c's other
  digits;
- false(c, d) makes true the other digit of a bivalue c (Y and XY-cycles)
  or the other place of d in a unit where d has two places (X and
  XY-cycles).

Every such link also holds backwards with true and false swapped, so the
loop read backwards, from the candidate assumed false, is a cycle too: the
candidates of the loop are either all as the forward reading says or all
the opposite.  A candidate outside the loop's cells that sees a true
candidate of the same digit in both readings is false.

An X-cycle stays on one digit (a continuous nice loop of strong and weak
links), a Y-cycle is a loop of bivalue cells, and an XY-cycle mixes both.
Sudoku Explainer rates X and Y-cycles 6.5 and XY-cycles 7.0, plus the
chain length bonus of the loop's candidates.  The search follows its way:
from every candidate, breadth first, each candidate made true reached once,
and the cheapest loop with eliminations wins (ties: the fewer candidates,
then X before Y before XY, then the lowest candidate).  Nothing here
assumes a unique solution.

The links are built once per state (`cycle_links`), numbered, as masks, and
only those inside a strongly connected component that could eliminate
something are kept: the searches then meet the same loops in the same order
with less to walk.  X-cycles skip the digits without a forcing X-chain (an
X-cycle's elimination is one).
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits, cells_with_each, peer_masks
from solvers.human.techniques.cycle_links import LoopGraph, live_cells
from solvers.human.techniques.x_forcing import chainless

CYCLE_RATING = 6.5  # X- and Y-cycles
XY_CYCLE_RATING = 7.0
MAX_NODES = 40  # the longest loop searched, in candidates

X, Y, XY = "x", "y", "xy"
KINDS = {X: "X-cycle", Y: "Y-cycle", XY: "XY-cycle"}


def length_limit(base: float, ceiling: float) -> int:
    """The most candidates a loop rated from `base` may have without passing `ceiling`."""
    nodes = 4
    while nodes < MAX_NODES and base + length_bonus(nodes + 1) <= ceiling + 1e-9:
        nodes += 1
    return nodes


def _graph(state: CandidateState, kind: str) -> LoopGraph:
    """The link graph of one kind of cycle, built once per state.  An X-cycle stays on
    one digit, and its eliminations follow from a forcing X-chain on that digit (assume
    a target true: it turns off a loop candidate it sees, the loop read backwards turns
    on the other one it sees, which turns the target off), so a digit without one is
    left out."""

    def build(st: CandidateState) -> LoopGraph:
        y, x = kind != X, kind != Y
        live = live_cells(st, y, x)
        if kind == X:
            live = [0 if m and chainless(st, k + 1) else m for k, m in enumerate(live)]
        return LoopGraph(st, y, x, live)

    return state.derived(f"cycle-graph-{kind}", build)


def _first_loop(g: LoopGraph, source: int, limit: int, wanted, peers, with_digit):
    """The first loop back to `source` (a candidate index, made true), breadth first,
    with at most `limit` candidates, that `wanted(length)` and that eliminates
    something, as (loop, eliminations), or None.  Each candidate made true is reached
    once; a path made false passes each candidate once (``masks``)."""
    out, into, into_mask = g.out, g.into, g.into_mask
    src = 1 << source
    avail = ((1 << len(g.nodes)) - 1) ^ src  # the candidates not made true yet
    # instance t: candidate node_of[t] made true, reached from instance parent[t]
    # through candidate via[t] made false; masks[t]: the path's false candidates
    node_of = [source]
    parent = [-1]
    via = [-1]
    masks = [0]
    pending = [0]
    length = 0
    while pending and length < limit:
        length += 2
        grow = length < limit
        want = length >= 4 and wanted(length)
        if not grow and not want:
            break
        nxt = []
        for t in pending:
            m = masks[t]
            for j, jb in out[node_of[t]]:
                if m & jb:
                    continue
                hit = into_mask[j]
                if want and hit & src:
                    loop = [j]
                    u = t
                    while u:
                        loop.append(node_of[u])
                        loop.append(via[u])
                        u = parent[u]
                    loop.append(source)
                    loop.reverse()
                    elims = _eliminations(g, loop, peers, with_digit)
                    if elims:
                        return loop, elims
                if not grow:
                    continue
                hit &= avail
                if not hit:
                    continue
                avail ^= hit
                mj = m | jb
                for a in into[j] if hit & (hit - 1) else (hit.bit_length() - 1,):
                    if hit >> a & 1:
                        nxt.append(len(node_of))
                        node_of.append(a)
                        parent.append(t)
                        via.append(j)
                        masks.append(mj)
        pending = nxt
    return None


def _eliminations(g: LoopGraph, loop: list[int], peers, with_digit) -> tuple[tuple[int, int], ...]:
    """Candidates outside the loop's cells that see a true candidate of their digit in
    both readings of the loop (`loop` alternates true and false, source first)."""
    cells_of, digits = g.cells, g.digits
    cells = 0
    seen_on: dict[int, int] = {}  # digit index -> cells seeing a true candidate (forward reading)
    seen_off: dict[int, int] = {}  # ... a false one (true in the backward reading)
    on = True
    for i in loop:
        cell = cells_of[i]
        cells |= 1 << cell
        k = digits[i]
        book = seen_on if on else seen_off
        book[k] = book.get(k, 0) | peers[cell]
        on = not on
    out = []
    for k, mask in seen_on.items():
        both = mask & seen_off.get(k, 0) & ~cells & with_digit[k]
        if both:
            out += [(c, k + 1) for c in bits(both)]
    return tuple(sorted(out))


def _best(state: CandidateState, kind: str, ceiling: float, best):
    """The cheapest loop of one kind rated at most `ceiling` (and cheaper than `best`)."""
    base = XY_CYCLE_RATING if kind == XY else CYCLE_RATING
    if base > ceiling:
        return best
    limit = length_limit(base, ceiling)
    g = _graph(state, kind)
    if not g.sources:
        return best
    peers = peer_masks(state.shape)
    with_digit = cells_with_each(state)

    def wanted(length: int) -> bool:
        return best is None or (round(base + length_bonus(length), 1), length) < best[:2]

    for source in g.sources:
        found = _first_loop(g, source, limit, wanted, peers, with_digit)
        if found is not None:
            loop, elims = found
            best = (round(base + length_bonus(len(loop)), 1), len(loop), kind, g, loop, elims)
            limit = min(limit, len(loop))
    return best


def bidirectional_cycle(
    state: CandidateState, ceiling: float = 9.9, kinds: tuple[str, ...] = (X, Y, XY)
) -> Step | None:
    """The cheapest cycle of `kinds` (X, Y and XY-cycles) with eliminations, rated at
    most `ceiling`."""
    best = None
    for kind in kinds:
        cap = ceiling if best is None else best[0]
        best = _best(state, kind, cap, best)
    if best is None:
        return None
    rating, _, kind, g, loop, elims = best
    chain = tuple((g.cells[i], g.digits[i] + 1) for i in loop)
    cells = tuple(dict.fromkeys(c for c, _ in chain))
    digits = tuple(sorted({d for _, d in chain}))
    return Step(
        "bidirectional_cycle",
        (),
        elims,
        cells,
        (),
        digits,
        rating,
        state.shape,
        chain,
        detail=(kind, tuple(i % 2 == 0 for i in range(len(loop)))),
    )
