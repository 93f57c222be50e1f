"""CSV and JSON for other tools: the per-result rows and the summary.

Column names are snake_case with units in the name (``wall_s``), so
``pandas.read_csv`` and ``pandas.json_normalize`` need no renaming.  A CSV
text cell that begins like a spreadsheet formula (``= + - @``, a tab or a
carriage return) is written with a leading single quote; JSON keeps every
string as stored.  The JSON
document follows `SCHEMA` (JSON Schema, draft 2020-12), printed by
``sudoku-bench report --schema``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields
from datetime import datetime, timezone
from typing import Any, TextIO

from harness.records import ResultRecord
from harness.report.compare import Comparison
from harness.report.escape import spreadsheet
from harness.report.findings import Finding
from harness.report.outcomes import SolutionChecker, record_is_wrong
from harness.report.stat_data import SCHEMA as STATISTICS_SCHEMA
from harness.report.stat_data import statistics_document
from harness.report.study import Report
from harness.report.summary import SummaryRow

SCHEMA_ID = "sudoku-bench/report/1"

RESULT_COLUMNS = (
    "run_id", "solver", "corpus", "puzzle_id", "variant", "repeat", "status", "verdict",
    "wrong", "wall_s", "cpu_s", "peak_rss_mb", "span", "time_limit_s", "limit",
    "solutions_found", "exhausted", "nodes", "guesses", "backtracks", "propagations",
    "error", "reason", "puzzle", "box", "solution", "stats",
)  # fmt: skip
COUNTERS = ("nodes", "guesses", "backtracks", "propagations")
SUMMARY_COLUMNS = tuple(f.name for f in fields(SummaryRow))
FINDING_COLUMNS = tuple(f.name for f in fields(Finding))
COMPARISON_COLUMNS = tuple(f.name for f in fields(Comparison))


def _clean(value: Any) -> Any:
    """JSON has no NaN or infinity: they become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def result_row(record: ResultRecord, wrong: bool) -> dict[str, Any]:
    """One stored result as a flat row (counters pulled out of the stats)."""
    stats = record.stats or {}
    row = {
        "run_id": record.run_id,
        "solver": record.solver,
        "corpus": record.corpus,
        "puzzle_id": record.puzzle_id,
        "variant": record.variant,
        "repeat": record.repeat,
        "status": str(record.status),  # plain text in files and frames
        "verdict": None if record.verdict is None else str(record.verdict),
        "wrong": wrong,
        "wall_s": _clean(record.wall),
        "cpu_s": _clean(record.cpu),
        "peak_rss_mb": _clean(record.peak_rss_mb),
        "span": stats.get("span", ""),
        "time_limit_s": record.time_limit,
        "limit": record.limit,
        "solutions_found": record.solutions_found,
        "exhausted": record.exhausted,
        **{key: _counter(stats.get(key)) for key in COUNTERS},
        "error": record.error,
        "reason": record.reason,
        "puzzle": record.puzzle,
        "box": record.box,
        "solution": record.solution,
        "stats": stats,
    }
    return row


def _counter(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return _clean(value)


def result_rows(report: Report, records: Iterable[ResultRecord]) -> Iterator[dict[str, Any]]:
    """Rows for a second pass over the records, with the report's judgement of each."""
    checker = SolutionChecker()
    for record in records:
        key = (record.run_id, record.solver, record.corpus, record.puzzle_id, record.variant)
        wrong = key in report.wrong_keys or record_is_wrong(record, checker)
        yield result_row(record, wrong)


def _csv_cell(value: Any) -> Any:
    """A value as a CSV cell; text a spreadsheet would run as a formula is neutralised."""
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, list | tuple):
        return "; ".join(map(str, value))
    if value is None:
        return ""
    return spreadsheet(value)


