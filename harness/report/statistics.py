"""The comparison statistics of a report, gathered: profiles, runtime distributions,
significance and hardness.

`compute` runs each one the installed packages allow; what needs a package
that is missing is left out, with a note naming the install command, so a
report never fails for want of an optional package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.report.hardness import Correlation, correlations
from harness.report.optional import MissingStats
from harness.report.profiles import Profile, performance_profiles
from harness.report.significance import Significance, significance
from harness.report.survival import RuntimeCurve, runtime_curves

if TYPE_CHECKING:
    from harness.report.study import Report


@dataclass
class Statistics:
    """What `compute` found; `missing` says what was left out and why."""

    profiles: list[Profile] = field(default_factory=list)
    curves: dict[str, list[RuntimeCurve]] = field(default_factory=dict)  # per corpus
    significance: Significance | None = None
    correlations: list[Correlation] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def compute(report: Report) -> Statistics:
    """Every comparison statistic of `report` the installed packages allow."""
    found = Statistics(profiles=performance_profiles(report))
    try:
        found.curves = {corpus: runtime_curves(report, corpus) for corpus in report.corpora}
    except MissingStats as exc:
        found.missing.append(str(exc))
    try:
        found.significance = significance(report)
    except MissingStats as exc:
        found.missing.append(str(exc))
    found.correlations = hardness_or_note(report, found.missing)
    return found


def hardness_or_note(report: Report, missing: list[str]) -> list[Correlation]:
    """The hardness correlations, or none with a note in `missing` (recomputed after
    ``--rate`` adds ratings)."""
    try:
        return correlations(report)
    except MissingStats as exc:
        if str(exc) not in missing:
            missing.append(str(exc))
        return []
