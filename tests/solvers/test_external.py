"""External programs as solvers: the protocol, the process handling, definitions, and real runs.

The program is tests/external/solver.c, built with the system compiler (the
`c_solver` fixture skips, saying why, where there is none); its ``--fault``
option makes it answer wrongly, hang, crash, print garbage or eat memory on
chosen puzzles.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import solvers
from solvers import Grid, Status
from solvers.base import quote
from solvers.external import DefinitionError, load_definitions
from solvers.external.process import Program
from solvers.external.protocol import answer, request
from solvers.registry import parse_spec, unregister
from solvers.testing import PUZZLE_9X9_EASY, PUZZLE_9X9_HARDER, PUZZLE_9X9_TWO_SOLUTIONS

P4 = Grid.parse("1...3..2...3..2.")
S4 = "1234341221434321"
S4_OTHER = "1243341221344321"  # a different (wrong) grid, for parsing only


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def running(path: Path) -> list[int]:
    """Processes whose command line names `path`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(path).encode() in cmdline and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def wait_gone(pid: int, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not alive(pid)


# -- the protocol, line by line -------------------------------------------------
def test_request_lines() -> None:
    assert request(P4, 2, None, None) == b"1...3..2...3..2. limit=2\n"
    assert request(P4, 1, 50, 0.25) == b"1...3..2...3..2. limit=1 budget=50 time=0.25\n"
    assert request(P4, 2, None, None, "numbers") == (b"1 0 0 0 3 0 0 2 0 0 0 3 0 0 2 0 limit=2\n")
    odd = Grid(3, 2, (0,) * 36)  # 3x2 boxes: not the usual 2x3
    assert request(odd, 2, None, None).endswith(b" limit=2 box=3x2\n")
    big = Grid.empty(6)  # 36x36: no single-character alphabet
    line = request(big, 1, None, None)
    assert line.split()[:2] == [b"0", b"0"]
    assert len(line.split()) == 36 * 36 + 1


@pytest.mark.parametrize(
    ("line", "status", "exhausted", "count"),
    [
        (S4, Status.SOLVED, False, 1),
        (f"SOLVED {S4}", Status.SOLVED, False, 1),
        (f"SOLVED {S4} exhausted", Status.SOLVED, True, 1),
        (f"{S4} exhausted nodes=3", Status.SOLVED, True, 1),
        (f"MULTIPLE {S4} {S4_OTHER}", Status.MULTIPLE, False, 2),
        (f"MULTIPLE {S4} {S4_OTHER} exhausted", Status.MULTIPLE, True, 2),
        ("UNSOLVABLE", Status.UNSOLVABLE, True, 0),
        ("INVALID", Status.INVALID, True, 0),
        ("STUCK nodes=7", Status.STUCK, False, 0),
        ("TIMEOUT", Status.TIMEOUT, False, 0),
        ("BUDGET nodes=51", Status.BUDGET, False, 0),
        ("MEMOUT", Status.MEMOUT, False, 0),
    ],
)
def test_every_answer_word_is_mapped(
    line: str, status: Status, exhausted: bool, count: int
) -> None:
    result = answer(line, P4, 2)
    assert (result.status, result.exhausted, len(result.solutions)) == (status, exhausted, count)
    if count:
        assert result.solutions[0].format() == S4


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "an empty line"),
        ("the answer is 42", "a grid of 3 characters, not 16"),
        ("DONE", "unknown answer word 'DONE'"),
        ("SOLVED", "SOLVED without a grid"),
        (f"SOLVED {S4} {S4_OTHER}", "SOLVED with 2 grids"),
        (f"MULTIPLE {S4}", "MULTIPLE with one grid"),
        (f"MULTIPLE {S4} {S4}", "the same solution twice"),
        ("1234", "a grid of 4 characters, not 16"),
        ("12343412214343Z1", "cannot be read"),
        ("123434122143432\u00e9", "no digit"),
        ("123434122143432\u20ac", "no digit"),
        (f"SOLVED {S4} nodes", "a grid of 5 characters"),
        (f"{S4} nodes=1 speed", "'speed' is neither a grid nor a key=value field"),
        (f"SOLVED {S4} time_us=soon", "not a number of microseconds"),
        (f"SOLVED {S4} stopped=BORED", "expected TIMEOUT or BUDGET"),
    ],
)
def test_a_broken_answer_is_an_error_that_quotes_it(line: str, reason: str) -> None:
    result = answer(line, P4, 2)
    assert result.status is Status.ERROR
    assert reason in result.message
    assert repr(line) in result.message


