"""The docs' page on the human-style engine stays true to the code."""

from __future__ import annotations

import doctest
import re

from solvers.human.table import markdown_table
from tests.paths import ROOT

PAGE = ROOT / "docs" / "solvers" / "human.md"
SECTION = PAGE.read_text(encoding="utf-8")


def test_technique_table_is_the_generated_one():
    table = SECTION.split("<!-- technique-table -->", 1)[1].split("<!-- /technique-table -->", 1)[0]
    assert table.strip() == markdown_table(), (
        "regenerate it with solvers.human.table.markdown_table()"
    )


def test_python_example_runs():
    (block,) = re.findall(r"```python\n(.+?)```", SECTION, flags=re.S)
    test = doctest.DocTestParser().get_doctest(block, {}, "human.md", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0
