"""SAT-competition binaries on the project's CNF: DIMACS out, the model back in.

The puzzle is written as DIMACS (`solvers.sat.cnf`: ``encoding=extended`` or
``minimal``, givens as unit clauses) to a temporary file, and a solver
program reads it: ``binary=cadical`` (the default), ``minisat``,
``cryptominisat5``, ``picosat``, or a path to any program that follows the
SAT competition's output convention: a line ``s SATISFIABLE`` /
``s UNSATISFIABLE`` / ``s UNKNOWN``, the model on ``v`` lines ending in ``0``,
exit status 10 (satisfiable), 20 (unsatisfiable) or 0 (no answer).  MiniSat
writes its answer to a result file instead (``SAT`` and the model,
``UNSAT`` or ``INDETERMINATE``); CaDiCaL announces a stopped search with the
comment ``c UNKNOWN``.  Anything else (a crash, a signal, an unknown word,
a word the exit status contradicts, a model that is not a grid) is
``ERROR`` with the program's own words in the message.

Puzzles with constraints are written with the clauses of
`solvers.sat.variant_cnf` (auxiliary variables numbered after the cells;
``sums=ladder|combinations`` as in `sat`).

Counting: the solution is blocked by a clause and the program runs again,
up to ``limit`` times (``limit=2``: two runs prove uniqueness).

Limits: ``time_limit`` kills the program's process group when it expires
(``TIMEOUT``), and is also passed as the program's own time-limit flag where
it has one.  ``budget`` counts decisions (``nodes``): passed as a decision
limit to CaDiCaL (``-d``) and PicoSAT (``-l``), and checked between runs for
MiniSat and CryptoMiniSat, which have none (so they overshoot).  Statistics
are read from the program's output where it prints them (``conflicts``,
``decisions``, ``propagations``, ``restarts``), summed over the runs;
``stats["version"]`` names the program's version.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status, counted_result, phases
from solvers.external.once import Ran, run
from solvers.grid import Grid
from solvers.registry import SolverUnavailable, register
from solvers.sat import cnf
from solvers.sat.variant_cnf import KINDS as VARIANT_KINDS
from solvers.sat.variant_cnf import SUMS, SUMS_HELP


@dataclass(frozen=True)
class Program:
    """How to drive one SAT binary: its Debian package and the flags it understands."""

    package: str | None  # the Debian package that installs it (None: unknown program)
    time_flag: Callable[[float], list[str]] | None = None
    decision_flag: Callable[[int], list[str]] | None = None
    result_file: bool = False  # MiniSat: the answer goes to a file named after the input
    args: tuple[str, ...] = ()  # always passed (PicoSAT: -v for its statistics)
    version_args: tuple[str, ...] = ("--version",)
    stopped_status: int | None = None  # its own exit status when a limit stopped it, if not
    # the convention's (CryptoMiniSat: 15)


def _seconds(s: float) -> str:
    return str(max(1, math.ceil(s)))


PROGRAMS: Mapping[str, Program] = {
    "cadical": Program(
        "cadical",
        time_flag=lambda s: ["-t", _seconds(s)],
        decision_flag=lambda d: ["-d", str(d)],
    ),
    "minisat": Program(
        "minisat",
        time_flag=lambda s: [f"-cpu-lim={_seconds(s)}"],
        result_file=True,
        version_args=(),  # it has no version flag: the Debian package's is used
    ),
    "cryptominisat5": Program(
        "cryptominisat", time_flag=lambda s: ["--maxtime", f"{s:.3f}"], stopped_status=15
    ),
    "picosat": Program(
        "picosat",
        time_flag=lambda s: ["-L", _seconds(s)],
        decision_flag=lambda d: ["-l", str(d)],
        args=("-v",),
    ),
}
UNKNOWN_PROGRAM = Program(None)
DEFAULT_BINARY = "cadical"

# What each answer word means.  SAT/UNSAT/INDETERMINATE are MiniSat's result-file words.
SAT, UNSAT, STOPPED = "sat", "unsat", "stopped"
WORDS: Mapping[str, str] = {
    "SATISFIABLE": SAT,
    "UNSATISFIABLE": UNSAT,
    "UNKNOWN": STOPPED,
    "INDETERMINATE": STOPPED,
    "SAT": SAT,
    "UNSAT": UNSAT,
}
# The exit status that goes with each meaning (the competition's convention).
EXIT_STATUS: Mapping[str, int] = {SAT: 10, UNSAT: 20, STOPPED: 0}

# Counters printed as "name: N" (MiniSat, CaDiCaL, CryptoMiniSat) or "c N name" (PicoSAT).
_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")
_COLON = re.compile(r"^(?:c\s+)?(conflicts|decisions|propagations|restarts)\s*:\s*(\d+)", re.M)
_PICOSAT = re.compile(r"^c\s+(\d+)\s+(conflicts|decisions|propagations|restarts)\s*$", re.M)
# The program's own time, where it prints one (CaDiCaL, MiniSat, PicoSAT with -v): seconds.
_OWN_TIME = re.compile(
    r"^(?:c total process time since initialization:\s*([\d.]+)\s*seconds"
    r"|CPU time\s*:\s*([\d.]+)\s*s"
    r"|c ([\d.]+) seconds total run time)",
    re.M,
)


class BadOutput(ValueError):
    """The program's answer does not follow the convention (the message says how)."""


