"""Rough edges a new user hit, each pinned by a test (issue 15, item 4)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solvers
from harness.cli import main
from solvers.testing import PUZZLE_9X9_EASY
from tests.paths import PLUGINS, ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- a reader that stops early -------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [["solvers", "--json"], ["solvers"], ["corpora"], ["solve", PUZZLE_9X9_EASY]],
    ids=lambda argv: " ".join(argv)[:20],
)
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str], tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte, as `| head -0` would be
    try:
        done = subprocess.run(
            [sys.executable, "-m", "harness.cli", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
            cwd=tmp_path,  # the code under test comes from the installed or PYTHONPATH package
        )
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 141  # 128 + SIGPIPE, as a shell reports for a Unix tool


# -- a mistyped file name ----------------------------------------------------------
@pytest.mark.parametrize("command", ["solve", "rate", "explain"])
@pytest.mark.parametrize("argument", ["nofile.txt", "puzzles.sdk.gz", "sub/puzzles"])
def test_a_missing_file_is_called_missing(
    command: str, argument: str, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, command, argument)
    assert status == 2
    assert f"no such file: {argument}" in err
    assert "square number" not in err


def test_a_puzzle_that_ends_like_a_file_name_is_still_a_puzzle(capsys) -> None:
    status, out, _ = run(capsys, "solve", "1...3..2...3..2.")  # ends in '2.' but is a puzzle
    assert status == 0
    assert "SOLVED" in out


# -- one meaning of a corpus argument ----------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [["bench", "gen4", "--max", "3"], ["corpora", "inspect", "gen4"], ["solve", "gen4"]],
    ids=lambda argv: argv[0] + (" " + argv[1] if argv[0] == "corpora" else ""),
)
def test_every_command_takes_a_built_in_corpus_name(argv: list[str], capsys) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "gen4" in out


def test_an_unknown_corpus_lists_the_names(capsys) -> None:
    status, _, err = run(capsys, "corpora", "inspect", "gen99")
    assert status == 2
    assert "no corpus 'gen99'" in err
    assert "gen4" in err


# -- solvers left out, and how to install them ------------------------------------
def test_run_names_the_solvers_it_leaves_out(tmp_path, monkeypatch, capsys) -> None:
    for name in ("sat", "fast"):
        monkeypatch.setattr(solvers.solver_class(name), "requires", ("no_such_module_here",))
    (tmp_path / "one.txt").write_text("1...3..2...3..2.\n")
    status, out, err = run(
        capsys, "run", "--corpus", str(tmp_path / "one.txt"), "--executor", "serial",
        "--db", str(tmp_path / "db.sqlite"), "--no-progress",
    )  # fmt: skip
    assert status == 0, err
    assert "note: not run, their libraries are not installed" in err
    assert "sat: pip install 'sudoku-bench[sat]'" in err
    assert "fast: pip install 'sudoku-bench[fast]'" in err


def _extras() -> tuple[dict[str, list[str]], list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["optional-dependencies"], project["dependencies"]


def _package(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()


@pytest.mark.parametrize(
    "name", sorted(n for n in solvers.names() if solvers.solver_class(n).install_hint)
)
def test_install_hints_name_the_extra_the_readme_names(name: str) -> None:
    """A library in an extra is installed through the extra; a core one by its name.
    A program from the system's packages is named with apt-get first."""
    hint = solvers.solver_class(name).install_hint
    extras, core = _extras()
    if hint.startswith("apt-get install "):
        pip = hint.partition(" and ")[2]
        if not pip:
            return
        hint = pip
    extra = re.fullmatch(r"pip install 'sudoku-bench\[(\w+)\]'", hint)
    if extra:
        assert extra.group(1) in extras
        return
    package = hint.removeprefix("pip install ").lower()
    assert package in {_package(r) for r in core}, f"{name}: {hint!r} names no core dependency"
    in_extras = {_package(r) for reqs in extras.values() for r in reqs}
    assert package not in in_extras


