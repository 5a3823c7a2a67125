"""Level-4 moves go to the deep bots' queue (``BOTS_DEEP_QUEUE``), the other levels' to the
default queue: a level-4 bot thinking for seconds never delays a level-1 answer or a round's
scoring. Covers the move after a transition, the due-work sweep and the real-time chain."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.catalog import games
from games.services import SeatSpec, bot_accounts_ensure, due_work_sweep, match_create, scheduling
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(settings):
    settings.BOTS_DEEP_QUEUE = "deep-test"
    settings.DUE_WORK_GRACE_SECONDS = 30.0
    with mock.patch.object(scheduling, "send") as send, \
            mock.patch.object(scheduling.transaction, "on_commit", lambda f: f()):
        yield send


def _bot_moves(send) -> list[tuple[str, str | None]]:
    return [(c.args[0], c.kwargs.get("queue")) for c in send.call_args_list
            if c.args[0] in (scheduling.MATCH_BOT_MOVE_PLAY, scheduling.MATCH_BOT_RACE_TICK)]


@pytest.mark.parametrize(("level", "queue"), [(1, None), (3, None), (4, "deep-test")])
def test_a_bots_turn_goes_to_its_levels_queue(sent, level, queue):
    bot_accounts_ensure()
    user = UserFactory()
    match_create(user=user, game="nibble", config={"first_seat": 1},
                 seats=[SeatSpec("me"), SeatSpec("bot", level=level)])
    assert _bot_moves(sent) == [(scheduling.MATCH_BOT_MOVE_PLAY, queue)]
    sent.reset_mock()
    assert due_work_sweep(now=timezone.now() + timedelta(seconds=31))["requeued"] == 1
    assert _bot_moves(sent) == [(scheduling.MATCH_BOT_MOVE_PLAY, queue)]


def test_a_real_time_level_4_bot_ticks_on_the_deep_queue(sent):
    bot_accounts_ensure()
    user = UserFactory()
    match_create(user=user, game="nimble", config={"mode": "race"},
                 seats=[SeatSpec("me"), SeatSpec("bot", level=4), SeatSpec("bot", level=1)])
    assert sorted(_bot_moves(sent), key=str) == sorted(
        [(scheduling.MATCH_BOT_RACE_TICK, "deep-test"), (scheduling.MATCH_BOT_RACE_TICK, None)],
        key=str)


def test_the_bot_list_shows_a_level_4_account_per_game_with_its_measured_strength(
        client_for, alice):
    bot_accounts_ensure()
    bots = client_for(alice).get("/api/bots").json()
    deep = {b["game"]: b for b in bots if b["level"] == 4}
    assert deep and sorted(deep) == sorted(slug for slug, spec in games().items()
                                           if 4 in spec.levels)
    for slug, bot in deep.items():
        strength = games()[slug].texts.strength[4]
        assert bot["username"] == f"{slug}-bot-4"
        assert "a move; beat level 3 in" in bot["description"]
        assert bot["description"].endswith(strength)  # whole, within the field
        assert "«" not in bot["description"]
