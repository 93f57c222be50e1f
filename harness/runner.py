"""The study runner: solvers x corpora x puzzles x repeats, isolated, stored as they finish.

A `Study` says what to measure (it is stored with the run, so ``--resume``
repeats it exactly); an `Execution` says where (executor, workers), which may
change on resume.  `run_study` streams the corpora into batches (sized so a
batch is about a quarter second of work), hands them to an executor, and
stores each batch's results in one transaction as it arrives, with a verdict
from the cross-check.  The truth of each puzzle is settled first, in this
process and outside the study's limits (`harness.truth_store.settle`).
Tasks already stored are skipped, so a run killed at any moment and resumed
ends with exactly one result per task.

    >>> import tempfile, os
    >>> from harness.store import Store
    >>> path = os.path.join(tempfile.mkdtemp(), "puzzles.txt")
    >>> _ = open(path, "w").write("1...3..2...3..2.\\n")
    >>> with Store(":memory:") as store:
    ...     study = make_study([path], ["dlx"], timeout=5)
    ...     done = run_study(store, study, Execution("serial"), progress=False)
    ...     [(r.solver, r.status, r.verdict) for r in store.results([done.run_id])]
    [('dlx', <Status.SOLVED: 'SOLVED'>, <Verdict.CORRECT: 'CORRECT'>)]
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import random
import shlex
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from corpora.corpus import ReadReport, open_corpus
from harness import checks, crosscheck, environment, footprint, machine, resources, runlock
from harness.errors import CommandError
from harness.executors import EXECUTORS, make_executor
from harness.progress import Progress
from harness.records import ResultRecord, Truth, Verdict, puzzle_text
from harness.runlock import hold_run
from harness.store import DEFAULT_DB, Store, StoreError, now
from harness.tasks import Batch, Item, Outcome, WorkerSettings, lost
from harness.truth_store import ORACLE_SECONDS, Settlement, puzzle_keys, settle
from harness.worker import measure_overhead
from solvers.base import Status
from solvers.oracle import oracle_chain, oracle_name
from solvers.registry import get, names, parse_spec, solver_class
from solvers.transforms import random_transform
from solvers.variants import kinds

TIMINGS = ("single", "batch")  # each solve timed alone; or one timed call per batch
TARGET_BATCH_SECONDS = 0.25
MAX_BATCH = 256


@dataclass(frozen=True)
class Study:
    """What a run measures; stored with the run and reused by ``--resume``."""

    corpora: tuple[str, ...]
    solvers: tuple[str, ...]  # canonical specs, e.g. "cpsat[workers=1]"
    timeout: float = 10.0  # seconds per solve
    memory: int | None = 2048  # MB of resident memory per solver (harness.memory); None: none
    repeat: int = 1
    limit: int = 2  # solutions to look for (2 proves uniqueness)
    seed: int = 0
    metamorphic: int = 0  # random equivalent forms per puzzle, besides the given one
    plugins: tuple[str, ...] = ()  # modules imported first (they register solvers)
    paths: tuple[str, ...] = ()  # where the plug-ins are found
    solvers_files: tuple[str, ...] = ()  # TOML definitions of external solvers (absolute paths)
    oracle: str = "dlx"
    strict: bool = False  # refuse a corpus with a bad record (else skip and report it)
    checksums: dict[str, str] = field(default_factory=dict)  # corpus path -> sha256
    timing: str = "single"  # one of TIMINGS
    study_file: dict[str, str] = field(default_factory=dict)  # path, name, text, if one was used
    pin: bool = False  # each worker pinned to a core of its own (harness.machine)

    @property
    def grace(self) -> float:
        """Seconds a solve may overrun its limit before it is stopped by force."""
        return max(0.5, self.timeout / 10)

    def settings(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Study:
        """The study stored with a run; `CommandError` for settings that are not one."""
        known = {k: v for k, v in settings.items() if k in cls.__dataclass_fields__}
        for key in ("corpora", "solvers", "plugins", "paths", "solvers_files"):
            value = known.get(key, [])
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise CommandError(f"the stored settings are damaged: {key} = {value!r}")
            known[key] = tuple(value)
        if not isinstance(known.get("oracle", ""), str):
            raise CommandError(f"the stored settings are damaged: oracle = {known['oracle']!r}")
        return cls(**known)

    def worker_settings(self) -> WorkerSettings:
        return WorkerSettings(
            memory_mb=self.memory,
            grace=self.grace,
            imports=self.plugins,
            paths=self.paths,
            specs=self.solvers,  # the oracle runs in the parent (`settle`), not here
            solvers_files=self.solvers_files,
        )


@dataclass(frozen=True)
class Execution:
    """Where a run executes: may differ between a run and its resumption."""

    executor: str = "process"
    jobs: int = field(default_factory=environment.usable_cores)
    scheduler: str | None = None
    batch: int | None = None  # fixed puzzles per batch; None: sized from measured times


@dataclass
class RunDone:
    """How `run_study` ended."""

    run_id: int
    tasks: int  # solves the study asks for
    stored: int  # results stored, this session and before
    interrupted: bool = False
    skipped: dict[str, int] = field(default_factory=dict)  # spec -> puzzles it does not take
    bad_records: list[str] = field(default_factory=list)  # corpora with records skipped
    # spec -> why it does not take some puzzles (`Solver.handles`) -> how many
    skip_reasons: dict[str, dict[str, int]] = field(default_factory=dict)


DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {f.name: f.default for f in fields(Study) if f.default is not MISSING}
)
"""The study's defaults, the one place they are written (`Study`): the command line, study
files and `make_study` read them here."""


def _stderr(line: str) -> None:
    print(f"sudoku-bench: warning: {line}", file=sys.stderr)


def load_plugins(modules: Sequence[str], paths: Sequence[str]) -> None:
    """Import plug-in modules (they register solvers with `@register`)."""
    for path in reversed(paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise CommandError(f"cannot import plug-in {module!r}: {exc}") from None


def load_solvers_files(paths: Sequence[str]) -> tuple[str, ...]:
    """Register the external solvers the TOML files define; their absolute paths."""
    from solvers.external import load_definitions

    absolute = tuple(str(Path(p).resolve()) for p in paths)
    for path in absolute:
        load_definitions(path)
    return absolute


def make_study(
    corpora: Sequence[str],
    solver_specs: Sequence[str] | None = None,
    *,
    timeout: float = Study.timeout,
    memory: int | None = Study.memory,
    repeat: int = Study.repeat,
    limit: int = Study.limit,
    seed: int | None = None,
    metamorphic: int = Study.metamorphic,
    plugins: Sequence[str] = (),
    paths: Sequence[str] = (),
    strict: bool = Study.strict,
    timing: str = Study.timing,
    study_file: dict[str, str] | None = None,
    solvers_files: Sequence[str] = (),
    pin: bool = Study.pin,
) -> Study:
    """Check the arguments of a study and resolve its corpora and solvers.

    Without `solver_specs`, every registered solver whose backend is installed.
    """
    if not corpora:
        raise CommandError("no corpus: give at least one --corpus")
    checks.check_timeout(timeout)
    if not (memory or 1) > 0:
        raise CommandError(f"--memory must be positive, not {memory}")
    for name, value, low in (
        ("repeat", repeat, 1),
        ("limit", limit, 1),
        ("metamorphic", metamorphic, 0),
    ):
        if value < low:
            raise CommandError(f"--{name} must be at least {low}, not {value}")
    if timing not in TIMINGS:
        raise CommandError(f"--timing must be one of {', '.join(TIMINGS)}, not {timing!r}")
    load_plugins(plugins, paths)
    files = load_solvers_files(solvers_files)
    opened = [open_corpus(c) for c in corpora]
    seen: dict[str, str] = {}
    for given, corpus in zip(corpora, opened, strict=True):
        if corpus.name in seen:
            raise CommandError(
                f"corpora {seen[corpus.name]!r} and {given!r} share the name {corpus.name!r}"
            )
        seen[corpus.name] = given
    if solver_specs:
        made = [get(spec) for spec in solver_specs]
        checks.check_programs(made)
        specs = [solver.spec for solver in made]
    else:
        specs = [
            n
            for n in names()
            if (cls := solver_class(n)).supported() and cls.standalone and cls.in_default_study
        ]
    if len(set(specs)) != len(specs):
        raise CommandError(f"a solver is given twice: {', '.join(specs)}")
    return Study(
        corpora=tuple(str(c.path) for c in opened),
        solvers=tuple(specs),
        timeout=float(timeout),
        memory=memory,
        repeat=repeat,
        limit=limit,
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        metamorphic=metamorphic,
        plugins=tuple(plugins),
        paths=tuple(paths),
        solvers_files=files,
        oracle=oracle_name(),
        strict=strict,
        checksums={str(c.path): c.digest() for c in opened},
        timing=timing,
        study_file=dict(study_file or {}),
        pin=bool(pin),
    )


def resume_study(store: Store, run_id: int) -> Study:
    """The study of a stored run, checking that its corpora have not changed."""
    info = store.run(run_id)
    if info.finished:
        raise CommandError(f"run {run_id} finished at {info.finished}: nothing to resume")
    study = Study.from_settings(info.settings)
    load_plugins(study.plugins, study.paths)
    load_solvers_files(study.solvers_files)
    for path, digest in study.checksums.items():
        corpus = open_corpus(path)
        if corpus.digest() != digest:
            raise CommandError(
                f"{path} changed since run {run_id} started; resuming would mix two corpora"
            )
    checks.check_timeout(study.timeout)
    checks.check_programs(get(spec) for spec in study.solvers)  # still installed, programs too
    return study


class _Sizer:
    """Puzzles per batch for each solver, from the times measured so far."""

    def __init__(self, fixed: int | None) -> None:
        self.fixed = fixed
        self.seconds: dict[str, float] = {}

    def size(self, spec: str) -> int:
        if self.fixed:
            return self.fixed
        per_item = self.seconds.get(spec)
        if per_item is None:
            return 4  # small until measured
        return max(1, min(MAX_BATCH, int(TARGET_BATCH_SECONDS / max(per_item, 1e-6))))

    def learn(self, spec: str, outcomes: Sequence[Outcome], timeout: float) -> None:
        walls = [o.wall if o.wall is not None else timeout for o in outcomes]
        mean = sum(walls) / max(1, len(walls))
        old = self.seconds.get(spec)
        self.seconds[spec] = mean if old is None else 0.7 * old + 0.3 * mean


class _Run:
    """One execution of a study into a run: planning, storing, judging."""

    def __init__(
        self,
        store: Store,
        run_id: int,
        study: Study,
        execution: Execution,
        unfit: Mapping[str, str] | None = None,
    ) -> None:
        self.store, self.run_id, self.study, self.execution = store, run_id, study, execution
        self.unfit = dict(unfit or {})  # spec -> why it cannot start within the memory limit
        self.corpora = [open_corpus(c) for c in study.corpora]
        self.classes = {spec: solver_class(parse_spec(spec)[0]) for spec in study.solvers}
        self.sizer = _Sizer(execution.batch)
        self.cores: set[int] = set()  # the cores pinned workers reported (--pin)

    # -- what there is to do ------------------------------------------------
    def plan(self, specs: Sequence[str] | None = None) -> Iterator[Batch]:
        """The batches still to run, streamed from the corpora: by default those of the
        solvers that can start; else those of `specs`."""
        study = self.study
        if specs is None:
            specs = [spec for spec in study.solvers if spec not in self.unfit]
        classes = {spec: self.classes[spec] for spec in specs}
        buffers: dict[str, list[Item]] = {spec: [] for spec in specs}

        def cut(spec: str) -> Batch:
            items, buffers[spec] = tuple(buffers[spec]), []
            return Batch(spec, items, study.limit, study.timeout, timing=study.timing)

        for corpus in self.corpora:
            done = {s: self.store.done_keys(self.run_id, s, corpus.name) for s in specs}
            for puzzle in corpus.puzzles(strict=False):  # the census reported bad records
                text, box = puzzle_text(puzzle.grid)
                base = Item(corpus.name, puzzle.id, text, box)
                forms = [base] + [
                    replace(
                        base,
                        variant=k,
                        transform=self._transform(puzzle.grid, corpus.name, puzzle.id, k),
                    )
                    for k in range(1, study.metamorphic + 1)
                ]
                for spec, cls in classes.items():
                    if not cls.handles(puzzle.grid):
                        continue  # counted, with the reason, by `count_tasks`
                    for form in forms:
                        for repeat in range(study.repeat):
                            if (puzzle.id, repeat, form.variant) in done[spec]:
                                continue
                            buffers[spec].append(replace(form, repeat=repeat))
                            if len(buffers[spec]) >= self.sizer.size(spec):
                                yield cut(spec)
        for key, items in buffers.items():
            if items:
                yield cut(key)

    def _transform(self, grid: Any, corpus: str, puzzle_id: str, variant: int) -> Any:
        rng = random.Random(f"{self.study.seed}:{corpus}:{puzzle_id}:{variant}")
        return random_transform(grid, rng)[0]

    # -- what came back -----------------------------------------------------
    def absorb(self, batch: Batch, outcomes: Sequence[Outcome]) -> tuple[list[Status], int]:
        """Store a finished batch; returns its statuses and how many answers were wrong.

        The worker already ran the verifier on every answer (`Outcome.problem`),
        so the parent only judges claims against the truth and writes.
        """
        self.sizer.learn(batch.spec, outcomes, batch.timeout)
        known = self.store.truths((item.puzzle, item.box) for item in batch.items)
        records: list[ResultRecord] = []
        for item, outcome in zip(batch.items, outcomes, strict=True):
            record = self._record(batch, item, outcome)
            if isinstance(record.stats.get("core"), int):
                self.cores.add(record.stats["core"])
            verdict: Verdict | None = Verdict.WRONG
            reason = outcome.problem
            if not reason:
                verdict, reason = crosscheck.judge(record, known.get((item.puzzle, item.box)))
            records.append(replace(record, verdict=verdict, reason=reason))
        if records:
            self.store.add_results(records)
        return [r.status for r in records], sum(r.verdict == Verdict.WRONG for r in records)

    def refuse(self) -> Iterator[tuple[list[Status], int]]:
        """Store MEMOUT for every task of the solvers that cannot start; statuses per batch."""
        for batch in self.plan(list(self.unfit)):
            yield self.absorb(batch, lost(batch, Status.MEMOUT, self.unfit[batch.spec]))

    def _record(self, batch: Batch, item: Item, outcome: Outcome) -> ResultRecord:
        return ResultRecord(
            run_id=self.run_id,
            solver=batch.spec,
            corpus=item.corpus,
            puzzle_id=item.puzzle_id,
            puzzle=item.puzzle,
            repeat=item.repeat,
            status=outcome.status,
            solution=outcome.solutions[0] if outcome.solutions else None,
            solutions_found=len(outcome.solutions),
            exhausted=outcome.exhausted,
            wall=outcome.wall,
            cpu=outcome.cpu,
            stats=json.loads(outcome.stats),
            error=outcome.error,
            time_limit=batch.timeout,
            variant=item.variant,
            box=item.box,
            limit=batch.limit,
            peak_rss_mb=outcome.peak_rss_mb,
        )


@dataclass
class Census:
    """What the corpora hold for a study, from one reading before the run starts."""

    tasks: int = 0  # solves the study asks for
    skipped: dict[str, int] = field(default_factory=dict)  # spec -> puzzles it does not take
    bad: list[str] = field(default_factory=list)  # one line per corpus with bad records
    # spec -> why it does not take some puzzles (`Solver.handles`) -> how many
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    # (spec, corpus, the puzzle's kinds, the kinds the solver lacks, reason) -> puzzles
    skips: dict[tuple[str, str, tuple[str, ...], tuple[str, ...], str], int] = field(
        default_factory=dict
    )

    def skip_records(self) -> list[dict[str, Any]]:
        """The skipped puzzles as the run's settings keep them (``skipped``), for the
        report's table of constraint kinds: one entry per solver, corpus, kinds and reason."""
        return [
            {"solver": spec, "corpus": corpus, "kinds": list(carried), "missing": list(missing),
             "reason": reason, "puzzles": count}
            for (spec, corpus, carried, missing, reason), count in self.skips.items()
        ]  # fmt: skip


