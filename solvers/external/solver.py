"""`ExternalSolver`: a `Solver` whose work is done by another program.

The instance owns its program: with the line protocol one process, started
at the first solve and kept for every later one (the harness keeps one
instance per solver per worker), killed and restarted only after it failed
(no answer in time, a crash, a broken answer) or when a solve is interrupted
(the harness's own guard raises inside `solve`: the process's state is then
unknown).  With ``protocol=per-puzzle`` every solve runs a fresh process.
Failures are results: ``TIMEOUT`` or ``ERROR`` with the reason.

`External` is the inline form, ``external[cmd='./mysolver --count 2']``;
`solvers.external.definitions` makes a named class per TOML definition.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import tempfile
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from solvers.base import Limits, Param, Solver, SolveResult, Staged, Status, UnknownOption
from solvers.external.process import (
    Program,
    ProgramFailed,
    ProgramTimeout,
    run_once,
    version_of,
)
from solvers.external.protocol import FORMATS, answer, request
from solvers.grid import Grid
from solvers.registry import register

PROTOCOLS = ("line", "per-puzzle")
FILE = "{file}"  # in a per-puzzle command: the path of a file holding the request line


@dataclass(frozen=True)
class Setup:
    """How to run a program: its argument vector, folder, protocol and puzzle form."""

    argv: tuple[str, ...]
    cwd: str | None = None
    protocol: str = "line"
    form: str = "auto"
    version_argv: tuple[str, ...] | None = None  # None: the command followed by --version

    def __post_init__(self) -> None:
        if not self.argv:
            raise UnknownOption("an external solver needs a command")
        if self.protocol not in PROTOCOLS:
            raise UnknownOption(
                f"protocol {self.protocol!r}: expected one of {', '.join(PROTOCOLS)}"
            )
        if self.form not in FORMATS:
            raise UnknownOption(f"format {self.form!r}: expected one of {', '.join(FORMATS)}")
        if self.protocol == "line" and FILE in self.argv:
            raise UnknownOption(f"{FILE} in a command is for protocol=per-puzzle")


def split_command(command: str) -> tuple[str, ...]:
    """A command line split as a POSIX shell would (no shell runs it)."""
    try:
        return tuple(shlex.split(command))
    except ValueError as exc:
        raise UnknownOption(f"cannot split the command {command!r}: {exc}") from None


def _slack(time_limit: float) -> float:
    """How long past its time limit a program's own TIMEOUT answer is awaited."""
    return min(0.1, time_limit / 10)


