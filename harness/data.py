"""Results as pandas data frames, and Parquet files, for analysis in a notebook.

Two frames describe a study, joined on ``run_id``:

- `load_results`: one row per stored result, with the columns of
  ``report --format csv`` (``wall_s``, ``status``, ``verdict``, ``wrong``,
  ``nodes`` ...; ``stats`` holds the solver's counters as a dict), then
  ``solver_name`` and a ``param.KEY`` column per solver parameter (defaults
  included: ``cpsat`` has ``param.workers``, ``dimacs`` ``param.binary``);
- `load_runs`: one row per run: ``run_id``, ``started``, ``finished``,
  ``command``, ``git_commit`` and the run's settings, versions and machine
  flattened into ``settings.timeout``, ``versions.ortools``,
  ``machine.cpu`` ... columns.

``load_results(db).merge(load_runs(db), on="run_id")`` puts each result next
to the settings it ran with.  pandas and pyarrow come with the ``data``
extra (``pip install 'sudoku-bench[data]'``); importing `harness` does not
import them.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from harness.records import ResultRecord, RunInfo

INSTALL = "pip install 'sudoku-bench[data]'"
_NAME = re.compile(r"[A-Za-z_][\w-]*")


class MissingExtra(ImportError):
    """pandas or pyarrow is not installed: the message says how to install them."""


def require(module: str, purpose: str) -> Any:
    """Import an optional module of the ``data`` extra, or say how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{purpose} needs {module}, which is not installed; install it with: {INSTALL}"
        ) from None


def pandas() -> Any:
    """The pandas module, or `MissingExtra` with the install command."""
    return require("pandas", "a data frame")


def _run_ids(store: Any, run: int | Sequence[int] | None) -> list[int] | None:
    if run is None:
        return None
    ids = [run] if isinstance(run, int) else list(run)
    for run_id in ids:
        store.run(run_id)  # a clear error for an unknown run
    return ids


def result_rows(records: Iterable[ResultRecord]) -> Iterable[dict[str, Any]]:
    """Flat rows of `harness.report.render_data.RESULT_COLUMNS`, judged as the reports do."""
    from harness.report.outcomes import SolutionChecker, record_is_wrong
    from harness.report.render_data import result_row

    checker = SolutionChecker()
    for record in records:
        yield result_row(record, record_is_wrong(record, checker))


def results_frame(rows: Iterable[dict[str, Any]]) -> Any:
    """A data frame of result rows with stable column types (empty frames included)."""
    pd = require("pandas", "a results data frame")
    from harness.report.render_data import RESULT_COLUMNS

    frame = pd.DataFrame.from_records(list(rows), columns=list(RESULT_COLUMNS))
    types = {
        "run_id": "int64",
        "variant": "int64",
        "repeat": "int64",
        "limit": "int64",
        "solutions_found": "int64",
        "wrong": "bool",
        "exhausted": "bool",
        **dict.fromkeys(("wall_s", "cpu_s", "peak_rss_mb", "time_limit_s"), "float64"),
        **dict.fromkeys(("nodes", "guesses", "backtracks", "propagations"), "float64"),
    }
    return with_parameters(frame.astype(types))


def with_parameters(frame: Any) -> Any:
    """`frame` with ``solver_name`` and one ``param.KEY`` column per solver parameter (every
    parameter, defaults included, as text; empty where a solver has no such parameter)."""
    from harness.solver_params import parameters

    specs = {spec: parameters(spec) for spec in frame["solver"].unique()}
    frame = frame.assign(solver_name=frame["solver"].map({s: n for s, (n, _) in specs.items()}))
    keys = dict.fromkeys(p.name for _, found in specs.values() for p in found)
    columns = {
        f"param.{key}": frame["solver"].map(
            {s: next((p.value for p in found if p.name == key), None)
             for s, (_, found) in specs.items()}
        )
        for key in keys
    }  # fmt: skip
    return frame.assign(**columns) if columns else frame


def runs_frame(runs: Iterable[RunInfo]) -> Any:
    """One row per run; settings, versions and machine flattened into dotted columns."""
    pd = require("pandas", "a runs data frame")
    records = []
    for run in runs:
        record: dict[str, Any] = {"run_id": run.id, "started": run.started}
        record.update(finished=run.finished, command=run.command, git_commit=run.git_commit)
        for group in ("settings", "versions", "machine"):
            record.update(flatten(getattr(run, group), group))
        records.append(record)
    columns = ["run_id", "started", "finished", "command", "git_commit"]
    columns += [k for k in dict.fromkeys(k for r in records for k in r) if k not in columns]
    return pd.DataFrame.from_records(records, columns=columns)


def flatten(value: dict[str, Any], prefix: str) -> dict[str, Any]:
    """``{"execution": {"jobs": 2}}`` -> ``{"settings.execution.jobs": 2}``.

    A dict keyed by data rather than names (file paths, as in the corpus
    checksums) stays one cell: its keys would make poor column names.
    """
    flat: dict[str, Any] = {}
    for key, item in value.items():
        name = f"{prefix}.{key}"
        if isinstance(item, dict) and item and all(_NAME.fullmatch(str(k)) for k in item):
            flat.update(flatten(item, name))
        else:
            flat[name] = item
    return flat


def load_results(db: str | os.PathLike[str], run: int | Sequence[int] | None = None) -> Any:
    """Every result of a database (or of some runs) as a pandas DataFrame, one row per solve.

    ``run`` is a run id, a list of them, or None for every run.  Join the
    runs' settings with ``.merge(load_runs(db), on="run_id")``::

        frame = load_results("sudoku-bench.sqlite")
        frame.groupby("solver").wall_s.median()
    """
    from harness.store import Store

    require("pandas", "load_results")
    with Store(db, create=False) as store:
        return results_frame(result_rows(store.results(_run_ids(store, run))))


def load_runs(db: str | os.PathLike[str], run: int | Sequence[int] | None = None) -> Any:
    """The runs of a database as a DataFrame: one row each, settings in dotted columns."""
    from harness.store import Store

    require("pandas", "load_runs")
    with Store(db, create=False) as store:
        ids = _run_ids(store, run)
        return runs_frame(r for r in store.runs() if ids is None or r.id in ids)


def _for_parquet(frame: Any) -> Any:
    """Dict and list columns (stats, settings) become JSON text: Parquet needs one type."""
    frame = frame.copy()
    for column in frame.columns:
        if frame[column].map(lambda v: isinstance(v, dict | list)).any():
            frame[column] = frame[column].map(
                lambda v: (
                    json.dumps(v, sort_keys=True, default=str) if isinstance(v, dict | list) else v
                )
            )
    return frame


def write_parquet(frame: Any, path: str | os.PathLike[str]) -> None:
    """Write a frame as Parquet (pyarrow), dict and list cells as JSON text."""
    require("pyarrow", "Parquet output")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    _for_parquet(frame).to_parquet(path, engine="pyarrow", index=False)
