"""The per-puzzle view of the HTML report: a puzzle x solver matrix, filters, a detail view.

Each cell shows a solver's status on a puzzle (colour) and its time (text;
the shade of a solved cell says how far it is from the fastest solver on
that puzzle).  Filters keep one corpus, the puzzles where some solver has
a given status, or the puzzles the solvers disagree on.  A click on a row
(or Enter on its puzzle button) opens the puzzle, every solver's answer
(the cells where it differs from the most common answer marked) and
every error text.

The data sits in the page as JSON (`harness.report.matrix`), with ``<``,
``>`` and ``&`` escaped so stored text can never close the script element;
the script builds the table with ``textContent`` only, so stored text is
never parsed as HTML.  Nothing is fetched.
"""

from __future__ import annotations

import json
from html import escape

from harness.report.matrix import Matrix
from solvers.base import Status

STYLE = """
#matrix-filters{display:flex;gap:1.2em;flex-wrap:wrap;align-items:center;margin:.5em 0}
#matrix-wrap{max-height:70vh;overflow:auto;border:1px solid #eee}
#matrix td,#matrix th{padding:.1em .4em;font-size:12px}
#matrix thead th{position:sticky;top:0;z-index:1}
#matrix tbody tr{cursor:pointer}#matrix tbody tr:hover td{outline:1px solid #999}
#matrix td.pz{text-align:left}#matrix button{font:inherit;border:0;background:none;
padding:0;cursor:pointer;text-decoration:underline}
.st-SOLVED.s0{background:#1b7837;color:#fff}.st-SOLVED.s1{background:#7fbf7b}
.st-SOLVED.s2{background:#d9f0d3}.st-MULTIPLE,.st-UNSOLVABLE,.st-INVALID{background:#92c5de}
.st-STUCK{background:#fee08b}.st-TIMEOUT,.st-BUDGET{background:#fdae61}
.st-MEMOUT,.st-ERROR{background:#c2a5cf}.st-WRONG{background:#d73027;color:#fff}
.st-none{background:#f4f4f4;color:#999}
#matrix-legend span{display:inline-block;padding:0 .4em;margin-right:.3em;font-size:12px}
dialog#puzzle-detail{max-width:min(90vw,1100px);max-height:85vh;overflow:auto}
dialog#puzzle-detail pre{font:12px/1.2 ui-monospace,monospace;margin:.2em 0}
dialog#puzzle-detail mark{background:#f6c7c0}dialog#puzzle-detail td{vertical-align:top;
text-align:left;white-space:normal}
"""

