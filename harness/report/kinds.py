"""Constraint kinds in a report: which solver took which kind, and its time per kind.

A study over puzzles with constraints gets a table with one row per solver
and one column per constraint kind its corpora hold.  A cell says ``yes``
(the solver ran the puzzles carrying that kind), ``no`` (it does not take
the kind: the run skipped those puzzles), or, when puzzles were skipped for
another reason (a grid side, say), ``no [n]`` or ``partly [n]`` (it ran
some, skipped others), ``[n]`` numbering the reason under the table.

What a run skipped comes from its settings (``skipped``, written by the
runner before it starts); for runs recorded without them, a solver with no
result on a kind is asked, through the registry, whether it takes a puzzle
of the study carrying that kind.

The times per kind count a puzzle with several kinds once for each of them:
a killer puzzle with diagonals counts for ``killer`` and for ``diagonal``.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from harness.records import grid_of
from harness.report.study import Report
from harness.report.tables import Column, Table
from solvers.variants.constraints import KINDS

YES, NO, PARTLY = "yes", "no", "partly"


@lru_cache(maxsize=4096)
def puzzle_kinds(text: str) -> tuple[str, ...]:
    """The constraint kinds of a stored puzzle text (canonical JSON for a puzzle with
    constraints, `harness.records.puzzle_text`), in `KINDS` order; () for classic Sudoku."""
    if not text.startswith("{"):
        return ()
    try:
        found = {c.get("kind") for c in json.loads(text).get("constraints", [])}
    except (ValueError, AttributeError):
        return ()
    return tuple(k for k in KINDS if k in found)


@dataclass
class _Cell:
    ran: int = 0  # puzzles of this kind the solver ran
    refused: dict[str, int] = field(default_factory=dict)  # it lacks the kind: reason -> puzzles
    other: dict[str, int] = field(default_factory=dict)  # skipped for another reason


@dataclass
class KindSupport:
    """Per solver and kind, what happened; the reasons numbered in first-seen order."""

    kinds: list[str]
    solvers: list[str]
    cells: dict[tuple[str, str], _Cell]
    skipped: dict[str, int]  # solver -> puzzles it skipped in all
    reasons: list[str]

    def mark(self, solver: str, kind: str) -> str:
        """``yes``, ``no``, ``no [n]``, ``partly [n]``, or ``—`` (no puzzle of the kind
        reached it)."""
        cell = self.cells.get((solver, kind), _Cell())
        if cell.refused:
            return NO
        if cell.other:
            return f"{PARTLY if cell.ran else NO} {self._notes(cell.other)}"
        return YES if cell.ran else "—"

    def _notes(self, reasons: dict[str, int]) -> str:
        return " ".join(f"[{self.reasons.index(r) + 1}]" for r in reasons)

    def lacking(self, solver: str) -> list[str]:
        """The kinds the solver does not take (its ``no`` cells without a note)."""
        return [k for k in self.kinds if self.cells.get((solver, k), _Cell()).refused]


def kinds_present(report: Report) -> list[str]:
    """The constraint kinds of the report's puzzles and of the puzzles its runs skipped."""
    found = {k for o in report.outcomes for k in puzzle_kinds(o.puzzle)}
    for run in report.runs:
        for entry in _skips(run.settings):
            found.update(entry.get("kinds", []))
    return [k for k in KINDS if k in found]


