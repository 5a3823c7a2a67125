"""Which feed entries become notifications, the defaults per kind and channel, and the words.

A notification is built from the player's own feed entry (``games.selectors.feeds.feed_entry``:
the same dict the feed answers) and nothing else, so it can say no more than the feed does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from games.models import UserEvent
from games.notify.models import Channel, Kind
from games.rules_text import game_name

# The feed entries a player is told of, and as what. A rating change is told as part of its
# match's "match finished" (games.notify.entries), never on its own.
KIND_OF: dict[str, Kind] = {
    UserEvent.Type.YOUR_TURN: Kind.YOUR_TURN,
    UserEvent.Type.DEADLINE_SOON: Kind.DEADLINE_SOON,
    UserEvent.Type.INVITED: Kind.INVITED,
    UserEvent.Type.MATCH_FINISHED: Kind.MATCH_FINISHED,
    UserEvent.Type.RATING_CHANGED: Kind.MATCH_FINISHED,
    UserEvent.Type.VACATION_ENDING: Kind.VACATION_ENDING,
    UserEvent.Type.VACATION_ENDED: Kind.VACATION_ENDED,
    UserEvent.Type.AUTO_VACATION_STARTED: Kind.AUTO_VACATION_STARTED,
    UserEvent.Type.PLAN_NOT_COVERED: Kind.PLAN_NOT_COVERED,
    UserEvent.Type.PLAN_DROPPED: Kind.PLAN_DROPPED,
    UserEvent.Type.EXPORT_READY: Kind.EXPORT_READY,
    UserEvent.Type.CHAT: Kind.CHAT,
    UserEvent.Type.TOURNAMENT_STARTS_SOON: Kind.TOURNAMENT,
    UserEvent.Type.TOURNAMENT_ROUND: Kind.TOURNAMENT,
    UserEvent.Type.TOURNAMENT_WITHDRAWN: Kind.TOURNAMENT,
    UserEvent.Type.TOURNAMENT_FINISHED: Kind.TOURNAMENT,
}
NOTIFIED_TYPES = frozenset(KIND_OF)

# Every kind by push; by mail what a correspondence player would not want to miss for days (a
# player on vacation may read nothing else). A plan that ended leaves the player to move by
# hand, which their "your turn" says as well: pushed, not mailed.
DEFAULTS: dict[str, dict[str, bool]] = {
    Kind.YOUR_TURN: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.DEADLINE_SOON: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.INVITED: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.MATCH_FINISHED: {Channel.PUSH: True, Channel.EMAIL: False},
    Kind.VACATION_ENDING: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.VACATION_ENDED: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.AUTO_VACATION_STARTED: {Channel.PUSH: True, Channel.EMAIL: True},
    Kind.PLAN_NOT_COVERED: {Channel.PUSH: True, Channel.EMAIL: False},
    Kind.PLAN_DROPPED: {Channel.PUSH: True, Channel.EMAIL: False},
    Kind.EXPORT_READY: {Channel.PUSH: True, Channel.EMAIL: True},
    # A chat entry goes out at most once per match per quiet period (games.people.notices).
    Kind.CHAT: {Channel.PUSH: True, Channel.EMAIL: False},
    Kind.TOURNAMENT: {Channel.PUSH: True, Channel.EMAIL: True},
}

# The words are in the active language: the recipient's (games.notify.delivery and
# games.notify.digest build each notification and mail under translation.override(the
# recipient's language)).
class _Translated(dict[str, str]):
    """Values are texts to translate, read in the active language."""

    def __getitem__(self, key: str) -> str:
        return _(super().__getitem__(key))

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self else default


LABELS: dict[str, str] = _Translated({
    Kind.YOUR_TURN: gettext_noop("your turn"),
    Kind.DEADLINE_SOON: gettext_noop("a deadline soon"),
    Kind.INVITED: gettext_noop("an invitation"),
    Kind.MATCH_FINISHED: gettext_noop("a match finished"),
    Kind.VACATION_ENDING: gettext_noop("your vacation ending in a day"),
    Kind.VACATION_ENDED: gettext_noop("your vacation ended by itself"),
    Kind.AUTO_VACATION_STARTED: gettext_noop("a vacation started instead of a timeout"),
    Kind.PLAN_NOT_COVERED: gettext_noop("a move your plan did not cover"),
    Kind.PLAN_DROPPED: gettext_noop("your plan could not be played"),
    Kind.EXPORT_READY: gettext_noop("your data export is ready"),
    Kind.CHAT: gettext_noop("a line in your match's chat"),
    Kind.TOURNAMENT: gettext_noop("your tournaments"),
})


def preferences_with_defaults(stored: Mapping[str, Any] | None) -> dict[str, dict[str, bool]]:
    """Every kind and channel: the stored choice, else the default."""
    stored = stored or {}
    result: dict[str, dict[str, bool]] = {}
    for kind, channels in DEFAULTS.items():
        found = stored.get(kind)
        mine: Mapping[str, Any] = found if isinstance(found, dict) else {}
        result[str(kind)] = {str(channel): bool(mine.get(channel, default))
                             for channel, default in channels.items()}
    return result


@dataclass(frozen=True)
class Message:
    kind: str
    title: str
    body: str
    path: str  # the web client's page for it, e.g. /match/<id>
    match: str | None
    tag: str  # one notification per match and kind on a device (a newer one replaces it)


def _game(entry: Mapping[str, Any]) -> str:
    slug = str(entry.get("game") or "")
    return game_name(slug) if slug else _("a game")


def _when(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return ""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def duration(seconds: int) -> str:
    """A stretch of time in the active language, rounded to what a reminder would say: minutes
    under about an hour, hours under two days, days beyond ("45 minutes", "4 hours",
    "3 days")."""
    minutes = max(1, round(seconds / 60))
    if minutes < 55:
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    hours = max(1, round(seconds / 3600))
    if hours < 48:
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    days = round(seconds / 86400)
    return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}


def _ordinal(rank: int) -> str:
    """A finishing place in the active language: 1st, 1er, 1º, 1위."""
    language = (get_language() or "en").lower()
    if language.startswith("fr"):
        return "1er" if rank == 1 else f"{rank}e"
    if language.startswith("pt"):
        return f"{rank}º"
    if language.startswith("ko"):
        return f"{rank}위"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def message(entry: Mapping[str, Any], rating: Mapping[str, Any] | None = None) -> Message:
    """The words for a feed entry (``rating``: the data of the match's "rating changed" entry,
    told with a finished match)."""
    data: Mapping[str, Any] = entry.get("data") or {}
    match = entry.get("match")
    game = _game(entry)
    path = f"/match/{match}" if match else "/inbox"
    kind = KIND_OF[entry["type"]]
    if kind in OWN_PAGES:  # about the player's own vacation or data: on their own page
        title, body = (_export_words(data) if kind == Kind.EXPORT_READY
                       else _vacation_words(kind, data))
        return Message(kind=str(kind), title=title, body=body, path=OWN_PAGES[kind], match=None,
                       tag=f"{kind}:{entry.get('id')}")
    if kind == Kind.AUTO_VACATION_STARTED:
        title, body = _auto_vacation_words(game, data)
        return Message(kind=str(kind), title=title, body=body, path=path, match=match,
                       tag=f"{kind}:{entry.get('id')}")
    if kind == Kind.TOURNAMENT:
        title, body = tournament_words(entry["type"], game, data)
        page = f"/tournament/{data.get('tournament')}"
        return Message(kind=str(kind), title=title, body=body,
                       path=path if match else page, match=match,
                       tag=f"{kind}:{match or entry.get('id')}")
    if kind in (Kind.PLAN_NOT_COVERED, Kind.PLAN_DROPPED, Kind.CHAT):
        title, body = (_chat_words(game, data) if kind == Kind.CHAT
                       else _plan_words(kind, game))
        return Message(kind=str(kind), title=title, body=body, path=path, match=match,
                       tag=f"{kind}:{match or entry.get('id')}")
    if kind == Kind.YOUR_TURN:
        deadline = _when(data.get("deadline"))
        title = _("Your turn in %(game)s") % {"game": game}
        body = (_("Move by %(deadline)s.") % {"deadline": deadline} if deadline
                else _("It is your move."))
    elif kind == Kind.DEADLINE_SOON:
        deadline = _when(data.get("deadline"))
        left = data.get("left_seconds")
        title = (_("%(game)s: about %(time)s left to move") % {"game": game,
                                                               "time": duration(left)}
                 if isinstance(left, int) and left > 0
                 else _("%(game)s: your deadline is near") % {"game": game})
        body = (_("Move by %(deadline)s or the match goes on without you.")
                % {"deadline": deadline} if deadline
                else _("Move soon or the match goes on without you."))
    elif kind == Kind.INVITED:
        by = data.get("by")
        title = _("Invitation to %(game)s") % {"game": game}
        body = (_("%(player)s invites you to a match.") % {"player": by} if by
                else _("You are invited to a match."))
    else:
        title = _("%(game)s: match over") % {"game": game}
        rank = data.get("rank")
        body = (_("You finished %(place)s.") % {"place": _ordinal(rank)}
                if isinstance(rank, int) else _("The match is over."))
        before, after = (rating or {}).get("before"), (rating or {}).get("after")
        if isinstance(before, int) and isinstance(after, int):
            body += " " + _("Rating %(before)d → %(after)d (%(change)+d).") % {
                "before": before, "after": after, "change": after - before}
    return Message(kind=str(kind), title=title, body=body, path=path, match=match,
                   tag=f"{kind}:{match or entry.get('id')}")


def _chat_words(game: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """Who wrote, never what: the line is read in the match, where its rules apply."""
    by = data.get("by")
    title = (_("%(game)s: %(player)s wrote in the chat") % {"game": game, "player": by}
             if by else _("%(game)s: a new line in the chat") % {"game": game})
    return title, _("Open the match to read it.")


# The web client's page with the vacation switch, and the account's page (password, closing,
# data exports): where the notices about the player's own vacation and data lead.
VACATION_PATH = "/notifications"
ACCOUNT_PATH = "/account"
OWN_PAGES = {Kind.VACATION_ENDING: VACATION_PATH, Kind.VACATION_ENDED: VACATION_PATH,
             Kind.EXPORT_READY: ACCOUNT_PATH}


def _export_words(data: Mapping[str, Any]) -> tuple[str, str]:
    """The title and body of the notice that the player's data export is ready."""
    when = _when(data.get("expires_at"))
    return (_("Your Boardpost data is ready"),
            _("Download it from your account page before %(when)s.") % {"when": when}
            if when else _("Download it from your account page."))


