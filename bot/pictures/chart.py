"""The rating chart of ``/ttt stats``: ratings over time as a PNG line chart.

matplotlib is imported when the first chart is drawn, not with this module: the
import costs most of a second, which a bot or a terminal command that never draws
a chart should not pay. Only the object-oriented API with the Agg canvas is used
(never ``pyplot``'s global state), so charts can be drawn in worker threads.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH_IN = 6.4
HEIGHT_IN = 3.2
DPI = 100
LINE_COLOURS = ("#0984e3", "#d63031", "#00b894", "#6c5ce7")
"""One per series, in order (the first series, usually the server's, is blue)."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    at: datetime
    rating: float


@dataclass(frozen=True, slots=True)
class RatingSeries:
    """One line of the chart: a label for the legend and the rating after each rated game."""

    label: str
    points: tuple[RatingPoint, ...]


def render_rating_chart(series: Sequence[RatingSeries]) -> bytes:
    """A PNG with one line per non-empty series, oldest point on the left."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for colour, line in zip(LINE_COLOURS, (s for s in series if s.points), strict=False):
        axes.plot(
            [date2num(point.at) for point in line.points],  # type: ignore[no-untyped-call]
            [point.rating for point in line.points],
            marker="o",
            markersize=3,
            linewidth=2,
            color=colour,
            label=line.label,
        )
    locator = AutoDateLocator()  # type: ignore[no-untyped-call]
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    axes.grid(True, alpha=0.3)
    if any(s.points for s in series):
        axes.legend(loc="best")
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
