"""The `dimacs` adapter on real SAT binaries, and on small scripts that pose as bad ones.

Every installed binary (cadical, minisat, picosat, cryptominisat5) passes the
conformance suite (MiniSat and CryptoMiniSat have no decision limit, so they
overshoot a budget: checked as such) and counts like dlx; a missing binary
skips its tests with the command that installs it.  The answer reader is
pinned word by word, and scripts that print garbage, crash, contradict
themselves or hang give ERROR or TIMEOUT, never a traceback or a stray process.
"""

from __future__ import annotations

import os
import shutil
import stat
import time

import pytest

import solvers
from solvers import Grid, Status
from solvers.external.once import run
from solvers.registry import SolverUnavailable
from solvers.sat import cnf
from solvers.sat import dimacs as dm
from solvers.testing import (
    PUZZLE_4X4,
    PUZZLE_4X4_UNSOLVABLE,
    PUZZLE_9X9_HARDER,
    PUZZLE_9X9_TWO_SOLUTIONS,
    check_solver,
)
from solvers.verify import check

BINARIES = ["cadical", "minisat", "picosat", "cryptominisat5"]


def _installed(binary: str):
    return pytest.param(
        binary,
        marks=pytest.mark.skipif(
            shutil.which(binary) is None, reason=f"not installed: {dm.install_hint(binary)}"
        ),
    )


INSTALLED = [_installed(b) for b in BINARIES]


# -- the answer reader, pinned ---------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "meaning"),
    [
        ("SATISFIABLE", dm.SAT),
        ("UNSATISFIABLE", dm.UNSAT),
        ("UNKNOWN", dm.STOPPED),
        ("INDETERMINATE", dm.STOPPED),
        ("SAT", dm.SAT),
        ("UNSAT", dm.UNSAT),
    ],
)
def test_every_answer_word_is_mapped(word, meaning):
    assert dm.WORDS[word] == meaning
    model = "v 1 -2 0\n" if meaning == dm.SAT else ""
    answer = dm.read_answer(f"s {word}\n{model}", dm.EXIT_STATUS[meaning])
    assert answer.meaning == meaning


def test_the_word_table_is_exhaustive():
    assert set(dm.WORDS.values()) == set(dm.EXIT_STATUS) == {dm.SAT, dm.UNSAT, dm.STOPPED}


@pytest.mark.parametrize(
    ("stdout", "code", "problem"),
    [
        ("s MAYBE\n", 0, "unknown answer 'MAYBE'"),
        ("hello\n", 0, "no answer line"),
        ("", 139, "no answer line"),
        ("s SATISFIABLE\nv 1 0\n", 20, "with exit status 20"),
        ("s UNSATISFIABLE\n", 10, "with exit status 10"),
        ("s SATISFIABLE\ns UNSATISFIABLE\n", 10, "contradictory"),
        ("s SATISFIABLE\nv 1 2 3\n", 10, "does not end with 0"),
        ("s SATISFIABLE\nv 1 x 0\n", 10, "not an integer"),
        ("s SATISFIABLE\nv 1 0\n", -11, "killed by signal 11"),
    ],
)
def test_output_outside_the_convention_is_refused(stdout, code, problem):
    with pytest.raises(dm.BadOutput, match=problem):
        dm.read_answer(stdout, code)


def test_a_program_s_own_exit_status_for_a_stopped_search():
    # CryptoMiniSat stopped by --maxtime: "s INDETERMINATE", exit status 15
    assert dm.PROGRAMS["cryptominisat5"].stopped_status == 15
    assert dm.read_answer("s INDETERMINATE\n", 15, None, 15).meaning == dm.STOPPED
    with pytest.raises(dm.BadOutput, match="with exit status 15"):
        dm.read_answer("s INDETERMINATE\n", 15)  # from a program that does not say so
    with pytest.raises(dm.BadOutput, match="with exit status 15"):
        dm.read_answer("s SATISFIABLE\nv 1 0\n", 15, None, 15)


