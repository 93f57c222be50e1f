"""The contract every solver keeps: `Status`, `SolveResult`, `Solver`, `Limits`.

A solver implements `Solver._solve`; the public `Solver.solve` validates the
arguments, answers ``INVALID`` for givens that break the rules, and hands the
solver a `Limits` object it polls to honour ``time_limit`` and ``budget``
cooperatively.  `Solver.stage` splits the same solve into set-up, the work
and result building, so the harness can time the work alone (`Staged`).

    >>> import solvers
    >>> result = solvers.get("dlx").solve(Grid.parse("1... 3..2 ...3 ..2."), limit=2)
    >>> result.status, result.exhausted
    (<Status.SOLVED: 'SOLVED'>, True)
"""

from __future__ import annotations

import importlib.util
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar

from solvers.grid import Grid
from solvers.verify import conflicts

FAMILIES = ("human", "search", "exact-cover", "cp", "sat", "external")


class Status(str, Enum):
    """How a solve ended.  ``SOLVED`` and ``MULTIPLE`` carry solutions."""

    SOLVED = "SOLVED"  # a solution found (proved unique when exhausted with limit >= 2)
    MULTIPLE = "MULTIPLE"  # two or more solutions found
    UNSOLVABLE = "UNSOLVABLE"  # proved: no solution
    STUCK = "STUCK"  # an incomplete method ran out of moves
    TIMEOUT = "TIMEOUT"  # time_limit reached
    BUDGET = "BUDGET"  # effort budget (nodes) spent
    MEMOUT = "MEMOUT"  # set by the harness when a worker exceeds its memory limit
    INVALID = "INVALID"  # the givens break the rules
    ERROR = "ERROR"  # the solver failed

    def __str__(self) -> str:
        return self.value


class UnsupportedPuzzle(ValueError):
    """A puzzle the solver does not take (its size, or a constraint kind): says which."""


@dataclass(frozen=True)
class Support:
    """Whether a solver takes a puzzle, and if not, why: true when it does, and
    unpacks as ``ok, reason = solver.handles(puzzle)``."""

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def __iter__(self) -> Iterator[Any]:
        return iter((self.ok, self.reason))


SUPPORTED = Support(True)


SPANS: Mapping[str, str] = {
    "call": "the solver's work in the worker's process (Staged.run: set-up and result "
    "building excluded)",
    "exchange": "one request to a persistent program and its answer, through a pipe",
    "process": "the programs started for the puzzle, from their start to their exit",
}
"""What a recorded time covers, by the span a solver declares (`Solver.timed`)."""


def phases(
    *, setup: float | None = None, search: float | None = None, calls: int | None = None
) -> dict[str, float | int]:
    """A solve's phases under the names every report reads: ``setup`` (seconds building a
    model, encoding, flattening, starting processes), ``search`` (seconds of the solver's
    own search) and ``calls`` (solver calls or processes one puzzle took).  Unknown
    phases are left out rather than guessed."""
    found: dict[str, float | int] = {}
    for key, value in (("setup", setup), ("search", search), ("calls", calls)):
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            found[key] = value
    return found


class UnknownOption(ValueError):
    """A solver parameter that does not exist or has a bad value."""


@dataclass(frozen=True)
class SolveResult:
    """What a solve returns.  ``stats`` holds normalised counters (``nodes``,
    ``guesses``, ``backtracks``, ``propagations``, per-technique counts) and any
    backend statistics under their own names."""

    status: Status
    solutions: tuple[Grid, ...] = ()
    exhausted: bool = False
    stats: Mapping[str, Any] = field(default_factory=dict)
    trace: tuple[Any, ...] | None = None
    message: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))
        object.__setattr__(self, "solutions", tuple(self.solutions))
        object.__setattr__(self, "stats", MappingProxyType(dict(self.stats)))

    @property
    def solution(self) -> Grid | None:
        """The first solution, if any."""
        return self.solutions[0] if self.solutions else None

    @property
    def solved(self) -> bool:
        return self.status in (Status.SOLVED, Status.MULTIPLE)

    @property
    def unique(self) -> bool:
        """True when exactly one solution exists and the search proved it."""
        return self.status is Status.SOLVED and self.exhausted


