"""The move log's encoding, owned by ``games.movelog``: how system entries and forfeits are
written and read back, a declared result's entry, and replay to any seq, for every kind of
entry the recording path writes."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from games import movelog
from games.catalog import get_engine
from games.kit.protocol import Outcome
from games.models import Match, Move
from games.services import (
    match_deadline_expire,
    match_resign,
    moderation,
    vacation_end,
    vacation_start,
)
from tests.factories import UserFactory
from tests.notify.helpers import play, start

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)


def test_system_payloads_and_forfeits_read_back_their_reason():
    assert movelog.system_payload() == {}
    for reason in (movelog.IDLE, movelog.ADJUDICATED):
        entry = Move(kind=Move.Kind.SYSTEM, payload=movelog.system_payload(reason))
        assert movelog.entry_reason(entry) == reason
    assert movelog.entry_reason(Move(kind=Move.Kind.SYSTEM, payload={})) is None
    forfeit = Move(kind=Move.Kind.FORFEIT, payload=movelog.forfeit_payload(movelog.TIMEOUT))
    assert movelog.entry_reason(forfeit) == movelog.TIMEOUT
    assert movelog.entry_reason(Move(kind=Move.Kind.MOVE, payload=["not", "a", "dict"])) is None
    away = Move(kind=Move.Kind.SYSTEM, payload=movelog.vacation_payload(1, away=True))
    assert away.payload == {"reason": "vacation", "seat": 1, "away": True}
    assert movelog.entry_reason(away) == movelog.VACATION


def test_a_declared_result_is_written_and_read_as_one_match_ended_event():
    outcome = Outcome(ranks=(1, 0), scores=(0.0, 0.0), reason=movelog.ADJUDICATED)
    entry = Move(kind=Move.Kind.SYSTEM, payload=movelog.system_payload(movelog.ADJUDICATED),
                 events=movelog.declared_events(outcome))
    assert entry.events == [{"type": movelog.MATCH_ENDED, **outcome.as_dict()}]
    assert movelog.declared_outcome(entry) == outcome.as_dict()
    assert movelog.declared_outcome(None) is None
    step = Move(kind=Move.Kind.SYSTEM, payload={}, events=entry.events)
    assert movelog.declared_outcome(step) is None


def _replays_to_the_stored_state(match: Match) -> None:
    match.refresh_from_db()
    engine = get_engine(match.game)
    assert engine.dump(movelog.state_at(match, engine, match.version)) == match.state


def test_an_idle_stalemate_replays():
    users = [UserFactory() for _ in range(2)]
    match = start("nimble", users, turn_seconds=None, config={"mode": "race"})
    play(match, users)
    match.refresh_from_db()
    assert match.deadline is not None
    assert match_deadline_expire(match_id=match.id,
                                 now=match.deadline + timedelta(seconds=1)) == "stalemate"
    last = Move.objects.filter(match=match).latest("seq")
    assert last.kind == Move.Kind.SYSTEM and movelog.entry_reason(last) == movelog.IDLE
    _replays_to_the_stored_state(match)


def test_a_forfeit_and_an_adjudicated_result_replay():
    users = [UserFactory() for _ in range(3)]
    staff = UserFactory(is_staff=True, is_superuser=True)
    match = start("nimble", users, config={"mode": "turns"})
    match_resign(user=users[2], match_id=match.id)
    moderation.match_adjudicate(actor=staff, match_id=match.id,
                                decision=moderation.Decision(draw=True), reason="test")
    entries = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.kind, movelog.entry_reason(m)) for m in entries] == [
        (Move.Kind.FORFEIT, movelog.RESIGNED), (Move.Kind.SYSTEM, movelog.ADJUDICATED)]
    match.refresh_from_db()
    assert movelog.declared_outcome(entries[-1]) == match.outcome
    _replays_to_the_stored_state(match)


def test_vacation_entries_replay_leaving_the_game_as_it_was():
    users = [UserFactory() for _ in range(2)]
    match = start("nibble", users)
    play(match, users)
    vacation_start(user=users[0])
    vacation_end(user=users[0])
    entries = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.kind, movelog.entry_reason(m), m.events) for m in entries[1:]] == [
        (Move.Kind.SYSTEM, movelog.VACATION, []), (Move.Kind.SYSTEM, movelog.VACATION, [])]
    engine = get_engine(match.game)
    after_move = engine.dump(movelog.state_at(match, engine, 1))
    match.refresh_from_db()
    assert [engine.dump(movelog.state_at(match, engine, seq)) for seq in (2, 3)] == \
        [after_move, after_move]
    _replays_to_the_stored_state(match)


def test_the_reasons_are_spelled_in_the_move_log_module_alone():
    """The services and selectors name the reasons through ``games.movelog``."""
    spelled = re.compile(r"""["'](idle|adjudicated|resigned|banned)["']""")
    found = [str(path.relative_to(ROOT))
             for folder in ("games/services", "games/selectors")
             for path in sorted((ROOT / folder).glob("*.py"))
             if spelled.search(path.read_text(encoding="utf-8"))]
    assert found == []
