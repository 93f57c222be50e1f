"""`harness.bench.revision`: the worker process the ``_ab`` benchmarks run."""

from __future__ import annotations

import pytest

from harness.bench.revision import ROOT, worker_rows

SCRIPT = """import json, os, sys
if sys.argv[1:2] != ["--worker"]:
    sys.exit("not asked as a worker")
if sys.argv[2] == "fail":
    sys.exit("the worker broke")
print("a line that is not a row")
print(json.dumps({"args": sys.argv[2:], "path": os.environ["PYTHONPATH"], "x": os.environ["X"]}))
"""


def test_the_worker_runs_on_the_tree_and_gives_its_json_lines(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(SCRIPT, encoding="utf-8")
    rows = worker_rows(script, ROOT, ["one", "two"], {"X": "3"})
    assert rows == [{"args": ["one", "two"], "path": str(ROOT), "x": "3"}]
    with pytest.raises(SystemExit, match="the worker broke"):
        worker_rows(script, ROOT, ["fail"])
