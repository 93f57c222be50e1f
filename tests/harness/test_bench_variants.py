"""`python -m harness.bench.variants`: a row per constraint kind, every answer checked."""

from __future__ import annotations

import pytest

from corpora.corpus import open_corpus
from harness.bench import variants
from solvers.variants import kinds

pytest.importorskip("ortools")


def _rows(out: str) -> dict[str, list[str]]:
    """The kinds table: kind -> its cells (the first table of the output)."""
    table = out.split("\n\n")[1].splitlines()[2:]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in ln.split("|")[1:-1]]
                                                 for ln in table)}  # fmt: skip


def test_a_tiny_sample_prints_a_row_per_kind_of_the_puzzles(capsys):
    argv = ["--corpus", "variants6", "--corpus", "x9", "--sample", "2", "--solver", "cpsat",
            "--solver", "odometer"]  # fmt: skip
    assert variants.main(argv) == 0
    out = capsys.readouterr().out
    sampled = [
        p
        for name in ("variants6", "x9")
        for p in variants.sample(list(open_corpus(name).puzzles()), 2, 0)
    ]
    expected = {k for p in sampled for k in kinds(p.grid)}
    rows = _rows(out)
    assert set(rows) == expected
    for kind, cells in rows.items():
        assert cells[0] == str(sum(kind in kinds(p.grid) for p in sampled))  # puzzles
        assert cells[1].endswith("(1.0x)")  # one solver timed: the fastest of its row
    outcome = next(ln for ln in out.splitlines() if ln.startswith("| odometer"))
    if not variants.solver_class("odometer").constraint_kinds:
        assert outcome.split("|")[5].strip() == str(len(sampled))  # not taken: none timed


def test_the_default_solvers_take_some_kind_and_bad_input_is_one_line(capsys):
    chosen = variants.default_solvers()
    assert "cpsat" in chosen
    assert all(variants.solver_class(n).constraint_kinds for n in chosen)
    with pytest.raises(SystemExit):
        variants.main(["--corpus", "gen9-easy"])
    assert "invalid choice" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        variants.main(["--sample", "0"])
    assert "--sample takes a positive number" in capsys.readouterr().err
