"""A player's vacation bank is theirs alone: other players and visitors see only whether the
player is on vacation.

A player (bob) has matches of every kind another player (alice) can see: a running match with
a clock against her, an invitation to her, a match open to join and a finished match against a
third player (carol), public to visitors too. Every answer alice, carol and a visitor can get
about bob and those matches is recorded (each match's detail with its ETag, the move log, the
long-poll, the board picture with its ETag, the lists, the inbox, the invitations, alice's own
feed, bob's profile and rating history), while every logger writes at INFO through a handler
like the production one. Then bob's bank is redrawn at random, its time left, the instant it was
counted at, since when he is away, when it runs out and when he is warned, on vacation or not,
and everything is asked again: each answer must be byte-identical (bob's own
``/api/me/vacation`` shows that the redraw changed what the bank says), and no log line may hold
a figure of any bank drawn.
"""

from __future__ import annotations

import io
import logging
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.cache import cache

from config.logging import handler_for
from games.clocks import vacation
from games.clocks.instants import DAY, HOUR, dump_instant
from games.models import Vacation
from games.services.vacations import vacation_start
from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 4, 15, 30, tzinfo=UTC)
REDRAWS = 6
CLOCK = {"kind": "bank", "initial_seconds": 2 * DAY, "increment_seconds": 0,
         "maximum_seconds": 2 * DAY}


def _play(client, match_id: str) -> bool:
    """The client's seat takes a disc; whether the move was recorded."""
    detail = client.get(match_url(match_id)).json()
    return submit(client, match_id, first_nibble_take(detail["legal_moves"]),
                  detail["version"]).status_code == 201


def _matches(client_for, alice, bob, carol) -> dict[str, str]:
    """Bob's matches alice (and carol, and visitors) can see, by what they are."""
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    running = create_match(b, seats=[{"kind": "me"}, {"kind": "user", "username": "alice"}],
                           config={"first_seat": 0}, time_control=CLOCK)["id"]
    assert a.post(match_url(running, "join")).status_code == 200
    assert _play(b, running)
    invitation = create_match(b, game="nimble",
                              seats=[{"kind": "me"}, {"kind": "user", "username": "alice"}])["id"]
    joinable = create_match(b, game="nimalia", players=2)["id"]
    finished = create_match(b, seats=[{"kind": "me"}, {"kind": "user", "username": "carol"}],
                            config={"first_seat": 0})["id"]
    assert c.post(match_url(finished, "join")).status_code == 200
    assert _play(b, finished)
    assert c.post(match_url(finished, "resign")).status_code == 200
    return {"running": running, "invitation": invitation, "joinable": joinable,
            "finished": finished}


def _paths(matches: dict[str, str]) -> list[str]:
    per_match = ("", "moves", "events?wait=0", "board.svg")
    return [
        *(match_url(match_id, suffix) for match_id in matches.values() for suffix in per_match),
        match_url(matches["finished"], "board.svg?seq=1"),
        "/api/matches", "/api/matches?scope=all", "/api/matches?scope=open",
        "/api/matches?status=finished", "/api/me/inbox", "/api/me/invitations",
        "/api/me/events?wait=0", "/api/players/bob", "/api/players/bob/ratings/nibble/history",
        "/api/leaderboards/nibble",
    ]


def _answers(viewers: dict[str, object], paths: list[str]) -> list[tuple]:
    cache.clear()  # throttle budgets: the same for every round
    found = []
    for name, client in viewers.items():
        for path in paths:
            response = client.get(path)
            found.append((name, path, response.status_code, response.content,
                          response.get("ETag")))
    return found