def _vacation_words(kind: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """The title and body of a notice about the player's own vacation."""
    if kind == Kind.VACATION_ENDING:
        when = _when(data.get("runs_out_at"))
        return (_("Your vacation ends in a day"),
                _("Your vacation time runs out at %(when)s; your clocks run again then.")
                % {"when": when} if when
                else _("Your vacation time runs out within a day; your clocks run again then."))
    return (_("Your vacation is over"),
            _("Your vacation time ran out: your clocks run again. Time to move!"))


def _plan_words(kind: str, game: str) -> tuple[str, str]:
    """The title and body of the notice that the player's plan ended (games.services.plans):
    the other player's move was not in it, or its reply could not be played."""
    if kind == Kind.PLAN_NOT_COVERED:
        return (_("%(game)s: your plan did not cover their move") % {"game": game},
                _("Your opponent made a move your plan did not cover. The plan is cleared: "
                  "play on by hand."))
    return (_("%(game)s: your plan was dropped") % {"game": game},
            _("Your plan's reply could not be played. The plan is cleared and nothing of it "
              "was played: play on by hand."))


def _auto_vacation_words(game: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """The title and body of the notice that a vacation started instead of a timeout."""
    when = _when(data.get("runs_out_at"))
    return (_("%(game)s: your time ran out, your vacation started") % {"game": game},
            _("Auto-vacation stopped your clocks instead of a timeout. It ends when you come "
              "back, or by itself at %(when)s.") % {"when": when} if when
            else _("Auto-vacation stopped your clocks instead of a timeout. It ends when you "
                   "come back."))


def tournament_words(type: str, game: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """The title and body of a tournament's notice (``type``: the feed entry's)."""
    name = str(data.get("name") or _("Your tournament"))
    if type == UserEvent.Type.TOURNAMENT_STARTS_SOON:
        when = _when(data.get("starts_at"))
        return (_("%(name)s starts soon") % {"name": name},
                _("The tournament starts at %(when)s.") % {"when": when} if when
                else _("The tournament starts soon."))
    if type == UserEvent.Type.TOURNAMENT_ROUND:
        number = data.get("round")
        if isinstance(number, int):
            return (_("%(name)s: round %(round)d") % {"name": name, "round": number},
                    _("Your %(game)s match of this round has started.") % {"game": game})
        return (_("%(name)s: a ladder challenge") % {"name": name},
                _("Your %(game)s ladder match has started.") % {"game": game})
    if type == UserEvent.Type.TOURNAMENT_WITHDRAWN:
        return (_("%(name)s: you were withdrawn") % {"name": name},
                _WITHDRAWN.get(str(data.get("reason")), _("You play no more rounds.")))
    if data.get("cancelled"):
        return (_("%(name)s was cancelled") % {"name": name},
                _("Too few players entered, or staff called it off."))
    place = data.get("place")
    return (_("%(name)s is over") % {"name": name},
            _("You finished %(place)s.") % {"place": _ordinal(place)}
            if isinstance(place, int) else _("The tournament is over."))


# Why a player was withdrawn, in the active language.
_WITHDRAWN: dict[str, str] = _Translated({
    "withdrew": gettext_noop("You withdrew: you play no more rounds."),
    "no_show": gettext_noop("You ran out of time in a match without having moved in it, so "
                            "you play no more rounds."),
    "disqualified": gettext_noop("Staff disqualified you: you play no more rounds."),
})
