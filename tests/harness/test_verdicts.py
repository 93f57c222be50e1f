"""Verdicts that cannot be lost: truth outside the user's limits, loud when missing.

The oracle settles each puzzle in the parent process, before the workers
start, so a ``--memory`` that would stop it in a worker cannot turn a false
answer into an unchecked one; an answer that still cannot be checked is
counted, explained, and fails ``verify`` unless accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import runner
from harness.cli import main
from harness.records import puzzle_text
from harness.store import Store
from harness.truth_store import conclusion, settle
from solvers.base import SolveResult, Status
from solvers.grid import Grid
from tests.paths import PLUGINS, ROOT

PLUGINS = str(PLUGINS)
EASY = ROOT / "corpora" / "data" / "gen9-easy.txt"
UNIQUE_4 = "1...3..2...3..2."
SOLUTION_4 = "1234341221434321"


def easy_eight(tmp_path: Path) -> str:
    """Eight gen9-easy puzzles in a file of their own."""
    lines = [ln for ln in EASY.read_text(encoding="utf-8").splitlines() if ln[:1] not in "#"]
    path = tmp_path / "easy8.txt"
    path.write_text("\n".join(lines[:8]) + "\n", encoding="utf-8")
    return str(path)


def verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["verify", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return status, out, err


# -- the reproduction: a liar under a tight memory limit --------------------------------
def test_a_plugin_answering_unsolvable_fails_verify_at_300_mb(
    tmp_path: Path, faulty: None, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.chdir(PLUGINS)  # --plugin imports from the current directory
    status, out, err = verify(
        capsys, "--corpus", easy_eight(tmp_path), "--solver", "faulty[fault=unsolvable]",
        "--plugin", "faulty_solvers", "--memory", "300", "--jobs", "2",
    )  # fmt: skip
    assert status == 1, err
    assert "verify: 24 findings" in out
    assert out.count("false UNSOLVABLE: the oracle") == 24
    assert "could not be checked" not in out


def test_an_external_program_answering_unsolvable_fails_verify_at_300_mb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    liar = tmp_path / "liar.sh"
    liar.write_text("while read line; do echo UNSOLVABLE; done\n", encoding="utf-8")
    spec = f"external[cmd='sh {liar}']"
    status, out, err = verify(
        capsys, "--corpus", easy_eight(tmp_path), "--solver", spec, "--memory", "300",
        "--metamorphic", "0", "--jobs", "1",
    )  # fmt: skip
    assert status == 1, err
    assert "verify: 8 findings" in out
    assert out.count("false UNSOLVABLE") == 8


# -- a solver that answered nothing -------------------------------------------------------
def test_a_solver_that_answered_nothing_fails_verify(
    tmp_path: Path, faulty: None, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.chdir(PLUGINS)
    status, out, err = verify(
        capsys, "--corpus", easy_eight(tmp_path), "--solver", "faulty[fault=raise]",
        "--solver", "dlx", "--plugin", "faulty_solvers", "--metamorphic", "0",
        "--executor", "serial",
    )  # fmt: skip
    assert status == 1, err
    assert "verify: faulty[fault=raise] answered none of its 8 puzzles (ERROR 8)" in out
    assert "dlx answered none" not in out


def test_a_solver_that_answered_some_passes_verify(
    tmp_path: Path, faulty: None, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.chdir(PLUGINS)
    first = Path(easy_eight(tmp_path)).read_text(encoding="utf-8")[:4]
    status, out, err = verify(
        capsys, "--corpus", easy_eight(tmp_path), "--solver", f"faulty[fault=raise,prefix={first}]",
        "--plugin", "faulty_solvers", "--metamorphic", "0", "--executor", "serial",
    )  # fmt: skip
    assert status == 0, out + err
    assert "answered none" not in out


# -- answers no truth can check ------------------------------------------------------------
@pytest.fixture
def no_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every oracle of the chain fails: no puzzle gets a truth."""
    monkeypatch.setattr(runner, "oracle_chain", lambda first: ["faulty[fault=raise]"])


