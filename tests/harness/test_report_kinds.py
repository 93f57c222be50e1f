"""Reports over puzzles with constraints: the solver x kind table, the figure of time per
kind, and what a run records about the puzzles a solver does not take."""

from __future__ import annotations

import json
import sqlite3

import pytest

import solvers
from harness.cli import main
from harness.records import ResultRecord, RunInfo, puzzle_text
from harness.report import build_report, render_html, render_latex, render_markdown
from harness.report.kinds import puzzle_kinds, support_table, times_by_kind
from harness.report.plots import all_plots, kinds_figure
from solvers.grid import Grid
from solvers.variants import AntiKnight, Diagonal, Killer

KILLER = Grid.empty(2).with_constraints((Killer((0, 1), 7),))
DIAGONAL = Grid.empty(2).with_constraints((Diagonal("main"),))
BOTH = Grid.empty(2).with_constraints((Killer((0, 1), 7), Diagonal("main")))
CLASSIC = Grid.empty(2)


def _record(
    solver: str, grid: Grid, puzzle_id: str, wall: float, corpus: str = "v"
) -> ResultRecord:
    text, box = puzzle_text(grid)
    return ResultRecord(1, solver, corpus, puzzle_id, text, 0, "SOLVED", wall=wall, cpu=wall,
                        verdict="CORRECT", time_limit=1.0, box=box)  # fmt: skip


def _run(skipped: list[dict] | None) -> RunInfo:
    settings: dict = {"timeout": 1.0}
    if skipped is not None:
        settings["skipped"] = skipped
    return RunInfo(1, "2026-01-01T00:00:00+00:00", "2026-01-01T00:01:00+00:00", "run",
                   settings=settings)  # fmt: skip


def _study() -> tuple[list[ResultRecord], RunInfo]:
    """cpsat takes everything; diag takes diagonals only (skips killer puzzles, the mixed one
    included); small skips one diagonal puzzle for its side."""
    records = [
        _record("cpsat", KILLER, "v:1", 0.002),
        _record("cpsat", DIAGONAL, "v:2", 0.004),
        _record("cpsat", BOTH, "v:3", 0.008),
        _record("diag", DIAGONAL, "v:2", 0.001),
        _record("small", KILLER, "v:1", 0.003),
    ]
    skipped = [
        {"solver": "diag", "corpus": "v", "kinds": ["killer"], "missing": ["killer"],
         "reason": "diag does not take killer constraints", "puzzles": 1},
        {"solver": "diag", "corpus": "v", "kinds": ["diagonal", "killer"], "missing": ["killer"],
         "reason": "diag does not take killer constraints", "puzzles": 1},
        {"solver": "small", "corpus": "v", "kinds": ["diagonal"], "missing": [],
         "reason": "small does not solve 4x4 grids (sizes: 9)", "puzzles": 2},
        {"solver": "none", "corpus": "v", "kinds": ["diagonal"], "missing": ["diagonal"],
         "reason": "none does not take diagonal constraints", "puzzles": 2},
    ]  # fmt: skip
    return records, _run(skipped)


def _cells(table) -> dict[str, dict[str, object]]:
    headers = [c.header for c in table.columns]
    return {row[0]: dict(zip(headers, row, strict=True)) for row in table.rows}


def test_puzzle_kinds_reads_the_stored_text_in_kinds_order():
    assert puzzle_kinds(puzzle_text(BOTH)[0]) == ("diagonal", "killer")
    assert puzzle_kinds(puzzle_text(CLASSIC)[0]) == ()


def test_the_table_says_yes_no_and_why_per_solver_and_kind():
    records, run = _study()
    table = support_table(build_report(records, [run]))
    assert table is not None
    assert [c.header for c in table.columns] == ["solver", "diagonal", "killer", "skipped"]
    cells = _cells(table)
    assert cells["cpsat"] == {"solver": "cpsat", "diagonal": "yes", "killer": "yes", "skipped": 0}
    # diag ran a diagonal puzzle, skipped the killer+diagonal one for lacking killer
    assert cells["diag"]["killer"] == "no"
    assert cells["diag"]["diagonal"].startswith("partly [")
    assert cells["diag"]["skipped"] == 2
    # small skipped its diagonal puzzles for another reason: a numbered note
    assert cells["small"]["diagonal"].startswith("no [")
    assert cells["small"]["killer"] == "yes"
    # a solver that ran nothing at all still has its row, with its reason
    assert cells["none"]["diagonal"] == "no"
    assert cells["none"]["killer"] == "—"
    assert "diag does not take killer (2 puzzles skipped)" in table.caption
    assert "small does not solve 4x4 grids (sizes: 9)" in table.caption
    assert "diag does not take killer constraints" in table.caption  # partly's note


