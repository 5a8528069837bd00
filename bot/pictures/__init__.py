"""Pictures of games and ratings, drawn the same way for every adapter.

- :func:`render_replay`: an animated GIF of a game, a frame per move (Pillow).
- :func:`render_rating_chart`: a PNG line chart of ratings over time (matplotlib, Agg).
- :func:`render_cross_table`: a PNG cross table of an arena (Pillow).

Plain values in, bytes out: no database, no chat platform. Rendering takes
milliseconds to a few hundred, so callers on an event loop run it in a thread. The
pictures carry no words (marks, colours and numbers only), so they need no
translation; the adapters say in words what happened (alt text, captions).
"""

from bot.pictures.chart import GLOBAL_COLOUR, SERVER_COLOUR, RatingPoint, RatingSeries, render_rating_chart
from bot.pictures.cross_table import CROSS_COLOURS, CrossCell, CrossRow, cross_table_size, render_cross_table
from bot.pictures.replay import REPLAY_COLOURS, ReplayMove, render_replay

__all__ = [
    "CROSS_COLOURS",
    "GLOBAL_COLOUR",
    "REPLAY_COLOURS",
    "SERVER_COLOUR",
    "CrossCell",
    "CrossRow",
    "RatingPoint",
    "RatingSeries",
    "ReplayMove",
    "cross_table_size",
    "render_cross_table",
    "render_rating_chart",
    "render_replay",
]
