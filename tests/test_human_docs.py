"""The README's section on the human-style engine stays true to the code."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from solvers.human.table import markdown_table

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## The human-style engine", 1)[1].split("\n## ", 1)[0]


def test_technique_table_is_the_generated_one():
    table = SECTION.split("<!-- technique-table -->", 1)[1].split("<!-- /technique-table -->", 1)[0]
    assert table.strip() == markdown_table(), (
        "regenerate it with solvers.human.table.markdown_table()"
    )


def test_python_example_runs():
    (block,) = re.findall(r"```python\n(.+?)```", SECTION, flags=re.S)
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0
