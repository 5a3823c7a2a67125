"""The only writers of tournaments: creation, entries, rounds, ladder challenges, results and
staff actions.

Locks are taken in one order: the tournament row first (``tournament_lock``), then matches
(``match_lock``, through the games services). A match's end writes its pairing row alone, in
the transaction of the match (``results``), and takes no tournament lock; the tournament acts
on the result later, under its own lock (``due``)."""
