"""MkDocs hook: the README is the site's front page.

`docs/index.md` holds only a marker; the README replaces it at build time, with
its links into `docs/` made relative to the site, so one text serves GitHub and
the site alike.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
MARKER = "<!-- the README is the front page -->"


def front_page(text: str) -> str:
    """The README's text with ``(docs/page.md)`` links rewritten for the site."""
    text = re.sub(r"\]\(docs/", "](", text)
    return text.replace("](CHANGELOG.md)", "](changelog.md)")


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ANN001
    if MARKER in markdown:
        return front_page(README.read_text(encoding="utf-8"))
    return markdown