@dataclass
class Answer:
    """One run's answer: what it means, the model's true literals, its counters."""

    meaning: str
    true_literals: list[int] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)


def program(binary: str) -> Program:
    """The profile of a binary, by its file name (``/opt/bin/cadical`` is CaDiCaL)."""
    return PROGRAMS.get(os.path.basename(binary), UNKNOWN_PROGRAM)


def install_hint(binary: str) -> str:
    """The command that installs a binary, or what to do with an unknown one."""
    package = program(binary).package
    if package:
        return f"apt-get install {package} (Debian/Ubuntu), or give its path: binary=/path/to/it"
    return f"{binary!r} is not on PATH: give the program's path, binary=/path/to/solver"


def counters(text: str) -> dict[str, int]:
    """The normalised counters a program printed (the last value of each wins)."""
    found = {name: int(value) for name, value in _COLON.findall(text)}
    found.update({name: int(value) for value, name in _PICOSAT.findall(text)})
    return {k: found[k] for k in _COUNTERS if k in found}


def own_time(text: str) -> float | None:
    """The seconds a program says it spent (the last figure it printed), or None."""
    found = [next(g for g in m.groups() if g) for m in _OWN_TIME.finditer(text)]
    return float(found[-1]) if found else None


def read_answer(
    stdout: str, returncode: int, result: str | None = None, stopped_status: int | None = None
) -> Answer:
    """What a run answered: from the ``s``/``v`` lines (or MiniSat's `result` file) and the
    exit status (`stopped_status`: the program's own when a limit stopped it,
    `Program.stopped_status`; None for the convention's).  Raises `BadOutput` for anything
    outside the convention."""
    source = result if result is not None else stdout
    words: list[str] = []
    values: list[str] = []
    if result is not None:  # MiniSat: first line the word, then the model
        lines = result.split("\n", 1)
        if lines[0].strip():
            words.append(lines[0].strip())
        values = lines[1].split() if len(lines) > 1 else []
    else:
        for line in source.splitlines():
            if line.startswith("s "):
                words.append(line[2:].strip())
            elif line.startswith("v "):
                values.extend(line[2:].split())
            elif line.strip() == "c UNKNOWN":  # CaDiCaL's way of saying it stopped
                words.append("UNKNOWN")
    if returncode < 0:
        raise BadOutput(f"killed by signal {-returncode}")
    if not words:
        raise BadOutput(f"no answer line (exit status {returncode})")
    if len(set(words)) > 1:
        raise BadOutput(f"contradictory answers {words}")
    word = words[0]
    if word not in WORDS:
        raise BadOutput(f"unknown answer {word!r} (exit status {returncode})")
    meaning = WORDS[word]
    expected = EXIT_STATUS[meaning]
    if meaning == STOPPED and stopped_status is not None:
        expected = stopped_status
    if returncode != expected:
        raise BadOutput(f"answer {word!r} with exit status {returncode}")
    answer = Answer(meaning, counters=counters(stdout))
    if meaning == SAT:
        try:
            literals = [int(v) for v in values]
        except ValueError:
            raise BadOutput(f"a model value that is not an integer in {values[:20]}") from None
        if not literals or literals[-1] != 0:
            raise BadOutput("the model does not end with 0 (cut short?)")
        answer.true_literals = [v for v in literals if v > 0]
    return answer


