"""What was asked and what ran: the study file of each run, and every solver's parameters.

A reader of a report must be able to repeat the study: the study file's
name and text (stored with the run) and each solver's full parameters,
defaults included (a label such as ``dimacs`` hides which binary ran).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.records import RunInfo
from harness.report.study import Report
from harness.report.tables import Column, Table
from harness.solver_params import base_spec, described


@dataclass(frozen=True)
class StudyText:
    """The study file a run was started from."""

    run_id: int
    name: str
    path: str
    text: str

    @property
    def title(self) -> str:
        named = f"{self.name} ({self.path})" if self.name else self.path
        return f"study file of run {self.run_id}: {named}"


def study_files(runs: list[RunInfo]) -> list[StudyText]:
    """The study file of each run that was started from one (the same file shown once)."""
    found: list[StudyText] = []
    seen: set[str] = set()
    for run in runs:
        study = run.settings.get("study_file")
        if not isinstance(study, dict) or not study.get("text"):
            continue
        text = str(study["text"])
        if text in seen:
            continue
        seen.add(text)
        found.append(
            StudyText(run.id, str(study.get("name") or ""), str(study.get("path") or ""), text)
        )
    return found


def study_names(runs: list[RunInfo]) -> list[str]:
    """The studies' names (their file names when unnamed), in run order, once each."""
    names = [s.name or s.path.replace("\\", "/").rsplit("/", 1)[-1] for s in study_files(runs)]
    return list(dict.fromkeys(names))


def solvers_table(report: Report) -> Table:
    """Each solver label with every parameter it ran with and, for a program, its version."""
    rows = []
    for label in report.solvers:
        spec = base_spec(label)
        versions = [r.versions[spec] for r in report.runs if spec in r.versions]
        rows.append([label, described(spec) or "—", ", ".join(dict.fromkeys(versions)) or "—"])
    return Table(
        "Solvers",
        [Column("solver"), Column("parameters"), Column("program version")],
        rows,
        "every parameter, defaults included; a label names only the changed ones.",
    )
