"""A plan that ended (games.services.plan_replies) is pushed to its owner, not mailed by
default, in the player's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog import get_engine
from games.notify.kinds import message
from games.selectors.feeds import user_events_after
from games.services import match_move_submit, plan_save
from tests.notify.helpers import registered_device, start, verified

pytestmark = pytest.mark.django_db

NIBBLE = get_engine("nibble")


def _not_covered(alice, bob):
    """Bob plans for one of Alice's moves; she makes another."""
    match = start("nibble", [alice, bob], config={"first_seat": 0})
    keys = [NIBBLE.dump_move(m) for m in NIBBLE.legal_moves(NIBBLE.load(match.state), 0)]
    plan_save(user=bob, match_id=match.id, tree=[{"on": keys[0]}], expected_version=0)
    match_move_submit(user=alice, match_id=match.id, move=keys[1])
    return match


def test_a_move_the_plan_did_not_cover_is_pushed_not_mailed(
        smtp, push_service, alice, bob, django_capture_on_commit_callbacks):
    verified(bob)
    device = registered_device(push_service, bob)
    with django_capture_on_commit_callbacks(execute=True):
        match = _not_covered(alice, bob)
    pushed = [p for p in push_service.for_device(device) if p["kind"] == "plan_not_covered"]
    assert len(pushed) == 1
    assert pushed[0]["url"] == f"/match/{match.id}"
    assert pushed[0]["title"] == "Nibble: your plan did not cover their move"
    assert not [m for m in smtp.messages if "plan" in m["Subject"]]


@pytest.mark.parametrize(("language", "title"), [
    ("fr", "Nibble : votre plan ne prévoyait pas son coup"),
    ("pt-br", "Nibble: o seu plano não previa a jogada dele"),
    ("ko", "니블: 계획에 없던 수를 상대가 두었습니다"),
])
def test_the_words_are_in_the_players_language(alice, bob, language, title):
    _not_covered(alice, bob)
    entries = [e for e in user_events_after(user=bob) if e["type"] == "plan_not_covered"]
    english = [message(entry) for entry in entries]
    with translation.override(language):
        words = [message(entry) for entry in entries]
    assert [w.title for w in words] == [title]
    assert words[0].body and words[0].body != english[0].body