def write_csv(rows: Iterable[dict[str, Any]], columns: tuple[str, ...], out: TextIO) -> int:
    """Write rows as CSV with a header; returns the number of rows."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    count = 0
    for row in rows:
        writer.writerow([_csv_cell(row.get(k)) for k in columns])
        count += 1
    return count


def summary_rows(report: Report) -> list[dict[str, Any]]:
    return [{k: _clean(v) for k, v in asdict(r).items()} for r in report.summary]


def summary_csv(report: Report) -> str:
    out = io.StringIO()
    write_csv(summary_rows(report), SUMMARY_COLUMNS, out)
    return out.getvalue()


def document(report: Report, results: Iterable[dict[str, Any]] | None) -> dict[str, Any]:
    """The JSON document: runs, summary, findings, comparison and (optionally) results."""
    comparison = None
    if report.comparison is not None and report.compared is not None:
        comparison = {
            "run_a": report.compared[0],
            "run_b": report.compared[1],
            "rows": [{k: _clean(v) for k, v in asdict(c).items()} for c in report.comparison],
        }
    return {
        "schema": SCHEMA_ID,
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": report.command,
        "penalty": report.penalty,
        "notes": report.notes,
        "runs": [asdict(r) for r in report.runs],
        "summary": summary_rows(report),
        "findings": [asdict(f) for f in report.findings],
        "comparison": comparison,
        "statistics": statistics_document(report),
        "results": list(results) if results is not None else None,
    }


def write_json(report: Report, results: Iterable[dict[str, Any]] | None, out: TextIO) -> None:
    """Compact JSON in one write: ``json.dumps`` without indent runs the C encoder, several
    times faster than ``json.dump``'s chunked writes on 100,000 rows."""
    out.write(json.dumps(document(report, results), default=str, allow_nan=False))
    out.write("\n")


def _nullable(kind: str | list[str]) -> dict[str, Any]:
    kinds = [kind] if isinstance(kind, str) else kind
    return {"type": [*kinds, "null"]}


_SUMMARY_TYPES: dict[str, Any] = {
    "corpus": {"type": "string"},
    "solver": {"type": "string", "description": "solver spec, or 'virtual best'"},
    "puzzles": {"type": "integer"},
    "solved": {"type": "integer"},
    **{k: _nullable("integer") for k in ("stuck", "timeouts", "memouts", "errors", "wrong")},
    **{
        k: {**_nullable("number"), "description": "seconds, over solved puzzles"}
        for k in ("mean_s", "median_s", "p90_s", "max_s")
    },
    "us_per_puzzle": _nullable("number"),
    "puzzles_per_s": _nullable("number"),
    "par_s": {**_nullable("number"), "description": "PAR-k score in seconds (k = penalty)"},
    **{
        k: {"type": "number", "minimum": 0, "maximum": 1}
        for k in ("under_0_1s", "under_0_5s", "under_1s")
    },
    "nodes_per_puzzle": _nullable("number"),
    "guesses_per_puzzle": _nullable("number"),
    "no_guess_share": _nullable("number"),
    "best_share": _nullable("number"),
    "flagged": {"type": "boolean", "description": "the solver gave a wrong answer"},
    "rank": _nullable("integer"),
    "is_vbs": {"type": "boolean"},
    "repeats_median_s": {
        **_nullable("number"),
        "description": "with repeats: median of every repeat's time on the solved puzzles",
    },
    "median_ci_low_s": {
        **_nullable("number"),
        "description": "95% bootstrap interval of repeats_median_s (low end)",
    },
    "median_ci_high_s": {**_nullable("number"), "description": "its high end"},
    "cv": {
        **_nullable("number"),
        "description": "median over puzzles of the coefficient of variation of the repeats",
    },
    "within_noise": {
        "type": "array",
        "items": {"type": "string"},
        "description": "solvers whose intervals overlap this one's",
    },
    "cpu_median_s": {
        **_nullable("number"),
        "description": "median CPU seconds of the solved puzzles, child processes included",
    },
    "peak_mb": {
        **_nullable("number"),
        "description": "the largest resident-memory high-water mark of a solve (MB)",
    },
}

