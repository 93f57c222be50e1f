"""Forcing-chain branches followed by the compiled kernel (`branch_kernel`).

`Context` follows a dynamic, (+) or nested (levels 2 and 3) branch here when numba is
there and the grid is at most 16x16; the branch is the same as `Context`'s own route
gives (every fact with its causes in the same order, the same contradiction, the same
inner chains).  The kernel follows the singles, the other rules and, in nested branches,
the inner chains: it keeps each grid's inner chains in a memo of its own (`new_memo`,
one per solve, like the pure route's table in the solve's memo), found by the static
kernel, or here by the pure route for the rare grid the static kernel leaves to it.
`plus_ends` follows every seed's (+) branch at once, without causes, for the (+)
search's choice of branches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from functools import cache, cached_property
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from solvers.grid import Shape
from solvers.human.techniques.branches import NESTED, NESTED_MULTIPLE, PLUS, Branch, check_time

if TYPE_CHECKING:
    from solvers.human.techniques.branches import Context
    from solvers.human.techniques.nested import Hint

PURE_HINTS: ContextVar[bool] = ContextVar("pure_hints", default=False)
"""Whether nested branches take every grid's inner chains from the pure-Python route (the
route the static kernel leaves the rare grid to; tests take it on every grid)."""

MEMO_GRIDS = 20_000
"""The grids a solve's compiled memo keeps before a search starts it afresh (each takes a
few hundred bytes to a few kilobytes)."""


@cache
def branch_kernel(shape: Shape) -> ModuleType | None:
    """The compiled branch follower for grids of `shape`, or None (no numba, or a grid
    larger than it takes)."""
    if find_spec("numba") is None:
        return None
    kernel = import_module("solvers.human.techniques.branch_kernel")
    return kernel if shape.size <= kernel.MAX_SIZE else None


def new_memo() -> tuple[Any, ...]:
    """An empty compiled memo: (grid hashes to entries, the entries' candidates, their
    level 2 chains, level 3 chains, whether those are known, [the next key, the number of
    entries])."""
    from numba import typed, types

    hints = types.Tuple((types.int64[:, ::1], types.int64[::1], types.int64[::1]))
    return (
        typed.Dict.empty(key_type=types.int64, value_type=types.int64),
        typed.List.empty_list(types.int64[::1]),
        typed.List.empty_list(hints),
        typed.List.empty_list(hints),
        typed.List.empty_list(types.int64),
        np.zeros(2, dtype=np.int64),
    )


class Start:
    """A search's start grid as the kernel reads it, the workspace its branches use, and
    the solve's memo of inner chains."""

    def __init__(self, ctx: Context, kernel: ModuleType) -> None:
        self._ctx = ctx
        self._kernel = kernel
        state = ctx.state
        n = state.n
        ints = np.int64
        self.cand = np.array(ctx.cand, dtype=ints)
        self.pos = np.array(ctx.pos, dtype=ints)
        self.placed = np.array(ctx.placed, dtype=ints)
        values = state.values
        # per unit its open cells, per digit its cells, in the real grid (`inner_rules`)
        self.open_counts = np.array(
            [sum(1 for c in cells if not values[c]) for cells in ctx.unit_cells], dtype=ints
        )
        placed_count = [0] * (n + 1)
        for v in values:
            placed_count[v] += 1
        self.placed_count = np.array(placed_count, dtype=ints)
        # what the kernel's entries read of the start grid, in one tuple
        self.grid = (self.cand, self.pos, self.placed, self.open_counts, self.placed_count)
        self.geo = kernel.geometry(state.shape)
        self.static_geo = _static_geometry(state.shape)
        self.workspace = kernel.Workspace(state.shape)
        table = state.memo.table("nested-compiled-hints", state.shape, 1)
        memo = table.get("memo")
        if memo is None or memo[5][1] > MEMO_GRIDS:
            memo = table["memo"] = new_memo()
        self.memo = memo

    @cached_property
    def seeds(self) -> tuple[list[int], np.ndarray, dict[int, int]]:
        """The seeds of the dynamic, (+) and nested searches (`search_seeds`, found by the
        kernel), as a list, as an array, and each one's index."""
        ctx = self._ctx
        seed_array = self._kernel.seed_array(self.cand, ctx.n, ctx.off)
        seeds = seed_array.tolist()
        return seeds, seed_array, dict(zip(seeds, range(len(seeds)), strict=True))

    @cached_property
    def row_of(self) -> np.ndarray:
        """Per node, its seed's index (-1 for none), as the kernel reads it."""
        return rows_of(self.seeds[1], 2 * self._ctx.off)

    @cached_property
    def plus_ends(self) -> Ends:
        """Every seed's (+) branch: the (+) search reads them, and the nested searches of
        the same grid start from them (`nested_ends`)."""
        kernel = branch_kernel(self._ctx.state.shape)
        assert kernel is not None  # (a start is made for the kernel)
        return _followed(self, kernel, False)

    @cached_property
    def plus_dry(self) -> np.ndarray:
        """Per seed, whether level 2's inner chains add nothing where its (+) branch ends
        (-1: not known yet; `branch_kernel.plus_ends_here`): the two nested searches of
        the grid share it."""
        return np.full(len(self.seeds[0]), -1, dtype=np.int8)

    @cached_property
    def useful(self) -> np.ndarray:
        """The facts worth concluding, as a row of bits over nodes: on and off for every
        candidate of the grid (`findings.is_useful`)."""
        ctx = self._ctx
        n = ctx.n
        on = 0
        for cell, m in enumerate(ctx.cand):
            on |= m << (cell * n)
        words = (2 * ctx.off + 63) >> 6
        facts = (on | on << ctx.off).to_bytes(8 * words, "little")
        return np.frombuffer(facts, dtype="<u8").astype(np.uint64)

    @cached_property
    def bound(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The start grid's reach for the nested searches' bound (`chain_bound`)."""
        from solvers.human.techniques.chain_bound import start_reach

        units, cell_units, peers, _ = self.static_geo
        n = len(self.placed_count) - 1
        return start_reach(self.cand, self.pos, self.placed, n, units, cell_units, peers)


@cache
def _static_geometry(shape: Shape) -> tuple[np.ndarray, ...]:
    from solvers.human.techniques.static_kernel import geometry

    return geometry(shape)


def _start(ctx: Context, kernel: ModuleType) -> Start:
    """`ctx`'s start grid, shared by the searches of one state (the dynamic, (+) and nested
    searches of a step), unless `ctx` is on a branch's candidates (`Context.within`)."""
    start = ctx.__dict__.get("compiled_start")
    if start is None:
        state = ctx.state
        if ctx.cand is state.cand:
            start = state.derived("compiled-start", lambda _: Start(ctx, kernel))
        else:
            start = Start(ctx, kernel)
        ctx.__dict__["compiled_start"] = start
    return start


