"""The benchmarks page's figures are refreshed by running the commands written in it."""

from __future__ import annotations

from harness.bench import publish

PAGE = """# Benchmarks

<!-- bench: python -c "print('| x | 1 |')" -->
old figures
<!-- /bench -->

text between

<!-- bench: python -c "print('other')" -->
kept as it was
<!-- /bench -->
"""


def test_blocks_are_found_with_their_commands():
    found = publish.blocks(PAGE)
    assert [b.command for b in found] == [
        "python -c \"print('| x | 1 |')\"",
        "python -c \"print('other')\"",
    ]
    assert PAGE[found[0].start : found[0].end] == "old figures\n"


def test_refresh_replaces_only_the_blocks_run_and_says_where_figures_came_from():
    first = publish.blocks(PAGE)[0].command
    text = publish.refresh(PAGE, {first: "| x | 2 |\n"})
    assert "old figures" not in text
    assert "| x | 2 |" in text
    assert f"Printed by `{first}` at commit" in text
    assert "kept as it was" in text
    assert "text between" in text
    assert len(publish.blocks(text)) == 2  # the markers survive, so it can run again


def test_the_program_runs_the_commands_and_rewrites_the_page(tmp_path, capsys):
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE, encoding="utf-8")
    assert publish.main(["--page", str(page), "--only", "x |"]) == 0
    text = page.read_text(encoding="utf-8")
    assert "| x | 1 |" in text
    assert "old figures" not in text
    assert "kept as it was" in text
    assert publish.main(["--page", str(page), "--only", "nothing like it"]) == 1
    assert "no figure block" in capsys.readouterr().err


def test_a_failing_command_leaves_the_page_unchanged(tmp_path):
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE.replace("print('other')", "raise SystemExit(3)"), encoding="utf-8")
    before = page.read_text(encoding="utf-8")
    assert publish.main(["--page", str(page)]) == 1
    assert page.read_text(encoding="utf-8") == before


def test_edits_made_while_the_commands_run_are_kept(tmp_path):
    page = tmp_path / "benchmarks.md"
    edit = (
        f"import pathlib; p = pathlib.Path({str(page)!r}); "
        "p.write_text(p.read_text() + 'written ' + 'meanwhile' + chr(10)); print('| y |')"
    )
    page.write_text(PAGE.replace("print('other')", edit), encoding="utf-8")
    assert publish.main(["--page", str(page), "--only", "'meanwhile'"]) == 0
    text = page.read_text(encoding="utf-8")
    assert "written meanwhile" in text
    assert "| y |" in text
