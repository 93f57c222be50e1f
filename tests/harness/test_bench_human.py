"""`python -m harness.bench.human`: the same tallies in one process or several."""

from __future__ import annotations

from pathlib import Path

from harness.bench import human

# corpora/data/gen9-easy.txt: singles only; the reference ratings are made up around its ER.
PUZZLE = "...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7.."


def _ratings(tmp_path: Path) -> Path:
    from solvers.human import rate

    puzzle = PUZZLE
    er = rate(puzzle).er
    path = tmp_path / "tiny.se.txt"
    lines = [f"{puzzle} {er + delta:.1f}/1.2/1.2" for delta in (0, 1, 0.2, 0.1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _agreement(out: str) -> list[str]:
    """The table row without its times, and the notes under the table (a blank line
    first, so that markdown ends the table there)."""
    lines = out.splitlines()
    row = lines[2].split("|")
    assert lines[3] == ""
    return [*row[1:9], *lines[4:]]


def test_jobs_give_the_same_figures(tmp_path, capsys):
    path = _ratings(tmp_path)
    assert human.main(["--ratings", str(path), "--check", "--misses"]) == 0
    one = _agreement(capsys.readouterr().out)
    assert human.main(["--ratings", str(path), "--check", "--misses", "--jobs", "2"]) == 0
    two = _agreement(capsys.readouterr().out)
    assert one == two
    assert [cell.strip() for cell in one[:8]] == [
        "tiny",
        "4",
        "100.0%",
        "25.0%",  # ER =
        "50.0%",  # ER within 0.1
        "75.0%",  # ER within 0.3
        "100.0%",
        "100.0%",
    ]
    assert one[8].startswith("- tiny: soundness:")
    assert "0 unsound" in one[8]
    assert one[9].startswith("- tiny: ER misses")


def test_a_bad_line_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.se.txt"
    path.write_text("123 4.5\n", encoding="utf-8")
    assert human.main(["--ratings", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.se.txt:1:" in err


def test_the_time_split_names_the_costliest_searches_and_the_rest():
    figures = human.SetFigures("set", seconds=[1.0, 1.0])
    figures.technique_seconds = {"b": 0.5, "a": 1.0, "c": 0.1}
    assert human.time_split(figures, 2) == (
        "time by technique: a 50.0%, b 25.0%, other searches 5.0%, "
        "the rest (the HoDoKu-order pass and the engine) 20.0%"
    )


def test_breakdown_prints_the_time_split_per_set(tmp_path, capsys):
    path = _ratings(tmp_path)
    assert human.main(["--ratings", str(path), "--breakdown", "1"]) == 0
    notes = _agreement(capsys.readouterr().out)[8:]
    assert len(notes) == 1
    assert notes[0].startswith("- tiny: time by technique: ")
    shares = [
        float(part.rsplit(" ", 1)[1].rstrip("%")) for part in notes[0].split(": ")[2].split(", ")
    ]
    assert len(shares) == 3  # the costliest technique, the other searches, the rest
    assert abs(sum(shares) - 100) < 0.5