SCRIPT = """
(function () {
  var source = document.getElementById("matrix-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var body = document.querySelector("#matrix tbody");
  var corpusSelect = document.getElementById("matrix-corpus");
  var statusSelect = document.getElementById("matrix-status");
  var disagree = document.getElementById("matrix-disagree");
  var count = document.getElementById("matrix-count");
  var dialog = document.getElementById("puzzle-detail");
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function seconds(s) {
    if (s === null) return "";
    if (s < 1e-3) return (s * 1e6).toPrecision(3) * 1 + " \\u00b5s";
    if (s < 1) return (s * 1e3).toPrecision(3) * 1 + " ms";
    return s.toPrecision(3) * 1 + " s";
  }
  function grid(text) {
    var side = Math.round(Math.sqrt(text.length));
    if (side < 4 || side * side !== text.length) return [text];
    var rows = [];
    for (var i = 0; i < text.length; i += side) rows.push(text.slice(i, i + side));
    return rows;
  }
  function gridNode(text, other) {
    var pre = el("pre"), rows = grid(text), theirs = other ? grid(other) : null;
    rows.forEach(function (row, r) {
      for (var c = 0; c < row.length; c++) {
        var differs = theirs && theirs.length === rows.length && theirs[r][c] !== row[c];
        pre.appendChild(differs ? el("mark", row[c]) : document.createTextNode(row[c]));
      }
      if (r < rows.length - 1) pre.appendChild(document.createTextNode("\\n"));
    });
    return pre;
  }
  data.corpora.forEach(function (name, i) {
    var option = el("option", name); option.value = String(i); corpusSelect.appendChild(option);
  });
  data.statuses.forEach(function (name, i) {
    var option = el("option", name); option.value = String(i); statusSelect.appendChild(option);
  });
  data.rows.forEach(function (row, index) {
    var tr = el("tr");
    tr.dataset.row = String(index);
    var first = el("td", null, "pz"), button = el("button", row[1]);
    button.type = "button";
    button.title = "show the puzzle and every answer";
    first.appendChild(button);
    tr.appendChild(first);
    var best = Infinity;
    row[6].forEach(function (cell) {
      if (cell && data.statuses[cell[0]] === "SOLVED" && cell[1] !== null) {
        best = Math.min(best, cell[1]);
      }
    });
    row[6].forEach(function (cell, s) {
      if (!cell) { tr.appendChild(el("td", "\\u2014", "st-none")); return; }
      var status = data.statuses[cell[0]], td = el("td");
      var shade = "";
      if (status === "SOLVED" && cell[1] !== null) {
        var ratio = best > 0 ? cell[1] / best : 1;
        shade = ratio <= 1.5 ? " s0" : ratio <= 10 ? " s1" : " s2";
      }
      td.className = "num st-" + status + shade;
      td.textContent = status === "SOLVED" ? seconds(cell[1]) : status;
      var time = cell[1] !== null ? ", " + seconds(cell[1]) : "";
      td.title = data.solvers[s] + ": " + status + time;
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
  function apply() {
    var corpus = corpusSelect.value, status = statusSelect.value, only = disagree.checked;
    var shown = 0;
    Array.prototype.forEach.call(body.rows, function (tr) {
      var row = data.rows[Number(tr.dataset.row)];
      var keep = (corpus === "" || row[0] === Number(corpus)) && (!only || row[3] === 1) &&
        (status === "" || row[6].some(function (c) { return c && c[0] === Number(status); }));
      tr.hidden = !keep;
      if (keep) shown += 1;
    });
    count.textContent = shown + " of " + data.rows.length + " puzzles shown";
  }
  function open(index) {
    var row = data.rows[index];
    var answers = {};
    row[6].forEach(function (c) { if (c && c[2] >= 0) answers[c[2]] = (answers[c[2]] || 0) + 1; });
    var common = null, most = 0;
    Object.keys(answers).forEach(function (k) {
      if (answers[k] > most) { most = answers[k]; common = row[4][Number(k)]; }
    });
    var content = document.getElementById("puzzle-detail-body");
    content.textContent = "";
    content.appendChild(el("h3", data.corpora[row[0]] + " \\u00b7 " + row[1]));
    content.appendChild(gridNode(row[2]));
    var table = el("table"), head = el("tr");
    ["solver", "status", "time", "answer", "error or reason"].forEach(function (h) {
      head.appendChild(el("th", h));
    });
    table.appendChild(head);
    row[6].forEach(function (c, s) {
      var tr = el("tr");
      tr.appendChild(el("td", data.solvers[s]));
      tr.appendChild(el("td", c ? data.statuses[c[0]] : "not run"));
      tr.appendChild(el("td", c ? seconds(c[1]) : ""));
      var answer = el("td");
      if (c && c[2] >= 0) answer.appendChild(gridNode(row[4][c[2]], common));
      tr.appendChild(answer);
      tr.appendChild(el("td", c && c[3] >= 0 ? row[5][c[3]] : ""));
      table.appendChild(tr);
    });
    content.appendChild(table);
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
  }
  body.addEventListener("click", function (event) {
    var tr = event.target.closest("tr");
    if (tr) open(Number(tr.dataset.row));
  });
  [corpusSelect, statusSelect, disagree].forEach(function (control) {
    control.addEventListener("change", apply);
  });
  document.getElementById("puzzle-detail-close").addEventListener("click", function () {
    dialog.close();
  });
  apply();
})();
"""


def _json(document: object) -> str:
    """JSON safe inside a script element: no ``<``, ``>`` or ``&`` left to end it early."""
    text = json.dumps(document, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def matrix_html(data: Matrix) -> list[str]:
    """The parts of the per-puzzle section (the script that fills it is `SCRIPT`)."""
    shown = len(data.rows)
    note = (
        f"All {shown} puzzles"
        if shown == data.puzzles
        else f"{shown} of the {data.puzzles} puzzles (those the solvers disagree on first; "
        "every result is in --format csv or json)"
    )
    head = "".join(f'<th class="num">{escape(s)}</th>' for s in data.solvers)
    legend = "".join(
        f'<span class="st-{escape(s)}{" s0" if s == Status.SOLVED else ""}">{escape(s)}</span>'
        for s in data.statuses
    )
    return [
        f"<p>{escape(note)}, a column per solver: the status of each answer (colour) and its "
        "time; a solved cell is darker the closer it is to the fastest solver on the puzzle "
        "(within 1.5x, 10x, more). Click a row to see the puzzle, every answer and every error "
        "text.</p>",
        f'<p id="matrix-legend">{legend}</p>',
        '<div id="matrix-filters">'
        '<label>corpus <select id="matrix-corpus"><option value="">all</option></select></label>'
        '<label>some solver <select id="matrix-status"><option value="">any status</option>'
        "</select></label>"
        '<label><input type="checkbox" id="matrix-disagree"> disagreements only</label>'
        '<span id="matrix-count" aria-live="polite"></span></div>',
        f'<div id="matrix-wrap"><table id="matrix"><thead><tr><th class="text">puzzle</th>'
        f"{head}</tr></thead><tbody></tbody></table></div>",
        '<dialog id="puzzle-detail"><button type="button" id="puzzle-detail-close">close'
        '</button><div id="puzzle-detail-body"></div></dialog>',
        f'<script type="application/json" id="matrix-data">{_json(data.document())}</script>',
    ]
