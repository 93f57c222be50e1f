"""Plots a reader can read: text inside the figure, labels apart, one colour per solver.

Checked on the matplotlib figures themselves (captured before they are saved):
the extents of titles, legends and tick labels after a real draw.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from harness.report import build_report
from harness.report import plots as plotting
from tests.report_fixtures import NAMES, RUN
from tests.report_fixtures import records as _records


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The matplotlib figures the plot functions draw, captured instead of saved."""
    captured: list[Any] = []

    def keep(fig: Any, fmt: str) -> bytes:
        captured.append(fig)
        return b""

    monkeypatch.setattr(plotting, "save", keep)
    return captured


def _drawn(fig: Any) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    return renderer


def _inside(box: Any, fig: Any) -> bool:
    return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1


def _apart(boxes: list[Any]) -> bool:
    return not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))


@pytest.mark.parametrize("count", [2, 3, 10, 17])
def test_the_versus_figure_keeps_its_text_inside_and_apart(figures, count):
    names = NAMES[:count] if count < 17 else [f"s{i:02d}[backend=a-long-one]" for i in range(17)]
    report = build_report(_records(names), [RUN])
    assert plotting.versus(report) is not None
    fig = figures[-1]
    renderer = _drawn(fig)
    assert len(fig.texts) >= 3  # the title and the two axis labels of the figure
    texts = [*fig.texts, *fig.legends]
    for artist in texts:
        assert _inside(artist.get_window_extent(renderer), fig), artist
    panels = [ax for ax in fig.axes if ax.get_visible()]
    titles = [ax.title.get_window_extent(renderer) for ax in panels]
    assert all(_inside(box, fig) for box in titles)
    assert _apart(titles + [fig.legends[0].get_window_extent(renderer)])
    ticks = [t.get_window_extent(renderer) for ax in panels for t in ax.get_xticklabels()
             if t.get_text()]  # fmt: skip
    for ax in panels:  # the labels under one panel do not run into each other
        own = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        assert len(own) >= 2
        assert _apart(own)
    for box in titles:  # a panel's title clears the tick labels of the panel above
        assert not any(box.overlaps(t) for t in ticks)


def test_seventeen_solvers_get_seventeen_colours():
    names = [f"t{i:02d}" for i in range(17)]
    styles = plotting.solver_styles(build_report(_records(names), [RUN]))
    assert len({styles[s]["color"] for s in names}) == 17


@pytest.mark.parametrize("orientation", ["time", "solved"])
def test_the_cactus_plot_in_either_orientation(figures, orientation):
    report = build_report(_records(NAMES[:12]), [RUN])
    plotting.cactus(report, "c1", orientation=orientation)
    (fig,) = figures
    ax = fig.axes[0]
    renderer = _drawn(fig)
    assert _inside(ax.get_legend().get_window_extent(renderer), fig)
    assert _inside(ax.title.get_window_extent(renderer), fig)
    lines = {line.get_label(): line for line in ax.get_lines()}
    times = sorted(o.wall for o in report.outcomes if o.solver == "s03" and o.corpus == "c1")
    line = lines["s03: 12"]  # the label gives the count solved
    counts, walls = (line.get_ydata(), line.get_xdata())
    if orientation == "solved":
        counts, walls = walls, counts
        assert ax.get_yscale() == "log"
        assert "puzzles solved" in ax.get_xlabel()
    else:
        assert ax.get_xscale() == "log"
    assert list(walls) == pytest.approx(times)
    assert list(counts) == list(range(1, 13))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[-1].startswith("virtual best")
    with pytest.raises(ValueError, match="orientation"):
        plotting.cactus(report, "c1", orientation="sideways")