def _spans(specs: Sequence[str]) -> dict[str, str]:
    """Each solver's timed span (`Solver.timed`), for the run's settings and its report."""
    spans = {}
    for spec in specs:
        try:
            spans[spec] = get(spec).timed
        except Exception:  # a solver that cannot be made fails in its tasks, with the reason
            spans[spec] = solver_class(parse_spec(spec)[0]).timed
    return spans


def count_tasks(study: Study) -> Census:
    """Count the solves a study asks for; report bad records (refuse them if strict).

    Reading every corpus once up front also refuses a bad corpus before the
    run is recorded.
    """
    classes = {spec: solver_class(parse_spec(spec)[0]) for spec in study.solvers}
    per_puzzle = study.repeat * (1 + study.metamorphic)
    census = Census()
    for path in study.corpora:
        report = ReadReport(path)
        corpus = open_corpus(path)
        for puzzle in corpus.puzzles(strict=study.strict, report=report):
            for spec, cls in classes.items():
                ok, reason = cls.handles(puzzle.grid)
                if ok:
                    census.tasks += per_puzzle
                else:
                    census.skipped[spec] = census.skipped.get(spec, 0) + 1
                    reasons = census.reasons.setdefault(spec, {})
                    reasons[reason] = reasons.get(reason, 0) + 1
                    carried = kinds(puzzle.grid)
                    missing = tuple(sorted(carried - cls.constraint_kinds))
                    key = (spec, corpus.name, tuple(sorted(carried)), missing, reason)
                    census.skips[key] = census.skips.get(key, 0) + 1
        if report.bad:
            census.bad.append(f"{report.summary()} (--strict refuses such a corpus)")
    return census


