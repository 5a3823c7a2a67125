"""What else must follow when a match ends, in the transaction that ends it.

The recording path knows nothing of the domains built on matches (a tournament counts its
matches' results): such a domain registers a listener here when it starts (its app's
``ready``), and the recording path calls every listener as a match finishes or is called off,
under the match's lock, before the change commits. A listener writes only its own rows (never
another match, never a lock taken before a match's in the documented order), so a match's end
stays one short transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.services.locking import LockedMatch


@dataclass(frozen=True)
class MatchEnd:
    """A match that just ended: ``locked`` (status, outcome and the seats' ranks already
    saved), and for a match called off at a deadline before anyone moved, the seats whose
    time ran out (``late``)."""

    locked: LockedMatch
    late: frozenset[int] = frozenset()

    @property
    def called_off(self) -> bool:
        return self.locked.match.status == "aborted"


Listener = Callable[[MatchEnd], None]

_listeners: list[Listener] = []


def match_end_register(listener: Listener) -> None:
    """Call ``listener`` at every match's end from now on (once, however often registered)."""
    if listener not in _listeners:
        _listeners.append(listener)


def match_ended(end: MatchEnd) -> None:
    """Tell every registered listener that a match ended."""
    for listener in _listeners:
        listener(end)