def test_fields_become_statistics() -> None:
    result = answer(f"SOLVED {S4} stopped=timeout time_us=12.5 nodes=40 guesses=3 note=slow", P4, 2)
    assert dict(result.stats) == {
        "stopped": "TIMEOUT",
        "solver_time": 12.5e-6,
        "search": 12.5e-6,  # the program's own time is its search phase
        "nodes": 40,
        "guesses": 3,
        "note": "slow",
    }
    assert answer("ERROR out of cheese", P4, 2).message == "out of cheese"


def test_answers_beyond_the_limit_are_cut_and_not_exhausted() -> None:
    result = answer(f"MULTIPLE {S4} {S4_OTHER} exhausted", P4, 1)
    assert (result.status, len(result.solutions), result.exhausted) == (Status.SOLVED, 1, False)


def test_integer_form_answers() -> None:
    numbers = " ".join(S4)
    assert answer(f"SOLVED {numbers} exhausted", P4, 2, "numbers").solutions[0].format() == S4
    two = f"MULTIPLE {numbers} {' '.join(S4_OTHER)} time_us=1"
    assert len(answer(two, P4, 2, "numbers").solutions) == 2
    assert answer(f"SOLVED {numbers[:-2]}", P4, 2, "numbers").status is Status.ERROR


def test_lowercase_letters_read_as_digits() -> None:
    grid = Grid.empty(4)
    text = ("123456789ABCDEFG" * 16).lower()
    assert answer(text, grid, 1).solutions[0].cells[9] == 10


# -- spec values in quotes ------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("external[cmd='./my solver --a,b]',protocol=line]", {"cmd": "./my solver --a,b]"}),
        ('x[a="it\'s, ok"]', {"a": "it's, ok"}),
        ("x[a=it's]", {"a": "it's"}),
        ("x[ a = '1,2' , b=2 ]", {"a": "1,2", "b": "2"}),
    ],
)
def test_quoted_spec_values(spec: str, options: dict[str, str]) -> None:
    assert options.items() <= parse_spec(spec)[1].items()


@pytest.mark.parametrize("spec", ["x[a='b]", "x[a='b'c]"])
def test_bad_quotes_are_refused(spec: str) -> None:
    with pytest.raises(solvers.UnknownOption, match="quote"):
        parse_spec(spec)


@pytest.mark.parametrize("value", ["plain", "./s --count 2", "a,b", "x]", "it's", " pad"])
def test_quote_round_trips(value: str) -> None:
    assert parse_spec(f"x[k={quote(value)}]")[1] == {"k": value}


def test_inline_spec_round_trips(c_solver: Path) -> None:
    solver = solvers.get(f"external[cmd='{c_solver} --on 1,2',protocol=per-puzzle]")
    assert solver.spec == f"external[cmd='{c_solver} --on 1,2',protocol=per-puzzle]"
    assert solvers.get(solver.spec).options == solver.options


def test_external_without_a_command_says_how() -> None:
    with pytest.raises(solvers.UnknownOption, match=r"external\[cmd="):
        solvers.get("external")
    with pytest.raises(solvers.UnknownOption, match="per-puzzle"):
        solvers.get("external[cmd='prog {file}']")