def settle_truths(store: Store, study: Study) -> Settlement:
    """The truth of every puzzle of the study, from the oracle chain, outside its limits.

    The oracle (the study's, then the installed fall-backs) runs here, in the
    parent, with at least `ORACLE_SECONDS` per puzzle: a ``--memory`` or
    ``--timeout`` small enough to stop it never stops the truth.
    """
    corpora = (open_corpus(c) for c in study.corpora)
    limit = max(ORACLE_SECONDS, study.timeout)
    return settle(store, puzzle_keys(corpora), oracle_chain(study.oracle), time_limit=limit)


def finalize(store: Store, run_id: int, settlement: Settlement | None = None) -> None:
    """Give a verdict to every result still without one (its truth came later or never)."""
    pending = list(store.pending(run_id))
    verdicts = []
    evidence: dict[tuple[str, str], Truth | None] = {}
    for row_id, record in pending:
        key = (record.puzzle, record.box)
        truth = store.truth(*key)
        if truth is None:
            if key not in evidence:
                evidence[key] = crosscheck.evidence(store.puzzle_results(run_id, *key))
            truth = evidence[key]
        verdict, reason = crosscheck.judge(record, truth)
        if verdict is None:
            why = settlement.why(key) if settlement else "the oracle gave no answer"
            verdict, reason = Verdict.UNKNOWN, f"{crosscheck.NO_TRUTH}: {why}"
        verdicts.append((row_id, verdict, reason))
    if verdicts:
        store.set_verdicts(verdicts)


