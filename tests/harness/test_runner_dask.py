"""The Dask executor on a real (small) local cluster: same batches, limits and store."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from harness.runner import Execution, make_study, run_study
from harness.store import Store
from tests.paths import PLUGINS

pytest.importorskip("distributed", reason="the dask extra is not installed")

PLUGINS = str(PLUGINS)
PUZZLES = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2", "1.3...1.3....2.4"]


def test_a_local_dask_cluster_runs_isolated_batches(tmp_path: Path, faulty: None) -> None:
    path = tmp_path / "set.txt"
    path.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    crash = "faulty[fault=abort,prefix=.2.1]"
    study = make_study(
        [str(path)], ["dlx", crash], timeout=5, plugins=["faulty_solvers"], paths=[PLUGINS]
    )
    study = replace(study, oracle="dlx")
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, study, Execution("dask", jobs=1, batch=4), progress=False)
        assert done.stored == done.tasks == 8
        results = {(r.solver, r.puzzle): (r.status, r.verdict, r.error) for r in store.results()}
        assert store.run(done.run_id).settings["execution"]["executor"] == "dask"
    # The crash killed a worker inside the Dask worker; only its puzzle was lost.
    status, verdict, error = results[(crash, PUZZLES[1])]
    assert (status, verdict) == ("ERROR", "UNKNOWN")
    assert "SIGABRT" in error
    for solver in ("dlx", crash):
        for puzzle in (PUZZLES[0], PUZZLES[2]):
            assert results[(solver, puzzle)][:2] == ("SOLVED", "CORRECT")
        assert results[(solver, PUZZLES[3])][:2] == ("UNSOLVABLE", "CORRECT")
