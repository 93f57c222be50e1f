"""The conformance suite every solver must pass, usable on a solver of your own.

Each check is a small function taking a solver name (or spec) and raising
`AssertionError` with a clear message when the solver breaks the contract.
The project's tests run every check on every registered solver; you can run
them on yours::

    from solvers.testing import check_solver
    failures = check_solver("mysolver")   # {check name: message}; empty when it conforms

A solver declares the checks it cannot pass, with the reason, in its ``gaps``
class attribute; the test suite turns those into strict xfails (a declared gap
that starts passing is reported, so declarations stay honest).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solvers.base import Solver, SolveResult, Status, UnknownOption
from solvers.grid import Grid
from solvers.registry import get, parse_spec, solver_class
from solvers.verify import check

# Puzzles made for this suite with the project's own dlx (unique unless noted).
PUZZLE_4X4 = "1...3..2...3..2."
PUZZLE_6X6 = "52..3..6........154.....346..125.364"
PUZZLE_9X9_EASY = (
    ".7.5..32.26..97.1..15....9.182.3.7..4972.1..53..74.2...3..7.8..5.81.3...7.9..2..3"
)
PUZZLE_9X9_HARDER = (
    "..248...6...9..3...9......2.....3.7.32..7.6...64..1..82.......4.89........7....5."
)
PUZZLE_16X16 = (
    "..DACE.2.G.9...F.4..7A..F..3..8B683.GBD9A7.42.5EG.9.6F4.E..2.71.9..G36F....8.D.7.A172CE8.9B"
    "...F..F....BD7.A15.E..E.C.7A.63FD..B.4..215...D6FB.G9.6.3D9.B....E..25.B.43..28C.A1..17AD8"
    "..E...BF.63..68BD9G1A.7CE2..2..A157D.3..B98B.G.F4.6.E.C7A...D71..2C5.9G6F.4"
)
# Exactly two solutions.
PUZZLE_9X9_TWO_SOLUTIONS = (
    "7593...144.1.97328832614.973...2..6...8.6.75.146753.826.42..83998.1.6...5...3.1.."
)
# No solution, though no two givens conflict (r2c4 can hold no digit).
PUZZLE_4X4_UNSOLVABLE = "1.3...1.3....2.4"
PUZZLE_9X9_UNSOLVABLE = ".123456789........" + "." * 63
# The same digit twice in row 1.
PUZZLE_9X9_INVALID = "5...5...." + "." * 72

TIME_LIMIT = 0.25  # seconds, for the time-limit check
GRACE = 5.0  # how late a solver may return after its time limit
MANY = 100_000  # more solutions than most solvers find within TIME_LIMIT


def _result_is_sound(puzzle: Grid, result: SolveResult, limit: int) -> None:
    """Every solution verified, distinct, within the limit; the status fits them."""
    assert isinstance(result, SolveResult), f"solve() returned {type(result).__name__}"
    assert len(result.solutions) <= limit, (
        f"{len(result.solutions)} solutions returned for limit={limit}"
    )
    for solution in result.solutions:
        problems = check(puzzle, solution)
        assert not problems, f"wrong solution: {'; '.join(map(str, problems[:3]))}"
    assert len(set(result.solutions)) == len(result.solutions), "the same solution twice"
    if result.status is Status.MULTIPLE:
        assert len(result.solutions) >= 2, "MULTIPLE with fewer than two solutions"
    if result.status is Status.SOLVED:
        assert len(result.solutions) == 1, f"SOLVED with {len(result.solutions)} solutions"


def _stopped_by(result: SolveResult, limit: Status) -> bool:
    """True when `limit` ended the search: the status, or stats['stopped'] after solutions."""
    if result.status is limit:
        return not result.solutions
    return (
        result.stats.get("stopped") == limit.value
        and result.status in (Status.SOLVED, Status.MULTIPLE)
        and not result.exhausted
    )


def _solve(spec: str, text: str, **kwargs) -> tuple[Grid, SolveResult]:
    puzzle = Grid.parse(text)
    limit = kwargs.get("limit", 1)
    result = get(spec).solve(puzzle, **kwargs)
    _result_is_sound(puzzle, result, limit)
    return puzzle, result


def _complete(spec: str) -> bool:
    return solver_class(parse_spec(spec)[0]).complete


def _expect_solved(spec: str, text: str) -> None:
    _, result = _solve(spec, text)
    assert result.status is Status.SOLVED, f"status {result.status}: {result.message}"


def check_solves_4x4(spec: str) -> None:
    """Solves an easy 4x4 puzzle; the answer passes the verifier."""
    _expect_solved(spec, PUZZLE_4X4)


def check_solves_6x6(spec: str) -> None:
    """Solves an easy 6x6 puzzle (2x3 boxes)."""
    _expect_solved(spec, PUZZLE_6X6)


def check_solves_9x9(spec: str) -> None:
    """Solves an easy 9x9 puzzle, and a harder one unless the method is incomplete."""
    _expect_solved(spec, PUZZLE_9X9_EASY)
    _, result = _solve(spec, PUZZLE_9X9_HARDER)
    allowed = {Status.SOLVED} if _complete(spec) else {Status.SOLVED, Status.STUCK}
    assert result.status in allowed, f"harder 9x9: status {result.status}"


def check_solves_16x16(spec: str) -> None:
    """Solves a 16x16 puzzle (run only when the solver's `sizes` include 16)."""
    _expect_solved(spec, PUZZLE_16X16)


def check_empty_grid(spec: str) -> None:
    """The empty 9x9 grid: a solution (or STUCK for an incomplete method); MULTIPLE at limit=2."""
    _, result = _solve(spec, "." * 81)
    allowed = {Status.SOLVED} if _complete(spec) else {Status.SOLVED, Status.STUCK}
    assert result.status in allowed, f"limit=1: status {result.status}"
    _, result = _solve(spec, "." * 81, limit=2)
    if _complete(spec):
        assert result.status is Status.MULTIPLE, f"limit=2: status {result.status}"
        assert not result.exhausted, "claims to have explored every solution of the empty grid"


def check_invalid_givens(spec: str) -> None:
    """Givens that break the rules give INVALID, with no solution."""
    _, result = _solve(spec, PUZZLE_9X9_INVALID)
    assert result.status is Status.INVALID, f"status {result.status}"
    assert not result.solutions


def check_unsolvable(spec: str) -> None:
    """No solution: UNSOLVABLE and exhausted (complete methods) or STUCK."""
    for text in (PUZZLE_4X4_UNSOLVABLE, PUZZLE_9X9_UNSOLVABLE):
        _, result = _solve(spec, text, limit=2)
        if _complete(spec):
            assert result.status is Status.UNSOLVABLE, f"{text}: status {result.status}"
            assert result.exhausted, "UNSOLVABLE without exploring everything"
        else:
            assert result.status in (Status.UNSOLVABLE, Status.STUCK), (
                f"{text}: status {result.status}"
            )


def check_multiple_solutions(spec: str) -> None:
    """A puzzle with two solutions and limit=2: MULTIPLE with both (complete methods)."""
    _, result = _solve(spec, PUZZLE_9X9_TWO_SOLUTIONS, limit=2)
    if _complete(spec):
        assert result.status is Status.MULTIPLE, f"status {result.status}"
    else:
        assert result.status in (Status.MULTIPLE, Status.SOLVED, Status.STUCK), (
            f"status {result.status}"
        )
    assert not result.unique, "claims a unique solution for a puzzle with two"
    _, result = _solve(spec, PUZZLE_9X9_TWO_SOLUTIONS, limit=5)
    if _complete(spec):
        assert len(result.solutions) == 2, f"limit=5: {len(result.solutions)} solutions"
        assert result.exhausted, "limit=5: two solutions found, but the search not exhausted"


def check_unique_exhausted(spec: str) -> None:
    """limit=2 on a unique puzzle: SOLVED and exhausted (the proof of uniqueness)."""
    for text in (PUZZLE_4X4, PUZZLE_9X9_HARDER):
        _, result = _solve(spec, text, limit=2)
        if _complete(spec):
            assert result.status is Status.SOLVED, f"status {result.status}"
            assert result.exhausted, "uniqueness not proved (exhausted is False)"
        else:
            assert result.status in (Status.SOLVED, Status.STUCK), f"status {result.status}"


def check_input_unchanged(spec: str) -> None:
    """The puzzle is not changed, and one instance gives the same answer twice."""
    puzzle = Grid.parse(PUZZLE_9X9_HARDER)
    before = puzzle.cells
    solver = get(spec)
    first = solver.solve(puzzle)
    assert puzzle.cells == before, "the input grid changed"
    second = solver.solve(puzzle)
    assert puzzle.cells == before, "the input grid changed"
    assert (first.status, first.solutions) == (second.status, second.solutions), (
        "a second solve with the same instance answered differently"
    )


def check_time_limit(spec: str) -> None:
    """With a time limit, a long job (100,000 solutions of the empty grid) stops in time.

    The work (`Staged.run`, what the harness times) is what must stop: turning
    every solution found into a `Grid` afterwards grows with how many there are,
    and the fastest solver finds all 100,000 within the limit."""
    puzzle = Grid.empty(3)
    solver = get(spec)
    solver.warm_up()  # as the harness does: a JIT compile is not the work being limited
    staged = solver.stage(puzzle, limit=MANY, time_limit=TIME_LIMIT)
    start = time.perf_counter()
    raw = staged.run()
    elapsed = time.perf_counter() - start
    result = staged.finish(raw)
    _result_is_sound(puzzle, result, MANY)
    assert elapsed < TIME_LIMIT + GRACE, f"returned after {elapsed:.1f} s"
    cls = solver_class(parse_spec(spec)[0])
    if cls.complete and cls.counts and len(result.solutions) < MANY:
        assert _stopped_by(result, Status.TIMEOUT), (
            f"status {result.status} (stopped={result.stats.get('stopped')}) after {elapsed:.2f} s"
        )


def check_budget(spec: str) -> None:
    """With a budget of 50 nodes, an endless job stops with BUDGET."""
    puzzle = Grid.empty(3)
    result = get(spec).solve(puzzle, limit=MANY, budget=50)
    _result_is_sound(puzzle, result, MANY)
    cls = solver_class(parse_spec(spec)[0])
    if cls.complete and cls.counts:
        assert _stopped_by(result, Status.BUDGET), (
            f"status {result.status} (stopped={result.stats.get('stopped')})"
        )
    nodes = result.stats.get("nodes")
    if _stopped_by(result, Status.BUDGET) and nodes is not None:
        assert nodes <= 51, f"{nodes} nodes spent on a budget of 50"


def check_staged_solve(spec: str) -> None:
    """`stage` then `run` and `finish` answers as `solve` does (the harness times `run`
    alone), and so does a batch API (`stage_batch`), if the solver has one."""
    solver = get(spec)
    for text in (PUZZLE_9X9_HARDER, PUZZLE_9X9_INVALID):
        puzzle = Grid.parse(text)
        direct = solver.solve(puzzle, limit=2)
        staged = solver.stage(puzzle, limit=2)
        result = staged.finish(staged.run())
        assert isinstance(result, SolveResult), f"finish() gave a {type(result).__name__}"
        assert (result.status, result.solutions) == (direct.status, direct.solutions), (
            f"staged: {result.status} with {len(result.solutions)} solution(s); "
            f"solve: {direct.status} with {len(direct.solutions)}"
        )
    if solver.batches:
        stage_batch = solver.stage_batch
        puzzles = [Grid.parse(PUZZLE_9X9_HARDER), Grid.parse(PUZZLE_4X4)]
        staged = stage_batch(puzzles, limit=2)
        results = staged.finish(staged.run())
        for puzzle, result in zip(puzzles, results, strict=True):
            direct = solver.solve(puzzle, limit=2)
            assert (result.status, result.solutions) == (direct.status, direct.solutions), (
                "stage_batch answered differently from solve"
            )


def check_spec_options(spec: str) -> None:
    """The spec names the solver and round-trips; an unknown option is refused clearly."""
    solver = get(spec)
    assert isinstance(solver, Solver)
    again = get(solver.spec)
    assert again.spec == solver.spec, f"{solver.spec!r} reads back as {again.spec!r}"
    assert again.options == solver.options, "options differ after a round trip"
    try:
        get(parse_spec(spec)[0], no_such_option=1)
    except UnknownOption as exc:
        assert "no_such_option" in str(exc), f"unclear message: {exc}"  # noqa: PT017
    else:
        raise AssertionError("an unknown option was accepted")


CHECKS: dict[str, Callable[[str], None]] = {
    f.__name__: f
    for f in (
        check_solves_4x4,
        check_solves_6x6,
        check_solves_9x9,
        check_solves_16x16,
        check_empty_grid,
        check_invalid_givens,
        check_unsolvable,
        check_multiple_solutions,
        check_unique_exhausted,
        check_input_unchanged,
        check_time_limit,
        check_budget,
        check_staged_solve,
        check_spec_options,
    )
}

# The grid sides each check uses.
CHECK_SIZES: dict[str, tuple[int, ...]] = {
    "check_solves_4x4": (4,),
    "check_solves_6x6": (6,),
    "check_solves_16x16": (16,),
    "check_unsolvable": (4, 9),
    "check_unique_exhausted": (4, 9),
}


def applicable(name: str, check_name: str) -> str | None:
    """Why a check does not apply to a solver (its declared sizes), or None."""
    cls = solver_class(name)
    missing = [s for s in CHECK_SIZES.get(check_name, (9,)) if not cls.handles(s)]
    if missing:
        sides = ", ".join(f"{s}x{s}" for s in missing)
        return f"{name} does not take {sides} grids (sizes={cls.sizes})"
    return None


def check_solver(spec: str) -> dict[str, str]:
    """Run every applicable check on a solver; {check: failure message} (declared gaps excluded)."""
    name = parse_spec(spec)[0]
    gaps = solver_class(name).gaps
    failures = {}
    for check_name, check_fn in CHECKS.items():
        if check_name in gaps or applicable(name, check_name):
            continue
        try:
            check_fn(spec)
        except AssertionError as exc:
            failures[check_name] = str(exc) or "assertion failed"
    return failures