def run_study(
    store: Store,
    study: Study,
    execution: Execution | None = None,
    *,
    command: str = "",
    resume: int | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
) -> RunDone:
    """Run (or resume) a study into `store`; Ctrl-C stops it cleanly, keeping what is done.

    Bad corpus records (skipped unless the study is strict) are reported
    through `notify` (default: a warning on stderr) before the run starts.
    """
    execution = execution or Execution()
    if execution.executor not in EXECUTORS:
        raise CommandError(
            f"unknown executor {execution.executor!r}; choose one of: {', '.join(EXECUTORS)}"
        )
    checks.check_jobs(execution.jobs, environment.usable_cores())
    census = count_tasks(study)
    for line in census.bad:
        (notify or _stderr)(line)
    for line in runlock.clean_stale(store.path):  # before anything is measured
        (notify or _stderr)(line)
    footprints = _footprints(study, execution)
    unfit = footprint.unfit(footprints, study.memory)
    if unfit and len(unfit) == len(study.solvers) and study.memory:
        raise CommandError(footprint.refusal(footprints, study.solvers, study.memory))
    for spec, why in unfit.items():
        (notify or _stderr)(f"{spec} {why} (its puzzles are recorded MEMOUT)")
    claims = _claims_folder(execution) if study.pin else None
    session: dict[str, Any] = {
        "overhead": measure_overhead(),  # the timer's own cost, here
        "spans": _spans(study.solvers),  # what each solver's recorded time covers
        "resources": resources.METHOD,  # how CPU and peak memory were measured
    }
    if footprints:
        session["footprints"] = footprints
    load = environment.load_average()
    conditions = {"load_start": load, **machine.state(load)}
    if resume is None:
        settings = {
            **study.settings(),
            "execution": asdict(execution),
            "bad_records": census.bad,
            "skipped": census.skip_records(),
            **session,
        }
        run_id = store.start_run(
            command,
            settings,
            git_commit=environment.git_commit(),
            versions=environment.versions(study.solvers),
            machine={**environment.machine(), **conditions},
        )
        lock = hold_run(store.path, run_id)
        latest = settings
    else:
        run_id = resume
        lock = hold_run(store.path, run_id)  # refuses a run another process is executing
        settings = store.run(run_id).settings
        latest = {"at": now(), **asdict(execution), **session, **conditions}
        settings.setdefault("resumed", []).append(latest)
        store.update_settings(run_id, settings)
    bar = Progress(census.tasks, enabled=progress, done=store.count_results(run_id))
    executor = None
    run: _Run | None = None
    settlement = None
    finished = False
    failure: Exception | None = None
    try:
        run = _Run(store, run_id, study, execution, unfit)
        settlement = settle_truths(store, study)
        for statuses, wrong in run.refuse():
            bar.add(statuses, wrong)
        worker_settings = study.worker_settings()
        worker_settings = replace(
            worker_settings,
            specs=tuple(s for s in worker_settings.specs if s not in unfit),
            footprints=tuple(footprints.items()),
            pin=claims,
        )
        executor = make_executor(
            execution.executor, worker_settings, execution.jobs, execution.scheduler
        )
        workers = getattr(executor, "workers", execution.jobs)
        latest["workers"] = workers  # parallel workers perturb timings: reports say how many
        store.update_settings(run_id, settings)
        for batch, outcomes in executor.run(run.plan()):
            statuses, wrong = run.absorb(batch, outcomes)
            bar.add(statuses, wrong)
        finished = True
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        failure = exc
    finally:
        bar.close()
        if executor is not None:
            executor.close(abort=not finished)
        if claims is not None:
            shutil.rmtree(claims, ignore_errors=True)
        if claims is not None and run is not None:
            latest["pinned_cores"] = sorted(run.cores)  # the cores the workers said they ran on
            with contextlib.suppress(StoreError):  # a failing store is reported below
                store.update_settings(run_id, settings)
    with lock:
        if failure is not None:
            raise _failed(store, run_id, resume is None, failure)
        if finished:
            finalize(store, run_id, settlement)
            facts = store.run(run_id).machine
            store.update_machine(run_id, {**facts, "load_end": environment.load_average()})
            store.finish_run(run_id)
    return RunDone(
        run_id,
        census.tasks,
        store.count_results(run_id),
        not finished,
        census.skipped,
        census.bad,
        census.reasons,
    )