# -- a real program through solvers.get -----------------------------------------
def test_line_protocol_keeps_one_healthy_process(c_solver: Path) -> None:
    solver = solvers.get(f"external[cmd={c_solver}]")
    try:
        first = solver.solve(Grid.parse(PUZZLE_9X9_EASY), limit=2, time_limit=5)
        pid = solver.pid
        for text in (PUZZLE_9X9_HARDER, PUZZLE_9X9_TWO_SOLUTIONS, PUZZLE_9X9_EASY):
            solver.solve(Grid.parse(text), limit=2, time_limit=5)
        assert solver.pid == pid, "a healthy process was restarted"
        assert first.unique
        assert solvers.is_solution(Grid.parse(PUZZLE_9X9_EASY), first.solution)
        assert first.stats["solver_time"] > 0
        assert first.stats["nodes"] >= 1
    finally:
        solver.close()
    assert wait_gone(pid)


def test_a_slow_program_is_not_spun_for() -> None:
    """`ask` polls without sleeping only while answers come within the spin window:
    a program that takes 20 ms per answer gets a blocking wait (no CPU taken from it)."""
    slow = Program(["sh", "-c", 'while read line; do sleep 0.02; echo "$line"; done'])
    never = Program(["cat"], spin=0.0)
    try:
        assert slow.spinning
        for program in (slow, never):
            for word in ("one", "two"):
                assert program.ask(f"{word}\n".encode(), time.perf_counter() + 10) == word
        assert not slow.spinning
        assert not never.spinning
    finally:
        slow.kill()
        never.kill()


@pytest.mark.parametrize("form", ["auto", "numbers"])
@pytest.mark.parametrize("command", ["{c} --once {{file}}", "{c} --once"])
def test_per_puzzle_protocol(c_solver: Path, command: str, form: str) -> None:
    cmd = command.format(c=c_solver)
    solver = solvers.get(f"external[cmd='{cmd}',protocol=per-puzzle,format={form}]")
    result = solver.solve(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), limit=2, time_limit=5)
    assert result.status is Status.MULTIPLE
    assert len(result.solutions) == 2
    assert all(
        solvers.is_solution(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), s) for s in result.solutions
    )


def fault(c_solver: Path, kind: str, on: str, protocol: str = "line") -> solvers.Solver:
    once = " --once" if protocol == "per-puzzle" else ""
    where = f" --on {on}" if on else ""
    return solvers.get(
        f"external[cmd='{c_solver}{once} --fault {kind}{where}',protocol={protocol}]"
    )


@pytest.mark.parametrize("protocol", ["line", "per-puzzle"])
def test_a_hanging_program_times_out_and_its_group_is_killed(c_solver: Path, protocol: str) -> None:
    solver = fault(c_solver, "hang", PUZZLE_9X9_HARDER[:20], protocol)
    try:
        assert solver.solve(Grid.parse(PUZZLE_9X9_EASY), time_limit=5).status is Status.SOLVED
        before = set(running(c_solver))
        result = solver.solve(Grid.parse(PUZZLE_9X9_HARDER), time_limit=0.3)
        assert result.status is Status.TIMEOUT
        assert "killed" in result.message
        for pid in before:  # the hung process and the child it forked
            assert wait_gone(pid), f"process {pid} survived the timeout"
        after = solver.solve(Grid.parse(PUZZLE_9X9_EASY), time_limit=5)
        assert after.status is Status.SOLVED, after.message
    finally:
        solver.close()


@pytest.mark.parametrize("protocol", ["line", "per-puzzle"])
@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("crash", "killed by SIGABRT; stderr: ...solver: crashing on purpose"),
        ("exit3", "exited with status 3; stderr: ...solver: giving up with status 3"),
        ("garbage", "unreadable answer"),
    ],
)
def test_a_failing_program_is_an_error_and_the_next_puzzle_is_answered(
    c_solver: Path, kind: str, message: str, protocol: str
) -> None:
    solver = fault(c_solver, kind, PUZZLE_9X9_HARDER[:20], protocol)
    try:
        result = solver.solve(Grid.parse(PUZZLE_9X9_HARDER), time_limit=5)
        assert result.status is Status.ERROR
        assert message in result.message
        after = solver.solve(Grid.parse(PUZZLE_9X9_EASY), time_limit=5)
        assert after.status is Status.SOLVED, after.message
    finally:
        solver.close()


