"""The comparison statistics as JSON data (``report --format json``), with their schema."""

from __future__ import annotations

from typing import Any

from harness.report.profiles import TAUS
from harness.report.study import Report


def statistics_document(report: Report) -> dict[str, Any] | None:
    """Profiles, runtime distributions, significance and hardness; None when not computed."""
    stats = report.statistics
    if stats is None:
        return None
    result = stats.significance
    return {
        "missing": stats.missing,
        "profiles": [
            {
                "solver": p.solver,
                "puzzles": p.puzzles,
                "solved": p.solved,
                "shares": {f"{t:g}": p.share(t) for t in TAUS},
                "ratios": p.ratios,
            }
            for p in stats.profiles
        ],  # fmt: skip
        "runtime": [
            {
                "corpus": c.corpus,
                "solver": c.solver,
                "puzzles": c.puzzles,
                "solved": c.solved,
                "times": c.times,
                "solved_share": c.solved_share,
                "low": c.low,
                "high": c.high,
                "quantiles": {f"{q:g}": t for q, t in c.quantiles.items()},
            }
            for curves in stats.curves.values()
            for c in curves
        ],  # fmt: skip
        "significance": None
        if result is None
        else {
            "test": "Friedman",
            "post_hoc": "Nemenyi",
            "puzzles": result.puzzles,
            "statistic": result.statistic,
            "p_value": result.p_value,
            "alpha": result.alpha,
            "critical_difference": result.critical_difference,
            "mean_ranks": result.mean_ranks,
            "pairwise": [
                {"a": a, "b": b, "p_value": p} for (a, b), p in result.pairwise.items() if a < b
            ],
        },
        "hardness": [
            {
                "solver": c.solver,
                "feature": c.feature,
                "rho": c.rho,
                "p_value": c.p_value,
                "puzzles": c.puzzles,
            }
            for c in stats.correlations
        ],  # fmt: skip
    }


_NUMBERS = {"type": "array", "items": {"type": "number"}}
_MAYBE = {"type": ["number", "null"]}

SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "required": ["missing", "profiles", "runtime", "significance", "hardness"],
            "properties": {
                "missing": {"type": "array", "items": {"type": "string"},
                            "description": "statistics left out: the package they need"},
                "profiles": {"type": "array", "items": {"type": "object", "required": [
                    "solver", "puzzles", "solved", "shares", "ratios"], "properties": {
                    "solver": {"type": "string"}, "puzzles": {"type": "integer"},
                    "solved": {"type": "number"},
                    "shares": {"type": "object", "additionalProperties": {"type": "number"},
                               "description": "tau -> share of puzzles within tau of the best"},
                    "ratios": _NUMBERS}}},
                "runtime": {"type": "array", "items": {"type": "object", "required": [
                    "corpus", "solver", "puzzles", "solved", "times", "solved_share", "low",
                    "high", "quantiles"], "properties": {
                    "corpus": {"type": "string"}, "solver": {"type": "string"},
                    "puzzles": {"type": "integer"}, "solved": {"type": "integer"},
                    "times": _NUMBERS, "solved_share": _NUMBERS, "low": _NUMBERS,
                    "high": _NUMBERS,
                    "quantiles": {"type": "object", "additionalProperties": _MAYBE}}}},
                "significance": {"oneOf": [{"type": "null"}, {"type": "object", "required": [
                    "test", "post_hoc", "puzzles", "statistic", "p_value", "alpha",
                    "critical_difference", "mean_ranks", "pairwise"]}]},
                "hardness": {"type": "array", "items": {"type": "object", "required": [
                    "solver", "feature", "rho", "p_value", "puzzles"], "properties": {
                    "solver": {"type": "string"}, "feature": {"type": "string"},
                    "rho": _MAYBE, "p_value": _MAYBE, "puzzles": {"type": "integer"}}}},
            },
        },
    ]
}  # fmt: skip
