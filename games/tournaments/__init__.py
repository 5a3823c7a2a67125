"""Tournaments and ladders: Swiss, round robin and a ladder for two to four players.

``formats`` is pure Python (who plays whom, standings); the rest is the Django side: models,
services (the only writers), selectors (reads), the API and the due work that moves a
tournament on (see docs/tournaments.md)."""