def test_a_wrong_grid_is_returned_for_the_verifier(c_solver: Path) -> None:
    puzzle = Grid.parse(PUZZLE_9X9_EASY)
    result = fault(c_solver, "wrong", "").solve(puzzle, time_limit=5)
    assert result.status is Status.SOLVED
    assert not solvers.is_solution(puzzle, result.solution)


def test_a_missing_program_is_an_error() -> None:
    result = solvers.get("external[cmd=./no-such-solver]").solve(P4)
    assert result.status is Status.ERROR
    assert "cannot start './no-such-solver'" in result.message


class Interrupt(BaseException):
    """Stands for the harness's HardTimeout."""


def test_an_interrupted_solve_kills_the_program(c_solver: Path) -> None:
    solver = fault(c_solver, "hang", PUZZLE_9X9_HARDER[:20])
    solver.solve(Grid.parse(PUZZLE_9X9_EASY))
    pid = solver.pid

    def ring(signum: int, frame: object) -> None:
        raise Interrupt

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(Interrupt):
            solver.solve(Grid.parse(PUZZLE_9X9_HARDER))  # no time limit: only the alarm
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert pid is not None
    assert wait_gone(pid)
    assert solver.solve(Grid.parse(PUZZLE_9X9_EASY)).status is Status.SOLVED
    solver.close()


DIE = """
import os, sys
import solvers
import solvers.external.process as process
if {fallback}:
    process._setpriv = lambda: None  # the preexec_fn way, as where setpriv is missing
solver = solvers.get("external[cmd={c}]")
solver.solve(solvers.Grid.parse("{p}"))
print(solver.pid, flush=True)
{end}
"""


@pytest.mark.parametrize("fallback", [False, True])
@pytest.mark.parametrize("end", ["os._exit(0)", "os.kill(os.getpid(), 9)", "sys.exit(0)"])
def test_the_program_dies_with_its_parent(c_solver: Path, end: str, fallback: bool) -> None:
    code = DIE.format(c=c_solver, p=PUZZLE_9X9_EASY, end=end, fallback=fallback)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    pid = int(out.stdout.split()[0])
    assert wait_gone(pid), f"the program {pid} outlived its parent ({end})"