@pytest.mark.parametrize("binary", INSTALLED)
def test_each_program_s_own_time_limit_gives_an_answer_read(binary, tmp_path):
    """A program that its own time flag stops (here at once, where the flag takes fractions
    of a second) answers in a way the adapter reads, not as an error."""
    prog = dm.program(binary)
    if prog.time_flag is None:
        pytest.skip(f"{binary} has no time flag")
    path = tmp_path / "puzzle.cnf"
    path.write_text(cnf.dimacs(Grid.empty(4), "extended", [], "ladder"), encoding="ascii")
    argv = [shutil.which(binary), *prog.args, *prog.time_flag(0.0), str(path)]
    result_path = tmp_path / "result.txt"
    if prog.result_file:
        argv.append(str(result_path))
    ran = run(argv, timeout=None)
    result_text = result_path.read_text() if prog.result_file else None
    answer = dm.read_answer(ran.stdout, ran.returncode, result_text, prog.stopped_status)
    assert answer.meaning in (dm.SAT, dm.STOPPED)


def test_minisat_result_file_and_cadical_unknown_comment():
    assert dm.read_answer("SATISFIABLE\n", 10, "SAT\n1 -2 3 0\n").true_literals == [1, 3]
    assert dm.read_answer("", 20, "UNSAT\n").meaning == dm.UNSAT
    assert dm.read_answer("", 0, "INDETERMINATE\n").meaning == dm.STOPPED
    assert dm.read_answer("c --- [ result ]\nc UNKNOWN\n", 0).meaning == dm.STOPPED


def test_counters_from_each_program_style():
    text = "conflicts             : 7    (1 /sec)\nc decisions:   12   3.0 per second\n"
    text += "c 99 propagations\nc restarts                 : 2\n"
    assert dm.counters(text) == {"conflicts": 7, "decisions": 12, "propagations": 99, "restarts": 2}


def test_decode_refuses_a_model_that_is_not_a_grid():
    puzzle = Grid.parse(PUZZLE_4X4)
    with pytest.raises(ValueError, match="no digit"):
        cnf.decode(puzzle, [])
    with pytest.raises(ValueError, match="two digits"):
        cnf.decode(puzzle, [cnf.literal(4, 1, 2), cnf.literal(4, 1, 3)])


# -- real binaries ----------------------------------------------------------------------


@pytest.mark.parametrize("binary", INSTALLED)
def test_conformance_on_every_installed_binary(binary):
    failures = check_solver(f"dimacs[binary={binary}]")
    if dm.PROGRAMS[binary].decision_flag is None:
        # no decision limit: the budget is checked between runs, so it overshoots
        assert set(failures) <= {"check_budget"}, failures
        if failures:
            assert "nodes spent on a budget of 50" in failures["check_budget"]
    else:
        assert failures == {}


@pytest.mark.parametrize("binary", INSTALLED)
@pytest.mark.parametrize("encoding", ["minimal", "extended"])
@pytest.mark.parametrize(
    ("text", "status", "count"),
    [
        (PUZZLE_4X4_UNSOLVABLE, Status.UNSOLVABLE, 0),
        (PUZZLE_9X9_HARDER, Status.SOLVED, 1),
        (PUZZLE_9X9_TWO_SOLUTIONS, Status.MULTIPLE, 2),
    ],
)
def test_counts_like_dlx(binary, encoding, text, status, count):
    puzzle = Grid.parse(text)
    result = solvers.get("dimacs", binary=binary, encoding=encoding).solve(puzzle, limit=3)
    reference = solvers.get("dlx").solve(puzzle, limit=3)
    assert (result.status, len(result.solutions)) == (status, count)
    assert set(result.solutions) == set(reference.solutions)
    assert result.exhausted
    assert result.stats["calls"] == count + 1  # one run per solution, and one to prove no more
    assert result.stats["version"] not in ("unknown", "not installed")


@pytest.mark.parametrize("binary", INSTALLED)
def test_a_tiny_time_limit_stops_a_big_job(binary):
    result = solvers.get("dimacs", binary=binary).solve(Grid.empty(4), limit=1000, time_limit=0.05)
    assert result.stats.get("stopped", result.status.value) == "TIMEOUT"


@pytest.mark.parametrize("binary", ["cadical", "picosat"])
def test_budget_is_passed_as_a_decision_limit(binary):
    if shutil.which(binary) is None:
        pytest.skip(f"not installed: {dm.install_hint(binary)}")
    result = solvers.get("dimacs", binary=binary).solve(Grid.empty(3), limit=100, budget=5)
    assert result.stats.get("stopped", result.status.value) == "BUDGET"
    assert result.stats["decisions"] <= 5


