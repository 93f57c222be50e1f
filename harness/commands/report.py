"""`sudoku-bench report`: tables, plots, findings and run comparisons from a results database."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from harness.errors import CommandError

FORMATS = ("terminal", "md", "html", "csv", "json", "latex", "parquet")

EPILOG = """examples:
  sudoku-bench report                                  # the last run, in the terminal
  sudoku-bench report --format md --out report.md      # Markdown, plots in report-plots/
  sudoku-bench report --format html --out report.html  # one file, plots embedded
  sudoku-bench report --run 3 --run 4 --format csv --out results.csv
  sudoku-bench report --format parquet --out results.parquet   # every run; needs [data]
  sudoku-bench report --compare 3 4 --fail-if-slower 10%   # regression gate (exit 1)
  sudoku-bench report --pair dlx mrv --plots plots/ --plot-format svg
  sudoku-bench report --all-pairs --format html --out report.html   # a scatter per pair
  sudoku-bench report --rate --format html --out report.html   # adds time vs difficulty
  sudoku-bench report --schema                         # the JSON schema of --format json

csv writes the per-result rows to --out (or stdout) and the summary next to it
(NAME-summary.csv); parquet writes the same rows to --out, the summary to
NAME-summary.parquet and the runs' settings to NAME-runs.parquet (join on
run_id; pip install 'sudoku-bench[data]'); json holds runs, summary,
findings, comparison and results.
PAR-k counts an unsolved puzzle at k times its time limit (--timeout-penalty)."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from harness.store import DEFAULT_DB

    parser = sub.add_parser(
        "report",
        help="summary tables, plots and comparisons from a results database",
        description="Report on runs stored by 'sudoku-bench run': per solver x corpus "
        "counts, times, PAR-2, the virtual best solver, every wrong answer or "
        "disagreement, plots (cactus, each solver against the best-ranked one, time "
        "distribution, time vs difficulty), and run-to-run comparisons with bootstrap "
        "confidence intervals.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help=f"results database (default {DEFAULT_DB})"
    )
    parser.add_argument(
        "--run", action="append", dest="runs", metavar="ID",
        help="run to report (repeatable; 'all' for every run; default: the last run, and "
        "every run for --format parquet, as load_results gives them)",
    )  # fmt: skip
    parser.add_argument("--format", choices=FORMATS, default="terminal", help="output format")
    parser.add_argument("--out", metavar="PATH", help="write to this file instead of stdout")
    parser.add_argument(
        "--compare", nargs=2, type=int, metavar=("RUN_A", "RUN_B"),
        help="compare run B against run A (ratios of medians, status changes, verdict)",
    )  # fmt: skip
    parser.add_argument(
        "--fail-if-slower", metavar="SHARE",
        help="with --compare: exit 1 when a solver is significantly slower by at least "
        "SHARE (e.g. 10%%) or gave new wrong answers",
    )  # fmt: skip
    parser.add_argument(
        "--noise", default="5%", metavar="SHARE",
        help="with --compare: changes smaller than this are within noise (default 5%%)",
    )  # fmt: skip
    parser.add_argument(
        "--timeout-penalty", type=float, default=2.0, metavar="K",
        help="PAR-K: an unsolved puzzle counts K x its time limit (default 2)",
    )  # fmt: skip
    parser.add_argument(
        "--plots", metavar="DIR",
        help="write the plots to DIR (md with --out: default NAME-plots/ next to it)",
    )  # fmt: skip
    parser.add_argument(
        "--plot-format", choices=("png", "svg"), default="png", help="image format (default png)"
    )
    parser.add_argument("--no-plots", action="store_true", help="skip the plots (faster)")
    parser.add_argument(
        "--pair", nargs=2, action="append", metavar=("A", "B"),
        help="also scatter these solver pairs, one plot each (repeatable; by default one "
        "figure shows each solver against the best-ranked one)",
    )  # fmt: skip
    parser.add_argument(
        "--all-pairs", action="store_true",
        help="also scatter every pair of solvers, one plot each (n(n-1)/2 plots)",
    )  # fmt: skip
    parser.add_argument(
        "--cactus", choices=("time", "solved"), default="time",
        help="cactus plot orientation: time (default: time on x, puzzles solved on y) or "
        "solved (the SAT competition's: puzzles solved on x, time per puzzle on y)",
    )  # fmt: skip
    parser.add_argument(
        "--rate", action="store_true",
        help="rate the puzzles with the human-style engine (tens of ms each: about 30 ms on the "
        "quick start's corpora) for the "
        "time-vs-difficulty plot, where the records carry no rating",
    )  # fmt: skip
    parser.add_argument(
        "--clock", choices=("harness", "solver", "search"), default="harness",
        help="harness (default): the harness's wall clock around each solve's span; solver: "
        "the solver's own time where it reports one (external programs), else the harness's; "
        "search: the search phase where the solver records one (CP-SAT, MiniZinc, SAT, "
        "external programs), else the harness's",
    )  # fmt: skip
    parser.add_argument(
        "--subtract-overhead", action="store_true",
        help="take the timer's own cost, measured at the start of each run (about 1 µs), "
        "off every harness time",
    )  # fmt: skip
    parser.add_argument(
        "--no-results", action="store_true", help="json: leave out the per-result rows"
    )
    parser.add_argument(
        "--matrix-puzzles", type=int, default=2000, metavar="N",
        help="html: at most N puzzles in the per-puzzle matrix, those the solvers disagree "
        "on first (default 2000; 0 leaves the matrix out)",
    )  # fmt: skip
    parser.add_argument(
        "--schema", action="store_true", help="print the JSON schema of --format json and exit"
    )
    parser.set_defaults(run=run)
    return parser


