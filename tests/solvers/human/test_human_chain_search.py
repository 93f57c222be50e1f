"""The bitmask chain and cycle searches against straightforward references.

Bidirectional cycles (`cycles`, `cycle_links`), forcing X-chains (`x_forcing`) and
grouped strong links (`grouped_links`) search cleverly: link tables built once, pruned
to strongly connected components, layered breadth-first search over masks, bounds.
Each must report exactly what a plain search reports, the same chain on a tie.  The
references here are the plain searches, run on random candidate grids that hold a
solution (so every grid is consistent) and on grids where each technique must or must
not fire.
"""

from __future__ import annotations

import random

import pytest

from solvers.grid import shape
from solvers.human.state import CandidateState
from solvers.human.techniques import chains, cycle_links, cycles, grouped_links, x_forcing
from solvers.human.techniques.chains import length_bonus
from solvers.human.techniques.common import bits, cells_with, peer_masks
from solvers.human.techniques.wings import strong_links

SHAPE = shape(3, 3)


def _solution(rng: random.Random) -> list[int]:
    """A random solved 9x9 grid: the pattern grid with digits, rows and columns shuffled
    inside their bands and stacks."""
    digits = rng.sample(range(1, 10), 9)
    rows = [b * 3 + r for b in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [b * 3 + c for b in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    return [digits[(3 * (r % 3) + r // 3 + c) % 9] for r in rows for c in cols]


def random_state(seed: int, keep: float = 0.3, placed: float = 0.25) -> CandidateState:
    """A candidate grid holding a random solution: some cells placed, the others with
    their digit and each other digit kept with probability `keep`."""
    rng = random.Random(seed)
    tokens = []
    for digit in _solution(rng):
        if rng.random() < placed:
            tokens.append(str(digit))
            continue
        others = [d for d in range(1, 10) if d != digit and rng.random() < keep]
        others = others or [digit % 9 + 1]  # an open cell keeps two digits at least
        tokens.append("".join(str(d) for d in sorted([digit, *others])))
    return CandidateState.from_candidates(" ".join(tokens))


SEEDS = range(60)


# -- bidirectional cycles: the plain search ----------------------------------------------


def _ref_links(state: CandidateState, y: bool, x: bool) -> dict[tuple[int, int, bool], list]:
    """What each candidate that can lie on a loop forces, (cell, digit index, on) ->
    [(cell, digit index, on)], in Sudoku Explainer's order; strong links only into an
    on candidate and out of an off one."""
    n, cand, units = state.n, state.cand, SHAPE.units

    def places(u: int, k: int) -> list[int]:
        return [c for c in units[u] if cand[c] >> k & 1]

    def live(c: int, k: int) -> bool:
        if not cand[c] >> k & 1:
            return False
        if y and cand[c].bit_count() == 2:
            return True
        return x and any(len(places(u, k)) == 2 for u in SHAPE.cell_units[c])

    links: dict[tuple[int, int, bool], list] = {}
    for c in range(SHAPE.ncells):
        r, col, b = SHAPE.cell_units[c]
        order = sorted(p for p in units[b] if p != c)
        order += sorted(p for p in units[r] if p not in units[b])
        order += sorted(p for p in units[col] if p not in units[b])
        for k in range(n):
            if not live(c, k):
                continue
            on = [(c, j, False) for j in range(n) if j != k and y and live(c, j)]
            on += [(p, k, False) for p in order if live(p, k)]
            links[(c, k, True)] = on
            off = []
            if y and cand[c].bit_count() == 2:
                off.append((c, (cand[c] & ~(1 << k)).bit_length() - 1, True))
            for u in (b, r, col) if x else ():
                if len(places(u, k)) == 2:
                    node = ([p for p in places(u, k) if p != c][0], k, True)
                    if node not in off:
                        off.append(node)
            links[(c, k, False)] = off
    return links


def _ref_loops(links, source, limit):
    """Loops back to `source`, breadth first: each candidate made true reached once, a
    path never passing a candidate made false twice."""
    reached = {source}
    layer = [[source]]
    length = 0
    while layer and length < limit[0]:
        length += 2
        nxt = []
        for path in layer:
            for off in links[path[-1]]:
                if off in path:
                    continue
                for on in links[off]:
                    if on == source and length >= 4:
                        yield [*path, off]
                    if on not in reached and length < limit[0]:
                        reached.add(on)
                        nxt.append([*path, off, on])
        layer = nxt


def _ref_eliminations(state: CandidateState, loop) -> tuple:
    peers = peer_masks(SHAPE)
    cells = {c for c, _, _ in loop}
    out = set()
    for c in range(SHAPE.ncells):
        for k in range(state.n):
            if c in cells or not state.cand[c] >> k & 1:
                continue
            sees = [on for p, j, on in loop if j == k and peers[c] >> p & 1]
            if True in sees and False in sees:
                out.add((c, k + 1))
    return tuple(sorted(out))


def ref_cycle(state: CandidateState, ceiling: float, kinds) -> tuple | None:
    """The cheapest loop with eliminations (the fewer candidates, then the kinds' order,
    then the lowest first candidate): (rating, loop, eliminations)."""
    best = None
    for kind in kinds:
        cap = ceiling if best is None else best[0]
        base = cycles.XY_CYCLE_RATING if kind == cycles.XY else cycles.CYCLE_RATING
        if base > cap:
            continue
        links = _ref_links(state, kind != cycles.X, kind != cycles.Y)
        limit = [cycles.length_limit(base, cap)]
        for c in range(SHAPE.ncells):
            m = state.cand[c]
            if m.bit_count() < 2 or (kind == cycles.Y and m.bit_count() > 2):
                continue
            for k in bits(m):
                if (c, k, True) not in links:
                    continue
                for loop in _ref_loops(links, (c, k, True), limit):
                    rating = round(base + length_bonus(len(loop)), 1)
                    if best is not None and (rating, len(loop)) >= best[:2]:
                        continue
                    elims = _ref_eliminations(state, loop)
                    if elims:
                        best = (rating, len(loop), loop, elims)
                        limit[0] = min(limit[0], len(loop))
    if best is None:
        return None
    rating, _, loop, elims = best
    return rating, [(c, k + 1) for c, k, _ in loop], elims


CYCLE_CALLS = [
    (9.9, (cycles.X, cycles.Y, cycles.XY)),
    (7.1, (cycles.X, cycles.Y)),
    (6.6, (cycles.X,)),
    (7.3, (cycles.XY,)),
    (6.5, (cycles.Y,)),
]


def _cycle_state(seed: int) -> CandidateState:
    """Dense grids (even seeds) nearly always hold a cycle; sparse ones (odd) often not."""
    return random_state(seed) if seed % 2 == 0 else random_state(seed, 0.1, 0.5)


@pytest.mark.parametrize("seed", SEEDS)
def test_cycle_search_matches_the_plain_search(seed):
    state = _cycle_state(seed)
    for ceiling, kinds in CYCLE_CALLS:
        step = cycles.bidirectional_cycle(state, ceiling, kinds)
        want = ref_cycle(state, ceiling, kinds)
        got = None if step is None else (step.rating, list(step.chain), step.eliminations)
        assert got == want, (seed, ceiling, kinds)


def test_cycle_search_fires_and_keeps_quiet_on_the_random_grids():
    found = [cycles.bidirectional_cycle(_cycle_state(seed), 9.9) is not None for seed in SEEDS]
    assert any(found)
    assert not all(found)


def test_a_grid_without_bivalue_cells_or_strong_links_has_no_cycle():
    state = CandidateState.from_candidates(" ".join(["123456789"] * 81))
    assert cycles.bidirectional_cycle(state, 9.9) is None


# -- the link graph -------------------------------------------------------------------


def _reach(adj: list[list[int]], v: int) -> set[int]:
    seen = {v}
    todo = [v]
    while todo:
        for w in adj[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


@pytest.mark.parametrize("seed", range(20))
def test_components_are_the_strongly_connected_ones(seed):
    rng = random.Random(seed)
    size = rng.randrange(1, 30)
    adj = [rng.sample(range(size), rng.randrange(0, 3)) for _ in range(size)]
    comp = cycle_links.components(adj)
    reach = [_reach(adj, v) for v in range(size)]
    for v in range(size):
        for w in range(size):
            together = w in reach[v] and v in reach[w]
            assert (comp[v] == comp[w]) == together


def test_the_graph_keeps_only_links_that_lie_on_a_loop():
    for seed in range(10):
        state = random_state(seed)
        g = cycle_links.LoopGraph(state, True, True, cycle_links.live_cells(state, True, True))
        size = len(g.nodes)
        adj = [[size + j for j, _ in after] for after in g.out] + g.into
        reach = [_reach(adj, v) for v in range(2 * size)]
        for i, after in enumerate(g.out):
            assert all(i in reach[size + j] for j, _ in after)
        for j, before in enumerate(g.into):
            assert all(size + j in reach[i] for i in before)


# -- forcing X-chains ------------------------------------------------------------------


def _ref_partners(state: CandidateState, d: int) -> dict[int, list[int]]:
    partners: dict[int, list[int]] = {}
    for _, a, b in strong_links(state, d):
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    return partners


def ref_forcing_x_chain(state: CandidateState):
    """The shortest chain from each candidate assumed on or off back to its opposite, by
    a plain breadth-first search per start: (nodes, digit, start, on, path)."""
    peers = peer_masks(SHAPE)
    best = None
    for d in range(1, 10):
        partners = _ref_partners(state, d)
        if not partners:
            continue
        with_d = cells_with(state, d)
        for start in bits(with_d):
            for on in (True, False):
                if not on and start not in partners:
                    continue
                path = x_forcing.shortest_path(start, on, with_d, peers, partners)
                if path is not None and (best is None or len(path) < best[0]):
                    best = (len(path), d, start, on, path)
    return best


def _fresh(seed: int) -> CandidateState:
    """Grids for the forcing X-chains: denser (even seeds) or sparser (odd)."""
    return random_state(seed, 0.2, 0.3) if seed % 2 == 0 else random_state(seed, 0.1, 0.65)


@pytest.mark.parametrize("seed", SEEDS)
def test_forcing_x_chain_matches_the_plain_search(seed):
    step = x_forcing.forcing_x_chain(_fresh(seed))
    want = ref_forcing_x_chain(_fresh(seed))
    if want is None:
        assert step is None
        return
    nodes, d, start, on, path = want
    assert step is not None
    assert step.chain == tuple((c, d if s else -d) for c, s in path)
    assert step.rating == round(x_forcing.RATING + length_bonus(nodes), 1)
    assert (step.eliminations if on else step.placements) == ((start, d),)


@pytest.mark.parametrize("seed", SEEDS)
def test_chainless_says_whether_a_digit_has_a_forcing_x_chain(seed):
    state = _fresh(seed)
    peers = peer_masks(SHAPE)
    for d in range(1, 10):
        partners = _ref_partners(state, d)
        with_d = cells_with(state, d)
        has = any(
            x_forcing.shortest_path(s, on, with_d, peers, partners) is not None
            for s in bits(with_d)
            for on in (True, False)
            if on or s in partners
        )
        assert x_forcing.chainless(state, d) == (not has)
        assert x_forcing.chainless(state, d) == (not has)  # now from the mark


def test_forcing_x_chain_fires_and_keeps_quiet_on_the_random_grids():
    found = [x_forcing.forcing_x_chain(_fresh(seed)) is not None for seed in SEEDS]
    assert any(found)
    assert not all(found)


def test_an_x_cycle_needs_a_forcing_x_chain_on_its_digit():
    checked = 0
    for seed in SEEDS:
        state = random_state(seed)
        want = ref_cycle(state, 9.9, (cycles.X,))
        if want is not None:
            digit = want[1][0][1]
            assert not x_forcing.chainless(state, digit)
            checked += 1
    assert checked


# -- grouped strong links --------------------------------------------------------------


def ref_best_chain(state: CandidateState, d: int, k: int):
    """Every chain of `k` strong links on `d`, one grouped, tried in order: the first that
    removes the most, as (count, links, targets)."""
    links = grouped_links.digit_links(state, d)
    ends = [(u, a, b, g) for u, a, b, g in links] + [(u, b, a, g) for u, a, b, g in links]
    with_d = cells_with(state, d)
    peers = peer_masks(SHAPE)

    def seen(m: int) -> int:
        out = -1
        for c in bits(m):
            out &= peers[c]
        return out

    def units(m: int) -> set[int]:
        return set.intersection(*(set(SHAPE.cell_units[c]) for c in bits(m)))

    def follows(i: int, j: int) -> bool:  # link j after link i through a weak link
        (u, _, b, _), (w, x, _, _) = ends[i], ends[j]
        return w != u and not x & b and bool(units(b) & units(x))

    best = None
    chains = [[i] for i in range(len(ends))]
    for _ in range(k - 1):
        chains = [[*c, j] for c in chains for j in range(len(ends)) if follows(c[-1], j)]
    for chain in chains:
        if k == 3 and ends[chain[0]][0] == ends[chain[-1]][0]:
            continue
        picked = [ends[i] for i in chain]
        if not any(g for *_, g in picked):
            continue
        nodes = [m for _, a, b, _ in picked for m in (a, b)]
        if any(nodes[i] & nodes[j] for i in range(len(nodes)) for j in range(i)):
            continue  # the nodes must not overlap
        far1, far2 = picked[0][1], picked[-1][2]
        targets = seen(far1) & seen(far2) & with_d & ~(far1 | far2)
        if targets and (best is None or targets.bit_count() > best[0]):
            best = (targets.bit_count(), picked, targets)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_grouped_chains_match_the_plain_search(seed):
    state = random_state(seed, keep=0.45, placed=0.15)
    for k in (2, 3):
        for d in range(1, 10):
            got = grouped_links.best_chain(state, d, k, cells_with(state, d))
            want = ref_best_chain(state, d, k)
            assert (None if got is None else (got[0], got[2], got[3])) == want, (seed, k, d)


def test_grouped_chains_fire_and_keep_quiet_on_the_random_grids():
    found = []
    for seed in range(10):
        state = random_state(seed, 0.45, 0.15)
        found += [grouped_links.best_chain(state, d, 2, cells_with(state, d)) for d in range(1, 10)]
    assert any(found)
    assert not all(found)


# -- X-chains --------------------------------------------------------------------------


def ref_shortest_x_chain(state: CandidateState, max_cells: int):
    """The plain search: from each cell with a strong link, breadth first, the first chain
    with eliminations; the shortest over all, the first on a tie."""
    peers = peer_masks(SHAPE)
    best = None
    for d in range(1, 10):
        strong = _ref_partners(state, d)
        if len(strong) < 4:
            continue
        with_d = cells_with(state, d)
        for start in sorted(strong):
            bound = best[0] - 1 if best else max_cells
            found = chains.x_chain_from(state, d, start, strong, with_d, peers, bound)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], d, found[1], found[2])
    return best


@pytest.mark.parametrize("seed", SEEDS)
def test_x_chain_matches_the_plain_search(seed):
    for max_cells in (6, chains.MAX_X_CELLS):
        want = ref_shortest_x_chain(_fresh(seed), max_cells)
        assert chains.shortest_x_chain(_fresh(seed), max_cells) == want


def test_x_chain_fires_and_keeps_quiet_on_the_random_grids():
    found = [chains.shortest_x_chain(_fresh(seed), 6) is not None for seed in SEEDS]
    assert any(found)
    assert not all(found)


def ref_xy_chain(state: CandidateState):
    """The plain search: from each bivalue cell and each of its digits assumed false,
    breadth first, the first chain with eliminations; the shortest, the first on a tie."""
    cand = state.cand
    peers = peer_masks(SHAPE)
    biv = [c for c, m in enumerate(cand) if m.bit_count() == 2]
    biv_mask = sum(1 << c for c in biv)
    best = None
    for start in biv:
        for z in bits(cand[start]):
            bound = best[0] - 1 if best else chains.MAX_XY_CELLS
            found = chains.xy_chain_from(state, start, z + 1, biv_mask, peers, bound)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], z + 1, found[1], found[2])
    return best


@pytest.mark.parametrize("seed", SEEDS)
def test_xy_chain_matches_the_plain_search(seed):
    state = random_state(seed, 0.1, 0.3)
    step = chains.xy_chain(state)
    want = ref_xy_chain(state)
    if want is None:
        assert step is None
        return
    _, z, path, targets = want
    assert step is not None
    assert step.cells == tuple(c for c, _ in path)
    assert step.eliminations == tuple((c, z) for c in bits(targets))


def test_xy_chain_fires_and_keeps_quiet_on_the_random_grids():
    found = [chains.xy_chain(random_state(seed, 0.1, 0.3)) is not None for seed in SEEDS]
    assert any(found)
    assert not all(found)