def support(report: Report) -> KindSupport | None:
    """Which solver took which kind; None when no puzzle of the report has constraints."""
    present = kinds_present(report)
    if not present:
        return None
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    labels: dict[tuple[int, str], str] = {}
    examples: dict[str, str] = {}  # kind -> a puzzle text carrying it (fewest kinds first)
    for o in report.outcomes:
        labels[o.run_id, o.spec] = o.solver
        if o.variant:
            continue
        carried = puzzle_kinds(o.puzzle)
        for kind in carried:
            cells[o.solver, kind].ran += 1
            if kind not in examples or len(carried) < len(puzzle_kinds(examples[kind])):
                examples[kind] = o.puzzle
    solvers = list(report.solvers)
    skipped: dict[str, int] = defaultdict(int)
    reasons: list[str] = []
    recorded = False
    for run in report.runs:
        entries = _skips(run.settings)
        recorded = recorded or "skipped" in run.settings
        for entry in entries:
            label = labels.get((run.id, entry["solver"]), entry["solver"])
            if label not in solvers:
                solvers.append(label)
            count, reason = int(entry.get("puzzles", 1)), str(entry.get("reason", ""))
            skipped[label] += count
            for kind in entry.get("kinds", []):
                cell = cells[label, kind]
                target = cell.refused if kind in entry.get("missing", []) else cell.other
                target[reason] = target.get(reason, 0) + count
                if target is cell.other and reason not in reasons:
                    reasons.append(reason)
    if not recorded:
        _ask_registry(solvers, present, cells, examples)
    return KindSupport(present, solvers, dict(cells), dict(skipped), reasons)


def _skips(settings: dict[str, object]) -> list[dict]:
    entries = settings.get("skipped")
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def _ask_registry(
    solvers: list[str],
    present: list[str],
    cells: dict[tuple[str, str], _Cell],
    examples: dict[str, str],
) -> None:
    """For runs that recorded no skips: a solver with no result on a kind is asked
    (`Solver.handles`) about a puzzle of the report carrying it."""
    from solvers.registry import parse_spec, solver_class

    for label in solvers:
        try:
            cls = solver_class(parse_spec(label.split(" (run ")[0])[0])
        except (KeyError, ValueError):
            continue
        for kind in present:
            cell = cells[label, kind]
            if cell.ran or kind not in examples:
                continue
            ok, reason = cls.handles(grid_of(examples[kind]))
            if not ok and kind in reason:
                cell.refused[reason] = 0


def support_table(report: Report) -> Table | None:
    """The solver × constraint-kind table, its reasons in the caption; None without kinds."""
    found = support(report)
    if found is None:
        return None
    columns = [Column("solver"), *(Column(k) for k in found.kinds), Column("skipped", "int")]
    rows: list[list[object]] = [
        [s, *(found.mark(s, k) for k in found.kinds), found.skipped.get(s, 0)]
        for s in found.solvers
    ]
    lacking = [
        f"{s} does not take "
        + (", ".join(missing) if len(missing) < len(found.kinds) else "any of these kinds")
        + (f" ({found.skipped[s]} puzzles skipped)" if found.skipped.get(s) else "")
        for s in found.solvers
        if (missing := found.lacking(s))
    ]
    notes = [f"[{i}] {r}" for i, r in enumerate(found.reasons, 1)]
    caption = (
        "yes: the solver ran the puzzles carrying the kind; no: it does not take the kind "
        "(Solver.handles), so the run skipped those puzzles rather than count them as "
        "failures; no [n] or partly [n]: it skipped all or some of them for reason n; "
        "skipped: the puzzles it was not given, each counted once."
        + "".join(f" {line}." for line in lacking + notes)
    )
    return Table("Constraint kinds: which solver takes which", columns, rows, caption)


def times_by_kind(report: Report) -> dict[str, dict[str, list[float]]]:
    """Solver -> kind -> solved wall times of the puzzles carrying that kind (a puzzle of
    several kinds counts for each); classic puzzles and metamorphic forms left out."""
    times: dict[str, dict[str, list[float]]] = {}
    for o in report.outcomes:
        if o.variant or not o.solved or o.wall is None:
            continue
        for kind in puzzle_kinds(o.puzzle):
            times.setdefault(o.solver, {}).setdefault(kind, []).append(o.wall)
    return times


def median_times(report: Report) -> dict[str, dict[str, float]]:
    """Solver -> kind -> median solved wall time (`times_by_kind`)."""
    return {
        solver: {kind: statistics.median(ts) for kind, ts in per.items()}
        for solver, per in times_by_kind(report).items()
    }
