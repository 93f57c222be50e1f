"""Reports built from a small real study: real solves stored in a real database.

Four solvers run on two corpora: ``dlx`` and three flawed ones made for this
test — one that botches a cell of some answers, one that falsely claims some
puzzles have no solution, one that gives up (STUCK) on sparse puzzles.  The
tables must agree with the database, every format must render, the wrong
solvers must be caught, and comparisons must tell a seeded 2x slow-down from
a re-run.  The compared runs hold real answers with synthetic times (a fixed
base time per puzzle, a deterministic +-3% jitter for the re-run, twice the
base for the slow-down), so the verdicts do not depend on the machine's load.
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import json
import random
import re
import sqlite3
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

import solvers
from harness.cli import main
from harness.records import ResultRecord, puzzle_text
from harness.report import build_report
from harness.report.plots import all_plots, difficulty
from harness.report.render_data import SCHEMA
from harness.store import Store
from solvers.base import Limits, Solver, SolveResult, Status
from solvers.grid import Grid
from solvers.testing import (
    PUZZLE_4X4,
    PUZZLE_9X9_EASY,
    PUZZLE_9X9_HARDER,
    PUZZLE_9X9_TWO_SOLUTIONS,
)
from solvers.transforms import random_transform
from solvers.verify import check
from tests.paths import ROOT

NASTY_CORPUS = '<img src=x onerror="alert(1)">&'


def _forms(base: list[str], count: int, seed: int) -> list[Grid]:
    """`count` distinct equivalent forms of the base puzzles (relabelled, permuted)."""
    rng = random.Random(seed)
    grids: list[Grid] = []
    while len(grids) < count:
        grid = Grid.parse(base[len(grids) % len(base)])
        transform, box = random_transform(grid, rng)
        form = transform.apply(grid, box=box)
        if form not in grids:
            grids.append(form)
    return grids


CORPORA = {
    "nine": _forms([PUZZLE_9X9_EASY, PUZZLE_9X9_HARDER], 14, seed=7),
    NASTY_CORPUS: _forms([PUZZLE_4X4], 6, seed=8),
}


def _picked(grid: Grid, modulus: int) -> bool:
    """A fixed, arbitrary-looking subset of the puzzles."""
    return sum(i * v for i, v in enumerate(grid.cells)) % modulus == 0


class _Flawed(Solver):
    family = "search"
    complete = False
    summary = "a deliberately flawed solver for the report tests"
    source = "tests/harness/test_report.py"

    def _dlx(self, puzzle: Grid, limit: int, limits: Limits) -> SolveResult:
        return solvers.get("dlx").solve(puzzle, limit=limit, time_limit=limits.remaining())


class Botcher(_Flawed):
    """Answers like dlx, but changes one cell of some answers."""

    name = "botcher"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        result = self._dlx(puzzle, limit, limits)
        if not _picked(puzzle, 3) or not result.solutions:
            return result
        cells = list(result.solutions[0].cells)
        cells[-1] = cells[-1] % puzzle.size + 1
        return SolveResult(result.status, (puzzle.replace(cells),), result.exhausted, result.stats)


class Liar(_Flawed):
    """Claims some solvable puzzles have no solution."""

    name = "liar"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        if _picked(puzzle, 4):
            return SolveResult(Status.UNSOLVABLE, exhausted=True, stats={"nodes": 1})
        return self._dlx(puzzle, limit, limits)


class Quitter(_Flawed):
    """An incomplete method: gives up on puzzles with few givens."""

    name = "quitter"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        if puzzle.givens < len(puzzle.cells) * 0.4:
            return SolveResult(Status.STUCK, stats={"nodes": 0, "guesses": 0})
        return self._dlx(puzzle, limit, limits)


def _record(
    run_id: int,
    spec: str,
    solver: Solver,
    corpus: str,
    index: int,
    grid: Grid,
    repeat: int = 0,
    stats: dict | None = None,
) -> ResultRecord:
    """Solve for real and record it as the runner would."""
    start = time.perf_counter()
    result = solver.solve(grid, limit=2, time_limit=5.0)
    wall = time.perf_counter() - start
    text, box = puzzle_text(grid)
    solution = puzzle_text(result.solutions[0])[0] if result.solutions else None
    return ResultRecord(
        run_id=run_id, solver=spec, corpus=corpus, puzzle_id=f"{corpus}:{index + 1}",
        puzzle=text, repeat=repeat, status=result.status.value, solution=solution,
        solutions_found=len(result.solutions), exhausted=result.exhausted, wall=wall,
        cpu=wall, stats={**result.stats, **(stats or {})}, time_limit=5.0, box=box, limit=2,
    )  # fmt: skip


STUDY_SOLVERS = {"dlx": solvers.get("dlx"), "botcher": Botcher(), "liar": Liar(),
                 "quitter": Quitter()}  # fmt: skip


JITTER = 0.03  # the re-run's largest deviation from the first run, below the 5% noise


def _compared_runs(runs: list[int]) -> list[ResultRecord]:
    """dlx's real answers in three runs with synthetic times: base, base +- jitter, 2x base."""
    rng = random.Random(11)
    dlx = solvers.get("dlx")
    records = []
    for i, grid in enumerate(CORPORA["nine"]):
        solved = _record(runs[0], "dlx", dlx, "nine", i, grid)
        base = 0.001 * (1 + i % 5)  # 1-5 ms, as dlx takes on such puzzles
        jitter = 1 + rng.uniform(-JITTER, JITTER)
        for run_id, wall in zip(runs, (base, base * jitter, 2 * base), strict=True):
            records.append(dataclasses.replace(solved, run_id=run_id, wall=wall, cpu=wall))
    return records


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: the four solvers, two repeats; runs 2-4: dlx, a re-run, a 2x slow-down."""
    db = tmp_path_factory.mktemp("study") / "study.sqlite"
    with Store(db) as store:
        run = store.start_run("test study", {"timeout": 5.0, "jobs": 1, "repeat": 2})
        records = [
            _record(run, spec, solver, corpus, i, grid, repeat)
            for corpus, grids in CORPORA.items()
            for i, grid in enumerate(grids)
            for spec, solver in STUDY_SOLVERS.items()
            for repeat in (0, 1)
        ]
        store.add_results(records)
        store.finish_run(run)
        runs = [store.start_run(f"compare {k}", {"timeout": 5.0, "jobs": 1}) for k in range(3)]
        store.add_results(_compared_runs(runs))
        for run_id in runs:
            store.finish_run(run_id)
    return db


def _report(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["report", "--db", str(db), *args])
    out, err = capsys.readouterr()
    return status, out, err


def _summary(db: Path, tmp_path: Path, capsys, *args: str) -> dict:
    out = tmp_path / "report.json"
    status, _, _ = _report(db, "--run", "1", "--format", "json", "--out", str(out), *args,
                           capsys=capsys)  # fmt: skip
    assert status == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _expected_wrong(db: Path) -> dict[tuple[str, str], set[str]]:
    """Wrong answers per (solver, corpus), established from the database independently."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT solver, corpus, puzzle_id, puzzle, status, solution, box FROM results "
        "WHERE run_id = 1"
    ).fetchall()
    truth = {(c, p): s for solver, c, p, _, _, s, _ in rows if solver == "dlx"}
    wrong: dict[tuple[str, str], set[str]] = {}
    for solver, corpus, pid, puzzle, status, solution, _ in rows:
        given = Grid.parse(puzzle)
        bad = (solution is not None and bool(check(given, Grid.parse(solution)))) or (
            status == "UNSOLVABLE" and truth[(corpus, pid)] is not None
        )
        wrong.setdefault((solver, corpus), set())
        if bad:
            wrong[(solver, corpus)].add(pid)
    return wrong