_RESULT_TYPES: dict[str, Any] = {
    "run_id": {"type": "integer"},
    "solver": {"type": "string"},
    "corpus": {"type": "string"},
    "puzzle_id": {"type": "string"},
    "variant": {"type": "integer"},
    "repeat": {"type": "integer"},
    "status": {"type": "string"},
    "verdict": _nullable("string"),
    "wrong": {"type": "boolean"},
    "wall_s": _nullable("number"),
    "cpu_s": _nullable("number"),
    "peak_rss_mb": _nullable("number"),
    "span": {"type": "string"},
    "time_limit_s": _nullable("number"),
    "limit": {"type": "integer"},
    "solutions_found": {"type": "integer"},
    "exhausted": {"type": "boolean"},
    **{k: _nullable("number") for k in COUNTERS},
    "error": {"type": "string"},
    "reason": {"type": "string"},
    "puzzle": {"type": "string"},
    "box": {"type": "string"},
    "solution": _nullable("string"),
    "stats": {"type": "object"},
}

_FINDING_TYPES: dict[str, Any] = {
    "kind": {"enum": ["wrong", "disagreement"]},
    "corpus": {"type": "string"},
    "puzzle_id": {"type": "string"},
    "puzzle": {"type": "string"},
    "solver": {"type": "string"},
    "answer": {"type": "string"},
    "other_solver": _nullable("string"),
    "other_answer": _nullable("string"),
    "detail": {"type": "string"},
    "variant": {"type": "integer"},
}

_COMPARISON_TYPES: dict[str, Any] = {
    "solver": {"type": "string"},
    "corpus": {"type": "string"},
    "common": {"type": "integer"},
    "paired": {"type": "integer"},
    "median_a_s": _nullable("number"),
    "median_b_s": _nullable("number"),
    "ratio": {**_nullable("number"), "description": "median B / median A"},
    "ci_low": _nullable("number"),
    "ci_high": _nullable("number"),
    "faster_share": _nullable("number"),
    **{
        k: {"type": "integer"}
        for k in ("newly_solved", "newly_timed_out", "newly_wrong", "newly_failed", "fixed_wrong")
    },
    "verdict": {"type": "string"},
}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "sudoku-bench report",
    "description": "A report of one or more runs: summary per solver x corpus, findings, "
    "an optional run comparison and the per-result rows. Times are seconds.",
    "type": "object",
    "required": [
        "schema",
        "generated",
        "command",
        "penalty",
        "notes",
        "runs",
        "summary",
        "findings",
        "comparison",
        "results",
    ],  # fmt: skip
    "properties": {
        "schema": {"const": SCHEMA_ID},
        "generated": {"type": "string", "description": "ISO 8601, UTC"},
        "command": {"type": "string"},
        "penalty": {"type": "number", "description": "the k of PAR-k"},
        "notes": {"type": "array", "items": {"type": "string"}},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "started", "finished", "command", "settings"],
                "properties": {
                    "id": {"type": "integer"},
                    "started": {"type": "string"},
                    "finished": _nullable("string"),
                    "command": {"type": "string"},
                    "settings": {"type": "object"},
                    "git_commit": _nullable("string"),
                    "versions": {"type": "object"},
                    "machine": {"type": "object"},
                },
            },
        },
        "summary": {"type": "array", "items": _object(_SUMMARY_TYPES)},
        "findings": {"type": "array", "items": _object(_FINDING_TYPES)},
        "comparison": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["run_a", "run_b", "rows"],
                    "properties": {
                        "run_a": {"type": "integer"},
                        "run_b": {"type": "integer"},
                        "rows": {"type": "array", "items": _object(_COMPARISON_TYPES)},
                    },
                },
            ]
        },
        "results": {
            "oneOf": [{"type": "null"}, {"type": "array", "items": _object(_RESULT_TYPES)}]
        },
        "statistics": STATISTICS_SCHEMA,
    },
}