# -- the solvers table fits the terminal -----------------------------------------------
@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("missing", [False, True], ids=["all installed", "sat missing"])
def test_the_solvers_table_fits_the_terminal(
    columns: int, missing: bool, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))  # what shutil.get_terminal_size reads first
    if missing:  # the install hint widens the 'available' column
        monkeypatch.setattr(solvers.solver_class("sat"), "requires", ("no_such_module_here",))
    status, out, _ = run(capsys, "solvers")
    assert status == 0
    assert max(len(line) for line in out.splitlines()) <= columns
    if missing:
        assert "sat is not installed: pip install 'sudoku-bench[sat]'" in out
    fast = next(line for line in out.splitlines() if line.startswith("fast "))
    assert "2..25" in fast
    assert "2,3" not in out
    status, out, _ = run(capsys, "solvers", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["fast"]["sizes"] == list(range(2, 26))
    assert rows["dlx"]["sizes"] is None


@pytest.mark.parametrize(
    ("sizes", "text"),
    [
        (None, "any"),
        ((9,), "9"),
        ((4, 9, 16), "4, 9, 16"),
        ((4, 5), "4, 5"),
        ((2, 3, 4, 9), "2..4, 9"),
    ],
)
def test_sides_are_written_as_ranges(sizes, text) -> None:
    from harness.commands.solvers_cmd import sides_text

    assert sides_text(sizes) == text


# -- verify prints every finding, as its help says -------------------------------------
PLUGINS = str(PLUGINS)


def test_verify_prints_every_finding(tmp_path, monkeypatch, capsys, faulty) -> None:
    monkeypatch.chdir(PLUGINS)  # --plugin imports from the current directory
    corpus = tmp_path / "same.txt"
    corpus.write_text("1...3..2...3..2.\n" * 60)  # 60 records, so 60 wrong answers
    db = tmp_path / "kept.sqlite"
    status, out, err = run(
        capsys, "verify", "--corpus", str(corpus), "--solver", "faulty[fault=wrong]",
        "--plugin", "faulty_solvers", "--metamorphic", "0", "--executor", "serial",
        "--no-progress", "--db", str(db),
    )  # fmt: skip
    assert status == 1, err
    assert f"verify: 60 findings; stored in {db}" in out
    for line in range(1, 61):
        assert f"same.txt:{line} " in out
    assert "more" not in out
    assert "print every finding" in main_help("verify")


def main_help(command: str) -> str:
    """What ``sudoku-bench COMMAND --help`` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([command, "--help"])
    return out.getvalue()


# -- corpora build shows its progress on a terminal ----------------------------------
def _build_check(stderr_terminal: bool, cwd: Path) -> tuple[int, str, str]:
    """`corpora build --check --only gen4` with stderr on a pseudo-terminal or a pipe."""
    import fcntl
    import pty
    import struct
    import termios

    argv = [sys.executable, "-m", "harness.cli", "corpora", "build", "--check", "--only", "gen4"]
    if not stderr_terminal:
        done = subprocess.run(
            argv, capture_output=True, text=True, check=False, timeout=300, cwd=cwd
        )
        return done.returncode, done.stdout, done.stderr
    main_end, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 wide
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=child_end, text=True, cwd=cwd)
    os.close(child_end)
    chunks = []
    while True:
        try:
            chunk = os.read(main_end, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_end)
    out = process.stdout.read() if process.stdout else ""
    process.wait(timeout=300)
    return process.returncode, out, b"".join(chunks).decode(errors="replace")


def test_corpora_build_draws_a_bar_on_a_terminal_only(tmp_path: Path) -> None:
    status, out, err = _build_check(stderr_terminal=True, cwd=tmp_path)
    assert status == 0, err
    assert "gen4: unchanged" in out
    assert "50/50" in err  # tqdm: count
    assert "puzzle" in err  # and unit
    status, out, err = _build_check(stderr_terminal=False, cwd=tmp_path)
    assert status == 0, err
    assert "gen4: unchanged" in out
    assert "50/50" not in err
    assert "gen4: sudoku-bench generate --size 4" in err  # the part being made, as a log line


# -- one process per run ---------------------------------------------------------------
def _start(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    """``sudoku-bench ARGV`` in its own process group, the faulty plug-in importable."""
    path = os.pathsep.join([PLUGINS, os.environ.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, "-m", "harness.cli", *argv],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _stored(db: Path) -> int:
    import sqlite3

    try:
        with sqlite3.connect(db, timeout=5) as raw:
            return int(raw.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_run_in_progress_cannot_be_resumed_twice(tmp_path: Path) -> None:
    import signal
    import time

    (tmp_path / "set.txt").write_text("1...3..2...3..2.\n" * 48)  # 12 s of work for one job
    first = _start(
        tmp_path, "run", "--corpus", "set.txt", "--solver", "faulty[fault=slow,delay=0.25]",
        "--plugin", "faulty_solvers", "--jobs", "1", "--batch", "1", "--db", "db.sqlite",
        "--no-progress",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while _stored(tmp_path / "db.sqlite") < 1 and first.poll() is None:
            assert time.monotonic() < deadline, "the first run stored nothing"
            time.sleep(0.05)
        second = _start(tmp_path, "run", "--resume", "--db", "db.sqlite", "--trust-stored")
        _, err = second.communicate(timeout=120)
        assert first.poll() is None, "the first run ended too soon for the test"
        assert second.returncode == 2
        assert f"run 1 of db.sqlite is running (pid {first.pid} on " in err
        assert "wait for it to finish, or stop it" in err
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # a crash: the lock must not outlive it
        first.wait()
    assert (tmp_path / "db.sqlite.run-1.lock").exists()  # left behind, but held by nobody
    third = _start(
        tmp_path, "run", "--resume", "--db", "db.sqlite", "--jobs", "2", "--trust-stored"
    )
    out, err = third.communicate(timeout=300)
    assert third.returncode == 0, err
    assert "run 1: 48 results" in out
    assert not (tmp_path / "db.sqlite.run-1.lock").exists()  # released on exit


# -- parsing: no silent guesses ---------------------------------------------------------
ZERO_BASED_16 = "0123456789ABCDEF"


def _sixteen_zero_based() -> tuple[str, str]:
    """PUZZLE_16X16 in 0-9A-F, with its '0's (and without them: ambiguous)."""
    from solvers.grid import Grid
    from solvers.testing import PUZZLE_16X16

    cells = Grid.parse(PUZZLE_16X16).cells
    text = "".join("." if v == 0 else ZERO_BASED_16[v - 1] for v in cells)
    return text, text.replace("0", ".")


def test_a_sixteen_puzzle_two_notations_read_differently_is_refused() -> None:
    from solvers.grid import AmbiguousNotation, Grid

    with_zero, without_zero = _sixteen_zero_based()
    assert Grid.parse(with_zero).symbols == ZERO_BASED_16  # a '0' and '.' blanks: 0-9A-F
    with pytest.raises(AmbiguousNotation, match="symbols="):
        Grid.parse(without_zero)
    read = Grid.parse(without_zero, symbols=ZERO_BASED_16)
    assert read.format() == without_zero
    shifted = Grid.parse(without_zero, symbols="123456789ABCDEFG")
    assert [v + 1 for v in shifted.cells if v] == [v for v in read.cells if v]  # shifted


def test_a_file_settles_an_ambiguous_record_by_its_other_records(tmp_path) -> None:
    from corpora.corpus import read_puzzles
    from solvers.grid import PuzzleFormatError

    with_zero, without_zero = _sixteen_zero_based()
    both = tmp_path / "both.txt"
    both.write_text(f"{with_zero}\n{without_zero}\n")
    second = list(read_puzzles(both))[1]
    assert second.grid.symbols == ZERO_BASED_16
    assert second.grid.format() == without_zero
    alone = tmp_path / "alone.txt"
    alone.write_text(f"{without_zero}\n")
    assert next(read_puzzles(alone)).grid.symbols == "123456789ABCDEFG"  # the project's own
    assert next(read_puzzles(alone, symbols=ZERO_BASED_16)).grid.format() == without_zero
    with pytest.raises(PuzzleFormatError, match="zero_based=True"):  # no default for integers
        list(read_puzzles(_write(tmp_path / "ints.txt", " ".join(["-1", "0"] * 8) + "\n")))


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_solution_field_settles_an_ambiguous_record(tmp_path) -> None:
    from corpora.corpus import read_puzzles
    from solvers import get

    _, without_zero = _sixteen_zero_based()
    from solvers.grid import Grid

    solved = get("dlx").solve(Grid.parse(without_zero, symbols=ZERO_BASED_16)).solution
    assert solved is not None
    path = tmp_path / "solved.txt"
    path.write_text(f"{without_zero} {solved.format()}\n")
    puzzle = next(read_puzzles(path))
    assert puzzle.grid.symbols == ZERO_BASED_16
    assert puzzle.solution == solved


def _solved(box_rows: int, box_cols: int) -> tuple[int, ...]:
    n = box_rows * box_cols
    return tuple(
        ((r % box_rows) * box_cols + r // box_rows + c) % n + 1 for r in range(n) for c in range(n)
    )


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3)], ids=str)
def test_a_picture_keeps_the_box_shape_its_separators_draw(box: tuple[int, int]) -> None:
    from solvers import check
    from solvers.grid import Grid

    solution = Grid(*box, _solved(*box))
    assert not check(solution.replace((0,) * len(solution.cells)), solution)  # a real solution
    puzzle = solution.replace([v if i % 3 else 0 for i, v in enumerate(solution.cells)])
    read = Grid.parse(puzzle.format("pretty"))
    assert (read.box_rows, read.box_cols) == box
    assert read == puzzle
    n = box[0] * box[1]
    rows = [puzzle.cells[r * n : (r + 1) * n] for r in range(n)]
    numbers = "\n".join(
        " | ".join(" ".join(map(str, row[c : c + box[1]])) for c in range(0, n, box[1]))
        for row in rows
    )  # integers with '|' only: the stacks give the shape
    assert (Grid.parse(numbers).box_rows, Grid.parse(numbers).box_cols) == box


def test_integers_for_36x36_may_all_be_one_digit(tmp_path) -> None:
    from corpora.corpus import read_puzzles
    from solvers.grid import Grid

    cells = [v if v <= 9 else 0 for v in _solved(6, 6)]
    text = "\n".join(" ".join(map(str, cells[r * 36 : (r + 1) * 36])) for r in range(36))
    grid = Grid.parse(text)
    assert (grid.size, grid.cells) == (36, tuple(cells))
    path = tmp_path / "big.txt"
    path.write_text(text + "\n")
    assert next(read_puzzles(path)).grid == grid


def test_zero_based_integers_need_the_option() -> None:
    from solvers.grid import AmbiguousNotation, Grid

    one_based = Grid(2, 2, (1, 0, 0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 0, 0, 0, 1))
    zero_based = " ".join("-1" if v == 0 else str(v - 1) for v in one_based.cells)
    with pytest.raises(AmbiguousNotation, match="zero_based=True"):
        Grid.parse(zero_based)  # once, '0' here silently became a blank
    assert Grid.parse(zero_based, zero_based=True) == one_based
    mixed = " ".join(["4", "0", "-1", "0"] + ["0"] * 12)  # a 4 is there: 1-based, 0 and -1 blank
    assert Grid.parse(mixed).cells == (4,) + (0,) * 15
    with pytest.raises(ValueError, match="illegal value '4'"):
        Grid.parse(mixed, zero_based=True)


def test_a_twentyfive_puzzle_with_letters_a_to_p_alone_is_refused() -> None:
    from solvers.grid import AmbiguousNotation, Grid

    text = "ABCDEFGHIJKLMNOP" + "." * (625 - 16)  # 1-9A-P without digits, or A-Y
    with pytest.raises(AmbiguousNotation, match="symbols="):
        Grid.parse(text)
    letters = Grid.parse(text, symbols="ABCDEFGHIJKLMNOPQRSTUVWXY")
    assert letters.cells[:16] == tuple(range(1, 17))
    assert Grid.parse(text.replace("P", "Q")).symbols == "ABCDEFGHIJKLMNOPQRSTUVWXY"
    assert Grid.parse("1" + text[1:]).symbols == "123456789ABCDEFGHIJKLMNOP"
