"""The rating scale: OpenSkill's Plackett-Luce model does the maths; this module only maps its
(mu, sigma) onto the number players see.

Display rating = 1500 + 60 * (mu - 25), rounded: a new player (mu 25) shows 1500, and one
"skill unit" of mu is 60 points, which puts typical gaps between players in the familiar range
of chess-style ratings. A rating is provisional while sigma is above 7.0 (roughly the first six
to ten games), and provisional players are left off the leaderboards.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

DISPLAY_BASE = 1500
DISPLAY_SCALE = 60
PROVISIONAL_SIGMA = 7.0

MODEL = PlackettLuce()


def display_rating(mu: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - MODEL.mu))


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player given their places (1 = best, ties share a place)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]