class ExternalSolver(Solver):
    """A program as a solver; subclasses say how to run it in `setup`."""

    family = "external"
    complete = False
    summary = "an external program"
    source = "the program's own"
    reports_time: ClassVar[bool] = False  # the program reports its solve time (time_us)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.setup = self.make_setup()
        self._program: Program | None = None
        self.timed = "exchange" if self.setup.protocol == "line" else "process"

    def make_setup(self) -> Setup:
        """How this instance runs its program (from its options and definition)."""
        raise NotImplementedError

    def missing_program(self) -> str:
        """Why the program cannot be started ("" when it can): checked before a run, so a
        missing program is one clear error rather than an ``ERROR`` per puzzle."""
        program = self.setup.argv[0]
        if "/" in program:
            path = os.path.join(self.setup.cwd or os.getcwd(), program)
            if not os.path.isfile(path):
                return f"no program {program!r} (no such file)"
            if not os.access(path, os.X_OK):
                return f"the program {program!r} is not executable (chmod +x {program})"
            return ""
        if shutil.which(program) is None:
            return f"no program {program!r} on PATH"
        return ""

    def program_version(self) -> str | None:
        """The program's version line, for the run's environment record (None if unknown)."""
        argv = self.setup.version_argv or (
            *(a for a in self.setup.argv if a != FILE),
            "--version",
        )
        return version_of(argv, self.setup.cwd)

    def _stage(
        self, puzzle: Grid, limit: int, time_limit: float | None, budget: int | None, trace: bool
    ) -> Staged:
        """Only the exchange with the program is timed: the request line is written
        before, and the answer line is read into grids after (`Staged`)."""
        line = request(puzzle, limit, budget, time_limit, self.setup.form)

        def run() -> str | SolveResult:
            deadline = None
            if time_limit is not None:
                deadline = time.perf_counter() + time_limit + _slack(time_limit)
            return self._exchange(line, deadline, time_limit)

        def finish(out: str | SolveResult) -> SolveResult:
            if isinstance(out, SolveResult):
                return out
            return answer(out, puzzle, limit, self.setup.form)

        return Staged(run, finish)

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        budget = None if limits.budget == float("inf") else int(limits.budget)
        staged = self._stage(puzzle, limit, limits.remaining(), budget, trace)
        return staged.finish(staged.run())  # type: ignore[no-any-return]

    def _exchange(
        self, line: bytes, deadline: float | None, time_limit: float | None
    ) -> str | SolveResult:
        """The program's answer line, or the result of its failing to give one."""
        try:
            if self.setup.protocol == "line":
                return self._ask(line, deadline)
            return self._run_once(line, deadline)
        except ProgramTimeout as exc:
            said = f"; {exc}" if str(exc) else "; it printed nothing"
            return SolveResult(
                Status.TIMEOUT,
                message=f"no answer within the {time_limit:g} s limit: the program was killed"
                + said,
            )
        except ProgramFailed as exc:
            return SolveResult(Status.ERROR, message=str(exc))

    # -- the line protocol: one process for every puzzle ---------------------
    def _ask(self, line: bytes, deadline: float | None) -> str:
        program = self._program or self._start()
        try:
            return program.ask(line, deadline)
        except (ProgramTimeout, ProgramFailed):
            self.close()
            with contextlib.suppress(ProgramFailed):
                self._start()  # now, so that the next puzzle's time holds no start-up
            raise
        except BaseException:  # interrupted mid-answer: the process's state is unknown
            self.close()
            raise

    def _start(self) -> Program:
        self._program = Program(self.setup.argv, self.setup.cwd)
        return self._program

    @property
    def pid(self) -> int | None:
        """The running program's process id (None when none runs)."""
        return self._program.pid if self._program is not None else None

    def close(self) -> None:
        """Stop the program (a later solve starts a new one)."""
        program, self._program = self._program, None
        if program is not None:
            program.kill()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # -- one process per puzzle ----------------------------------------------
    def _run_once(self, line: bytes, deadline: float | None) -> str:
        argv = self.setup.argv
        if FILE not in argv:
            return run_once(argv, self.setup.cwd, line, deadline)
        with tempfile.NamedTemporaryFile("wb", prefix="sudoku-", suffix=".txt") as file:
            file.write(line)
            file.flush()
            argv = tuple(file.name if a == FILE else a for a in argv)
            return run_once(argv, self.setup.cwd, None, deadline)


@register
class External(ExternalSolver):
    """The inline form: ``external[cmd='./mysolver --count 2',protocol=line]``."""

    name = "external"
    summary = (
        "any program as a solver: a persistent process speaking a line protocol, or one "
        "process per puzzle (cmd=..., protocol=line|per-puzzle; named ones from --solvers-file)"
    )
    source = "the program given as cmd (protocol: solvers/external/protocol.py)"
    standalone = False
    program_options = ("cmd",)
    parameters = {
        "cmd": Param("", "the command (relative paths: from the current folder)"),
        "protocol": Param("line", "one long-lived process, or one per puzzle", PROTOCOLS),
        "format": Param("auto", "puzzle form: auto (symbols up to 35x35) or numbers", FORMATS),
    }

    def make_setup(self) -> Setup:
        if not self.options["cmd"].strip():
            raise UnknownOption(
                "external needs a command: external[cmd='./mysolver --count 2'] "
                "(or a named solver from --solvers-file)"
            )
        return Setup(
            split_command(self.options["cmd"]),
            os.getcwd(),
            self.options["protocol"],
            self.options["format"],
        )