def extra_hint(extra: str) -> str:
    """How to install an optional extra, worded the same in every message and the docs."""
    return f"pip install 'sudoku-bench[{extra}]'"


def counted_result(
    solutions: list[Grid] | tuple[Grid, ...],
    exhausted: bool,
    stats: Mapping[str, Any],
    stopped: Status | None = None,
    **extra: Any,
) -> SolveResult:
    """The result of a counting search: how many solutions it found, whether
    it explored everything, and why it stopped early, if it did.

    Solutions found are the answer even when a limit stopped the search (two
    solutions prove ``MULTIPLE``); the limit that stopped it is then recorded
    as ``stats["stopped"]`` and in the message.
    """
    if stopped is not None and solutions:
        stats = {**stats, "stopped": stopped.value}
        extra.setdefault(
            "message",
            f"stopped by the {stopped.value.lower()} limit after {len(solutions)} solution(s)",
        )
    if len(solutions) >= 2:
        status = Status.MULTIPLE
    elif solutions:
        status = Status.SOLVED
    elif stopped is not None:
        status = stopped
    elif exhausted:
        status = Status.UNSOLVABLE
    else:
        status = Status.STUCK
    return SolveResult(status, tuple(solutions), exhausted, stats, **extra)


def quote(value: str) -> str:
    """A spec value, quoted when it holds a comma, a bracket, a quote or outer spaces.

    >>> quote("boolean"), quote("./mysolver --count 2"), quote("a,b")
    ('boolean', './mysolver --count 2', "'a,b'")
    """
    if value != value.strip() or any(c in value for c in ",[]'\"="):
        return '"' + value + '"' if "'" in value else "'" + value + "'"
    return value


CLOCK_EVERY = 256  # search nodes between clock reads in `Limits.poll`


