"""The program behind an external solver: started, asked, and killed as a process group.

`Program` is one long-lived process spoken to line by line: `ask` writes a
request and waits for one answer line until a deadline (``poll`` on the pipe,
so a program that hangs costs exactly its time limit).  `run_once` runs one
process for one puzzle.  Either way the program runs in its own session, so
`kill` reaches every process it started (``os.killpg``, and each descendant
found below it, for those that left with ``setsid``), and on Linux it is
killed by the kernel if the Python process that started it dies
(``PR_SET_PDEATHSIG``); `close`, ``__del__`` and an ``atexit`` hook kill the
rest.  (Inside a run's worker, processes orphaned on the way are adopted and
killed by the worker: `harness.containment`.)  Its standard error goes to an
unnamed temporary file whose tail explains a crash.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import functools
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Sequence
from typing import IO

import psutil

TAIL = 400  # bytes of standard error quoted when a program fails
STDERR_KEEP = 1 << 20  # standard error is cut back once it grows past this
# How long `ask` polls without sleeping before it blocks: an answer that comes
# within this window is read without the wake-up from an idle CPU, which on a
# quiet machine is a third of a fast program's round trip (harness.bench.external).
# Adaptive: after an answer that took longer than this, the next request blocks
# at once, so a slow program costs no spinning (and no CPU taken from it).
SPIN_SECONDS = 50e-6
_PR_SET_PDEATHSIG = 1
_live: weakref.WeakSet[Program] = weakref.WeakSet()


class ProgramTimeout(Exception):
    """No answer before the deadline; the text says what the program printed last."""


class ProgramFailed(Exception):
    """The program could not be started, died, or broke the one-line rule."""


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up once in the parent (never after a fork); None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None
    return getattr(libc, "prctl", None)


PRCTL = _prctl()
"""libc's ``prctl`` (None where there is none): the harness's containment uses it too."""


def _die_with(parent: int) -> None:
    """In the child before exec: die when the parent does (Linux), and not start as an orphan."""
    if PRCTL is not None:
        PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


@functools.cache
def _setpriv() -> str | None:
    """util-linux's setpriv when it can set the parent-death signal (None otherwise)."""
    path = shutil.which("setpriv")
    if path is None or PRCTL is None:
        return None
    try:
        help_text = subprocess.run(
            [path, "--help"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return path if "--pdeathsig" in help_text else None


def _locate(program: str, cwd: str | None) -> str:
    """The program's path, as exec would find it (from `cwd` when it holds a '/')."""
    if "/" in program:
        path = os.path.join(cwd or os.getcwd(), program)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        reason = "not an executable file" if os.path.exists(path) else "No such file or directory"
        raise ProgramFailed(f"cannot start {program!r}: {reason}")
    found = shutil.which(program)
    if found is None:
        raise ProgramFailed(f"cannot start {program!r}: not found on PATH")
    return found


def spawn(
    argv: Sequence[str], cwd: str | None, stdin: int | IO[bytes], stderr: IO[bytes]
) -> subprocess.Popen[bytes]:
    """Start the program in a session of its own, to die with this process (Linux).

    Through ``setpriv --pdeathsig KILL`` when it is installed: a ``preexec_fn``
    would make Python fork the whole worker (~30 ms with OR-Tools loaded)
    where ``setpriv`` lets it use vfork (~7 ms), which counts for one process
    per puzzle.
    """
    command = [_locate(argv[0], cwd), *argv[1:]]
    setpriv = _setpriv()
    if setpriv is not None:
        command = [setpriv, "--pdeathsig", "KILL", "--", *command]
    try:
        return subprocess.Popen(
            command,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=None if setpriv else functools.partial(_die_with, os.getpid()),
            close_fds=True,
        )
    except OSError as exc:
        raise ProgramFailed(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the program, its process group and every descendant (also those that left
    the group with ``setsid``), then reap it."""
    try:
        below = psutil.Process(process.pid).children(recursive=True)
    except psutil.Error:
        below = []
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    for child in below:
        with contextlib.suppress(psutil.Error):
            child.kill()
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _tail(stderr: IO[bytes]) -> str:
    try:
        size = os.fstat(stderr.fileno()).st_size
        stderr.seek(max(0, size - TAIL))
        text = stderr.read().decode("utf-8", "replace").strip()
    except (OSError, ValueError):
        return ""
    return " ".join(text.split())


def _memory_note() -> str:
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return ""
    return (
        f"; the program shares the worker's address-space limit of {soft // (1 << 20)} MB, "
        "so running out of memory shows as this crash"
    )


def exit_reason(code: int | None, stderr: IO[bytes] | None = None) -> str:
    """Why a program stopped: its exit status or signal, the memory note, its stderr's tail."""
    if code is None:
        reason = "closed its output without exiting"
    elif code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        reason = f"was killed by {name}"
    else:
        reason = f"exited with status {code}"
    if code:
        reason += _memory_note()
    return reason + (_quoted_tail(stderr) if stderr is not None else "")


def last_words(stdout: bytes, stderr: IO[bytes]) -> str:
    """What a program printed last: its last line of output and the tail of its standard
    error ("" when it printed nothing)."""
    parts = []
    lines = [line for line in stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    if lines:
        parts.append(f"last output: {lines[-1][-TAIL:]}")
    tail = _tail(stderr)
    if tail:
        parts.append(f"stderr: ...{tail}")
    return "; ".join(parts)


def _quoted_tail(stderr: IO[bytes]) -> str:
    tail = _tail(stderr)
    return f"; stderr: ...{tail}" if tail else ""


class Program:
    """A persistent process that answers one line per request line."""

    def __init__(
        self, argv: Sequence[str], cwd: str | None = None, spin: float = SPIN_SECONDS
    ) -> None:
        self.argv, self.cwd, self.spin = list(argv), cwd, spin
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] = tempfile.TemporaryFile(mode="a+b")  # noqa: SIM115 (kept open)
        try:
            self._process = spawn(self.argv, cwd, subprocess.PIPE, self._stderr)
        except ProgramFailed:
            self._stderr.close()
            raise
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:
            raise ProgramFailed("no pipes to the program")
        self._in, self._out = stdin.fileno(), stdout.fileno()
        os.set_blocking(self._in, False)
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN)
        self.answered = 0
        self._spinning = spin > 0  # whether the last answer came within the spin window
        self._asked = 0.0  # when the current request was written
        _live.add(self)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def spinning(self) -> bool:
        """Whether the next request polls before it blocks (`SPIN_SECONDS`)."""
        return self._spinning

    def ask(self, line: bytes, deadline: float | None) -> str:
        """Send one request line and return the answer line (without its newline).

        Raises `ProgramTimeout` at the deadline (``time.perf_counter`` seconds;
        None waits for ever) and `ProgramFailed` when the program dies, speaks
        out of turn or writes more than one line; the caller then kills it.
        """
        if self._process is None:
            raise ProgramFailed("the program was stopped")
        if self._poll.poll(0):
            early = self._read_some()
            if not early:
                raise ProgramFailed(f"the program {self._exit_reason()}")
            raise ProgramFailed(f"the program wrote before it was asked: {early!r}")
        self._asked = time.perf_counter()
        try:
            sent = os.write(self._in, line)
        except BlockingIOError:
            sent = 0
        except BrokenPipeError:
            raise ProgramFailed(f"the program {self._exit_reason()}") from None
        if sent < len(line):  # only a request longer than the pipe's buffer
            self._write_rest(memoryview(line)[sent:], deadline)
        if not (self._spinning and self._spin()):
            try:
                self._wait(deadline)
            except ProgramTimeout:
                raise ProgramTimeout(last_words(b"", self._stderr)) from None
            self._spinning = self.spin > 0 and time.perf_counter() - self._asked <= self.spin
        chunk = os.read(self._out, 1 << 16)
        end = chunk.find(b"\n")
        if end < 0 or end < len(chunk) - 1:  # not one whole line in one read
            chunk, end = self._rest(chunk, end, deadline)
        self.answered += 1
        if self.answered % 1024 == 0:
            self._trim_stderr()
        return chunk[:end].decode("utf-8", "replace")

    def _rest(self, chunk: bytes, end: int, deadline: float | None) -> tuple[bytes, int]:
        """Read on to the end of the answer line; refuse a second line."""
        parts: list[bytes] = []  # joined once: an answer may be megabytes long
        size = 0
        while True:
            if not chunk:
                raise ProgramFailed(f"the program {self._exit_reason()}")
            parts.append(chunk)
            if end >= 0:
                end += size
                break
            size += len(chunk)
            self._wait(deadline)
            chunk = os.read(self._out, 1 << 16)
            end = chunk.find(b"\n")
        data = b"".join(parts)
        if len(data) > end + 1:
            raise ProgramFailed(f"more than one answer line: {data[end + 1 :][:TAIL]!r}")
        return data, end

    def _write_rest(self, view: memoryview, deadline: float | None) -> None:
        while view:
            self._wait(deadline, select.POLLOUT, self._in)
            try:
                sent = os.write(self._in, view)
            except BlockingIOError:
                sent = 0
            except BrokenPipeError:
                raise ProgramFailed(f"the program {self._exit_reason()}") from None
            view = view[sent:]

    def _spin(self) -> bool:
        """Poll the output without sleeping for up to `spin` seconds (see `SPIN_SECONDS`);
        True when the answer is there."""
        poll, clock, pause = self._poll.poll, time.perf_counter, os.sched_yield
        end = self._asked + self.spin
        while True:
            if poll(0):
                return True
            if clock() >= end:
                return False
            pause()  # lets the program run first if it waits for this CPU

    def _wait(self, deadline: float | None, event: int = select.POLLIN, fd: int = -1) -> None:
        """Block until `fd` (the program's output) is ready, or raise at the deadline."""
        poller = self._poll
        if fd >= 0:
            poller = select.poll()
            poller.register(fd, event)
        while True:
            if deadline is None:
                timeout = None
            else:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise ProgramTimeout
                timeout = max(1, int(left * 1000 + 0.999))
            if poller.poll(timeout):
                return

    def _read_some(self) -> bytes:
        data = b""
        with contextlib.suppress(OSError):
            os.set_blocking(self._out, False)
            with contextlib.suppress(BlockingIOError):
                data += os.read(self._out, TAIL)
        return data[:TAIL]

    def _exit_reason(self) -> str:
        code = None
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._process.wait(timeout=1)
        return exit_reason(code, self._stderr)

    def _trim_stderr(self) -> None:
        """Keep a chatty program's standard error from filling the disk."""
        with contextlib.suppress(OSError):
            if os.fstat(self._stderr.fileno()).st_size > STDERR_KEEP:
                self._stderr.truncate(0)

    def kill(self) -> None:
        """Kill the program and everything it started; the object is then spent."""
        process, self._process = self._process, None
        if process is None:
            return
        kill_group(process)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(OSError):
            self._stderr.close()
        _live.discard(self)

    close = kill

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.kill()


def live_pids() -> list[int]:
    """The pids of the persistent programs still running in this process."""
    return [pid for program in list(_live) if (pid := program.pid) is not None]


@atexit.register
def _kill_all() -> None:
    for program in list(_live):
        program.kill()


def version_of(argv: Sequence[str], cwd: str | None, timeout: float = 5.0) -> str | None:
    """The first line a version command prints (stdout, else stderr); None when it fails."""
    with tempfile.TemporaryFile(mode="a+b") as stderr:
        try:
            process = spawn(argv, cwd, subprocess.DEVNULL, stderr)
        except ProgramFailed:
            return None
        try:
            out, finished = output_until_exit(process, None, time.perf_counter() + timeout)
        finally:
            kill_group(process)
        if not finished or process.returncode != 0:
            return None
        stderr.seek(0)
        for text in (out, stderr.read()):
            lines = [line.strip() for line in text.decode("utf-8", "replace").splitlines()]
            if any(lines):
                return next(line for line in lines if line)
    return None


def output_until_exit(
    process: subprocess.Popen[bytes], stdin_data: bytes | None, deadline: float | None
) -> tuple[bytes, bool]:
    """What the program prints until it exits (not until its output closes: a process it
    left running may hold that open), and whether it exited before the deadline."""
    if stdin_data is not None and process.stdin is not None:
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(stdin_data)
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
    if process.stdout is None:
        raise ProgramFailed("no pipe from the program")
    out = process.stdout.fileno()
    poller = select.poll()
    poller.register(out, select.POLLIN)
    exited = None
    with contextlib.suppress(OSError, AttributeError):  # Linux 5.3+: the exit is an event
        exited = os.pidfd_open(process.pid)
        poller.register(exited, select.POLLIN)
    chunks: list[bytes] = []
    try:
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return b"".join(chunks), False
            wait = 50 if exited is None else None  # without a pidfd, look for the exit
            if left is not None:
                wait = min(wait or 1 << 30, max(1, int(left * 1000 + 0.999)))
            events = dict(poller.poll(wait))
            if out in events:
                chunk = os.read(out, 1 << 16)
                if not chunk:  # end of output: the program is ending
                    try:
                        process.wait(timeout=left)
                    except subprocess.TimeoutExpired:
                        return b"".join(chunks), False
                    return b"".join(chunks), True
                chunks.append(chunk)
                continue
            if process.poll() is not None:  # exited, its output held open by another
                os.set_blocking(out, False)
                with contextlib.suppress(BlockingIOError):
                    while chunk := os.read(out, 1 << 16):
                        chunks.append(chunk)
                return b"".join(chunks), True
    finally:
        if exited is not None:
            os.close(exited)


def run_once(
    argv: Sequence[str], cwd: str | None, stdin_data: bytes | None, deadline: float | None
) -> str:
    """Run one process for one puzzle and return the last non-empty line it printed.

    `stdin_data` is written to its standard input (None: the input is a file
    named in `argv`).  Raises `ProgramTimeout` or `ProgramFailed` as `Program.ask`.
    """
    with tempfile.TemporaryFile(mode="a+b") as stderr:
        stdin = subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL
        process = spawn(argv, cwd, stdin, stderr)
        try:
            out, finished = output_until_exit(process, stdin_data, deadline)
            if not finished:
                kill_group(process)
                raise ProgramTimeout(last_words(out, stderr))
            if process.returncode != 0:
                raise ProgramFailed(f"the program {exit_reason(process.returncode, stderr)}")
            lines = [line for line in out.decode("utf-8", "replace").splitlines() if line.strip()]
            if not lines:
                raise ProgramFailed(f"the program printed no answer{_quoted_tail(stderr)}")
            return lines[-1]
        finally:
            kill_group(process)  # also whatever it left running
