"""Forcing-chain branches from `PLUS` on, followed by the compiled kernel (`branch_kernel`).

`Context` follows a (+) or nested branch here when numba is there and the grid is at most
16x16; the branch is the same as `Context`'s own route gives (every fact with its causes
in the same order, the same contradiction, the same inner chains).  The kernel follows
the singles and the other rules; when a nested branch's rules run dry, this module looks
up the grid's inner chains in the solve's memo (`nested.grid_hints`, the same table and
the same hints as the pure route) and hands them to the kernel packed as arrays (kept
with the hints: branches meet the same grids again).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from solvers.grid import Shape
from solvers.human.techniques.branches import NESTED, Branch

if TYPE_CHECKING:
    from solvers.human.techniques.branches import Context
    from solvers.human.techniques.nested import Hint


@cache
def branch_kernel(shape: Shape) -> ModuleType | None:
    """The compiled branch follower for grids of `shape`, or None (no numba, or a grid
    larger than it takes)."""
    if find_spec("numba") is None:
        return None
    kernel = import_module("solvers.human.techniques.branch_kernel")
    return kernel if shape.size <= kernel.MAX_SIZE else None


class Start:
    """A search's start grid as the kernel reads it, and the workspace its branches use."""

    def __init__(self, ctx: Context, kernel: ModuleType) -> None:
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
        self.geo = kernel.geometry(state.shape)
        self.workspace = kernel.Workspace(state.shape)


def follow(ctx: Context, seeds: list[int], mode: int) -> Branch | None:
    """The branch of `seeds` in `mode` (`PLUS`, `NESTED` or `NESTED_MULTIPLE`) by the
    kernel, or None when the kernel is not there or leaves the branch to `Context`."""
    kernel = branch_kernel(ctx.state.shape)
    if kernel is None:
        return None
    start = ctx.__dict__.get("compiled_start")
    if start is None:
        start = ctx.__dict__["compiled_start"] = Start(ctx, kernel)
    ws = start.workspace
    arrays = ws.arrays
    nested = mode >= NESTED
    status = kernel.start(
        arrays, np.array(seeds, dtype=np.int64), start.cand, start.pos, start.placed
    )
    while status == kernel.DONE:
        status = kernel.follow(
            arrays,
            start.geo,
            start.cand,
            start.pos,
            start.open_counts,
            start.placed_count,
            nested,
        )
        if status != kernel.NEED_CHAINS:
            break
        status = _inner_chains(ctx, kernel, start, mode)
        if status == kernel.PROGRESS:
            status = kernel.DONE
        elif status == kernel.NOTHING:
            break
    if status == kernel.OVERFLOW:
        return None
    parents, _, inner = ws.branch_fields(nested)
    conflict = ws.conflict() if status == kernel.CONFLICT else None
    return Branch(parents, conflict, inner)


def _inner_chains(ctx: Context, kernel: ModuleType, start: Start, mode: int) -> int:
    """Level 2's rule (static forcing chains) on the workspace's grid and, from level 3,
    when it finds nothing, static cell and region chains (`nested.chain_rules`)."""
    from solvers.human.techniques.nested import grid_hints, level3_hints

    arrays = start.workspace.arrays
    cand = arrays[kernel.W_CAND].tolist()
    hints = grid_hints(
        ctx,
        cand,
        lambda: (arrays[kernel.W_POS].tolist(), arrays[kernel.W_PLACED].tolist()),
        lambda: bool(kernel.new_links(arrays, start.cand, start.pos)),
        mode > NESTED,
    )
    status = _apply(kernel, start, hints, 0, ctx.n)
    if status == kernel.NOTHING and mode > NESTED:
        if hints[1] is None:
            pos = arrays[kernel.W_POS].tolist()
            placed = arrays[kernel.W_PLACED].tolist()
            hints[1] = level3_hints(ctx, cand, pos, placed)
        status = _apply(kernel, start, hints, 1, ctx.n)
    return status


def _apply(kernel: ModuleType, start: Start, hints: list, level: int, n: int) -> int:
    """`kernel.apply_hints` with the hints of one level, packed once per grid."""
    while len(hints) < 4:  # [level 2's hints, level 3's, and the same packed]
        hints.append(None)
    packed = hints[2 + level]
    if packed is None:
        packed = hints[2 + level] = pack(hints[level] or [], n)
    return kernel.apply_hints(start.workspace.arrays, start.geo, start.cand, start.pos, *packed)


def pack(hints: list[Hint], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inner chains as the kernel's arrays (`branch_kernel.apply_hints`): per chain a row
    of numbers, the removals, and the paths its singles are read from (a chain whose
    singles were read already gives each single as a path of two)."""
    rows = []
    removable: list[int] = []
    parts = []
    at: dict[int, int] = {}  # a flat paths array's offset, by its id
    size = 0
    for h in hints:
        if h.seeds is None:
            kind, a, b = -1, 0, 0
        elif h.seeds[0] == "cell":
            kind, a, b = 0, h.seeds[1], 0
        else:
            kind, a, b = 1, h.seeds[1], h.seeds[2]
        if h.paths is not None:
            _, flat, first, last, counted = h.paths
            base = at.get(id(flat))
            if base is None:
                base = at[id(flat)] = size
                parts.append(flat)
                size += len(flat)
            first, last = base + first, base + last
        else:
            flat = np.array([v for x, w in h.singles for v in (2, w, x)], dtype=np.int64)
            parts.append(flat)
            first, last, counted = size, size + len(flat), True
            size += len(flat)
        r0 = len(removable)
        removable.extend(cell * n + k for cell, k in h.removable)
        row = (h.key, h.complexity, kind, a, b, first, last, int(counted), r0, len(removable))
        rows.append(row)
    ints = np.int64
    meta = np.array(rows, dtype=ints).reshape(-1, 10)
    paths = np.concatenate(parts).astype(ints) if parts else np.empty(0, dtype=ints)
    return meta, np.array(removable, dtype=ints), paths
