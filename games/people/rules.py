"""The chat's rules that need no database: which room a player talks in, which lines a reader
gets, what a line is once cleaned, when two lines are the same, and what counts as a link.
Pure Python, property-tested (tests/people)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

PLAYERS = "players"
SPECTATORS = "spectators"


def room_of(seated: bool) -> str:
    """Where a player talks: the seats in the players' room, everyone else among spectators."""
    return PLAYERS if seated else SPECTATORS


def rooms_seen(*, seated: bool, running: bool) -> frozenset[str]:
    """The rooms a reader gets: while the match runs, a seat its own room and a spectator
    theirs (the seats never get the spectators' lines); once it is over, both."""
    if not running:
        return frozenset({PLAYERS, SPECTATORS})
    return frozenset({room_of(seated)})


@dataclass(frozen=True)
class Line:
    author: int
    room: str
    shadowed: bool = False


@dataclass(frozen=True)
class Reader:
    """Who reads a match's chat: their user id (None: an anonymous visitor), whether they hold
    a seat, whether the match runs, whose lines they blocked, and whether they muted it."""

    user: int | None
    seated: bool
    running: bool
    hidden: frozenset[int] = field(default_factory=frozenset)
    muted: bool = False


def shown(line: Line, reader: Reader) -> bool:
    """Whether ``reader`` gets ``line``: their own lines always (a shadow-banned player sees
    theirs as anyone would); of others', none while muted, none of a shadow-banned author or
    of one they blocked, and only those of the rooms they see."""
    if reader.user is not None and line.author == reader.user:
        return True
    if reader.muted or line.shadowed or line.author in reader.hidden:
        return False
    return line.room in rooms_seen(seated=reader.seated, running=reader.running)


_SPACES = re.compile(r"\s+")


def cleaned(body: str) -> str:
    """A line as kept: control and format characters dropped, every run of white space (line
    breaks included) one space, no space at either end."""
    kept = "".join(ch for ch in body if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return _SPACES.sub(" ", kept).strip()


def same_line(one: str, other: str) -> bool:
    """Whether two lines say the same thing (a duplicate to drop): equal once cleaned, whatever
    the case."""
    return cleaned(one).casefold() == cleaned(other).casefold()


_LINK = re.compile(
    r"[a-z][a-z0-9+.-]*://"                       # any scheme: https://, ftp://
    r"|\bwww\."                                    # www.example
    r"|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|gg|co|me|ly|xyz|info|biz|ru|de|fr|br|kr"
    r"|uk|us|app|dev|tv|to|link|site|online|shop|club|top|click)\b(?!\.\w)",
    re.IGNORECASE)


def has_link(body: str) -> bool:
    """Whether a line holds something a browser or a reader would follow as a link."""
    return _LINK.search(cleaned(body)) is not None

