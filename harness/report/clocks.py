"""Which clock a report's times come from, and the timer's own cost taken off them.

The harness times the work of each solve (``stats["clock"] == "solve"``) or
an equal share of one batch call (``"batch"``, with ``--timing batch``); a
solver may report its own time too (``stats["solver_time"]``, seconds: an
external program's own measurement).  A report uses the harness's clock by
default; ``--clock solver`` takes the solver's figure where there is one, and
``--clock search`` the search phase where a solver records one
(``stats["search"]``: CP-SAT's wall time, MiniZinc's ``solveTime``, PySAT's
solve call, an external program's own time).
``--subtract-overhead`` takes off what the run measured a solve that does
nothing to cost (``settings["overhead"]``), so microsecond solvers are not
flattered or penalised by the timer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from harness.records import ResultRecord, RunInfo
from solvers.base import SPANS

CLOCKS = ("harness", "solver", "search")
OWN_TIME = {"solver": "solver_time", "search": "search"}  # the stats key each clock reads


def overheads(runs: Sequence[RunInfo]) -> dict[int, float]:
    """Run id -> the timer overhead that run measured (seconds)."""
    found = {}
    for run in runs:
        value = run.settings.get("overhead")
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            found[run.id] = float(value)
    return found


def retimed(
    records: Iterable[ResultRecord],
    runs: Sequence[RunInfo],
    *,
    clock: str = "harness",
    subtract_overhead: bool = False,
) -> Iterator[ResultRecord]:
    """The records with the wall time the report should use."""
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}")
    cost = overheads(runs) if subtract_overhead else {}
    for record in records:
        wall = record.wall
        own = record.stats.get(OWN_TIME.get(clock, ""))
        if isinstance(own, int | float) and not isinstance(own, bool):
            wall = float(own)
        elif wall is not None and record.run_id in cost:
            wall = max(0.0, wall - cost[record.run_id])
        yield record if wall == record.wall else replace(record, wall=wall)


def clock_notes(
    records: Iterable[ResultRecord],
    runs: Sequence[RunInfo],
    *,
    clock: str = "harness",
    subtract_overhead: bool = False,
) -> list[str]:
    """Sentences that say where the report's times come from."""
    batch: set[str] = set()
    own: set[str] = set()
    search: set[str] = set()
    every: set[str] = set()
    spans: dict[str, set[str]] = {}
    calls: dict[str, int] = {}  # solvers that took several calls for one answer: the most
    for record in records:
        every.add(record.solver)
        took = record.stats.get("calls")
        if isinstance(took, int) and not isinstance(took, bool) and took > 1:
            calls[record.solver] = max(took, calls.get(record.solver, 0))
        if record.stats.get("clock") == "batch":
            batch.add(record.solver)
        if "solver_time" in record.stats:
            own.add(record.solver)
        if "search" in record.stats:
            search.add(record.solver)
        span = record.stats.get("span") or _stored_span(runs, record)
        if span:
            spans.setdefault(span, set()).add(record.solver)
    notes = []
    cost = overheads(runs)
    if cost:
        figures = ", ".join(f"run {i}: {v * 1e6:.2f} µs" for i, v in sorted(cost.items()))
        verb = "subtracted from" if subtract_overhead and clock == "harness" else "included in"
        notes.append(f"times: the harness's clock around each solve's work; its own cost "
                     f"({figures}) is {verb} every time.")  # fmt: skip
    if batch:
        notes.append(
            f"{', '.join(sorted(batch))}: timed in batches (--timing batch); each puzzle is "
            "credited an equal share of its batch."
        )
    if spans:
        notes.append(
            "what a time covers: "
            + "; ".join(
                f"{span} ({', '.join(sorted(s))}): {SPANS.get(span, span)}"
                for span, s in sorted(spans.items())
            )  # fmt: skip
            + "."
        )
    if calls:
        several = ", ".join(f"{s} (up to {n})" for s, n in sorted(calls.items()))
        notes.append(
            f"several solver calls or processes for one answer: {several}; the time covers "
            "them all (proving a solution unique can take a second run with it blocked)."
        )
    if clock == "search":
        lacking = sorted(every - search)
        notes.append(
            "times are the search phase the solvers record"
            + (
                f"; {', '.join(lacking)} record none: their harness times are shown."
                if lacking
                else "."
            )  # fmt: skip
        )
    if own and clock == "solver":
        notes.append(f"{', '.join(sorted(own))}: times are the solver's own measurement.")
    elif own:
        notes.append(
            f"{', '.join(sorted(own))} also report their own time (report --clock solver uses it)."
        )
    return notes


def _stored_span(runs: Sequence[RunInfo], record: ResultRecord) -> str | None:
    """The span a run stored for a solver (runs before per-result spans have none)."""
    for run in runs:
        if run.id == record.run_id:
            spans = run.settings.get("spans")
            if isinstance(spans, dict):
                value = spans.get(record.solver)
                return value if isinstance(value, str) else None
    return None