@cache
def version(binary: str) -> str:
    """The program's version as it states it (``--version``), or the Debian package's."""
    path = shutil.which(binary)
    if path is None:
        return "not installed"
    prog = program(binary)
    if prog.version_args:
        try:
            ran = run([path, *prog.version_args], timeout=10)
        except OSError:
            ran = None
        if ran is not None and ran.returncode == 0:
            for line in ran.stdout.splitlines():
                text = line.removeprefix("c ").strip()
                if text:
                    return text
    if prog.package and shutil.which("dpkg-query"):
        ran = run(["dpkg-query", "-W", "-f=${Version}", prog.package], timeout=10)
        if ran.returncode == 0 and ran.stdout.strip():
            return f"{prog.package} {ran.stdout.strip()} (Debian package)"
    return "unknown"


@register
class Dimacs(Solver):
    name = "dimacs"
    timed = "process"  # the SAT binary, started for each call, start-up included
    family = "sat"
    complete = True
    summary = (
        "the CNF encodings written as DIMACS and run by a SAT-competition binary "
        "(cadical, minisat, cryptominisat5, picosat, or any path); counts by re-running "
        "with the solution blocked"
    )
    source = "I. Lynce, J. Ouaknine, 'Sudoku as a SAT Problem' (ISAIM 2006); SAT competition I/O"
    install_hint = install_hint(DEFAULT_BINARY)
    in_default_study = False  # an outside program per solve: run when named
    constraint_kinds = VARIANT_KINDS
    program_options = ("binary", "args")
    parameters = {
        "binary": Param(DEFAULT_BINARY, "the program: a name on PATH or a path"),
        "encoding": Param("extended", cnf.ENCODING_HELP, tuple(cnf.ENCODINGS)),
        "sums": Param("ladder", f"puzzles with constraints: {SUMS_HELP}", tuple(SUMS)),
        "args": Param("", "extra command-line arguments, separated by spaces"),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        binary = self.options["binary"]
        path = shutil.which(binary)
        if path is None:
            raise SolverUnavailable(
                f"solver 'dimacs' needs the SAT program {binary!r}: {install_hint(binary)}"
            )
        self.path = path
        self.program = program(binary)
        self.version = version(binary)  # asked once here, outside any timed solve

    @classmethod
    def supported(cls) -> bool:
        """True when the default binary is on PATH (others are checked when chosen)."""
        return shutil.which(DEFAULT_BINARY) is not None

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        free = sum(1 for v in puzzle.cells if not v)
        solutions: list[Grid] = []
        blocked: list[list[int]] = []
        spent = dict.fromkeys(_COUNTERS, 0)
        searched: float | None = None  # the binary's own seconds, summed over its runs
        exhausted = False
        stopped: Status | None = None
        calls = 0
        with tempfile.TemporaryDirectory(prefix="sudoku-dimacs-") as tmp:
            while True:
                remaining = limits.remaining()
                decisions_left = limits.budget - spent["decisions"]
                if remaining == 0:
                    stopped = Status.TIMEOUT
                    break
                if decisions_left <= 0:
                    stopped = Status.BUDGET
                    break
                calls += 1
                ran, result_text = self._run(tmp, puzzle, blocked, remaining, decisions_left)
                if ran.timed_out:
                    stopped = Status.TIMEOUT
                    break
                own = own_time(ran.stdout)
                if own is not None:
                    searched = (searched or 0.0) + own
                try:
                    answer = read_answer(
                        ran.stdout, ran.returncode, result_text, self.program.stopped_status
                    )
                    for key, value in answer.counters.items():
                        spent[key] += value
                    if answer.meaning == SAT:
                        solution = cnf.decode(puzzle, answer.true_literals)
                except (BadOutput, ValueError) as exc:
                    return self._error(str(exc), ran, spent, calls, len(solutions))
                if answer.meaning == UNSAT:
                    exhausted = True
                    break
                if answer.meaning == STOPPED:
                    stopped = self._why_stopped(limits, spent)
                    if stopped is None:
                        return self._error("it gave up with no limit set", ran, spent, calls, 0)
                    break
                solutions.append(solution)
                if len(solutions) >= limit:
                    break
                if not free:  # a full grid is its own only solution
                    exhausted = True
                    break
                if spent["decisions"] >= limits.budget:
                    stopped = Status.BUDGET
                    break
                blocked.append(cnf.blocking(puzzle, solution))
        return counted_result(solutions, exhausted, self._stats(spent, calls, searched), stopped)

    def _run(
        self,
        tmp: str,
        puzzle: Grid,
        blocked: Sequence[list[int]],
        remaining: float | None,
        decisions_left: float,
    ) -> tuple[Ran, str | None]:
        """One run of the program on the puzzle with `blocked` solutions excluded."""
        cnf_path = os.path.join(tmp, "puzzle.cnf")
        with open(cnf_path, "w", encoding="ascii") as out:
            out.write(cnf.dimacs(puzzle, self.options["encoding"], blocked, self.options["sums"]))
        prog = self.program
        argv = [self.path, *prog.args, *self.options["args"].split()]
        if remaining is not None and prog.time_flag:
            argv += prog.time_flag(remaining)
        if decisions_left != float("inf") and prog.decision_flag:
            argv += prog.decision_flag(int(decisions_left))
        argv.append(cnf_path)
        result_path = os.path.join(tmp, "result.txt")
        if prog.result_file:
            argv.append(result_path)
            if os.path.exists(result_path):
                os.remove(result_path)
        ran = run(argv, timeout=remaining)
        result_text = None
        if prog.result_file and not ran.timed_out:
            try:
                with open(result_path, encoding="ascii", errors="replace") as f:
                    result_text = f.read()
            except FileNotFoundError:
                result_text = ""
        return ran, result_text

    def _why_stopped(self, limits: Limits, spent: Mapping[str, int]) -> Status | None:
        """Which limit made the program give up (None: none was set)."""
        decision_limit = limits.budget != float("inf") and self.program.decision_flag
        if decision_limit and spent["decisions"] >= limits.budget:
            return Status.BUDGET
        if limits.remaining() is not None:
            return Status.TIMEOUT
        return Status.BUDGET if decision_limit else None

    def _stats(
        self, spent: Mapping[str, int], calls: int, searched: float | None = None
    ) -> dict[str, Any]:
        return {
            "nodes": spent["decisions"],
            "backtracks": spent["conflicts"],
            **spent,
            **phases(search=searched, calls=calls),
            "binary": self.path,
            "version": self.version,
        }

    def _error(
        self, problem: str, ran: Ran, spent: Mapping[str, int], calls: int, found: int
    ) -> SolveResult:
        """ERROR, quoting the program: its exit status and the end of its output."""
        tail = (ran.stderr.strip() or ran.stdout.strip())[-300:]
        message = f"{os.path.basename(self.path)}: {problem}"
        if found:
            message += f" (after {found} solution(s))"
        if tail:
            message += f"; it said: {tail}"
        return SolveResult(Status.ERROR, stats=self._stats(spent, calls), message=message)