def test_summary_totals_match_the_database(study, tmp_path, capsys):
    document = _summary(study, tmp_path, capsys)
    con = sqlite3.connect(study)
    assert (
        len(document["results"])
        == con.execute("SELECT count(*) FROM results WHERE run_id = 1").fetchone()[0]
    )
    wrong = _expected_wrong(study)
    rows = [r for r in document["summary"] if not r["is_vbs"]]
    assert {(r["solver"], r["corpus"]) for r in rows} == set(wrong)
    for row in rows:
        key = (row["solver"], row["corpus"])
        puzzles, stuck = con.execute(
            "SELECT count(DISTINCT puzzle_id), count(DISTINCT CASE WHEN status = 'STUCK' "
            "THEN puzzle_id END) FROM results WHERE run_id = 1 AND solver = ? AND corpus = ?",
            key,
        ).fetchone()
        assert row["puzzles"] == puzzles
        assert row["stuck"] == stuck
        assert row["wrong"] == len(wrong[key]), key
        assert row["solved"] == puzzles - stuck - len(wrong[key]), key
        assert row["timeouts"] == row["memouts"] == row["errors"] == 0
    assert any(len(pids) for (solver, _), pids in wrong.items() if solver == "botcher")
    assert any(len(pids) for (solver, _), pids in wrong.items() if solver == "liar")