def test_every_format_shows_the_table_and_classic_reports_do_not():
    records, run = _study()
    report = build_report(records, [run])
    assert "## Constraint kinds: which solver takes which" in render_markdown(report)
    assert 'id="kinds"' in render_html(report)
    assert "Constraint kinds" in render_latex(report)
    classic = build_report([_record("cpsat", CLASSIC, "c:1", 0.001, "c")], [_run([])])
    assert support_table(classic) is None
    assert "Constraint kinds" not in render_markdown(classic)
    assert all(p.name != "kinds" for p in all_plots(classic))


def test_without_recorded_skips_the_registry_says_who_does_not_take_a_kind():
    records = [_record("cpsat", KILLER, "v:1", 0.002), _record("dlx", CLASSIC, "c:1", 0.001, "c")]
    table = support_table(build_report(records, [_run(None)]))
    assert table is not None
    cells = _cells(table)
    assert cells["cpsat"]["killer"] == "yes"
    dlx = solvers.get("dlx")
    if "killer" in dlx.constraint_kinds:
        assert cells["dlx"]["killer"] == "—"  # takes it, but had no such puzzle
    else:
        assert cells["dlx"]["killer"] == "no"
        assert "dlx does not take any of these kinds" in table.caption  # killer, the only one


def test_a_puzzle_of_several_kinds_counts_for_each_and_the_figure_has_a_line_per_solver():
    records, run = _study()
    report = build_report(records, [run])
    times = times_by_kind(report)
    assert sorted(times["cpsat"]["diagonal"]) == [0.004, 0.008]
    assert sorted(times["cpsat"]["killer"]) == [0.002, 0.008]
    fig = kinds_figure(report)
    (ax,) = fig.axes
    lines = {line.get_label(): list(line.get_xdata()) for line in ax.get_lines()}
    assert set(lines) == {"cpsat", "diag", "small"}  # "none" solved nothing: no line
    assert (lines["cpsat"], lines["diag"], lines["small"]) == ([0, 1], [0], [1])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["diagonal", "killer"]
    assert ax.get_yscale() == "log"
    assert any(p.name == "kinds" and p.data.startswith(b"\x89PNG") for p in all_plots(report))


@pytest.fixture(scope="module")
def variant_run(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("ortools")
    folder = tmp_path_factory.mktemp("kinds")
    corpus = folder / "mixed.json"
    from solvers.variants.canonical import puzzle_data

    knight = Grid.empty(2).with_constraints((AntiKnight(),))
    puzzles = [puzzle_data(g) for g in (KILLER, knight)]  # empty grids: MULTIPLE, quickly
    corpus.write_text(json.dumps(puzzles), encoding="utf-8")
    db = folder / "r.sqlite"
    argv = ["run", "--corpus", str(corpus), "--solver", "cpsat", "--solver", "odometer",
            "--db", str(db), "--jobs", "1", "--timeout", "10", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return db


def test_a_run_records_the_puzzles_a_solver_skips_and_the_report_shows_them(
    variant_run, tmp_path, capsys
):
    odometer = solvers.get("odometer")
    con = sqlite3.connect(variant_run)
    (text,) = con.execute("select settings from runs").fetchone()
    con.close()
    skipped = json.loads(text)["skipped"]
    lacking = [k for k in ("anti-knight", "killer") if k not in odometer.constraint_kinds]
    assert sorted(k for e in skipped for k in e["missing"]) == lacking
    for entry in skipped:
        assert (entry["solver"], entry["corpus"]) == ("odometer", "mixed")
        assert entry["reason"] == f"odometer does not take {entry['missing'][0]} constraints"
    out = tmp_path / "report.md"
    assert main(["report", "--db", str(variant_run), "--format", "md", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    lines = text.split("## Constraint kinds", 1)[1].splitlines()

    def cells(prefix: str) -> list[str]:
        line = next(ln for ln in lines if ln.startswith(prefix))
        return [c.strip() for c in line.split("|")[1:-1]]

    row = dict(zip(cells("| solver"), cells("| odometer"), strict=True))
    for kind in ("anti-knight", "killer"):
        assert row[kind] == ("no" if kind in lacking else "yes")
    assert row["skipped"] == str(len(lacking))
    assert (out.parent / "report-plots" / "kinds.png").is_file()
    capsys.readouterr()
