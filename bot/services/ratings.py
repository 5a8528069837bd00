"""Elo ratings for games between humans, and the rules that keep them honest.

What counts, and why:

- **Only human against human moves a rating.** A game against the bot says how
  someone fares against a fixed program, not against people, and the perfect bot
  cannot be beaten, so bot games are counted apart (wins, losses and draws per
  level, in the stats) and never touch a rating.
- **Plain Elo**, starting at 1200 with K = 32, the rules most players know: the
  winner takes ``K * (1 - expected)`` points from the loser, a draw moves both
  towards each other. It is kept per server (the ``/ttt leaderboard`` default)
  and globally; the same game updates both.
- **Minimum games to be ranked**: a leaderboard lists only players with at least
  5 rated games, so one lucky win does not top the table.
- **Anti-farming**: the n-th finished game between the same two players within
  24 hours counts with weight 1, 1/2, 1/4 and then 0 (the first game counts in
  full, the fourth and later not at all). Two accounts trading wins can then move
  a rating by at most 1.75 games' worth a day, while friends who play a few
  games in a row still see them count. A weight of 0 leaves the game unrated
  (it still appears in W/L/D stats).
- **Aborted games are unrated**: a resignation or timeout before both players
  have made a move (ply < 2) moves no rating, so a quick resign cannot be used
  to pass points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True, slots=True)
class RatingRules:
    """The numbers of the rating system (see the module docstring for why)."""

    initial: float = 1200.0
    k_factor: float = 32.0
    min_games: int = 5
    """Rated games a player needs before a leaderboard lists them."""
    pair_window: timedelta = timedelta(hours=24)
    pair_weights: tuple[float, ...] = (1.0, 0.5, 0.25)
    """Weight of the 1st, 2nd, 3rd... game of the same pair within ``pair_window``; later ones count 0."""
    min_plies: int = 2
    """A game ended by resignation or timeout before this many moves is not rated."""

    def pair_weight(self, earlier_games: int) -> float:
        """The weight of a game after ``earlier_games`` games between the same pair within the window."""
        if earlier_games < len(self.pair_weights):
            return self.pair_weights[earlier_games]
        return 0.0


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation of a player against an opponent: 0.5 when equal."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def elo_update(rating: float, opponent: float, score: float, k_factor: float, weight: float = 1.0) -> float:
    """The new rating after a game: ``score`` is 1 for a win, 0.5 for a draw, 0 for a loss."""
    return rating + k_factor * weight * (score - expected_score(rating, opponent))