def test_wrong_solvers_are_flagged_unranked_and_kept_out_of_the_virtual_best(
    study, tmp_path, capsys
):
    document = _summary(study, tmp_path, capsys)
    by_key = {(r["solver"], r["corpus"]): r for r in document["summary"]}
    for corpus in CORPORA:
        for liar in ("botcher", "liar"):
            assert by_key[(liar, corpus)]["flagged"]
            assert by_key[(liar, corpus)]["rank"] is None
            assert by_key[(liar, corpus)]["best_share"] is None
        assert by_key[("dlx", corpus)]["rank"] is not None
        vbs = by_key[("virtual best", corpus)]
        assert vbs["solved"] == len(CORPORA[corpus])  # dlx solves them all
        honest = [by_key[(s, corpus)]["best_share"] for s in ("dlx", "quitter")]
        assert sum(honest) == pytest.approx(1.0)
    status, out, _ = _report(study, "--run", "1", "--format", "md", "--no-plots", capsys=capsys)
    assert status == 0
    summary = out.split("## Summary", 1)[1].split("## Findings", 1)[0]
    tables = summary.count("### ")
    assert summary.count("| botcher (WRONG)") == tables
    assert summary.count("| liar (WRONG)") == tables
    assert "dlx (WRONG)" not in out


def test_findings_show_the_puzzle_and_both_answers(study, tmp_path, capsys):
    document = _summary(study, tmp_path, capsys)
    findings = document["findings"]
    wrong = _expected_wrong(study)
    expected = {(s, c, p) for (s, c), pids in wrong.items() for p in pids}
    assert {(f["solver"], f["corpus"], f["puzzle_id"]) for f in findings} == expected
    for f in findings:
        assert f["kind"] == "wrong"
        assert Grid.parse(f["puzzle"])
        assert f["other_answer"].startswith("SOLVED ")
        if f["solver"] == "liar":
            assert f["answer"] == "UNSOLVABLE"
            assert "no solution" in f["detail"]
        else:
            assert f["answer"].startswith("SOLVED ")
            assert f["answer"] != f["other_answer"]


