"""Results as data frames and Parquet files, from a real run; and a clear message without pandas."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.store import Store, StoreError
from tests.paths import ROOT

pd = pytest.importorskip("pandas", reason="the data extra: pip install 'sudoku-bench[data]'")

ROOT = ROOT


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two real runs in one process: dlx and human on gen4, then dlx alone with another timeout."""
    path = tmp_path_factory.mktemp("data") / "sudoku-bench.sqlite"
    common = ["--corpus", "gen4", "--executor", "serial", "--db", str(path), "--no-progress"]
    assert main(["run", *common, "--solver", "dlx", "--solver", "human", "--timeout", "5"]) == 0
    assert main(["run", *common, "--solver", "dlx", "--timeout", "3"]) == 0
    return path


def test_one_row_per_stored_result_with_the_runs_settings_joinable(db):
    from harness import load_results, load_runs

    results = load_results(db)
    with Store(db, create=False) as store:
        stored = list(store.results())
    assert len(results) == len(stored) == 3 * 50
    assert list(results.run_id.unique()) == [1, 2]
    assert results.wall_s.dtype == "float64"
    assert results.wrong.dtype == bool
    assert set(results.status) == {"SOLVED"}
    assert results.stats.map(lambda s: isinstance(s, dict)).all()
    runs = load_runs(db)
    assert list(runs.run_id) == [1, 2]
    assert list(runs["settings.timeout"]) == [5.0, 3.0]
    assert "settings.execution.executor" in runs
    assert "machine.cores" in runs
    joined = results.merge(runs, on="run_id")
    assert len(joined) == len(results)
    assert joined.groupby("run_id")["settings.timeout"].first().to_dict() == {1: 5.0, 2: 3.0}


def test_a_run_or_runs_can_be_chosen_and_an_unknown_one_is_refused(db):
    from harness import load_results, load_runs

    assert set(load_results(db, run=2).solver) == {"dlx"}
    assert len(load_results(db, run=[1])) == 100
    assert list(load_runs(db, run=2).run_id) == [2]
    with pytest.raises(StoreError, match="no run 9"):
        load_results(db, run=9)


def test_importing_harness_does_not_import_pandas():
    code = (
        "import sys, harness, harness.report, harness.cli\n"
        "assert 'pandas' not in sys.modules and 'pyarrow' not in sys.modules\n"
        "harness.load_results\n"
        "assert 'pandas' not in sys.modules  # until a frame is made\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_parquet_holds_the_rows_the_summary_and_the_runs(db, tmp_path, capsys):
    pytest.importorskip("pyarrow", reason="the data extra: pip install 'sudoku-bench[data]'")
    from harness import load_results

    out = tmp_path / "out" / "results.parquet"
    assert main(["report", "--db", str(db), "--run", "all", "--format", "parquet",
                 "--out", str(out)]) == 0  # fmt: skip
    assert "150 results" in capsys.readouterr().err
    rows = pd.read_parquet(out)
    expected = load_results(db)
    assert list(rows.columns) == list(expected.columns)
    columns = [c for c in rows.columns if c != "stats"]
    pd.testing.assert_frame_equal(rows[columns], expected[columns], check_dtype=False)
    assert rows.stats.str.startswith("{").all()  # counters as JSON text
    summary = pd.read_parquet(tmp_path / "out" / "results-summary.parquet")
    assert {"dlx (run 1)", "dlx (run 2)", "human", "virtual best"} <= set(summary.solver)
    runs = pd.read_parquet(tmp_path / "out" / "results-runs.parquet")
    assert list(runs["settings.timeout"]) == [5.0, 3.0]


def test_parquet_needs_a_file(db, capsys):
    assert main(["report", "--db", str(db), "--format", "parquet"]) == 2
    assert "give --out" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["pandas", "pyarrow"])
def test_a_missing_extra_says_how_to_install_it(db, tmp_path, capsys, monkeypatch, module):
    from harness import data

    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    status = main(["report", "--db", str(db), "--format", "parquet", "--out",
                   str(tmp_path / "r.parquet")])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2
    assert f"needs {module}" in err
    assert "pip install 'sudoku-bench[data]'" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r.parquet").exists()
    if module == "pandas":
        with pytest.raises(data.MissingExtra, match=re.escape("pip install 'sudoku-bench[data]'")):
            data.load_results(db)


def test_the_documented_analysis_runs(db, monkeypatch, capsys):
    readme = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    section = readme.split("<!-- data-frames -->", 1)[1].split("<!-- /data-frames -->", 1)[0]
    (code,) = re.findall(r"```python\n(.+?)```", section, flags=re.S)
    assert len([line for line in code.splitlines() if line.strip()]) == 5
    monkeypatch.chdir(db.parent)  # the snippet reads ./sudoku-bench.sqlite
    exec(compile(code, "docs/reports.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "dlx" in printed
    assert "human" in printed
    assert "gen4" in printed


def test_parquet_exports_every_run_unless_one_is_chosen(db, tmp_path, capsys):
    pytest.importorskip("pyarrow", reason="the data extra: pip install 'sudoku-bench[data]'")
    every = tmp_path / "every.parquet"
    assert main(["report", "--db", str(db), "--format", "parquet", "--out", str(every)]) == 0
    assert sorted(pd.read_parquet(every).run_id.unique()) == [1, 2]
    one = tmp_path / "one.parquet"
    assert main(["report", "--db", str(db), "--run", "2", "--format", "parquet", "--out",
                 str(one)]) == 0  # fmt: skip
    capsys.readouterr()
    assert list(pd.read_parquet(one).run_id.unique()) == [2]


def test_every_solver_parameter_is_a_column(db):
    from harness import load_results

    frame = load_results(db)
    human = frame[frame.solver == "human"]
    assert set(human.solver_name) == {"human"}
    assert human["param.techniques"].notna().all()  # a default, not written in the label
    assert frame[frame.solver == "dlx"]["param.techniques"].isna().all()
