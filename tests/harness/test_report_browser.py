"""The HTML report of the quick start's corpora in a real headless browser.

Chromium (Debian's package) loads the report from a file with a probe
script added: it records every error and console.error from the moment the
page starts, works the per-puzzle matrix's filters, clicks a row, and
writes what it saw into the DOM that ``--dump-dom`` prints.  Chromium's
own log (``--enable-logging=stderr``) must hold no console message either.
Skipped, naming the install command, where chromium is absent.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from harness.cli import main
from tests.paths import PLUGINS

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="needs chromium: apt-get install chromium (as .ci/run does)"
)
PLUGINS = str(PLUGINS)
FLAGS = [
    *("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"),
    *("--disable-background-networking", "--disable-component-update", "--disable-sync"),
    *("--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--dump-dom"),
]

CATCH = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
console.error = function () { window.__errors.push(Array.prototype.join.call(arguments, " ")); };
</script>"""

PROBE = """<script>
window.addEventListener("load", function () {
  var body = document.querySelector("#matrix tbody");
  function shown() {
    return Array.prototype.filter.call(body.rows, function (r) { return !r.hidden; }).length;
  }
  function choose(id, value) {
    var control = document.getElementById(id);
    if (control.type === "checkbox") control.checked = value; else control.value = value;
    control.dispatchEvent(new Event("change"));
  }
  var seen = {rows: body.rows.length, all: shown()};
  choose("matrix-corpus", "1"); seen.corpus = shown();
  seen.count = document.getElementById("matrix-count").textContent;
  choose("matrix-corpus", "");
  var statuses = Array.prototype.map.call(document.getElementById("matrix-status").options,
                                          function (o) { return o.textContent; });
  choose("matrix-status", String(statuses.indexOf("WRONG") - 1)); seen.wrong = shown();
  choose("matrix-status", ""); choose("matrix-disagree", true); seen.disagree = shown();
  var visible = Array.prototype.filter.call(body.rows, function (r) { return !r.hidden; });
  visible[0].cells[2].click();
  var dialog = document.getElementById("puzzle-detail");
  seen.open = dialog.open;
  seen.title = dialog.querySelector("h3").textContent;
  seen.answers = dialog.querySelectorAll("tr").length - 1;
  seen.marked = dialog.querySelectorAll("mark").length;
  seen.figures = Array.prototype.filter.call(document.images, function (img) {
    return img.complete && img.naturalWidth > 0;
  }).map(function (img) { return img.alt; });
  seen.errors = window.__errors;
  seen.fetched = performance.getEntriesByType("resource").length;
  document.body.setAttribute("data-probe", JSON.stringify(seen));
});
</script></body>"""


@pytest.fixture
def report_page(tmp_path: Path, faulty: None) -> Path:
    """The quick start's corpora, three solvers and one that botches some answers, in HTML."""
    folder = tmp_path / "browser"
    folder.mkdir()
    db = folder / "db.sqlite"
    solvers = ["dlx", "mrv", "positions", "faulty[fault=wrong,prefix=1]"]
    args = ["run", "--corpus", "gen9-easy", "--corpus", "gen9-extreme", "--timeout", "2",
            "--jobs", "2", "--plugin", "faulty_solvers", "--db", str(db)]  # fmt: skip
    for solver in solvers:
        args += ["--solver", solver]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(PLUGINS)  # --plugin imports from the current directory
        assert main(args) == 0
    page = folder / "report.html"
    assert main(["report", "--db", str(db), "--format", "html", "--out", str(page)]) == 0
    return page


def test_the_report_works_in_a_browser(report_page, tmp_path):
    text = report_page.read_text(encoding="utf-8")
    probed = tmp_path / "probed.html"
    probed.write_text(text.replace("<head>", "<head>" + CATCH, 1).replace("</body>", PROBE),
                      encoding="utf-8")  # fmt: skip
    profile = tempfile.mkdtemp(dir=tmp_path)
    done = subprocess.run([str(BROWSER), *FLAGS, f"--user-data-dir={profile}", probed.as_uri()],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:] + done.stderr[-2000:]
    seen = json.loads(html.unescape(found.group(1)))
    assert seen["errors"] == []
    assert not re.findall(r"CONSOLE.*", done.stderr)
    assert seen["fetched"] == 0  # nothing loaded from outside the file
    assert seen["rows"] == seen["all"] == 400
    assert seen["corpus"] == 200
    assert seen["count"] == "200 of 400 puzzles shown"
    assert 0 < seen["wrong"] < 400  # the botcher's puzzles
    assert seen["disagree"] == seen["wrong"]
    assert seen["open"]
    assert re.fullmatch(r"gen9-(easy|extreme) · gen9-(easy|extreme):\d+", seen["title"])
    assert seen["answers"] == 4
    assert seen["marked"] > 0  # the botched cells differ from the common answer
    assert "Performance profile" in seen["figures"]
    assert "Critical difference diagram" in seen["figures"]
