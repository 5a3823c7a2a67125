"""Filing a report: a player, a chat line or a match, for a reason, with a note.

A reporter reports only what they can see (a line they get, a match visible to them); the
same open report twice is one report. The reported player is never told. The API throttles
how many reports anyone files (scope ``report``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from games.exceptions import MatchNotFound
from games.people import rules
from games.people.exceptions import ReportTargetMissing, ReportTargetNotFound
from games.people.lines import reader_of
from games.people.models import ChatLine, Report
from games.selectors import match_access


def _player(username: str, reporter: User) -> User:
    player = (User.objects.filter(username__iexact=username, is_active=True, is_bot=False)
              .first() if "\x00" not in username else None)
    if player is None or player.pk == reporter.pk:
        raise ReportTargetNotFound()
    return player


def _line(line_id: int, reporter: User) -> ChatLine:
    line = ChatLine.objects.filter(pk=line_id).select_related("author", "match").first()
    if line is None or line.author_id == reporter.pk:
        raise ReportTargetNotFound()
    try:
        match = match_access(user=reporter, match_id=line.match_id)
    except MatchNotFound:
        raise ReportTargetNotFound() from None
    fact = rules.Line(author=line.author_id, room=line.room, shadowed=line.shadowed)
    if not rules.shown(fact, reader_of(match, reporter)):
        raise ReportTargetNotFound()
    return line


@transaction.atomic
def report_file(*, reporter: User, reason: str, note: str = "", username: str | None = None,
                line_id: int | None = None, match_id: Any = None) -> tuple[Report, bool]:
    """File a report of exactly one of a player, a line or a match; returns it and whether it
    is new (the reporter's open report of the same thing is answered again)."""
    if sum(target is not None for target in (username, line_id, match_id)) != 1:
        raise ReportTargetMissing()
    target: dict[str, Any] = {}
    if username is not None:
        target = {"player": _player(username, reporter), "match": None, "line": None}
    elif line_id is not None:
        line = _line(line_id, reporter)
        target = {"player": line.author, "match": line.match, "line": line}
    else:
        match = match_access(user=reporter, match_id=match_id)
        target = {"player": None, "match": match, "line": None}
    existing = Report.objects.filter(reporter=reporter, status=Report.Status.OPEN,
                                     reason=reason, **target).first()
    if existing is not None:
        return existing, False
    line = target["line"]
    report = Report.objects.create(reporter=reporter, reason=reason, note=note.strip(),
                                   line_text=line.body if line is not None else "", **target)
    return report, True
