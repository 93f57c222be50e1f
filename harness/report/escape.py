"""Stored text made safe for each output: a database's strings are data, never markup.

Corpus names come from file names, puzzle ids from corpus files, solver
specs and error texts from the command line and from programs: any of them
may hold characters that mean something to the reader of a report.  Each
format gets one function here, and every renderer passes stored text
through it:

- terminal: control characters (escape sequences recolour or retitle a
  terminal) are shown as ``\\x1b``;
- Markdown: HTML is escaped (``<script>`` becomes ``&lt;script&gt;``), and so
  are the table's ``|`` and line breaks;
- CSV: a cell that a spreadsheet would read as a formula (it begins with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading
  single quote, as OWASP's guidance on CSV injection recommends.

HTML (`html.escape`), JSON (`json.dumps`) and LaTeX (the report's own
escaping) are handled where they are written.

>>> terminal("a\\x1b[31mb")
'a\\\\x1b[31mb'
>>> markdown("<img src=x onerror=alert(1)> | x")
'&lt;img src=x onerror=alert(1)&gt; \\\\| x'
>>> spreadsheet("=HYPERLINK(1)"), spreadsheet("-0.5"), spreadsheet(-0.5)
("'=HYPERLINK(1)", "'-0.5", -0.5)
"""

from __future__ import annotations

import html
import re
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal(text: str) -> str:
    """Control characters (but tab and newline) shown as ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def markdown(text: str) -> str:
    """Text for a Markdown table cell, heading or paragraph: no HTML, no cell breaks."""
    escaped = html.escape(terminal(text), quote=False)
    return escaped.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def markdown_code(text: str) -> str:
    """A Markdown code span holding `text` literally, whatever backticks it holds."""
    text = terminal(text).replace("\r", " ").replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def spreadsheet(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: formula-like text gets a leading quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
