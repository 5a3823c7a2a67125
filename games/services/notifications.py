"""The per-user event feed and the wake-ups that go with it.

Every entry is written in the same transaction as the change it reports and published after
commit. Entries carry only what every seat may know (match ids, seats, deadlines, results).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from config.prepared import Statements, Writes
from games.live.hub import match_channel, publish, user_channel
from games.models import Match, UserEvent
from games.services.scheduling import notify_after_commit

# The entries a player may be told of by push or mail (games.notify.kinds.KIND_OF).
NOTIFIED_TYPES = frozenset({UserEvent.Type.YOUR_TURN, UserEvent.Type.DEADLINE_SOON,
                            UserEvent.Type.INVITED, UserEvent.Type.MATCH_FINISHED,
                            UserEvent.Type.RATING_CHANGED, UserEvent.Type.VACATION_ENDING,
                            UserEvent.Type.VACATION_ENDED,
                            UserEvent.Type.AUTO_VACATION_STARTED,
                            UserEvent.Type.PLAN_NOT_COVERED, UserEvent.Type.PLAN_DROPPED,
                            UserEvent.Type.EXPORT_READY,
                            UserEvent.Type.CHAT,
                            UserEvent.Type.TOURNAMENT_STARTS_SOON,
                            UserEvent.Type.TOURNAMENT_ROUND,
                            UserEvent.Type.TOURNAMENT_WITHDRAWN,
                            UserEvent.Type.TOURNAMENT_FINISHED})

# Feed entries are written by SQL kept per process (config.prepared): one comes with most moves.
_ENTRY_ROWS = Statements(UserEvent)
_ENTRY_FIELDS = ("user", "type", "match", "data", "created_at")


def notify(*, user_ids: Iterable[int], type: str, match: Match | None = None,
           wake: set[str] | None = None, reachable: bool | None = None, **data: Any) -> None:
    """Write a feed entry for each user and wake their waiting clients after commit (or add
    their channels to ``wake`` for the caller to publish with others in one go); entries a
    player may be told of by push or mail go to the notification task after commit.

    ``reachable``: whether any of the users has somewhere to be told (a push device or a
    verified address), when the caller knows it (``seat_reachable`` of a locked match's seat);
    False sends no task at all (it would find nowhere to send), and the notification sweep
    leaves such entries alone too (a device added later is not owed them). None: unknown, the
    task decides."""
    entries = feed_entries(user_ids=user_ids, type=type, match=match, reachable=reachable,
                           **data)
    if entries is not None:
        feed_write([entries], Writes(), wake)


@dataclass(frozen=True)
class FeedEntries:
    """The feed entries of one ``notify``, made but not yet written: a caller that writes
    them with its other rows (``write_with``) calls ``written`` once they are."""

    rows: list[UserEvent]
    type: str
    reachable: bool | None

    def write_with(self, writes: Writes) -> None:
        writes.insert(_ENTRY_ROWS, self.rows, _ENTRY_FIELDS)

    def written(self, wake: set[str] | None = None) -> None:
        """What follows the entries' rows, as ``notify`` says: the notification task, the
        wake-up of their users' clients."""
        if self.type in NOTIFIED_TYPES and self.reachable is not False:
            notify_after_commit(event_ids=[entry.id for entry in self.rows
                                           if entry.id is not None])
        channels = {user_channel(entry.user_id) for entry in self.rows}
        if wake is None:
            wake_after_commit(channels)
        else:
            wake.update(channels)


def feed_write(feed: Iterable[FeedEntries], writes: Writes,
               wake: set[str] | None = None) -> None:
    """Write the entries of ``feed`` with whatever ``writes`` holds already, in one statement,
    then what follows each (``FeedEntries.written``)."""
    feed = list(feed)
    for entries in feed:
        entries.write_with(writes)
    writes.write()
    for entries in feed:
        entries.written(wake)


def feed_entries(*, user_ids: Iterable[int], type: str, match: Match | None = None,
                 reachable: bool | None = None, **data: Any) -> FeedEntries | None:
    """The entries ``notify`` would write (one per user), not written; None for no user."""
    ids = sorted(set(user_ids))
    if not ids:
        return None
    return FeedEntries(rows=[UserEvent(user_id=user_id, type=type, match=match,
                                       data=_jsonable(data)) for user_id in ids],
                       type=type, reachable=reachable)


def match_changed(match: Match, wake: set[str] | None = None) -> None:
    """Wake the clients waiting on this match's log (now, or with the caller's ``wake``)."""
    if wake is None:
        wake_after_commit({match_channel(match.id)})
    else:
        wake.add(match_channel(match.id))


def wake_after_commit(channels: set[str]) -> None:
    """One publish, after commit, for every channel a transaction woke."""
    if channels:
        frozen = sorted(channels)
        transaction.on_commit(lambda: publish(*frozen))


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value.isoformat() if hasattr(value, "isoformat") else value
            for key, value in data.items()}
