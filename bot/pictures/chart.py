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
SERVER_COLOUR = "#0984e3"
"""The line of a player's rating in one server (blue)."""
GLOBAL_COLOUR = "#d63031"
"""The line of a player's global rating (red)."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating at one moment."""

    at: datetime
    rating: float


@dataclass(frozen=True, slots=True)
class RatingSeries:
    """One line of the chart: its colour (``#rrggbb``) and the rating after each rated game.

    The chart has no legend (its words could not be translated into every script the
    default font lacks); the caller says in words which colour is which.
    """

    colour: str
    points: tuple[RatingPoint, ...]


def render_rating_chart(series: Sequence[RatingSeries]) -> bytes:
    """A PNG with one line per non-empty series, oldest point on the left, dates below, ratings beside.

    The first series is drawn on top of the others.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, line in enumerate(series):
        if not line.points:
            continue
        # Earlier series on top and thinner, so a line that follows another one exactly (a server's
        # rating and the global one of a player who plays in one server) still shows both colours.
        axes.plot(
            [date2num(point.at) for point in line.points],  # type: ignore[no-untyped-call]
            [point.rating for point in line.points],
            marker="o",
            markersize=3 + 2 * index,
            linewidth=2 + 3 * index,
            color=line.colour,
            zorder=10 - index,
        )
    locator = AutoDateLocator()  # type: ignore[no-untyped-call]
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
