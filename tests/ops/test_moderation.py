"""Moderation in the admin: search, the match log and state, abort, adjudicate, ban and unban,
each through its confirmation page with a required reason, recorded as a move and an audit
entry, and refused to anyone without the moderate permission."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth.models import Permission
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import AuditEntry, Match, Move, RatingChange, UserEvent
from games.selectors.replay import match_replay_problem
from games.services import SeatSpec, bot_account_ensure, match_create
from tests.factories import UserFactory, token_for
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    return UserFactory(username="mod", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(moderator):
    client = Client()
    client.force_login(moderator)
    return client


@pytest.fixture
def played(client_for, alice, bob):
    """An active rated Nibble match, alice (seat 0) against bob, three moves in."""
    match = start_nibble_match(client_for(alice), client_for(bob))
    for _ in range(3):
        match.play_one()
    return match


def abort_url(match_id) -> str:
    return reverse("admin:games_match_abort", args=[match_id])


def adjudicate_url(match_id) -> str:
    return reverse("admin:games_match_adjudicate", args=[match_id])


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --------------------------------------------------------------------------- permissions


def test_moderation_is_refused_to_players_and_to_staff_without_the_permission(played, bob):
    player = Client()
    player.force_login(UserFactory())
    for url in (abort_url(played.id), adjudicate_url(played.id)):
        response = player.post(url, {"reason": "because", "winners": ["0"],
                                     "expected_version": "3"})
        assert response.status_code == 302 and "/login/" in response["Location"]

    clerk = UserFactory(is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(
        codename__in=["view_match", "view_user", "view_auditentry"]))
    staff = Client()
    staff.force_login(clerk)
    for url in (abort_url(played.id), adjudicate_url(played.id)):
        assert staff.get(url).status_code == 403
        response = staff.post(url, {"reason": "because", "winners": ["0"], "draw": "",
                                    "expected_version": "3"})
        assert response.status_code == 403
    page = staff.get(reverse("admin:games_match_change", args=[played.id]))
    assert page.status_code == 200 and b"Abort\xe2\x80\xa6" not in page.content
    # The list actions are not offered, and posting one does nothing.
    changelist = staff.get(reverse("admin:accounts_user_changelist"))
    assert b"ban_users" not in changelist.content
    staff.post(reverse("admin:accounts_user_changelist"),
               {"action": "ban_users", "_selected_action": [bob.pk], "confirm": "yes",
                "reason": "spam"})
    staff.post(reverse("admin:games_match_changelist"),
               {"action": "abort_matches", "_selected_action": [played.id], "confirm": "yes",
                "reason": "stuck"})
    bob.refresh_from_db()
    assert bob.is_active
    assert Match.objects.get(pk=played.id).status == "active"
    assert not AuditEntry.objects.exists()


# --------------------------------------------------------------------------- looking


def test_matches_are_found_by_id_prefix_game_status_and_player(staff_client, played, carol):
    other = match_create(user=carol, game="nimble", seats=[SeatSpec("me"), SeatSpec("open")])
    changelist = reverse("admin:games_match_changelist")

    def found(term: str) -> set[str]:
        page = staff_client.get(changelist, {"q": term})
        assert page.status_code == 200
        return {str(m.pk) for m in page.context["cl"].result_list}

    assert found(played.id) == {played.id}
    assert found(played.id[:8]) == {played.id}
    assert found("bob") == {played.id}
    assert found("carol") == {str(other.pk)}
    assert found("nimble") == {str(other.pk)}
    assert found("open") == {str(other.pk)}
    assert found("active") == {played.id}
    assert found("nobody-of-that-name") == set()
    users = staff_client.get(reverse("admin:accounts_user_changelist"), {"q": "car"})
    assert [u.username for u in users.context["cl"].result_list] == ["carol"]


def test_a_match_page_shows_its_log_in_order_and_its_state_read_only(staff_client, played):
    match = Match.objects.get(pk=played.id)
    page = staff_client.get(reverse("admin:games_match_change", args=[played.id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html
    rows = re.findall(r'<td class="field-seq">\s*<p>(\d+)</p>', html)
    assert rows == ["1", "2", "3"]
    assert len(re.findall(r'<td class="field-kind">\s*<p>Move</p>', html)) == 3
    # The state is shown whole, escaped, in a read-only block.
    assert "State (engine snapshot, read-only)" in html
    assert "&quot;board&quot;" in html
    assert "<textarea" not in html.split("State (engine snapshot")[1].split("</pre>")[0]
    assert match.state is not None
    assert "Abort\u2026" in html and "Adjudicate\u2026" in html
    # Changing the log through the admin stays impossible.
    move = Move.objects.get(match_id=played.id, seq=1)
    assert staff_client.post(reverse("admin:games_move_delete", args=[move.pk]),
                             {"post": "yes"}).status_code == 403


# --------------------------------------------------------------------------- abort


def test_abort_asks_for_a_reason_then_aborts_once_and_is_audited(staff_client, moderator,
                                                                 played, alice, bob,
                                                                 django_capture_on_commit_callbacks):
    page = staff_client.get(abort_url(played.id))
    assert page.status_code == 200
    assert b'name="reason"' in page.content and b'name="expected_version"' in page.content

    refused = staff_client.post(abort_url(played.id), {"reason": "  ", "expected_version": 3})
    assert refused.status_code == 200 and refused.context["form"].errors["reason"]
    assert Match.objects.get(pk=played.id).status == "active"

    stale = staff_client.post(abort_url(played.id), {"reason": "stuck", "expected_version": 2},
                              follow=True)
    assert any("moved on" in m for m in messages_of(stale)), messages_of(stale)
    assert Match.objects.get(pk=played.id).status == "active"

    with django_capture_on_commit_callbacks(execute=True):
        done = staff_client.post(abort_url(played.id),
                                 {"reason": "stuck for a week", "expected_version": 3})
    assert done.status_code == 302
    match = Match.objects.get(pk=played.id)
    assert match.status == "aborted" and match.outcome == {"reason": "aborted"}
    assert match.version == 3 and match.actors == [] and match.work_due_at is None
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor, entry.match_id, entry.reason) == (
        "abort", moderator, match.id, "stuck for a week")
    assert entry.data == {"version": 3, "status_before": "active"}
    for player in (alice, bob):
        assert UserEvent.objects.filter(user=player, type="match_aborted", match=match).exists()
    assert not RatingChange.objects.exists()
    # A second abort changes nothing and records nothing.
    again = staff_client.post(abort_url(played.id), {"reason": "again", "expected_version": 3},
                              follow=True)
    assert any("Not aborted" in m for m in messages_of(again))
    assert AuditEntry.objects.count() == 1
    # The players see a match that is over.
    assert_error(played.a.post(match_url(played.id, "moves"), {"move": {"take": [[0, 0]]}},
                               format="json"), 409, "game_over")


def test_abort_several_from_the_list_after_a_confirmation(staff_client, played, carol):
    waiting = match_create(user=carol, game="nibble", seats=[SeatSpec("me"), SeatSpec("open")])
    changelist = reverse("admin:games_match_changelist")
    selected = {"action": "abort_matches", "_selected_action": [played.id, str(waiting.pk)]}
    confirm = staff_client.post(changelist, selected)
    assert confirm.status_code == 200
    assert b"Abort matches" in confirm.content and b'name="reason"' in confirm.content
    assert Match.objects.filter(status="aborted").count() == 0
    no_reason = staff_client.post(changelist, {**selected, "confirm": "yes", "reason": ""})
    assert no_reason.status_code == 200 and Match.objects.filter(status="aborted").count() == 0
    done = staff_client.post(changelist, {**selected, "confirm": "yes", "reason": "cleanup"})
    assert done.status_code == 302
    assert Match.objects.filter(status="aborted").count() == 2
    assert AuditEntry.objects.filter(action="abort", reason="cleanup").count() == 2


# --------------------------------------------------------------------------- adjudicate


def test_adjudication_is_a_system_entry_in_the_log_and_is_rated(
        staff_client, moderator, played, alice, bob, django_capture_on_commit_callbacks, caplog):
    page = staff_client.get(adjudicate_url(played.id))
    assert page.status_code == 200 and b'name="winners"' in page.content
    neither = staff_client.post(adjudicate_url(played.id),
                                {"reason": "x", "expected_version": 3, "rated": "on"})
    assert neither.status_code == 200 and neither.context["form"].non_field_errors()
    both = staff_client.post(adjudicate_url(played.id), {
        "reason": "x", "expected_version": 3, "winners": ["0"], "draw": "on"})
    assert both.status_code == 200 and both.context["form"].non_field_errors()

    caplog.set_level(logging.DEBUG)
    with django_capture_on_commit_callbacks(execute=True):
        done = staff_client.post(adjudicate_url(played.id), {
            "reason": "bob stopped answering, alice was far ahead", "expected_version": 3,
            "winners": ["0"], "rated": "on"})
    assert done.status_code == 302
    match = Match.objects.get(pk=played.id)
    assert match.status == "finished" and match.version == 4
    assert match.outcome == {"ranks": [1, 2], "scores": [0.0, 0.0], "winners": [0],
                             "reason": "adjudicated"}
    last = Move.objects.get(match=match, seq=4)
    assert (last.kind, last.seat, last.user, last.payload) == (
        "system", None, None, {"reason": "adjudicated"})
    assert last.events == [{"type": "match_ended", **match.outcome}]
    assert [s.rank for s in match.seats.order_by("index")] == [1, 2]
    entry = AuditEntry.objects.get(action="adjudicate")
    assert entry.actor == moderator and entry.data["seq"] == 4
    assert entry.data["ranks"] == [1, 2] and entry.data["rated"] is True
    # Rated as any finished rated match: alice gains, bob loses.
    changes = {c.user: c for c in RatingChange.objects.filter(match=match)}
    assert changes[alice].display_after > changes[alice].display_before
    assert changes[bob].display_after < changes[bob].display_before
    assert UserEvent.objects.filter(user=bob, type="match_finished", match=match).exists()
    # The log still replays (the entry leaves the game state as it was); players see it.
    assert match_replay_problem(match) is None
    log = played.b.get(match_url(played.id, "moves")).json()["moves"]
    assert log[-1]["kind"] == "system" and log[-1]["payload"] == {"reason": "adjudicated"}
    assert played.a.get(match_url(played.id)).json()["status"] == "finished"
    assert played.a.get(match_url(played.id, "board.svg"), {"seq": 2}).status_code == 200
    # The log lines name ids only: no reason, no state.
    assert "far ahead" not in caplog.text and "board" not in caplog.text
    assert match.seed not in caplog.text

    again = staff_client.post(adjudicate_url(played.id), {
        "reason": "again", "expected_version": 4, "draw": "on"}, follow=True)
    assert any("Not adjudicated" in m for m in messages_of(again))
    assert AuditEntry.objects.filter(action="adjudicate").count() == 1
    assert Match.objects.get(pk=played.id).version == 4


def test_a_draw_can_be_declared_without_counting_for_ratings(
        staff_client, played, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(adjudicate_url(played.id), {
            "reason": "server fault", "expected_version": 3, "draw": "on"})
    match = Match.objects.get(pk=played.id)
    assert match.status == "finished" and not match.rated
    assert match.outcome["ranks"] == [1, 1] and match.outcome["winners"] == [0, 1]
    assert not RatingChange.objects.exists()
    assert AuditEntry.objects.get().data["was_rated"] is True


def test_adjudication_of_a_match_that_moved_on_or_never_started_is_refused(
        staff_client, played, carol):
    stale = staff_client.post(adjudicate_url(played.id), {
        "reason": "x", "expected_version": 2, "winners": ["1"]}, follow=True)
    assert any("moved on" in m for m in messages_of(stale))
    waiting = match_create(user=carol, game="nibble", seats=[SeatSpec("me"), SeatSpec("open")])
    unstarted = staff_client.post(adjudicate_url(waiting.pk), {
        "reason": "x", "expected_version": 0, "winners": ["0"]}, follow=True)
    assert any("abort it instead" in m for m in messages_of(unstarted))
    assert not AuditEntry.objects.exists()
    assert Match.objects.get(pk=played.id).version == 3


def test_a_seat_that_left_ranks_below_the_declared_result(staff_client, carol, dave, alice,
                                                         django_capture_on_commit_callbacks):
    from games.services import match_join, match_resign
    from tests.ops.play import human_move

    bot_account_ensure("nimble", 1)
    match = match_create(user=alice, game="nimble",
                         seats=[SeatSpec("me"), SeatSpec("open"), SeatSpec("open")])
    match_join(user=carol, match_id=match.id)
    with django_capture_on_commit_callbacks(execute=True):
        match_join(user=dave, match_id=match.id)
    import random
    human_move(match, random.Random(1))
    match_resign(user=carol, match_id=match.id)
    match.refresh_from_db()
    page = staff_client.get(adjudicate_url(match.pk))
    assert b'value="1"' not in page.content  # a seat that left cannot win
    staff_client.post(adjudicate_url(match.pk), {
        "reason": "abandoned", "expected_version": match.version, "winners": ["2"]})
    match.refresh_from_db()
    assert match.outcome["ranks"] == [2, 3, 1]
    assert match_replay_problem(match) is None


# --------------------------------------------------------------------------- ban


def test_a_ban_deactivates_revokes_tokens_and_sessions_and_leaves_matches(
        staff_client, moderator, client_for, alice, bob, carol, dave,
        django_capture_on_commit_callbacks):
    bob_api = client_for(bob)
    second_key = token_for(bob)
    web = Client()
    web.force_login(bob)
    assert Session.objects.count() == 2  # the moderator's and bob's

    played = start_nibble_match(client_for(alice), bob_api)      # bob has moved: forfeit
    played.play_one()
    played.play_one()
    quiet = start_nibble_match(client_for(carol), client_for(bob))  # nobody moved: abort
    hosted = match_create(user=bob, game="nimble",                   # his open match: abort
                          seats=[SeatSpec("me"), SeatSpec("open"), SeatSpec("open")])
    invited = match_create(user=dave, game="nibble",                 # invitation: reopened
                           seats=[SeatSpec("me"), SeatSpec("user", username="bob")])
    finished_before = AuditEntry.objects.count()

    changelist = reverse("admin:accounts_user_changelist")
    selected = {"action": "ban_users", "_selected_action": [bob.pk]}
    confirm = staff_client.post(changelist, selected)
    assert confirm.status_code == 200 and b"Ban users" in confirm.content
    with django_capture_on_commit_callbacks(execute=True):
        done = staff_client.post(changelist, {**selected, "confirm": "yes",
                                              "reason": "abusive chat"}, follow=True)
    assert done.status_code == 200
    assert any("bob banned: 3 tokens revoked, 1 sessions ended, 4 matches" in m
               for m in messages_of(done)), messages_of(done)

    bob.refresh_from_db()
    assert not bob.is_active
    assert not ApiToken.objects.filter(user=bob).exists()
    assert Session.objects.count() == 1
    # Every token bob held is refused with a coded error, the one this process remembered too.
    assert_error(bob_api.get("/api/me"), 401, "authentication_failed")
    other = Client(HTTP_AUTHORIZATION=f"Token {second_key}")
    assert_error(other.get("/api/me"), 401, "authentication_failed")
    # And he cannot sign in for a new one.
    assert_error(Client().post("/api/auth/token", {"username": "bob",
                                                   "password": "correct-horse-battery"},
                               content_type="application/json"), 401, "authentication_failed")

    results = {str(k): v for k, v in AuditEntry.objects.get(action="ban").data["matches"].items()}
    assert results == {played.id: "forfeited", quiet.id: "aborted", str(hosted.pk): "aborted",
                       str(invited.pk): "seat_reopened"}
    game = Match.objects.get(pk=played.id)
    assert game.status == "finished" and game.outcome["winners"] == [0]
    forfeit = Move.objects.get(match=game, seq=game.version)
    assert (forfeit.kind, forfeit.seat, forfeit.payload) == ("forfeit", 1, {"reason": "banned"})
    assert game.seats.get(index=1).forfeit_reason == "banned"
    assert RatingChange.objects.filter(match=game).count() == 2
    assert Match.objects.get(pk=quiet.id).status == "aborted"
    assert Match.objects.get(pk=hosted.pk).status == "aborted"
    reopened = Match.objects.get(pk=invited.pk)
    assert reopened.status == "open" and reopened.seats.get(index=1).user is None
    entry = AuditEntry.objects.get(action="ban")
    assert (entry.actor, entry.target_user, entry.reason, entry.target) == (
        moderator, bob, "abusive chat", "bob")
    assert entry.data["tokens_revoked"] == 3 and entry.data["sessions_ended"] == 1
    assert AuditEntry.objects.count() == finished_before + 1

    # Banning again records nothing new.
    staff_client.post(changelist, {**selected, "confirm": "yes", "reason": "again"})
    assert AuditEntry.objects.filter(action="ban").count() == 1

    # Unbanned, he signs in again with his password; the matches stay as they ended.
    staff_client.post(changelist, {"action": "unban_users", "_selected_action": [bob.pk],
                                   "confirm": "yes", "reason": "appeal accepted"})
    bob.refresh_from_db()
    assert bob.is_active
    assert AuditEntry.objects.get(action="unban").reason == "appeal accepted"
    signed_in = Client().post("/api/auth/token", {"username": "bob",
                                                  "password": "correct-horse-battery"},
                              content_type="application/json")
    assert signed_in.status_code in (200, 201), signed_in.json()
    assert Match.objects.get(pk=played.id).status == "finished"


def test_bots_and_oneself_are_not_banned(staff_client, moderator):
    bot = bot_account_ensure("nibble", 1)
    changelist = reverse("admin:accounts_user_changelist")
    for target in (bot, moderator):
        done = staff_client.post(changelist, {"action": "ban_users",
                                              "_selected_action": [target.pk],
                                              "confirm": "yes", "reason": "x"}, follow=True)
        assert done.status_code == 200
        target.refresh_from_db()
        assert target.is_active
    assert not AuditEntry.objects.exists()


def test_the_audit_log_is_read_only(staff_client, played):
    staff_client.post(abort_url(played.id), {"reason": "stuck", "expected_version": 3})
    entry = AuditEntry.objects.get()
    listing = staff_client.get(reverse("admin:games_auditentry_changelist"))
    assert listing.status_code == 200 and b"stuck" in listing.content
    change = reverse("admin:games_auditentry_change", args=[entry.pk])
    assert staff_client.get(change).status_code == 200
    assert staff_client.post(change, {"reason": "edited"}).status_code == 403
    assert staff_client.post(reverse("admin:games_auditentry_delete", args=[entry.pk]),
                             {"post": "yes"}).status_code == 403
    entry.reason = "edited"
    with pytest.raises(ValueError):
        entry.save()
    assert AuditEntry.objects.get().reason == "stuck"