def _claims_folder(execution: Execution) -> str:
    """Where the workers of a pinned run claim their cores; refuses what cannot be pinned."""
    if execution.executor == "serial":
        raise CommandError("--pin pins worker processes, and the serial executor has none")
    cores = len(machine.usable_cores())
    if execution.executor == "process" and execution.jobs > cores:
        raise CommandError(
            f"--pin gives each worker a core of its own: {execution.jobs} workers for {cores} "
            f"usable cores; use --jobs {cores} or fewer"
        )
    return os.path.join(tempfile.gettempdir(), f"sudoku-bench-cores-{uuid.uuid4().hex}")


def _footprints(study: Study, execution: Execution) -> dict[str, int | None]:
    """MB each solver of the study holds once loaded, where a memory limit applies (the
    serial executor has none)."""
    if not study.memory or execution.executor == "serial":
        return {}
    return footprint.measure(study.worker_settings(), execution.jobs)


def _failed(store: Store, run_id: int, new: bool, exc: Exception) -> Exception:
    """The error to raise when a run fails: a new run that stored nothing is removed
    (no empty run is left behind); a database failure says how to finish the run."""
    stored = 0
    with contextlib.suppress(StoreError):
        stored = store.count_results(run_id)
        if new and not stored and store.discard_run(run_id):
            return exc
    if isinstance(exc, StoreError):
        kept = f"{stored} result{'s' if stored != 1 else ''}"
        verb = "is" if stored == 1 else "are"
        return StoreError(f"{exc}; the {kept} stored so far {verb} kept; resume with: "
                          f"{resume_hint(run_id, store.path)}")  # fmt: skip
    return exc


def resume_hint(run_id: int, db: str) -> str:
    """The command that resumes a run."""
    where = "" if db == DEFAULT_DB else f" --db {shlex.quote(db)}"
    return f"sudoku-bench run --resume {run_id}{where}"