def _redraw(rng: random.Random, away: bool) -> tuple[dict, datetime | None, datetime | None]:
    """A bank of any figures, counted before NOW; on vacation (still running at NOW) or not;
    with the instants the vacation row keeps."""
    as_of = NOW - timedelta(seconds=rng.randint(0, 9 * DAY))
    if not away:
        bank = vacation.VacationBank(left=rng.randint(0, 30 * DAY), as_of=as_of)
    else:
        spent = int((NOW - as_of).total_seconds())
        since = as_of - timedelta(seconds=rng.randint(0, 5 * DAY))
        bank = vacation.VacationBank(left=spent + rng.randint(HOUR, 20 * DAY), as_of=as_of,
                                     since=since)
    return vacation.dump_bank(bank), vacation.runs_out_at(bank), vacation.warning_at(bank)


def _figures(bank: dict, runs_out_at: datetime | None,
             warning_due_at: datetime | None) -> set[str]:
    """What a log line would hold of the bank: its seconds and its instants, as stored or as
    Python writes them."""
    texts = {str(bank["left"]), bank["as_of"]}
    for moment in (runs_out_at, warning_due_at, bank["since"]):
        if isinstance(moment, datetime):
            texts |= {dump_instant(moment), moment.isoformat(), str(moment)}
        elif moment:
            texts.add(moment)
    return texts


def test_nobody_else_learns_anything_of_a_bank(client_for, api_client, alice, bob, carol):
    rng = random.Random("vacation-bank")
    stream = io.StringIO()
    handler = handler_for(stream)
    handler.setLevel(logging.INFO)
    root = logging.getLogger()
    saved = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    drawn: set[str] = set()
    compared = 0
    try:
        with time_machine.travel(NOW - timedelta(days=1), tick=False):
            matches = _matches(client_for, alice, bob, carol)
        with time_machine.travel(NOW, tick=False):
            viewers = {"alice": client_for(alice), "carol": client_for(carol),
                       "visitor": api_client}
            paths = _paths(matches)
            own = client_for(bob)
            for away in (True, False):
                if away:
                    vacation_start(user=bob)
                else:
                    Vacation.objects.filter(user=bob).update(
                        bank=vacation.dump_bank(vacation.VacationBank(left=DAY, as_of=NOW)),
                        runs_out_at=None, warning_due_at=None)
                before = _answers(viewers, paths)
                # Refusals count too (a running match is not carol's nor a visitor's), but
                # alice reads every one of them.
                assert all(status == 200 for who, path, status, _, _ in before
                           if who == "alice" and "board.svg" not in path)
                # Not a vacuous property: they are told whether bob is away.
                profile = next(body for who, path, _, body, _ in before
                               if who == "visitor" and path == "/api/players/bob")
                assert (b'"on_vacation":true' in profile) is away
                mine = own.get("/api/me/vacation").content
                for _ in range(REDRAWS):
                    bank, runs_out_at, warning_due_at = _redraw(rng, away)
                    drawn |= _figures(bank, runs_out_at, warning_due_at)
                    Vacation.objects.filter(user=bob).update(
                        bank=bank, runs_out_at=runs_out_at, warning_due_at=warning_due_at)
                    assert own.get("/api/me/vacation").content != mine  # bob sees the bank
                    after = _answers(viewers, paths)
                    for one, other in zip(before, after, strict=True):
                        assert one == other, (away, one[:3])
                    compared += len(before)
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)
    assert compared > 300
    logged = stream.getvalue()
    assert not [figure for figure in drawn if _written(figure, logged)]


def _written(figure: str, text: str) -> bool:
    """Whether ``figure`` stands in ``text`` as a value of its own: not as digits inside a
    longer word, such as a request id's random hex (``b42e10b49665467092...`` holds 654670)."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(figure)}(?![0-9A-Za-z])", text) is not None


def test_a_figure_counts_as_written_only_as_a_value_of_its_own():
    assert _written("654670", '{"left": 654670, "x": 1}')
    assert _written("2026-03-04T15:30:00+00:00", 'until 2026-03-04T15:30:00+00:00.')
    assert not _written("654670", '"request_id": "b42e10b49665467092ba3e06ad2217fe"')
    assert not _written("654670", "16546701")
