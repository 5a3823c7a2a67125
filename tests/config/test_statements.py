"""config.prepared.Statements: an insert or update written once per process leaves the rows as
``Model.save`` would, with the fields' own preparation (JSON, ``auto_now``, ``auto_now_add``)."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.prepared import Statements, Writes
from games.models import Match, Move, UserEvent
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _match(**fields) -> Match:
    return Match.objects.create(game="nibble", num_players=2, created_by=UserFactory(),
                                seed="s", **fields)

MOVE_FIELDS = ("match", "seq", "kind", "seat", "user", "payload", "events", "by_plan",
               "created_at")


def _row(model, pk) -> dict:
    return {key: value for key, value in vars(model.objects.get(pk=pk)).items()
            if key not in ("_state", "id", "created_at", "updated_at")}


def test_an_insert_writes_the_row_save_writes():
    match, user = _match(), UserFactory()
    values = dict(match=match, kind=Move.Kind.MOVE, seat=1, user=user,
                  payload={"take": [[1, 2]], "note": "é"}, events=[{"type": "took"}])
    before = timezone.now()
    inserted = Statements(Move).insert(Move(seq=1, **values), MOVE_FIELDS)
    saved = Move.objects.create(seq=2, **values)
    assert inserted.pk is not None and not inserted._state.adding
    assert inserted._state.db == "default"
    stored = Move.objects.get(pk=inserted.pk)
    assert stored.created_at >= before and inserted.created_at == stored.created_at
    assert {**_row(Move, inserted.pk), "seq": 2} == _row(Move, saved.pk)


def test_many_rows_in_one_statement_get_their_keys_in_order():
    match = _match()
    users = [UserFactory() for _ in range(3)]
    entries = [UserEvent(user=user, type=UserEvent.Type.YOUR_TURN, match=match,
                         data={"n": n}) for n, user in enumerate(users)]
    with CaptureQueriesContext(connection) as queries:
        Statements(UserEvent).insert_many(entries, ("user", "type", "match", "data",
                                                    "created_at"))
    assert len(queries) == 1
    for n, entry in enumerate(entries):
        stored = UserEvent.objects.get(pk=entry.pk)
        assert (stored.user_id, stored.data) == (users[n].id, {"n": n})
    assert Statements(UserEvent).insert_many([], ("user",)) == []


def test_an_update_writes_only_its_fields_and_moves_updated_at():
    match = _match(state={"board": [1]}, version=3)
    stale = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    earlier = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(updated_at=earlier)
    stale.version, stale.state, stale.actors = 4, {"board": [1, 2]}, [1]
    Statements(Match).update(stale, ("version", "state", "actors", "updated_at"))
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.state, stored.actors) == (4, {"board": [1, 2]}, [1])
    assert stored.status == Match.Status.ABORTED  # not among the fields: left as it was
    assert stored.updated_at > earlier


def test_an_update_of_a_row_that_is_gone_raises_as_save_does():
    match = _match()
    Match.objects.filter(pk=match.pk).delete()
    match.version += 1
    with pytest.raises(DatabaseError):
        Statements(Match).update(match, ("version",))


def test_the_sql_is_written_once_per_set_of_fields():
    match = _match()
    statements = Statements(Match)
    for version in range(3):
        match.version = version
        statements.update(match, ("version",))
    statements.update(match, ("version", "actors"))
    assert len(statements._updates) == 2


def _together(match, users, seq=1):
    """A log entry, the match row it moves on and a feed entry for each user, collected in a
    Writes."""
    writes = Writes()
    move = Move(match=match, seq=seq, kind=Move.Kind.MOVE, seat=0, user=users[0],
                payload={"take": [[0, 1]]}, events=[])
    writes.insert(Statements(Move), [move], MOVE_FIELDS)
    match.version, match.state = 1, {"board": [2]}
    writes.update(Statements(Match), match, ("version", "state", "updated_at"))
    entries = [UserEvent(user=user, type=UserEvent.Type.YOUR_TURN, match=match, data={"n": n})
               for n, user in enumerate(users)]
    writes.insert(Statements(UserEvent), entries, ("user", "type", "match", "data",
                                                   "created_at"))
    return writes, move, entries


def test_writes_together_are_one_statement_and_end_as_each_would_alone():
    match, users = _match(), [UserFactory(), UserFactory()]
    writes, move, entries = _together(match, users)
    with CaptureQueriesContext(connection) as queries:
        writes.write()
    assert len(queries) == 1 and queries[0]["sql"].startswith("WITH ")
    assert move.pk is not None and not move._state.adding
    assert Move.objects.get(pk=move.pk).payload == {"take": [[0, 1]]}
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.state) == (1, {"board": [2]})
    # Each entry got its own key, in order.
    assert [UserEvent.objects.get(pk=entry.pk).data for entry in entries] == [{"n": 0}, {"n": 1}]
    assert entries[0].pk < entries[1].pk
    # Nothing is left to write: a second write sends nothing.
    with CaptureQueriesContext(connection) as queries:
        writes.write()
    assert len(queries) == 0


def test_an_update_together_with_others_that_finds_no_row_raises():
    match, users = _match(), [UserFactory()]
    writes, _, _ = _together(match, users)
    Match.objects.filter(pk=match.pk).update(id=uuid4())
    with pytest.raises(DatabaseError), transaction.atomic():
        writes.write()


def test_the_statement_together_is_written_once_per_shape():
    match, users = _match(), [UserFactory()]
    Writes._sql.clear()
    for seq in (1, 2):
        writes, _, _ = _together(match, users, seq)
        writes.write()
    assert len(Writes._sql) == 1
    writes, _, _ = _together(match, [*users, UserFactory()], 3)  # two entries: another shape
    writes.write()
    assert len(Writes._sql) == 2


def test_one_write_alone_is_its_own_statement():
    match = _match()
    writes = Writes()
    match.version = 7
    writes.update(Statements(Match), match, ("version",))
    with CaptureQueriesContext(connection) as queries:
        writes.write()
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE ")
    assert Match.objects.get(pk=match.pk).version == 7