class Limits:
    """Time and effort limits, polled by cooperative solvers inside their loops.

    ``poll(nodes)`` returns the `Status` to stop with, or None to go on: call it
    once per search node.  ``stop(nodes)`` checks both limits at once, for
    loops whose steps are few and costly.
    """

    __slots__ = ("budget", "deadline", "started")

    def __init__(self, time_limit: float | None = None, budget: int | None = None) -> None:
        self.started = time.perf_counter()
        self.deadline = self.started + time_limit if time_limit else float("inf")
        self.budget = budget if budget is not None else float("inf")

    def stop(self, nodes: int) -> Status | None:
        """Check both limits now."""
        if nodes > self.budget:
            return Status.BUDGET
        if time.perf_counter() >= self.deadline:
            return Status.TIMEOUT
        return None

    def poll(self, nodes: int) -> Status | None:
        """The check for a search loop, once per node: the budget exactly, the
        clock every `CLOCK_EVERY` nodes (a clock read costs more than a node)."""
        if nodes > self.budget:
            return Status.BUDGET
        if nodes % CLOCK_EVERY == 0 and time.perf_counter() >= self.deadline:
            return Status.TIMEOUT
        return None

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None when there is none)."""
        if self.deadline == float("inf"):
            return None
        return max(0.0, self.deadline - time.perf_counter())


def _as_result(raw: Any) -> SolveResult:
    return raw  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Staged:
    """A solve split in three: the set-up is done, `run` is the work, `finish` builds the result.

    The harness times `run` alone, so checking the givens, converting the grid
    to a solver's own form and turning its answer back into `Grid`s are not
    counted: at microseconds they would be most of the figure.  ``solve`` is
    ``finish(run())``.
    """

    run: Callable[[], Any]
    finish: Callable[[Any], Any] = _as_result  # a SolveResult (a list of them for a batch)


@dataclass(frozen=True)
class Param:
    """One solver parameter: its default, the allowed values, and what it means."""

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None

    def coerce(self, name: str, value: Any) -> Any:
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            try:
                if kind is bool:
                    if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
                        raise ValueError(value)
                    value = value.lower() in ("1", "true", "yes")
                elif self.default is not None:
                    value = kind(value)
            except ValueError:
                raise UnknownOption(
                    f"parameter {name}={value!r}: expected a {kind.__name__}"
                ) from None
        if self.choices is not None and value not in self.choices:
            raise UnknownOption(
                f"parameter {name}={value!r}: expected one of "
                + ", ".join(str(c) for c in self.choices)
            )
        return value


class Solver(ABC):
    """A Sudoku method behind one interface.

    Subclasses set the class attributes and implement `_solve`; register them
    with `solvers.register`.  Variants are parameters declared in
    ``parameters`` and passed as keyword options:
    ``solvers.get("cpsat", workers=1)``.
    """

    name: ClassVar[str]
    family: ClassVar[str]
    complete: ClassVar[bool]  # can prove uniqueness or that there is no solution
    summary: ClassVar[str]
    source: ClassVar[str]
    sizes: ClassVar[tuple[int, ...] | None] = None  # sides it handles; None = any
    # Constraint kinds it takes beyond rows, columns and boxes (`solvers.variants.KINDS`);
    # empty: classic Sudoku only.
    constraint_kinds: ClassVar[frozenset[str]] = frozenset()
    native_time_limit: ClassVar[bool] = True  # honours time_limit by itself
    # Run by a study that names no solvers (False: slow per puzzle, e.g. a program started
    # per solve; such a solver runs when named).
    in_default_study: ClassVar[bool] = True
    counts: ClassVar[bool] = True  # can look for more than one solution
    traces: ClassVar[bool] = False  # can return a step trace
    requires: ClassVar[tuple[str, ...]] = ()  # importable modules it needs
    # Modules its first solve would import (`requires` may name only a light parent
    # package): `warm_up` imports them, so a worker never imports inside a time limit.
    preload: ClassVar[tuple[str, ...]] = ()
    install_hint: ClassVar[str] = ""
    parameters: ClassVar[Mapping[str, Param]] = {}
    # Conformance checks this method cannot pass, with the reason: {check: reason}.
    gaps: ClassVar[Mapping[str, str]] = {}
    # False for a solver that cannot run without options (``external`` needs its
    # command): "every available solver" and the registry-wide checks leave it out.
    standalone: ClassVar[bool] = True
    # Parameters that name a program to run or its arguments (``external``'s cmd): a
    # stored study whose specs set them runs only when the user trusts it.
    program_options: ClassVar[tuple[str, ...]] = ()
    # What a recorded time covers, the same for every command (`SPANS`): ``call``, the
    # staged `run` in this process; ``exchange``, a request to a persistent program and
    # its answer; ``process``, programs started for the puzzle, start-up included.
    timed: str = "call"

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.parameters)
        if unknown:
            valid = ", ".join(sorted(self.parameters)) or "none"
            raise UnknownOption(
                f"{self.name} has no parameter {', '.join(sorted(unknown))} (parameters: {valid})"
            )
        self.options = {
            key: param.coerce(key, options.get(key, param.default))
            for key, param in self.parameters.items()
        }

    @classmethod
    def supported(cls) -> bool:
        """True when the libraries this solver needs are installed."""
        return all(importlib.util.find_spec(mod) is not None for mod in cls.requires)

    @classmethod
    def handles(cls, puzzle: Grid | int) -> Support:
        """Whether the solver takes `puzzle` (a classic grid of that side, for an int),
        with the reason when it does not: a side outside `sizes`, or a constraint
        kind outside `constraint_kinds`.  `solve` refuses what this refuses."""
        size = puzzle if isinstance(puzzle, int) else puzzle.size
        if cls.sizes is not None and size not in cls.sizes:
            sides = cls.sizes
            listed = (
                f"{sides[0]}..{sides[-1]}"
                if len(sides) > 2 and tuple(sides) == tuple(range(sides[0], sides[-1] + 1))
                else ", ".join(map(str, sides))
            )
            return Support(
                False, f"{cls.name} does not solve {size}x{size} grids (sizes: {listed})"
            )
        if isinstance(puzzle, Grid) and puzzle.constraints:
            missing = sorted({c.kind for c in puzzle.constraints} - cls.constraint_kinds)
            if missing:
                return Support(False, f"{cls.name} does not take {', '.join(missing)} constraints")
        return SUPPORTED

    @property
    def spec(self) -> str:
        """The name with non-default parameters: ``cpsat[model=boolean,workers=1]``."""
        changed = {k: v for k, v in self.options.items() if v != self.parameters[k].default}
        if not changed:
            return self.name
        text = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in changed.items()}
        return f"{self.name}[{','.join(f'{k}={quote(v)}' for k, v in sorted(text.items()))}]"

    def __repr__(self) -> str:
        return f"<Solver {self.spec}>"

    def solve(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        time_limit: float | None = None,
        budget: int | None = None,
        trace: bool = False,
    ) -> SolveResult:
        """Look for up to `limit` solutions of `puzzle`.

        `time_limit` is in seconds and `budget` in search nodes; a solver that
        reaches either returns ``TIMEOUT`` or ``BUDGET`` with its statistics.
        """
        staged = self.stage(puzzle, limit=limit, time_limit=time_limit, budget=budget, trace=trace)
        return staged.finish(staged.run())  # type: ignore[no-any-return]

    def stage(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        time_limit: float | None = None,
        budget: int | None = None,
        trace: bool = False,
    ) -> Staged:
        """`solve`, split so that only the work is timed: arguments and givens are
        checked now; the limits start when `Staged.run` is called."""
        if not isinstance(puzzle, Grid):
            raise TypeError(f"solve() takes a Grid, not {type(puzzle).__name__}")
        if not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be a positive integer, not {limit!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive seconds, not {time_limit!r}")
        if budget is not None and (not isinstance(budget, int) or budget < 0):
            raise ValueError(f"budget must be a non-negative integer, not {budget!r}")
        support = self.handles(puzzle)
        if not support:
            raise UnsupportedPuzzle(support.reason)
        broken = conflicts(puzzle)
        if broken:
            message = "; ".join(map(str, broken))
            invalid = SolveResult(Status.INVALID, exhausted=True, message=message)
            return Staged(lambda: invalid)
        return self._stage(puzzle, limit, time_limit, budget, trace)

    def _stage(
        self, puzzle: Grid, limit: int, time_limit: float | None, budget: int | None, trace: bool
    ) -> Staged:
        """The solve of valid givens as a `Staged`; override to move set-up and
        result building out of the timed `run` (the default times all of `_solve`)."""
        return Staged(lambda: self._solve(puzzle, limit, Limits(time_limit, budget), trace))

    # Solves many puzzles in one call (`stage_batch`): the harness's ``--timing batch``.
    batches: ClassVar[bool] = False

    def stage_batch(
        self, puzzles: Sequence[Grid], *, limit: int = 2, budget: int | None = None
    ) -> Staged:
        """Many puzzles staged as one call: ``run`` does the work of all of them, ``finish``
        returns their `SolveResult`s in order.  Only solvers with ``batches = True`` have
        it; the default refuses, so a caller checks `batches` first."""
        raise NotImplementedError(f"{self.name} does not solve batches (batches = False)")

    def warm_up(self) -> None:
        """Compile or load what a first solve would (a JIT, a model cache), before any
        time limit is armed.  The harness calls it once per worker; the default imports
        `preload` (an import cut short by a time limit can leave a C extension unusable
        for the rest of the process)."""
        for module in self.preload:
            importlib.import_module(module)

    @abstractmethod
    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        """Solve a puzzle whose givens are known not to conflict."""
