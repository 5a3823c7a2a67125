"""The chat's pure rules (games.people.rules), property-tested, and the query that applies
``shown`` in the database, checked against it on every combination of line and reader."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.blocks import avoided_pairs
from games.people import rules
from games.people.lines import shown_filter
from games.people.models import ChatLine
from tests.games.matchplay import start_nibble_match

USERS = st.integers(min_value=1, max_value=6)
ROOMS = st.sampled_from([rules.PLAYERS, rules.SPECTATORS])
LINES = st.builds(rules.Line, author=USERS, room=ROOMS, shadowed=st.booleans())
READERS = st.builds(rules.Reader, user=st.one_of(st.none(), USERS), seated=st.booleans(),
                    running=st.booleans(), hidden=st.frozensets(USERS), muted=st.booleans())


@given(LINES, READERS)
def test_a_seat_never_gets_a_spectators_line_of_others_while_the_match_runs(line, reader):
    if reader.running and reader.seated and line.author != reader.user:
        assert not (line.room == rules.SPECTATORS and rules.shown(line, reader))


@given(LINES, READERS)
def test_shadowed_blocked_and_muted_lines_reach_their_author_alone(line, reader):
    if line.shadowed or line.author in reader.hidden or reader.muted:
        assert rules.shown(line, reader) == (line.author == reader.user)


@given(LINES, READERS)
def test_an_author_always_gets_their_own_lines(line, reader):
    if reader.user == line.author:
        assert rules.shown(line, reader)


@given(LINES, READERS)
def test_once_over_every_plain_line_reaches_everyone(line, reader):
    plain = not (line.shadowed or line.author in reader.hidden or reader.muted)
    if not reader.running and plain:
        assert rules.shown(line, reader)


@given(st.text(max_size=60))
def test_cleaning_is_idempotent_and_leaves_no_control_or_edge_space(text):
    once = rules.cleaned(text)
    assert rules.cleaned(once) == once
    assert once == once.strip() and "  " not in once and "\n" not in once
    assert rules.same_line(text, once)


@pytest.mark.parametrize(("text", "link"), [
    ("https://example.test", True), ("HTTP://x.y", True), ("see www.thing", True),
    ("go to evil.com now", True), ("bit.ly/abc", True), ("a.b.example.org", True),
    ("gg wp", False), ("e.g. that", False), ("3.14 points", False), ("ok.so", False),
    ("file.txt", False), ("", False)])
def test_links(text, link):
    assert rules.has_link(text) is link


@given(st.lists(st.tuples(USERS, USERS)), st.frozensets(USERS))
def test_avoided_pairs_are_the_blocks_among_the_players_either_way(blocks, players):
    pairs = avoided_pairs(blocks, players)
    for pair in pairs:
        assert len(pair) == 2 and pair <= players
        a, b = sorted(pair)
        assert (a, b) in blocks or (b, a) in blocks
    for a, b in blocks:
        if a != b and a in players and b in players:
            assert frozenset((a, b)) in pairs


@pytest.mark.django_db
def test_the_query_shows_exactly_what_the_rule_shows(client_for, make_user):
    users = [make_user() for _ in range(3)]
    match = start_nibble_match(client_for(users[0]), client_for(users[1]))
    lines = [ChatLine.objects.create(match_id=match.id, author=author, room=room,
                                     shadowed=shadowed, body="x")
             for author, room, shadowed in itertools.product(
                 users, [rules.PLAYERS, rules.SPECTATORS], [False, True])]
    ids = [None, *(u.pk for u in users)]
    for user, seated, running, muted in itertools.product(ids, *[[False, True]] * 3):
        for hidden in ([], [users[1].pk], [users[0].pk, users[2].pk]):
            reader = rules.Reader(user=user, seated=seated, running=running,
                                  hidden=frozenset(hidden), muted=muted)
            got = set(ChatLine.objects.filter(match_id=match.id)
                      .filter(shown_filter(reader)).values_list("pk", flat=True))
            want = {line.pk for line in lines if rules.shown(
                rules.Line(line.author_id, line.room, line.shadowed), reader)}
            assert got == want, reader
