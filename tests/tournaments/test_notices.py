"""The tournament notices' words, in the four languages, built from the feed entry alone."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.models import UserEvent
from games.notify.kinds import message

ENTRY = {"id": 7, "match": None, "game": "nibble",
         "data": {"tournament": "5b0c9d2e-0000-4000-8000-000000000000", "name": "Winter Swiss"}}


def _entry(type_: str, **data):
    return {**ENTRY, "type": type_, "data": {**ENTRY["data"], **data}}


@pytest.mark.parametrize(("language", "title"), [
    ("en", "Winter Swiss: round 3"), ("fr", "Winter Swiss : ronde 3"),
    ("pt-br", "Winter Swiss: rodada 3"), ("ko", "Winter Swiss: 3라운드"),
])
def test_round_notice_in_each_language(language, title):
    with translation.override(language):
        words = message(_entry(UserEvent.Type.TOURNAMENT_ROUND, round=3))
    assert words.title == title and words.kind == "tournament"


def test_each_notice_has_its_own_words_and_page():
    finished = message(_entry(UserEvent.Type.TOURNAMENT_FINISHED, place=2))
    assert finished.body == "You finished 2nd."
    assert finished.path == "/tournament/5b0c9d2e-0000-4000-8000-000000000000"
    cancelled = message(_entry(UserEvent.Type.TOURNAMENT_FINISHED, place=None, cancelled=True))
    assert cancelled.title == "Winter Swiss was cancelled"
    gone = message(_entry(UserEvent.Type.TOURNAMENT_WITHDRAWN, reason="no_show"))
    assert "without having moved" in gone.body
    soon = message(_entry(UserEvent.Type.TOURNAMENT_STARTS_SOON,
                          starts_at="2027-01-10T18:00:00+00:00"))
    assert soon.body == "The tournament starts at 2027-01-10 18:00 UTC."
    challenge = message({**_entry(UserEvent.Type.TOURNAMENT_ROUND, round=None),
                         "match": "0e0e0e0e-0000-4000-8000-000000000000"})
    assert challenge.title == "Winter Swiss: a ladder challenge"
    assert challenge.path == "/match/0e0e0e0e-0000-4000-8000-000000000000"