def test_a_missing_binary_names_the_install_command():
    with pytest.raises(SolverUnavailable, match="not on PATH"):
        solvers.get("dimacs[binary=no-such-sat-solver]")
    assert "apt-get install minisat" in dm.install_hint("/opt/x/minisat")
    assert "apt-get install cryptominisat" in dm.install_hint("cryptominisat5")


# -- scripts posing as SAT solvers ------------------------------------------------------


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _full_model(puzzle: Grid) -> str:
    """The `v` lines of a real solution of `puzzle` (from dlx)."""
    solution = solvers.get("dlx").solve(puzzle).solution
    n = puzzle.size
    true = {cnf.literal(n, c, d) for c, d in enumerate(solution.cells)}
    return " ".join(str(v if v in true else -v) for v in range(1, n**3 + 1)) + " 0"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("echo 'Segmentation fault' >&2; kill -SEGV $$\n", "killed by signal 11"),
        ("echo 'I am not a SAT solver'\nexit 0\n", "I am not a SAT solver"),
        ("echo 's SATISFIABLE'\necho 'v 1 2 3'\nexit 10\n", "does not end with 0"),
        ("echo 's SATISFIABLE'\necho 'v 0'\nexit 10\n", "no digit"),
        ("echo 's UNSATISFIABLE'\nexit 10\n", "with exit status 10"),
        ("echo 's PERHAPS'\nexit 0\n", "unknown answer 'PERHAPS'"),
        ("echo 's UNKNOWN'\nexit 0\n", "gave up with no limit set"),
        ("echo 'out of memory' >&2; exit 1\n", "out of memory"),
    ],
)
def test_bad_programs_give_error_with_their_words(tmp_path, body, words):
    fake = _script(tmp_path, "fakesat", body)
    result = solvers.get("dimacs", binary=fake).solve(Grid.parse(PUZZLE_4X4))
    assert result.status is Status.ERROR
    assert words in result.message
    assert "fakesat" in result.message


def test_a_wrong_model_is_returned_for_the_verifier_to_catch(tmp_path):
    puzzle = Grid.parse(PUZZLE_4X4)
    other = Grid.parse("4...3..2...3..2.")  # the same cells with another first digit
    fake = _script(
        tmp_path, "liar", f"echo 's SATISFIABLE'\necho 'v {_full_model(other)}'\nexit 10\n"
    )
    result = solvers.get("dimacs", binary=fake).solve(puzzle)
    assert result.status is Status.SOLVED
    assert check(puzzle, result.solution)  # the independent verifier finds the fault


def test_a_program_answering_in_competition_format_is_enough(tmp_path):
    puzzle = Grid.parse(PUZZLE_4X4)
    fake = _script(
        tmp_path, "oracle", f"echo 's SATISFIABLE'\necho 'v {_full_model(puzzle)}'\nexit 10\n"
    )
    result = solvers.get("dimacs", binary=fake).solve(puzzle)
    assert result.status is Status.SOLVED
    assert not check(puzzle, result.solution)


def test_a_hanging_program_and_its_children_are_killed(tmp_path):
    pid_file = tmp_path / "child.pid"
    fake = _script(tmp_path, "hang", f"sleep 300 &\necho $! > {pid_file}\nwait\n")
    start = time.perf_counter()
    result = solvers.get("dimacs", binary=fake).solve(Grid.parse(PUZZLE_4X4), time_limit=0.5)
    assert time.perf_counter() - start < 30  # not the 300 s of the child (no timing claim)
    assert result.status is Status.TIMEOUT
    child = int(pid_file.read_text())
    for _ in range(100):  # the kill is immediate; the zombie may take a moment to be reaped
        try:
            os.kill(child, 0)
            with open(f"/proc/{child}/stat") as f:
                if f.read().split()[2] == "Z":  # killed, not yet reaped
                    break
        except (ProcessLookupError, FileNotFoundError):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the child {child} of the hanging program is still running")


def test_without_the_binary_it_is_listed_unavailable_with_the_install_command(
    monkeypatch, tmp_path
):
    from harness.commands.solvers_cmd import describe

    monkeypatch.setenv("PATH", str(tmp_path))  # an empty PATH: no SAT binary
    assert not dm.Dimacs.supported()
    row = describe("dimacs")
    assert not row["available"]
    assert "apt-get install cadical" in row["install"]
    with pytest.raises(SolverUnavailable, match="apt-get install cadical"):
        solvers.get("dimacs")
