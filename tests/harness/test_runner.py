"""The runner with real worker processes: faults, limits, verdicts, metamorphic forms, resume.

Faults come from `faulty_solvers` (dlx with a fault injected on the puzzles
whose text starts with a prefix); the workers import it themselves, and the
`faulty` fixture undoes its registration in this process afterwards.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from harness import runner
from harness.errors import CommandError
from harness.records import puzzle_text
from harness.runner import Execution, Study, make_study, resume_study, run_study
from harness.store import Store
from harness.tasks import Batch, Item
from solvers import oracle, registry
from solvers.grid import Grid, PuzzleFormatError
from solvers.transforms import random_transform
from solvers.verify import is_solution
from tests.paths import PLUGINS

PLUGINS = str(PLUGINS)

# 4x4 puzzles: four unique, one without solution, one with many, one with clashing givens.
UNIQUE = ["1...3..2...3..2.", ".2.1..3.....4.2.", "3.....1..3.....2", "..3.4.....1.2..."]
UNSOLVABLE = "1.3...1.3....2.4"
OPEN = "1..............."
CLASH = "11.............."
PUZZLES = [*UNIQUE, UNSOLVABLE, OPEN, CLASH]
EXPECTED = {
    **dict.fromkeys(UNIQUE, "SOLVED"),
    UNSOLVABLE: "UNSOLVABLE",
    OPEN: "MULTIPLE",
    CLASH: "INVALID",
}
TARGET = ".2.1"  # the prefix of the one puzzle the faults hit
# a unique 9x9 puzzle: corpora/data/gen9-hard.txt line 5 (project-made)
NINE = "....2.3.....78..5.56...4....1.5..........37.6..9.......4..7...8....42.3.736...4.."


def corpus(tmp_path: Path, lines: list[str], name: str = "set.txt") -> str:
    path = tmp_path / name
    path.write_text("# test puzzles\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def study(paths: list[str], specs: list[str], **options) -> Study:
    """A study with the faulty plug-in available and dlx as the oracle."""
    made = make_study(paths, specs, plugins=["faulty_solvers"], paths=[PLUGINS], seed=1, **options)
    return replace(made, oracle="dlx")


def by_solver(store: Store, run_id: int) -> dict[str, dict[str, tuple[str, str | None, str]]]:
    """solver -> puzzle text -> (status, verdict, error), for variant 0, repeat 0."""
    table: dict[str, dict[str, tuple[str, str | None, str]]] = {}
    for r in store.results([run_id]):
        if r.variant == 0 and r.repeat == 0:
            table.setdefault(r.solver, {})[r.puzzle] = (r.status, r.verdict, r.error)
    return table


def test_a_serial_run_stores_every_status_with_its_verdict(tmp_path: Path, faulty: None) -> None:
    s = study([corpus(tmp_path, PUZZLES)], ["dlx"], timeout=5)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        assert (done.tasks, done.stored, done.interrupted) == (7, 7, False)
        results = by_solver(store, done.run_id)["dlx"]
        assert {p: r[0] for p, r in results.items()} == EXPECTED
        assert {r[1] for r in results.values()} == {"CORRECT"}
        # dlx is the oracle here, so its own answers became the truths.
        assert store.truth(UNIQUE[0]).kind == "unique"
        assert store.truth(OPEN).kind == "multiple"
        assert store.truth(UNSOLVABLE).kind == "none"
        info = store.run(done.run_id)
        assert info.finished is not None
        assert info.settings["timeout"] == 5.0
        assert info.settings["execution"]["executor"] == "serial"
        assert info.versions["python"]
        assert info.machine["cores"] >= 1
        assert info.settings["workers"] == 1


def test_faults_in_workers_land_with_their_status_and_spare_the_batch(
    tmp_path: Path, faulty: None
) -> None:
    faults = ["sleep", "hang", "abort", "exit", "raise", "wrong", "unsolvable"]
    specs = [f"faulty[fault={f},prefix={TARGET}]" for f in faults]
    specs.append("faulty[fault=unique,prefix=1....]")  # claims uniqueness for OPEN
    s = study([corpus(tmp_path, PUZZLES)], specs, timeout=1, memory=512)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("process", jobs=2, batch=7), progress=False)
        assert done.stored == done.tasks == 7 * len(specs)
        table = by_solver(store, done.run_id)
    target = UNIQUE[1]
    expected = {
        "sleep": ("TIMEOUT", "UNKNOWN", "stopped by the harness"),
        "hang": ("TIMEOUT", "UNKNOWN", "killed by the harness"),
        "abort": ("ERROR", "UNKNOWN", "SIGABRT"),
        "exit": ("ERROR", "UNKNOWN", "exit status 3"),
        "raise": ("ERROR", "UNKNOWN", "RuntimeError: injected failure"),
        "wrong": ("SOLVED", "WRONG", ""),
        "unsolvable": ("UNSOLVABLE", "WRONG", ""),
    }
    for fault, (status, verdict, error) in expected.items():
        results = table[f"faulty[fault={fault},prefix={TARGET}]"]
        got = results.pop(target)
        assert (got[0], got[1]) == (status, verdict), fault
        assert error in got[2], fault
        # The other puzzles of the same batch are unaffected.
        assert {p: r[0] for p, r in results.items()} == {
            p: s for p, s in EXPECTED.items() if p != target
        }, fault
        assert {r[1] for r in results.values()} == {"CORRECT"}, fault
    unique = table["faulty[fault=unique,prefix=1....]"]
    assert unique[OPEN][:2] == ("SOLVED", "WRONG")
    assert {r[1] for p, r in unique.items() if p != OPEN} == {"CORRECT"}


def test_running_out_of_memory_is_memout(tmp_path: Path, faulty: None) -> None:
    s = study(
        [corpus(tmp_path, PUZZLES[:3])],
        [f"faulty[fault=hog,prefix={TARGET}]"],
        timeout=20,
        memory=160,
    )
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("process", jobs=1, batch=3), progress=False)
        results = by_solver(store, done.run_id)[f"faulty[fault=hog,prefix={TARGET}]"]
    assert results[UNIQUE[1]][0] == "MEMOUT"
    assert "160 MB" in results[UNIQUE[1]][2]
    assert results[UNIQUE[0]][:2] == results[UNIQUE[2]][:2] == ("SOLVED", "CORRECT")


def test_the_oracle_runs_when_it_is_not_among_the_solvers(tmp_path: Path, faulty: None) -> None:
    s = study([corpus(tmp_path, PUZZLES)], ["faulty[fault=unique,prefix=1....]"], timeout=5)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        assert store.truth(OPEN).oracle == "dlx"
        assert store.truth(UNIQUE[0]).solution == "1234341221434321"
        results = by_solver(store, done.run_id)["faulty[fault=unique,prefix=1....]"]
        assert results[OPEN][1] == "WRONG"
        # Truths are not results: only the solver's rows are stored.
        assert {r.solver for r in store.results()} == {"faulty[fault=unique,prefix=1....]"}


def test_metamorphic_forms_are_solved_and_mapped_back(tmp_path: Path, faulty: None) -> None:
    s = study([corpus(tmp_path, [*UNIQUE, NINE])], ["dlx"], timeout=5, metamorphic=2, repeat=2)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        records = list(store.results([done.run_id]))
    assert done.stored == done.tasks == 5 * 3 * 2
    assert {(r.variant, r.repeat) for r in records} == {(v, k) for v in range(3) for k in range(2)}
    assert {r.verdict for r in records} == {"CORRECT"}
    for puzzle in [*UNIQUE, NINE]:
        assert len({r.solution for r in records if r.puzzle == puzzle}) == 1


def test_a_solver_wrong_only_on_equivalent_forms_is_caught(tmp_path: Path, faulty: None) -> None:
    spec = f"faulty[fault=unsolvable,spare={UNIQUE[0]}]"
    s = study([corpus(tmp_path, [UNIQUE[0]])], [spec], timeout=5, metamorphic=2)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        verdicts = {r.variant: (r.status, r.verdict) for r in store.results([done.run_id])}
    assert verdicts == {
        0: ("SOLVED", "CORRECT"),
        1: ("UNSOLVABLE", "WRONG"),
        2: ("UNSOLVABLE", "WRONG"),
    }


def test_without_an_oracle_answer_the_run_is_its_own_evidence(
    tmp_path: Path, faulty: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oracle, "FALLBACKS", ())  # the failing oracle alone
    liar = f"faulty[fault=unsolvable,prefix={TARGET}]"
    s = replace(
        study([corpus(tmp_path, UNIQUE)], ["dlx", liar], timeout=5), oracle="faulty[fault=raise]"
    )
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        assert store.truth(UNIQUE[1]) is None
        table = by_solver(store, done.run_id)
        reasons = {r.solver: r.reason for r in store.results() if r.puzzle == UNIQUE[1]}
    # dlx's verified solution proves the liar wrong; dlx's uniqueness claim stays unconfirmed.
    assert table[liar][UNIQUE[1]][:2] == ("UNSOLVABLE", "WRONG")
    assert "the run found a solution" in reasons[liar]
    assert {r[1] for r in table["dlx"].values()} == {"UNKNOWN"}
    assert "no oracle truth" in reasons["dlx"]


def test_a_failing_oracle_leaves_the_truth_to_the_next(tmp_path: Path, faulty: None) -> None:
    liar = f"faulty[fault=unsolvable,prefix={TARGET}]"
    s = replace(study([corpus(tmp_path, UNIQUE)], [liar], timeout=5), oracle="faulty[fault=raise]")
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        assert {store.truth(p).oracle for p in UNIQUE} == {"dlx"}
        assert by_solver(store, done.run_id)[liar][UNIQUE[1]][:2] == ("UNSOLVABLE", "WRONG")


def test_a_claim_without_any_truth_is_unknown_and_says_why(
    tmp_path: Path, faulty: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oracle, "FALLBACKS", ())
    liar = "faulty[fault=unsolvable]"
    s = replace(study([corpus(tmp_path, UNIQUE)], [liar], timeout=5), oracle="faulty[fault=raise]")
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        records = list(store.results([done.run_id]))
        reasons = store.unchecked_reasons(done.run_id)
    assert {r.verdict for r in records} == {"UNKNOWN"}
    assert reasons == [("no truth: faulty[fault=raise]: RuntimeError: injected failure", 4)]


def test_a_transformed_answer_is_mapped_back_to_the_given_puzzle() -> None:
    from harness import worker

    grid = Grid.parse(NINE)
    transform, _ = random_transform(grid, random.Random(3))
    assert transform.apply(grid) != grid
    item = Item("c", "c:1", *puzzle_text(grid), variant=1, transform=transform)
    outcome = worker.solve_item(registry.get("dlx"), Batch("dlx", (item,), 2, 5.0), item)
    assert outcome.status == "SOLVED"
    assert is_solution(grid, Grid.parse(outcome.solutions[0]))


def test_a_result_past_its_time_limit_counts_as_a_timeout(faulty: None) -> None:
    from harness import worker

    runner.load_plugins(["faulty_solvers"], [PLUGINS])
    item = Item("c", "c:1", UNIQUE[0])
    batch = Batch("faulty[fault=slow,delay=0.3]", (item,), 2, 0.1)
    outcome = worker.solve_item(registry.get(batch.spec), batch, item)
    assert outcome.status == "TIMEOUT"
    assert json.loads(outcome.stats)["late_status"] == "SOLVED"
    assert "past the 0.1 s limit" in outcome.error


def test_an_interrupted_run_resumes_to_exactly_one_result_per_task(
    tmp_path: Path, faulty: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = study([corpus(tmp_path, PUZZLES)], ["dlx", "faulty"], timeout=5, repeat=2)
    add_results = Store.add_results  # each batch's results are stored in one call
    calls = []

    def interrupt_on_third(self, records):
        calls.append(records)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return add_results(self, records)

    monkeypatch.setattr(Store, "add_results", interrupt_on_third)
    with Store(tmp_path / "db.sqlite") as store:
        first = run_study(store, s, Execution("serial", batch=3), progress=False)
        assert first.interrupted
        assert first.stored == 6
        assert store.run(first.run_id).finished is None
        monkeypatch.setattr(Store, "add_results", add_results)
        again = resume_study(store, first.run_id)
        assert again == s
        second = run_study(store, again, Execution("serial"), resume=first.run_id, progress=False)
        assert not second.interrupted
        assert second.stored == second.tasks == 7 * 2 * 2
        keys = [(r.solver, r.puzzle_id, r.repeat, r.variant) for r in store.results()]
        assert len(keys) == len(set(keys)) == 28
        assert all(r.verdict for r in store.results())
        info = store.run(first.run_id)
        assert info.finished is not None
        assert [(e["executor"], e["workers"]) for e in info.settings["resumed"]] == [("serial", 1)]
        with pytest.raises(CommandError, match="nothing to resume"):
            resume_study(store, first.run_id)


def test_a_changed_corpus_cannot_be_resumed(tmp_path: Path, faulty: None) -> None:
    path = corpus(tmp_path, PUZZLES)
    with Store(tmp_path / "db.sqlite") as store:
        run_id = store.start_run("x", study([path], ["dlx"]).settings())
        Path(path).write_text(UNIQUE[0] + "\n", encoding="utf-8")
        with pytest.raises(CommandError, match="changed since run 1 started"):
            resume_study(store, run_id)


def test_a_bad_corpus_line_is_refused_with_its_place_when_strict(tmp_path: Path) -> None:
    path = corpus(tmp_path, [UNIQUE[0], "1...3..2...3..2", UNIQUE[1]])
    s = make_study([path], ["dlx"], strict=True)
    with Store(tmp_path / "db.sqlite") as store:
        with pytest.raises(PuzzleFormatError, match=r"set.txt:3"):
            run_study(store, s, Execution("serial"), progress=False)
        assert store.runs() == []


def test_a_bad_corpus_line_is_skipped_and_reported_with_its_place(tmp_path: Path) -> None:
    path = corpus(tmp_path, [UNIQUE[0], "1...3..2...3..2", UNIQUE[1]])
    notes: list[str] = []
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(
            store,
            make_study([path], ["dlx"]),
            Execution("serial"),
            progress=False,
            notify=notes.append,
        )
        assert done.tasks == done.stored == 2
        assert [r.puzzle_id for r in store.results()] == ["set.txt:2", "set.txt:4"]
        assert store.run(done.run_id).settings["bad_records"] == notes
    assert len(notes) == 1
    assert "set.txt:3" in notes[0]
    assert "skipped 1 bad record" in notes[0]


def test_solvers_skip_sizes_they_do_not_solve(tmp_path: Path, faulty: None) -> None:
    s = study([corpus(tmp_path, [UNIQUE[0], NINE])], ["faulty9", "dlx"], timeout=5)
    with Store(tmp_path / "db.sqlite") as store:
        done = run_study(store, s, Execution("serial"), progress=False)
        assert done.skipped == {"faulty9": 1}
        assert done.tasks == done.stored == 3
        assert by_solver(store, done.run_id)["faulty9"][NINE][:2] == ("SOLVED", "CORRECT")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": 0}, "--timeout must be positive"),
        ({"repeat": 0}, "--repeat must be at least 1"),
        ({"limit": 0}, "--limit must be at least 1"),
        ({"metamorphic": -1}, "--metamorphic must be at least 0"),
    ],
)
def test_bad_study_settings_are_refused(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        make_study([corpus(tmp_path, PUZZLES)], ["dlx"], **options)


def test_a_corpus_name_given_twice_is_refused(tmp_path: Path) -> None:
    first = corpus(tmp_path, PUZZLES)
    (tmp_path / "other").mkdir()
    second = corpus(tmp_path / "other", PUZZLES)
    with pytest.raises(CommandError, match="share the name 'set'"):
        make_study([first, second], ["dlx"])


def test_a_slow_warm_up_runs_before_any_limit_is_armed(tmp_path: Path, faulty: None) -> None:
    # warm_up takes 4x the time limit and 2x the parent's hard limit on a batch:
    # counted against either, every solve would be a TIMEOUT.
    s = study([corpus(tmp_path, UNIQUE)], ["faulty[warmup=2.0]"], timeout=0.5)
    with Store(":memory:") as store:
        done = run_study(store, s, Execution("process", jobs=1), progress=False)
        results = by_solver(store, done.run_id)["faulty[warmup=2.0]"]
    assert {p: r[0] for p, r in results.items()} == dict.fromkeys(UNIQUE, "SOLVED")


def test_batch_timing_times_a_batch_api_in_one_call_and_others_alone(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    s = make_study([corpus(tmp_path, PUZZLES)], ["fast", "dlx"], timeout=5, timing="batch")
    with Store(":memory:") as store:
        done = run_study(store, s, Execution("process", jobs=1, batch=8), progress=False)
        records = list(store.results([done.run_id]))
        overhead = store.run(done.run_id).settings["overhead"]
    clocks = {(r.solver, r.stats["clock"]) for r in records}
    assert clocks == {("fast", "batch"), ("dlx", "solve")}
    assert {r.verdict for r in records} == {"CORRECT"}
    statuses = {r.puzzle: r.status for r in records if r.solver == "fast"}
    assert statuses == {p: EXPECTED[p] for p in PUZZLES}
    fast_walls = {r.wall for r in records if r.solver == "fast" and r.status != "INVALID"}
    assert len(fast_walls) == 1, "every puzzle of one batch is credited the same share"
    assert 0 < overhead < 0.01


def test_an_unknown_timing_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="--timing must be one of single, batch"):
        make_study([corpus(tmp_path, UNIQUE)], ["dlx"], timing="parallel")


def test_a_slow_warm_up_of_the_oracle_runs_before_its_limits_too(
    tmp_path: Path, faulty: None
) -> None:
    s = replace(
        study([corpus(tmp_path, UNIQUE)], ["dlx"], timeout=0.5), oracle="faulty[warmup=2.0]"
    )
    with Store(":memory:") as store:
        done = run_study(store, s, Execution("process", jobs=1), progress=False)
        verdicts = {r.verdict for r in store.results([done.run_id])}
        oracles = {store.truth(p).oracle for p in UNIQUE}
    assert oracles == {"faulty[warmup=2.0]"}
    assert verdicts == {"CORRECT"}
