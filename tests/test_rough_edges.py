"""Rough edges a new user hit, each pinned by a test (issue 15, item 4)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.cli import main
from solvers.testing import PUZZLE_9X9_EASY


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
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str]) -> None:
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