def _run_ids(store: Any, wanted: list[str] | None, compare: list[int] | None) -> list[int]:
    if compare:
        for run_id in compare:
            store.run(run_id)  # a clear error for an unknown run
        return list(dict.fromkeys(compare))
    if not wanted:
        last = store.last_run_id()
        if last is None:
            raise CommandError(f"{store.path} holds no runs yet; start one with 'sudoku-bench run'")
        return [last]
    if "all" in wanted:
        return [r.id for r in store.runs()]
    ids = []
    for text in wanted:
        try:
            run_id = int(text)
        except ValueError:
            raise CommandError(f"--run takes a run id or 'all', not {text!r}") from None
        store.run(run_id)
        ids.append(run_id)
    return list(dict.fromkeys(ids))


def _truth_lookup(store: Any) -> Any:
    def lookup(puzzle: str, box: str) -> tuple[str, str] | None:
        truth = store.truth(puzzle, box)
        if truth is None:
            return None
        answer = truth.kind + (f" {truth.solution}" if truth.solution else "")
        return (f"truth ({truth.oracle})" if truth.oracle else "truth", answer)

    return lookup


def _write(text: str, out: str | None) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)


def _plots_dir(args: argparse.Namespace) -> Path | None:
    if args.no_plots:
        return None
    if args.plots:
        return Path(args.plots)
    if args.format == "md" and args.out:
        out = Path(args.out)
        return out.with_name(f"{out.stem}-plots")
    return None


def _save_plots(plots: list[Any], directory: Path) -> list[tuple[str, Path]]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    used: set[str] = set()
    for plot in plots:
        name, n = plot.name, 1
        while name in used:  # two labels that slug alike ('a[x=1]', 'a (x=1)')
            n += 1
            name = f"{plot.name}-{n}"
        used.add(name)
        path = directory / f"{name}.{plot.format}"
        path.write_bytes(plot.data)
        written.append((plot.title, path))
    print(f"wrote {len(plots)} plots to {directory}", file=sys.stderr)
    return written


def _relative(path: Path, out: str | None) -> str:
    base = Path(out).resolve().parent if out else Path.cwd()
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def run(args: argparse.Namespace) -> int:
    from harness.report import render_data

    if args.schema:
        import json

        _write(json.dumps(render_data.SCHEMA, indent=1) + "\n", args.out)
        return 0
    from harness.report.comparable import comparison_note
    from harness.report.compare import compare_runs, parse_share
    from harness.report.plots import all_plots
    from harness.report.study import build_report
    from harness.store import Store

    if args.fail_if_slower and not args.compare:
        raise CommandError("--fail-if-slower needs --compare RUN_A RUN_B")
    gate = parse_share(args.fail_if_slower) if args.fail_if_slower else None
    noise = parse_share(args.noise)
    if args.format == "parquet":
        _check_parquet(args.out)
    if args.matrix_puzzles < 0:
        raise CommandError(f"--matrix-puzzles must be 0 or more, not {args.matrix_puzzles}")
    if not args.timeout_penalty > 0:
        raise CommandError(f"--timeout-penalty must be positive, not {args.timeout_penalty}")
    command = "sudoku-bench report " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    with Store(args.db, create=False) as store:
        wanted = args.runs or (["all"] if args.format == "parquet" and not args.compare else None)
        run_ids = _run_ids(store, wanted, args.compare)
        runs = [store.run(i) for i in run_ids]
        # csv and json list every result after the summary: read them once, keep them
        rows_too = args.format in ("csv", "parquet") or (
            args.format == "json" and not args.no_results
        )
        records: Any = list(store.results(run_ids)) if rows_too else store.results(run_ids)
        report = build_report(
            records,
            runs,
            penalty=args.timeout_penalty,
            truth=_truth_lookup(store),
            command=command,
            clock=args.clock,
            subtract_overhead=args.subtract_overhead,
            statistics=args.format not in ("csv", "parquet"),
        )
        if not report.outcomes:
            raise CommandError(f"run {', '.join(map(str, run_ids))} has no results yet")
        if args.rate:
            _rate(report)
        if args.compare:
            a, b = args.compare
            side_a = [o for o in report.outcomes if o.run_id == a]
            side_b = [o for o in report.outcomes if o.run_id == b]
            order, corpora = report.spec_order(), report.corpora  # rows in the report's order
            report.comparison = sorted(
                compare_runs(side_a, side_b, noise=noise),
                key=lambda c: (corpora.index(c.corpus) if c.corpus in corpora else len(corpora),
                               order.get(c.solver, len(order))),
            )  # fmt: skip
            report.compared = (a, b)
            warning = comparison_note(*(next(r for r in runs if r.id == i) for i in (a, b)))
            if warning:
                report.notes.append(warning)
        pairs = [tuple(p) for p in args.pair or []]
        if not pairs and args.compare:
            pairs = _same_solver_pairs(report)
        directory = _plots_dir(args)
        plots: list[Any] = []
        if args.format == "html" and not args.no_plots or directory:
            plots = list(
                all_plots(
                    report,
                    pairs,
                    args.plot_format,
                    all_pairs=args.all_pairs,
                    cactus_orientation=args.cactus,
                )
            )
        written = _save_plots(plots, directory) if directory else []
        _render(args, report, plots, written, records)
    if gate is not None and report.comparison:
        failed = [c for c in report.comparison if c.regressed(gate)]
        for c in failed:
            why = f"{c.newly_wrong} new wrong answers" if c.newly_wrong else f"{c.ratio:.2f}x"
            print(f"regression: {c.solver} on {c.corpus}: {why}", file=sys.stderr)
        return 1 if failed else 0
    return 0