def rows_of(seeds: np.ndarray, nodes: int) -> np.ndarray:
    """Per node, its index in `seeds` (-1 for none)."""
    row_of = np.full(nodes, -1, dtype=np.int64)
    row_of[seeds] = np.arange(len(seeds), dtype=np.int64)
    return row_of


def search_seeds(ctx: Context) -> list[int]:
    """The seeds a (+) or nested search follows, in its order: on for every candidate of
    an open cell with two or more, off for those of cells with three or more."""
    n = ctx.n
    off_base = ctx.off
    seeds: list[int] = []
    for cell, m in enumerate(ctx.cand):
        if not m & (m - 1):
            continue
        at = cell * n
        if m.bit_count() == 2:
            low = m & -m
            seeds.extend((at + low.bit_length() - 1, at + m.bit_length() - 1))
            continue
        while m:
            low = m & -m
            m ^= low
            x = at + low.bit_length() - 1
            seeds.extend((x, off_base + x))
    return seeds


_NOT_READ = object()
"""A seed whose facts `Ends` has not read from its rows yet."""


class Ends(Mapping[int, int | None]):
    """Per seed of a search its branch's facts as a bitmask over nodes (bit ``node``), or
    None for a contradiction, read from the kernel's rows of bits when asked for (a
    search reads a few hundred of them; `filters` reads the rows themselves); for dynamic
    branches also what each contradiction rests on (`conflict`)."""

    def __init__(
        self,
        seeds: list[int],
        row_of: dict[int, int],
        clash: np.ndarray,
        rows: np.ndarray,
        spans: np.ndarray | None = None,
        rest: np.ndarray | None = None,
    ) -> None:
        self.seeds = seeds
        self.clash = clash
        self.rows = rows
        self._spans = spans
        self._rest = rest
        self._row_of = row_of  # each seed's index
        self._failed = clash.tolist()
        self._data = rows.tobytes()
        self._width = rows.shape[1] * 8
        self._known: dict[int, int | None] = {}

    def __getitem__(self, seed: int) -> int | None:
        found = self._known.get(seed, _NOT_READ)
        if found is not _NOT_READ:
            return found  # type: ignore[return-value]
        i = self._row_of[seed]  # (KeyError for a seed the search lacks)
        if self._failed[i]:
            found = None
        else:
            w = self._width
            found = int.from_bytes(self._data[i * w : (i + 1) * w], "little")
        self._known[seed] = found
        return found

    def failed(self, seed: int) -> bool:
        """Whether `seed`'s branch ends in a contradiction (False for a seed the search
        lacks), without reading its facts."""
        i = self._row_of.get(seed)
        return i is not None and self._failed[i]

    def __iter__(self) -> Iterator[int]:
        return iter(self.seeds)

    def __len__(self) -> int:
        return len(self.seeds)

    def group(self, nodes: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The rows of `nodes`' facts, and whether each is known there (not for a seed
        the search lacks, or whose branch ends in a contradiction)."""
        at = [self._row_of.get(x, -1) for x in nodes]
        known = np.array([i >= 0 and not self._failed[i] for i in at], dtype=np.bool_)
        return self.rows[at], known

    def conflict(self, seed: int) -> tuple[set[int], int, int] | None:
        """What the contradiction of `seed`'s dynamic or (+) branch rests on, without a
        limit: (the facts, the complexity `findings.conflict_chain` gives, and for a
        dynamic branch the breadth-first level it was found at: a limit of `limit` facts
        stops the branch before it when ``limit and level + 1 > limit``); None when not
        known."""
        if self._spans is None or self._rest is None:
            return None
        i = self._row_of.get(seed)
        if i is None:
            return None
        depth, a, b, c = self._spans[i].tolist()
        if depth < 0:
            return None
        on = set(self._rest[a:b].tolist())
        off = set(self._rest[b:c].tolist())
        return on | off, len(on) + len(off), depth


class Filters(NamedTuple):
    """Which groups of a search may conclude anything, by their branches' facts
    (`branch_kernel.sharing`): per cell, per unit and digit (``unit * n + k``), per on
    node (its on and off branches); and the cells, ascending, with a seed whose branch
    ends in a contradiction or an on node whose two branches may share a fact (the only
    cells where a seed's branches conclude anything on their own)."""

    cells: list[bool]
    places: list[bool]
    both: list[bool]
    busy: list[int]


def filters(ctx: Context, ends: Ends, dynamic: bool) -> Filters:
    """The search's `Filters` from its `ends` (`dynamic`: a group with a branch ending in a
    contradiction concludes nothing), in one call of the kernel."""
    kernel = branch_kernel(ctx.state.shape)
    assert kernel is not None  # (the ends come from it)
    start = _start(ctx, kernel)
    seeds, seed_array, _ = start.seeds
    if ends.seeds is seeds:  # (the search's own seeds: their rows are known)
        row_of = start.row_of
    else:
        seed_array = np.array(ends.seeds, dtype=np.int64)
        row_of = rows_of(seed_array, 2 * ctx.off)
    cells, places, both = kernel.sharing(
        ends.rows, ends.clash, row_of, start.cand, start.pos, start.static_geo[0], dynamic
    )
    n = ctx.n
    busy = both.reshape(-1, n).any(axis=1)
    busy[seed_array[ends.clash] % ctx.off // n] = True
    return Filters(cells.tolist(), places.tolist(), both.tolist(), np.flatnonzero(busy).tolist())


def plus_ends(ctx: Context) -> Ends | None:
    """Per seed of the (+) search (`search_seeds`), the facts its branch holds as a
    bitmask over nodes (bit ``node``), or None when the branch ends in a contradiction:
    every branch followed at once in the kernel, so that the search follows with causes
    only those that can conclude anything.  None without the kernel."""
    return _ends(ctx, False)


def dynamic_ends(ctx: Context) -> Ends | None:
    """`plus_ends` for the dynamic search's branches."""
    return _ends(ctx, True)


def _ends(ctx: Context, dynamic: bool) -> Ends | None:
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return None
    start = _start(ctx, kernel)
    if not dynamic:
        return start.plus_ends
    return _followed(start, kernel, dynamic)


def _followed(start: Start, kernel: ModuleType, dynamic: bool) -> Ends:
    """Every seed's dynamic or (+) branch (`branch_kernel.branch_facts`)."""
    seeds, seed_array, row_of = start.seeds
    while True:
        ok, clash, rows, spans, rest = kernel.branch_facts(
            start.workspace.arrays,
            start.geo,
            start.static_geo[2],
            seed_array,
            start.grid,
            dynamic,
        )
        if ok:
            break
        start.workspace.grow()
    return Ends(seeds, row_of, clash, rows, spans, rest)


BATCH = 128
"""Seeds a call of the kernel follows in `nested_ends` before the deadline is looked at."""


class NestedEnds(NamedTuple):
    """Every seed's branch of a nested search (`nested_ends`)."""

    facts: Ends
    """Per seed its branch's facts as a bitmask over nodes, None for a contradiction."""
    branch: Callable[[int], Branch]
    """A seed's branch, made when asked for."""
    from_plus: int
    """How many seeds' branches are their (+) branches, taken without following them."""
    conflict_cost: Callable[[int], int]
    """The complexity of a seed's contradiction (a seed whose branch ends in one)."""
    agreement: Callable[[list[int], int], tuple[int, int] | None]
    """`group_agreement` for these branches, with a limit (`branch_kernel.agreement`)."""


def nested_ends(ctx: Context, mode: int, seeds: list[int] | None = None) -> NestedEnds | None:
    """Every seed's branch of a nested search (`search_seeds` unless given, mode `NESTED`
    or `NESTED_MULTIPLE`), followed by the kernel in a few calls; each becomes a `Branch`
    only when the search asks for it (most are needed only for their facts).  None
    without the kernel."""
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return None
    start = _start(ctx, kernel)
    level = 3 if mode == NESTED_MULTIPLE else 2
    plus_clash = np.zeros(0, dtype=np.bool_)
    plus_rows = np.zeros((0, 0), dtype=np.uint64)
    plus_dry = np.zeros(0, dtype=np.int8)
    if seeds is None:
        seeds, seed_array, index = start.seeds
        plus = start.plus_ends  # (the nested branches start as these)
        plus_clash, plus_rows, plus_dry = plus.clash, plus.rows, start.plus_dry
    else:
        seed_array = np.array(seeds, dtype=np.int64)
        index = {seed: i for i, seed in enumerate(seeds)}
    count = len(seeds)
    words = (2 * ctx.off + 63) >> 6
    out = np.empty(1 << 14, dtype=np.int64)
    used = 0
    spans = np.zeros((count, 2), dtype=np.int64)
    clash = np.zeros(count, dtype=np.bool_)
    rows = np.zeros((count, words), dtype=np.uint64)
    costs = np.full(count, -1, dtype=np.int64)
    pure = PURE_HINTS.get()
    i = 0
    resume = False
    while i < count:
        check_time()
        status, i, out, used = kernel.nested_batch(
            start.workspace.arrays,
            start.geo,
            start.static_geo,
            seed_array,
            i,
            min(count, i + BATCH),
            start.grid,
            level,
            resume,
            pure,
            out,
            used,
            spans,
            clash,
            rows,
            *start.memo,
            start.bound,
            plus_clash,
            plus_rows,
            plus_dry,
            costs,
        )
        resume = status == kernel.NEED_PY
        if resume:
            keep_pure_hints(ctx, kernel, start, level)
        elif status == kernel.OVERFLOW:
            start.workspace.grow()  # and follow the branch again

    def branch(seed: int) -> Branch:
        j = index[seed]
        a, b = spans[j].tolist()
        if a < 0:  # its (+) branch, without inner chains
            plus = follow(ctx, [seed], PLUS)
            assert plus is not None  # (the kernel is there)
            return Branch(plus.parents, plus.conflict, {})
        return branch_of(out[a:b].tolist(), True, bool(clash[j]))

    def conflict_cost(seed: int) -> int:
        c = int(costs[index[seed]])
        assert c >= 0  # (a seed whose branch ends in a contradiction)
        return c

    def agreement(nodes: list[int], limit: int = 0) -> tuple[int, int] | None:
        at = [index[x] for x in nodes]
        kind = kernel.NESTED_BRANCHES
        return _agreement(ctx, kernel, facts, nodes, kind, spans[at], out, limit)

    taken = int(np.count_nonzero(spans[:, 0] < 0))
    facts = Ends(seeds, index, clash, rows)
    return NestedEnds(facts, branch, taken, conflict_cost, agreement)


def follow_dynamic(ctx: Context, seeds: list[int], limit: int) -> tuple[bool, Branch | None]:
    """`Context.follow` in mode `DYNAMIC` by the kernel: (False, None) when the kernel is
    not there, else (True, the branch, or None when a `limit` stopped it)."""
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return False, None
    status, found = _dynamic(ctx, kernel, kernel.dynamic_branch, seeds, limit)
    if status == kernel.STOPPED:
        return True, None
    return True, branch_of(found.tolist(), False, status == kernel.CONFLICT)


def _dynamic(
    ctx: Context, kernel: ModuleType, entry: Callable[..., tuple], seeds: list[int], limit: int
) -> tuple:
    """A dynamic branch's `entry` of the kernel, called again with a grown pool while the
    branch outgrows it."""
    start = _start(ctx, kernel)
    seed_array = np.array(seeds, dtype=np.int64)
    while True:
        found = entry(
            start.workspace.arrays, start.geo, start.static_geo[2], seed_array, start.grid, limit
        )
        if found[0] != kernel.OVERFLOW:
            return found
        start.workspace.grow()


def group_agreement(
    ctx: Context, ends: Ends, nodes: list[int], dynamic: bool, limit: int = 0
) -> tuple[int, int] | None:
    """The cheapest fact the (+) branches of `nodes` (with `dynamic`, their dynamic
    branches, none ending in a contradiction) agree on, as `forcing.agreed_facts` would count
    it: (its complexity, the fact), or None when they agree on no useful fact besides
    `nodes` (`branch_kernel.agreement`; `ends`: the search's, which hold most of the
    branches' facts).  With a `limit` (0: none), None also when no such fact rests on
    `limit` facts or fewer, and a fact past it may come with a smaller complexity than
    its own (still past the limit).  The kernel must be there."""
    kernel = branch_kernel(ctx.state.shape)
    assert kernel is not None
    kind = kernel.DYNAMIC_BRANCHES if dynamic else kernel.PLUS_BRANCHES
    spans = np.full((len(nodes), 2), -1, dtype=np.int64)
    return _agreement(ctx, kernel, ends, nodes, kind, spans, _NO_FLATS, limit)


_NO_FLATS = np.zeros(0, dtype=np.int64)


def _agreement(
    ctx: Context,
    kernel: ModuleType,
    ends: Ends,
    nodes: list[int],
    kind: int,
    spans: np.ndarray,
    out: np.ndarray,
    limit: int,
) -> tuple[int, int] | None:
    """`branch_kernel.agreement`, called again with a grown pool while a branch outgrows
    it."""
    start = _start(ctx, kernel)
    seeds = np.array(nodes, dtype=np.int64)
    rows, known = ends.group(nodes)
    while True:
        c, target = kernel.agreement(
            start.workspace.arrays,
            start.geo,
            start.static_geo[2],
            start.grid,
            seeds,
            kind,
            spans,
            out,
            rows,
            known,
            start.useful,
            limit,
        )
        if c != -2:
            return None if c < 0 else (c, target)
        start.workspace.grow()


def compiled(shape: Shape) -> bool:
    """Whether the kernel follows the branches of grids of `shape`."""
    return branch_kernel(shape) is not None


def follow(ctx: Context, seeds: list[int], mode: int) -> Branch | None:
    """The branch of `seeds` in `mode` (`PLUS`, `NESTED` or `NESTED_MULTIPLE`) by the
    kernel, or None when the kernel is not there."""
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return None
    start = _start(ctx, kernel)
    nested = mode >= NESTED
    level = 3 if mode == NESTED_MULTIPLE else 2
    seed_array = np.array(seeds, dtype=np.int64)
    while True:
        arrays = start.workspace.arrays
        if nested:
            resume = False
            while True:
                status, found = kernel.nested_branch(
                    arrays,
                    start.geo,
                    start.static_geo,
                    seed_array,
                    start.grid,
                    level,
                    resume,
                    PURE_HINTS.get(),
                    *start.memo,
                    start.bound,
                )
                if status != kernel.NEED_PY:
                    break
                keep_pure_hints(ctx, kernel, start, level)
                resume = True
        else:
            status, found = kernel.plus_branch(arrays, start.geo, seed_array, start.grid)
        if status != kernel.OVERFLOW:
            return branch_of(found.tolist(), nested, status == kernel.CONFLICT)
        start.workspace.grow()  # and follow the branch again


def branch_of(found: list[int], nested: bool, clash: bool) -> Branch:
    """A `Branch` from the kernel's `flat` form (`clash`: it ends in a contradiction)."""
    parents: dict[int, tuple[int, ...]] = {}
    inner: dict[int, tuple] | None = {} if nested else None
    i = 3
    end = len(found)
    while i < end:
        x = found[i]
        j = i + 4 + found[i + 3]
        parents[x] = tuple(found[i + 4 : j])
        if inner is not None and found[i + 1] >= 0:
            inner[x] = (found[i + 1], found[i + 2])
        i = j
    conflict = None
    if clash:
        conflict = (found[1], found[2]) if found[0] == 2 else ()
    return Branch(parents, conflict, inner)


def keep_pure_hints(ctx: Context, kernel: ModuleType, start: Start, level: int) -> None:
    """Keep in the memo the inner chains of the workspace's grid, which the static kernel
    left to the pure route (`nested.pure_hints`)."""
    from solvers.human.techniques.nested import pure_hints

    arrays = start.workspace.arrays
    cand_array = arrays[kernel.W_CAND].copy()
    cand = cand_array.tolist()
    pos = arrays[kernel.W_POS].tolist()
    placed = arrays[kernel.W_PLACED].tolist()
    n = ctx.n
    table, cands, _, l3s, done, counter = start.memo
    e = kernel.lookup(table, cands, cand_array)
    if e >= 0:  # level 3's chains of a grid known at level 2
        _, agreements = pure_hints(ctx, cand, pos, placed, False, True)
        kernel.set_level3(l3s, done, counter, e, pack(agreements, n))
        return
    new = bool(kernel.new_links(arrays, start.cand, start.pos))
    chains, agreements = pure_hints(ctx, cand, pos, placed, new, level == 3)
    kernel.insert(*start.memo, cand_array, pack(chains, n), pack(agreements, n), level == 3)


def pack(hints: list[Hint], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inner chains as the kernel's arrays (`branch_kernel.apply_hints`): per chain a row
    of numbers, the removals, and the paths its singles are read from (each single as a
    path of two)."""
    rows = []
    removable: list[int] = []
    paths: list[int] = []
    for h in hints:
        if h.seeds is None:
            kind, a, b = -1, 0, 0
        elif h.seeds[0] == "cell":
            kind, a, b = 0, h.seeds[1], 0
        else:
            kind, a, b = 1, h.seeds[1], h.seeds[2]
        first = len(paths)
        for x, w in h.singles:
            paths.extend((2, w, x))
        r0 = len(removable)
        removable.extend(cell * n + k for cell, k in h.removable)
        rows.append((0, h.complexity, kind, a, b, first, len(paths), 1, r0, len(removable)))
    ints = np.int64
    meta = np.array(rows, dtype=ints).reshape(-1, 10)
    return meta, np.array(removable, dtype=ints), np.array(paths, dtype=ints)


def load(ctx: Context) -> None:
    """Call each entry of the kernel once on `ctx`'s grid, so that all are loaded (or
    compiled, after an install) before anything is timed; nothing without the kernel."""
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return
    follow(ctx, [0], PLUS)
    follow(ctx, [0], NESTED_MULTIPLE)
    nested = nested_ends(ctx, NESTED, [0])
    assert nested is not None
    nested.agreement([0], 0)
    follow_dynamic(ctx, [0], 0)
    ends = dynamic_ends(ctx)
    assert ends is not None
    filters(ctx, ends, True)
    plus_ends(ctx)
    group_agreement(ctx, ends, [0], True)
    start = _start(ctx, kernel)
    memo = new_memo()  # (a scratch one: the entries the pure route keeps)
    cand = start.cand.copy()
    e = kernel.insert(*memo, cand, pack([], ctx.n), pack([], ctx.n), False)
    kernel.set_level3(memo[3], memo[4], memo[5], e, pack([], ctx.n))
    kernel.lookup(memo[0], memo[1], cand)
    kernel.new_links(start.workspace.arrays, start.cand, start.pos)