class _Checker(HTMLParser):
    """Collects images and checks that every opened element is closed in order."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.images: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        if tag == "script":
            self.scripts += 1
            assert "src" not in dict(attrs)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack[-1:] == [tag], f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def test_html_is_self_contained_escaped_and_embeds_the_plots(study, tmp_path, capsys):
    out = tmp_path / "report.html"
    status, _, _ = _report(study, "--run", "1", "--format", "html", "--out", str(out),
                           capsys=capsys)  # fmt: skip
    assert status == 0
    html = out.read_text(encoding="utf-8")
    checker = _Checker()
    checker.feed(html)
    checker.close()
    assert checker.stack == ["html"] or checker.stack == []
    assert checker.scripts == 2  # the matrix's data and the page's script, nothing from outside
    cactus_and_boxes = 2 * len(CORPORA)
    statistics = 1 + len(CORPORA) + 1  # profile, runtime per corpus, hardness
    assert len(checker.images) == cactus_and_boxes + 1 + statistics  # + each against the best
    for src in checker.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    assert "http://" not in html.replace("http://www.w3.org", "")
    assert NASTY_CORPUS not in html
    assert "onerror=&quot;alert(1)&quot;" in html
    assert "test study" in html  # the command that produced the data
    assert 'class="sortable"' in html
    assert "data-sort=" in html


def test_markdown_links_plot_files_that_exist(study, tmp_path, capsys):
    out = tmp_path / "md" / "report.md"
    status, _, _ = _report(study, "--run", "1", "--format", "md", "--out", str(out),
                           "--pair", "dlx", "quitter", capsys=capsys)  # fmt: skip
    assert status == 0
    text = out.read_text(encoding="utf-8")
    links = [line.split("](", 1)[1].rstrip(")") for line in text.splitlines() if "![" in line]
    # cactus and boxes per corpus, each against the best, the named pair; then the
    # statistics: the profile, a runtime distribution per corpus and the hardness map
    # (two solvers compete: too few for the critical-difference diagram)
    assert len(links) == 2 * len(CORPORA) + 2 + 1 + len(CORPORA) + 1
    for link in links:
        assert (out.parent / link).read_bytes().startswith(b"\x89PNG")
    assert "## Environment" in text
    assert "## Definitions" in text


def test_csv_gives_result_rows_and_the_summary(study, tmp_path, capsys):
    out = tmp_path / "results.csv"
    status, _, err = _report(study, "--run", "1", "--format", "csv", "--out", str(out),
                             capsys=capsys)  # fmt: skip
    assert status == 0
    assert "results.csv" in err
    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert (
        len(rows)
        == sqlite3.connect(study)
        .execute("SELECT count(*) FROM results WHERE run_id = 1")
        .fetchone()[0]
    )
    assert {"solver", "corpus", "puzzle_id", "status", "wall_s", "nodes", "wrong"} <= set(rows[0])
    wrong = _expected_wrong(study)
    flagged = {(r["solver"], r["corpus"], r["puzzle_id"]) for r in rows if r["wrong"] == "True"}
    assert flagged == {(s, c, p) for (s, c), pids in wrong.items() for p in pids}
    with (tmp_path / "results-summary.csv").open(encoding="utf-8") as handle:
        summary = list(csv.DictReader(handle))
    assert len(summary) == len(STUDY_SOLVERS) * len(CORPORA) + len(CORPORA)  # + virtual best


def test_json_follows_its_schema(study, tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    document = _summary(study, tmp_path, capsys)
    jsonschema.validate(document, SCHEMA)
    status, out, _ = _report(study, "--schema", capsys=capsys)
    assert status == 0
    assert json.loads(out) == json.loads(json.dumps(SCHEMA))


def test_latex_tables(study, capsys):
    status, out, _ = _report(study, "--run", "1", "--format", "latex", capsys=capsys)
    assert status == 0
    assert out.count("\\begin{tabular}") == out.count("\\end{table}") >= 2 * len(CORPORA)
    assert "\\toprule" in out
    assert "botcher (WRONG)" in out
    assert "<img" not in out
    assert "\\&" in out


def test_terminal_reports_the_last_run_by_default(study, capsys):
    status, out, _ = _report(study, "--no-plots", capsys=capsys)
    assert status == 0
    assert out.startswith("run 4:")
    assert "nine: outcomes" in out
    assert "virtual best" in out


def _verdicts(study: Path, tmp_path: Path, capsys, a: int, b: int, *extra: str):
    out = tmp_path / f"compare-{a}-{b}.json"
    status, _, err = _report(study, "--compare", str(a), str(b), "--format", "json", "--out",
                             str(out), "--no-results", *extra, capsys=capsys)  # fmt: skip
    rows = json.loads(out.read_text(encoding="utf-8"))["comparison"]["rows"]
    return status, {(r["solver"], r["corpus"]): r for r in rows}, err


def test_comparison_detects_a_seeded_2x_slowdown(study, tmp_path, capsys):
    status, rows, err = _verdicts(study, tmp_path, capsys, 2, 4, "--fail-if-slower", "10%")
    row = rows[("dlx", "nine")]
    assert row["verdict"] == "slower", row
    assert row["ci_low"] > 1.0
    assert row["paired"] == len(CORPORA["nine"])
    assert status == 1
    assert "regression: dlx on nine" in err
    _, reverse, _ = _verdicts(study, tmp_path, capsys, 4, 2)
    assert reverse[("dlx", "nine")]["verdict"] == "faster"


def test_comparison_calls_a_rerun_within_noise(study, tmp_path, capsys):
    status, rows, _ = _verdicts(study, tmp_path, capsys, 2, 3, "--fail-if-slower", "10%")
    row = rows[("dlx", "nine")]
    assert row["verdict"] == "within noise", row
    assert row["newly_solved"] == row["newly_wrong"] == row["newly_timed_out"] == 0
    assert status == 0


def test_time_vs_difficulty_appears_only_with_ratings():
    grids = CORPORA["nine"][:6]
    plain = [_record(1, "dlx", solvers.get("dlx"), "nine", i, g) for i, g in enumerate(grids)]
    report = build_report(plain)
    assert difficulty(report, "nine") is None
    assert not any(p.name.startswith("difficulty") for p in all_plots(report))
    rated = [
        _record(1, "dlx", solvers.get("dlx"), "nine", i, g, stats={"rating": 1.0 + i % 3})
        for i, g in enumerate(grids)
    ]
    plot = difficulty(build_report(rated), "nine")
    assert plot is not None
    assert plot.data.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--run", "99"], "no run 99"),
        (["--run", "x"], "--run takes a run id"),
        (["--fail-if-slower", "10%"], "needs --compare"),
        (["--compare", "2", "3", "--noise", "lots"], "expected a share"),
        (["--run", "1", "--pair", "dlx", "nobody", "--plots", "PLOTS"], "not in the report"),
        (["--timeout-penalty", "0"], "must be positive"),
    ],
)
def test_mistakes_are_one_line_errors(study, capsys, args, message):
    status, out, err = _report(study, *args, capsys=capsys)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_missing_database_is_a_clear_error(tmp_path, capsys):
    status, _, err = _report(tmp_path / "none.sqlite", capsys=capsys)
    assert status == 2
    assert "no database" in err
    assert not (tmp_path / "none.sqlite").exists()


class Overconfident(_Flawed):
    """Claims every solution it finds is unique."""

    name = "overconfident"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        result = self._dlx(puzzle, 1, limits)
        return SolveResult(result.status, result.solutions, True, result.stats)


def test_a_uniqueness_claim_against_multiple_solutions_is_listed_not_judged():
    grid = Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS)
    pair = (("dlx", solvers.get("dlx")), ("overconfident", Overconfident()))
    records = [_record(1, spec, solver, "two", 0, grid) for spec, solver in pair]
    assert records[0].status == "MULTIPLE"
    report = build_report(records)
    (finding,) = report.findings
    assert finding.kind == "disagreement"
    assert finding.solver == "overconfident"
    assert finding.other_answer.startswith("MULTIPLE ")
    assert not report.flagged  # only the truth can settle which one is wrong


def test_a_cross_check_verdict_stands_and_its_contradiction_is_listed():
    grid = CORPORA["nine"][0]
    honest = _record(1, "dlx", solvers.get("dlx"), "nine", 0, grid)
    lie = SolveResult(Status.UNSOLVABLE, exhausted=True)
    claimed = dataclasses.replace(honest, solver="liar", status=lie.status.value,
                                  solution=None, verdict="CORRECT")  # fmt: skip
    report = build_report([honest, claimed])
    (finding,) = report.findings
    assert finding.kind == "disagreement"
    assert "cross-check said CORRECT" in finding.detail
    assert not report.flagged
    unchecked = build_report([honest, dataclasses.replace(claimed, verdict=None)])
    assert unchecked.flagged == {"liar"}
    assert unchecked.findings[0].kind == "wrong"


def test_rate_adds_time_vs_difficulty(study, tmp_path, capsys):
    out = tmp_path / "rated" / "report.md"
    status, _, err = _report(study, "--run", "1", "--rate", "--format", "md", "--out", str(out),
                             "--pair", "dlx", "quitter", capsys=capsys)  # fmt: skip
    assert status == 0
    assert f"rating {sum(map(len, CORPORA.values()))} puzzles" in err
    plots = sorted(p.name for p in (out.parent / "report-plots").iterdir())
    assert [p for p in plots if p.startswith("difficulty-")] == [
        "difficulty-img-src-x-onerror-alert-1.png",
        "difficulty-nine.png",
    ]


def test_puzzles_logic_cannot_finish_are_rated_beyond_logic():
    from harness.report.ratings import BEYOND_LOGIC, rate_outcomes

    grids = [CORPORA["nine"][0], Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS)]
    report = build_report(
        [_record(1, "dlx", solvers.get("dlx"), "c", i, g) for i, g in enumerate(grids)]
    )
    ratings = rate_outcomes(report.outcomes)
    assert 1.0 <= ratings[("c", "c:1")] < 12
    assert ratings[("c", "c:2")] == BEYOND_LOGIC
    report.ratings.update(ratings)
    assert difficulty(report, "c") is not None


def test_the_example_study_links_only_files_that_exist():
    folder = ROOT / "reports"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    links = [link for link in re.findall(r"\]\(([^)]+)\)", readme) if "://" not in link]
    assert {"report.md", "report.html", "tables.tex"} <= set(links)
    assert any(link.endswith(".png") for link in links)
    for link in links:
        assert (folder / link).is_file(), f"reports/README.md links a missing file: {link}"
    assert "sh reports/regenerate.sh" in readme


def test_the_example_variant_study_has_every_solver_and_kind_and_its_figure():
    from harness import studyfile
    from solvers.registry import parse_spec
    from solvers.variants import KINDS

    study = studyfile.load(ROOT / "reports" / "variants.toml")
    folder = ROOT / "reports" / "variants"
    text = (folder / "report.md").read_text(encoding="utf-8")
    assert (folder / "report.html").is_file()
    assert (folder / "report-plots" / "kinds.png").is_file()
    assert "![Time per constraint kind](report-plots/kinds.png)" in text
    for corpus in study.corpora:
        assert f"### {corpus}: outcomes" in text
    table = text.split("## Constraint kinds: which solver takes which", 1)[1].split("\n\n")[1]
    rows = [[c.strip() for c in ln.split("|")[1:-1]] for ln in table.splitlines()]
    assert rows[0] == ["solver", *KINDS, "skipped"]  # the study's corpora hold every kind
    named = sorted(parse_spec(spec)[0] for spec in study.solvers)  # one spec per solver
    assert sorted(parse_spec(r[0])[0] for r in rows[2:]) == named
    readme = (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
    assert "(variants/report.md)" in readme
    assert "(variants.toml)" in readme


def test_compare_in_markdown_scatters_each_solver_against_itself(study, tmp_path, capsys):
    out = tmp_path / "cmp" / "report.md"
    status, _, _ = _report(study, "--compare", "2", "4", "--format", "md", "--out", str(out),
                           capsys=capsys)  # fmt: skip
    assert status == 0
    text = out.read_text(encoding="utf-8")
    assert "## Run 4 (B) against run 2 (A)" in text
    assert "| dlx (run 2) " in text  # both runs side by side in the summary
    assert (out.parent / "report-plots" / "scatter-dlx-run-2-vs-dlx-run-4.png").is_file()