def _rate(report: Any) -> None:
    from harness.report.ratings import rate_outcomes

    missing = [o for o in report.outcomes if (o.corpus, o.puzzle_id) not in report.ratings]
    count = len({(o.corpus, o.puzzle_id) for o in missing})
    if count:
        print(f"rating {count} puzzles with the human-style engine ...", file=sys.stderr)
        report.ratings.update(rate_outcomes(missing))
    report.rating_label = "difficulty: Sudoku-Explainer-style rating (ER) of the human engine"
    if report.statistics is not None:  # the ratings are a feature of the hardness statistics
        from harness.report.statistics import hardness_or_note

        report.statistics.correlations = hardness_or_note(report, report.statistics.missing)


def _same_solver_pairs(report: Any) -> list[tuple[str, str]]:
    """With --compare, each solver's run A against its run B."""
    a, b = report.compared
    labels: dict[tuple[str, int], str] = {}
    for o in report.outcomes:
        labels[(o.spec, o.run_id)] = o.solver
    return [
        (labels[(spec, a)], labels[(spec, b)])
        for spec, run_id in labels
        if run_id == a and (spec, b) in labels
    ]


def _render(
    args: argparse.Namespace,
    report: Any,
    plots: list[Any],
    written: list[tuple[str, Path]],
    records: Any,
) -> None:
    from harness.report import render_data
    from harness.report.render_html import render_html
    from harness.report.render_text import render_latex, render_markdown, render_terminal

    fmt = args.format
    if fmt == "terminal":
        paths = [str(p) for _, p in written]
        _write(render_terminal(report, paths), args.out)
    elif fmt == "md":
        links = [(title, _relative(path, args.out)) for title, path in written]
        _write(render_markdown(report, links), args.out)
    elif fmt == "latex":
        _write(render_latex(report), args.out)
    elif fmt == "html":
        _write(render_html(report, plots, args.matrix_puzzles), args.out)
    elif fmt == "json":
        rows = None if args.no_results else render_data.result_rows(report, records)
        out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
        try:
            render_data.write_json(report, rows, out)
        finally:
            if args.out:
                out.close()
                print(f"wrote {args.out}", file=sys.stderr)
    elif fmt == "csv":
        _write_csv(args, report, records)
    elif fmt == "parquet":
        _write_parquet(args.out, report, records)


def _check_parquet(out: str | None) -> None:
    """Refuse early (before reading the database) what cannot end in a Parquet file."""
    from harness.data import MissingExtra, require

    if not out:
        raise CommandError("--format parquet writes files: give --out NAME.parquet")
    try:
        require("pandas", "--format parquet")
        require("pyarrow", "--format parquet")
    except MissingExtra as exc:
        raise CommandError(str(exc)) from None


def _write_parquet(out_name: str, report: Any, records: Any) -> None:
    from harness import data
    from harness.report import render_data

    out = Path(out_name)
    results = data.results_frame(render_data.result_rows(report, records))
    data.write_parquet(results, out)
    summary = out.with_name(f"{out.stem}-summary.parquet")
    data.write_parquet(data.pandas().DataFrame(render_data.summary_rows(report)), summary)
    runs = out.with_name(f"{out.stem}-runs.parquet")
    data.write_parquet(data.runs_frame(report.runs), runs)
    print(f"wrote {out} ({len(results)} results), {summary} and {runs}", file=sys.stderr)


def _write_csv(args: argparse.Namespace, report: Any, records: Any) -> None:
    from harness.report import render_data

    rows = render_data.result_rows(report, records)
    if not args.out:
        render_data.write_csv(rows, render_data.RESULT_COLUMNS, sys.stdout)
        return
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="") as handle:
        count = render_data.write_csv(rows, render_data.RESULT_COLUMNS, handle)
    summary = out.with_name(f"{out.stem}-summary.csv")
    summary.write_text(render_data.summary_csv(report), encoding="utf-8")
    print(f"wrote {out} ({count} results) and {summary}", file=sys.stderr)