def test_running_out_of_memory_is_an_error_that_says_so(c_solver: Path) -> None:
    code = textwrap.dedent(f"""
        import resource, solvers
        resource.setrlimit(resource.RLIMIT_AS, (256 << 20, resource.RLIM_INFINITY))
        solver = solvers.get("external[cmd='{c_solver} --fault hog']")
        result = solver.solve(solvers.Grid.parse("{PUZZLE_9X9_EASY}"), time_limit=20)
        print(result.status.value, result.message)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.startswith("ERROR"), out.stdout + out.stderr
    assert "address-space limit of 256 MB" in out.stdout


def test_the_version_comes_from_the_program(c_solver: Path) -> None:
    assert solvers.get(f"external[cmd={c_solver}]").program_version() == "test-solver 1.0"
    assert solvers.get("external[cmd=./no-such-solver]").program_version() is None


# -- definitions ----------------------------------------------------------------
def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "solvers.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_definition_registers_a_named_solver(tmp_path: Path, c_solver: Path) -> None:
    shutil.copy(c_solver, tmp_path / "mine")
    path = write(
        tmp_path,
        """
        [[solver]]
        name = "mine"
        command = "./mine"
        complete = true
        sizes = [4, 9]
        family = "search"
        summary = "my solver"
        reports_time = true
        version = "./mine --version"
        """,
    )
    try:
        assert load_definitions(path) == ["mine"]
        assert load_definitions(path) == ["mine"]  # again: harmless
        cls = solvers.solver_class("mine")
        assert (cls.complete, cls.sizes, cls.family, cls.summary) == (
            True,
            (4, 9),
            "search",
            "my solver",
        )
        solver = solvers.get("mine[args='--on 1']")
        assert solver.spec == "mine[args=--on 1]"
        assert solver.setup.argv == (str(tmp_path / "mine"), "--on", "1")
        assert solver.solve(P4, limit=2).unique
        assert solver.program_version() == "test-solver 1.0"
        solver.close()
    finally:
        unregister("mine")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"', "unknown table 'name'"),
        ('[[solver]]\nname = "x"', ":1: missing key 'command'"),
        ('[[solver]]\nname = "x"\ncommand = "a"\nprotocl = "line"', "unknown key 'protocl'"),
        ('[[solver]]\nname = "x"\ncommand = "a"\nprotocol = "pipe"', "expected line or per-puzzle"),
        ('[[solver]]\nname = "x"\ncommand = "a {file}"', "{file} in a command is for protocol"),
        ('[[solver]]\nname = "x"\ncommand = "a"\nsizes = [0]', "sizes = [0]"),
        ('[[solver]]\nname = "x"\ncommand = "a"\ncomplete = "yes"', "expected true or false"),
        ('[[solver]]\nname = "x"\ncommand = "a"\nfamily = "magic"', "family = 'magic'"),
        ('[[solver]]\nname = "dlx"\ncommand = "a"', "'dlx' is a built-in solver's"),
        ('[[solver]]\nname = "a b"\ncommand = "a"', "a name is a letter"),
        ('[[solver]]\nname = "x"\ncommand = "a \'b"', "cannot split the command"),
        (
            '\n\n[[solver]]\nname = "x"\ncommand = "a"\n[[solver]]\nname = "x"\ncommand = "b"',
            "defined twice",
        ),
        ("[[solver]\nname = 1", "not valid TOML"),
        ("", "no [[solver]] table"),
    ],
)
def test_a_bad_definition_names_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as caught:
        load_definitions(path)
    assert str(caught.value).startswith(str(path))
    assert message in str(caught.value)


def test_a_name_defined_by_two_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = write(tmp_path / "a", '[[solver]]\nname = "twice"\ncommand = "./x"')
    second = write(tmp_path / "b", '[[solver]]\nname = "twice"\ncommand = "./x"')
    try:
        load_definitions(first)
        with pytest.raises(DefinitionError, match="taken by the solvers file"):
            load_definitions(second)
    finally:
        unregister("twice")


def test_the_cli_reports_a_bad_definition_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[[solver]]\nname = "x"\ncommad = "a"')
    out = subprocess.run(
        [sys.executable, "-m", "harness.cli", "solvers", "--solvers-file", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "unknown key 'commad'" in out.stderr
    assert "Traceback" not in out.stderr


def test_solvers_lists_the_external_family_and_definitions(c_solvers_file: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.cli",
            "solvers",
            "--json",
            "--solvers-file",
            str(c_solvers_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    rows = {row["name"]: row for row in json.loads(out.stdout)}
    assert rows["external"]["family"] == "external"
    assert rows["csolver"]["complete"]
    assert rows["csolver-file"]["family"] == "external"


# -- a real study -----------------------------------------------------------------
PUZZLES = [
    PUZZLE_9X9_EASY,
    PUZZLE_9X9_HARDER,
    PUZZLE_9X9_TWO_SOLUTIONS,
    "1...3..2...3..2.",
    ".123456789........" + "." * 63,  # no solution
]


def test_a_run_beside_dlx_and_cpsat_with_faults(tmp_path: Path, c_solver: Path) -> None:
    """``sudoku-bench run`` with the C solver, a wrong, a hanging and a crashing copy,
    beside dlx and cpsat; every answer judged, and no process left behind."""
    program = tmp_path / "csolver"
    shutil.copy(c_solver, program)
    path = write(
        tmp_path,
        """
        [[solver]]
        name = "c"
        command = "./csolver"
        complete = true
        reports_time = true

        [[solver]]
        name = "c-once"
        command = "./csolver --once {file}"
        protocol = "per-puzzle"
        complete = true
        """,
    )
    corpus = tmp_path / "set.txt"
    corpus.write_text("\n".join(PUZZLES) + "\n", encoding="utf-8")
    target = PUZZLE_9X9_HARDER[:20]
    faulty = {
        "wrong": f"c[args=--fault wrong --on {PUZZLE_9X9_EASY[:20]}]",
        "hang": f"c[args=--fault hang --on {target}]",
        "crash": f"c[args=--fault crash --on {target}]",
        "garbage": f"c-once[args=--fault garbage --on {target}]",
    }
    specs = ["c", "c-once", "dlx", "cpsat", *faulty.values()]
    db = tmp_path / "run.sqlite"
    args = ["run", "--solvers-file", str(path), "--corpus", str(corpus), "--db", str(db)]
    for spec in specs:
        args += ["--solver", spec]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.cli",
            *args,
            "--timeout",
            "2",
            "--jobs",
            "2",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "SUDOKU_BENCH_ORACLE": "dlx"},  # dlx, in the run, gives the truth
    )
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT solver, puzzle, status, verdict, error FROM results").fetchall()
        versions = json.loads(raw.execute("SELECT versions FROM runs").fetchone()[0])
    table = {
        (solver, puzzle): (status, verdict, error)
        for solver, puzzle, status, verdict, error in rows
    }
    assert len(table) == len(specs) * len(PUZZLES)
    for spec in ("c", "c-once", "dlx"):
        assert all(table[spec, p][1] == "CORRECT" for p in PUZZLES), (spec, table)
    assert table[faulty["wrong"], PUZZLE_9X9_EASY][:2] == ("SOLVED", "WRONG")
    assert table[faulty["hang"], PUZZLE_9X9_HARDER][0] == "TIMEOUT"
    assert "SIGABRT" in table[faulty["crash"], PUZZLE_9X9_HARDER][2]
    assert table[faulty["garbage"], PUZZLE_9X9_HARDER][0] == "ERROR"
    for spec in faulty.values():  # every other puzzle is answered, and right
        others = [p for p in PUZZLES if p not in (PUZZLE_9X9_HARDER, PUZZLE_9X9_EASY)]
        assert all(table[spec, p][1] == "CORRECT" for p in others), (spec, table)
    assert versions["c"] == "test-solver 1.0"
    time.sleep(0.2)
    assert running(program) == [], "a program outlived the run"


def test_a_study_carries_its_solvers_files_to_workers_and_resume(
    tmp_path: Path, c_solvers_file: Path
) -> None:
    from harness.runner import Study, make_study

    corpus = tmp_path / "set.txt"
    corpus.write_text("1...3..2...3..2.\n", encoding="utf-8")
    try:
        study = make_study([str(corpus)], ["csolver"], solvers_files=[str(c_solvers_file)])
        assert study.solvers_files == (str(c_solvers_file.resolve()),)
        assert study.worker_settings().solvers_files == study.solvers_files
        assert Study.from_settings(json.loads(json.dumps(study.settings()))) == study
    finally:
        for name in ("csolver", "csolver-file", "csolver-stdin"):
            unregister(name)


@pytest.mark.parametrize("command", ["solve", "bench"])
def test_solve_and_bench_take_a_solvers_file(
    tmp_path: Path, c_solvers_file: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    puzzles = tmp_path / "set.txt"
    puzzles.write_text(f"{PUZZLE_9X9_EASY}\n", encoding="utf-8")
    try:
        status = main(
            [command, str(puzzles), "--solver", "csolver", "--solvers-file", str(c_solvers_file)]
        )
    finally:
        for name in ("csolver", "csolver-file", "csolver-stdin"):
            unregister(name)
    out = capsys.readouterr().out
    assert status == 0
    assert "csolver" in out
    assert "WRONG" not in out