@pytest.mark.parametrize("accept", [False, True], ids=["refused", "accepted"])
def test_unchecked_answers_fail_verify_unless_accepted(
    tmp_path: Path, faulty: None, no_oracle: None, capsys, monkeypatch, accept: bool
) -> None:
    monkeypatch.chdir(PLUGINS)
    status, out, err = verify(
        capsys, "--corpus", easy_eight(tmp_path), "--solver", "faulty[fault=unsolvable]",
        "--plugin", "faulty_solvers", "--metamorphic", "0", "--executor", "serial",
        *(["--accept-unknown"] if accept else []),
    )  # fmt: skip
    assert status == (0 if accept else 1), out + err
    line = next(ln for ln in out.splitlines() if ln.startswith("verify: 8 answers could not"))
    assert "could not be checked (verdict UNKNOWN" in line
    assert "no truth: faulty[fault=raise]: RuntimeError: injected failure" in line
    assert ("accepted: --accept-unknown" in line) == accept
    assert "--accept-unknown accepts that" in line or accept


def test_the_run_summary_and_the_report_count_unchecked_answers(
    tmp_path: Path, faulty: None, no_oracle: None, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(PLUGINS)
    db = str(tmp_path / "db.sqlite")
    argv = ["--corpus", easy_eight(tmp_path), "--solver", "faulty[fault=unsolvable]"]
    status = main(
        ["run", *argv, "--plugin", "faulty_solvers", "--executor", "serial", "--db", db,
         "--no-progress"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0
    header, _, row = out.splitlines()[1:4]
    column = header.split().index("unknown")
    assert row.split()[column] == "8"
    assert "note: 8 answers could not be checked (verdict UNKNOWN" in out
    for fmt in ("terminal", "md", "json"):
        assert main(["report", "--db", db, "--format", fmt, "--no-plots"]) == 0
        report = capsys.readouterr().out
        assert "8 answers of run 1 could not be checked" in report, fmt


# -- the truth of one puzzle ----------------------------------------------------------------
PUZZLE = Grid.parse(UNIQUE_4)
KEY = puzzle_text(PUZZLE)


@pytest.mark.parametrize(
    ("result", "kind"),
    [
        (SolveResult(Status.SOLVED, (Grid.parse(SOLUTION_4),), exhausted=True), "unique"),
        (SolveResult(Status.SOLVED, (Grid.parse(SOLUTION_4),), exhausted=False), None),
        (SolveResult(Status.UNSOLVABLE, exhausted=True), "none"),
        (SolveResult(Status.UNSOLVABLE, exhausted=False), None),
        (SolveResult(Status.TIMEOUT, message="out of time"), None),
        (SolveResult(Status.MEMOUT), None),
    ],
    ids=["unique", "not-exhausted", "none", "unproved-none", "timeout", "memout"],
)
def test_only_a_conclusive_answer_settles_a_puzzle(result: SolveResult, kind: str | None) -> None:
    truth, why = conclusion(result, PUZZLE, KEY, "o")
    assert (truth.kind if truth else None) == kind
    assert bool(why) == (kind is None)


def test_an_oracle_bad_grid_settles_nothing() -> None:
    cells = list(Grid.parse(SOLUTION_4).cells)
    cells[0], cells[1] = cells[1], cells[0]
    bad = SolveResult(Status.SOLVED, (PUZZLE.replace(cells),), exhausted=True)
    truth, why = conclusion(bad, PUZZLE, KEY, "o")
    assert truth is None
    assert why.startswith("gave a bad answer (bad grid")


@pytest.fixture
def faulty_here(faulty: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The faulty solver registered in this process (the `faulty` fixture forgets it)."""
    monkeypatch.syspath_prepend(PLUGINS)
    import faulty_solvers  # noqa: F401


def test_settle_asks_the_next_oracle_and_keeps_known_truths(faulty_here: None) -> None:
    with Store(":memory:") as store:
        done = settle(store, [KEY, KEY], ["faulty[fault=raise]", "dlx"])
        assert (done.found, done.known, done.unsettled) == (1, 0, {})
        assert store.truth(*KEY).oracle == "dlx"
        again = settle(store, [KEY], ["faulty[fault=raise]"])
        assert (again.found, again.known, again.unsettled) == (0, 1, {})


def test_a_puzzle_no_oracle_settles_is_kept_with_the_reasons(faulty_here: None) -> None:
    with Store(":memory:") as store:
        done = settle(store, [KEY], ["faulty[fault=raise]", "faulty[fault=wrong]"])
        assert store.truth(*KEY) is None
    first, second = done.unsettled[KEY].split("; ", 1)
    assert first == "faulty[fault=raise]: RuntimeError: injected failure"
    assert second.startswith("faulty[fault=wrong]: gave a bad answer (bad grid: ")
    assert done.why(KEY) == done.unsettled[KEY]
