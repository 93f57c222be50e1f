"""`sudoku-bench explain --format html`: one self-contained page (inline CSS and SVG, no
outside resources) with, for every step, the grid before it drawn with its candidates,
the step's pattern cells shaded, its chain's candidates and links marked and its
placements and eliminations coloured."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

from solvers.grid import Grid, Shape
from solvers.human.chain_text import proof_lines
from solvers.human.proof import Proof, forcing_proof
from solvers.human.state import digits
from solvers.human.step import Step
from solvers.human.trace import english

CELL = 54  # pixels per cell
STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.05em; margin-top: 2em; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; font-size: .85em; }
.legend span { margin-right: 1.2em; }
svg text { font-family: sans-serif; }
.given { font-size: 30px; fill: #000; } .solved { font-size: 30px; fill: #2a5bd7; }
.cand { font-size: 13px; fill: #555; }
.elim { fill: #c0392b; font-weight: bold; text-decoration: line-through; }
.place { fill: #1e8449; font-weight: bold; }
.on { fill: #1f4fbf; font-weight: bold; } .off { fill: #b9770e; font-weight: bold; }
.pattern { fill: #fdf3c4; } .mark-elim { fill: #f5b7b1; } .mark-place { fill: #abebc6; }
.mark-on { fill: #d6e4ff; } .mark-off { fill: #fdebd0; }
.link { stroke: #1f4fbf; stroke-width: 1.2; fill: none; opacity: .55; }
"""
LEGEND = (
    '<p class="legend"><span style="background:#fdf3c4">pattern cells</span>'
    '<span style="color:#1e8449"><b>placed</b></span>'
    '<span style="color:#c0392b"><b>removed</b></span>'
    '<span style="color:#1f4fbf"><b>chain: true</b></span>'
    '<span style="color:#b9770e"><b>chain: false</b></span></p>'
)


class Marks:
    """What to highlight in one step's grid: (cell, digit) -> class, and the links."""

    def __init__(self) -> None:
        self.candidates: dict[tuple[int, int], str] = {}
        self.links: list[tuple[tuple[int, int], tuple[int, int]]] = []


def step_marks(step: Step, proof: Proof | None) -> Marks:
    """The candidates and links of a step: its chain (or its forcing chain's facts, true
    and false), then its placements and eliminations, which win where they meet."""
    marks = Marks()
    if proof is not None:
        for b in proof.branches:
            for link in b.links:
                cell, d, on = proof.cell_digit(link.fact)
                marks.candidates[(cell, d)] = "on" if on else "off"
                for cause in link.because:
                    c2, d2, _ = proof.cell_digit(cause)
                    marks.links.append(((c2, d2), (cell, d)))
    elif step.chain:
        nodes = [(c, abs(d)) for c, d in step.chain]
        for i, node in enumerate(nodes):
            marks.candidates[node] = "on" if i % 2 == 0 else "off"
        marks.links += list(zip(nodes, nodes[1:], strict=False))
    for cell, d in step.placements:
        marks.candidates[(cell, d)] = "place"
    for cell, d in step.eliminations:
        marks.candidates[(cell, d)] = "elim"
    return marks


def _centre(shape: Shape, cell: int, d: int) -> tuple[float, float]:
    """Where candidate `d` of `cell` is drawn."""
    k = math.isqrt(shape.size - 1) + 1
    sub = CELL / k
    r, c = divmod(cell, shape.size)
    i = d - 1
    return c * CELL + (i % k + 0.5) * sub, r * CELL + (i // k + 0.5) * sub


def grid_svg(
    shape: Shape, before: tuple[int, ...], givens: Grid, step: Step, proof: Proof | None
) -> str:
    """The grid before `step` as SVG: digits, candidates and the step's marks."""
    n = shape.size
    size = n * CELL
    marks = step_marks(step, proof)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2}" height="{size + 2}">']
    out.append('<g transform="translate(1,1)">')
    for cell in set(step.cells):
        r, c = divmod(cell, n)
        out.append(
            f'<rect class="pattern" x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}"/>'
        )
    k = math.isqrt(n - 1) + 1
    for (cell, d), kind in marks.candidates.items():
        x, y = _centre(shape, cell, d)
        half = CELL / k / 2
        out.append(
            f'<rect class="mark-{kind}" x="{x - half:.1f}" y="{y - half:.1f}" '
            f'width="{2 * half:.1f}" height="{2 * half:.1f}" rx="3"/>'
        )
    for i in range(n + 1):
        width = 2.5 if i % shape.box_rows == 0 else 0.6
        out.append(
            f'<line x1="0" y1="{i * CELL}" x2="{size}" y2="{i * CELL}" '
            f'stroke="#000" stroke-width="{width}"/>'
        )
        width = 2.5 if i % shape.box_cols == 0 else 0.6
        out.append(
            f'<line x1="{i * CELL}" y1="0" x2="{i * CELL}" y2="{size}" '
            f'stroke="#000" stroke-width="{width}"/>'
        )
    for cell, v in enumerate(before):
        r, c = divmod(cell, n)
        if v < 0:
            kind = "given" if givens.cells[cell] else "solved"
            out.append(
                f'<text class="{kind}" x="{c * CELL + CELL / 2}" y="{r * CELL + CELL / 2}" '
                f'text-anchor="middle" dominant-baseline="central">{-v}</text>'
            )
            continue
        for d in digits(v):
            x, y = _centre(shape, cell, d)
            kind = marks.candidates.get((cell, d), "")
            out.append(
                f'<text class="cand {kind}" x="{x:.1f}" y="{y:.1f}" text-anchor="middle" '
                f'dominant-baseline="central">{d}</text>'
            )
    for a, b in marks.links:
        (x1, y1), (x2, y2) = _centre(shape, *a), _centre(shape, *b)
        out.append(f'<line class="link" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</g></svg>")
    return "\n".join(out)


def page(title: str, grid: Grid, steps: Iterable[tuple[int, Step]], summary: str) -> str:
    """The whole page: the title, the legend, every step with its grid, the summary."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}: {grid.givens} givens</h1>",
        f"<p><code>{escape(grid.format())}</code></p>",
        LEGEND,
    ]
    for number, step in steps:
        parts.append(f'<section id="step-{number}">')
        parts.append(f"<h2>Step {number}. {escape(english(step))}</h2>")
        proof = forcing_proof(step)
        if step.before is not None:
            parts.append(grid_svg(grid.shape, step.before, grid, step, proof))
        if proof is not None:
            parts.append("<pre>" + escape("\n".join(proof_lines(proof))) + "</pre>")
        parts.append("</section>")
    parts.append(f"<p><b>{escape(summary)}</b></p>")
    parts.append("</body></html>")
    return "\n".join(parts)
