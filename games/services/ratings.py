"""Rating a finished match: each player's new rating in that game and one history entry each."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games import ratings
from games.models import Match, Rating, RatingChange, UserEvent
from games.services import due
from games.services.locking import match_lock
from games.services.notifications import notify


@transaction.atomic
def match_rate(*, match_id: str) -> bool:
    """Rate a finished, rated match from its final ranking, once.

    Seats that resigned or timed out already rank last (the engines rank those who left below
    everyone, the first to leave last). A deleted account still ranks where it placed, for the
    others' sake, but keeps no rating nor history and is told nothing. Returns whether ratings
    changed."""
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None or not locked.match.rated or locked.match.status != Match.Status.FINISHED:
        return False
    match = locked.match
    # Rated here, or never to be (rated already, or not every seat placed): nothing more is due.
    due.work_done(match)
    finished_at = match.finished_at
    if finished_at is None or RatingChange.objects.filter(match=match).exists():
        return False
    seats = locked.seats
    placed: list[tuple[User, int]] = [(seat.user, seat.rank) for seat in seats
                                      if seat.user is not None and seat.rank is not None]
    if len(seats) < 2 or len(placed) < len(seats):
        return False
    current = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(
            user__in=[user for user, _ in placed], game=match.game)
    }
    before = []
    for user, _ in placed:
        rating = current.get(user.id)
        if rating is None:
            rating = Rating(user=user, game=match.game, mu=ratings.MODEL.mu,
                            sigma=ratings.MODEL.sigma,
                            display=ratings.display_rating(ratings.MODEL.mu))
            current[user.id] = rating
        before.append(rating)
    after = ratings.rate([(r.mu, r.sigma) for r in before], [rank for _, rank in placed])
    changes = []
    for (user, rank), rating, (mu, sigma) in zip(placed, before, after, strict=True):
        if user.is_deleted:
            continue
        changes.append(RatingChange(
            user=user, game=match.game, match=match, rank=rank,
            mu_before=rating.mu, sigma_before=rating.sigma, display_before=rating.display,
            mu_after=mu, sigma_after=sigma, display_after=ratings.display_rating(mu),
            at=finished_at,
        ))
        rating.mu, rating.sigma = mu, sigma
        rating.display = ratings.display_rating(mu)
        rating.games_played += 1
        rating.save()
    RatingChange.objects.bulk_create(changes)
    # The match's answers now carry the rating changes: a new ETag.
    match.save(update_fields=["updated_at"])
    for change in changes:
        user = change.user
        if not user.is_bot:
            notify(user_ids=[user.id], type=UserEvent.Type.RATING_CHANGED, match=match,
                   game=match.game, before=change.display_before, after=change.display_after)
    return True
