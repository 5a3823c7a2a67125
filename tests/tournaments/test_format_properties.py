"""Multiplayer Swiss tables, round robin schedules, the ladder, points per placing and
standings, as properties over random fields."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.formats import ladder, records, roundrobin, standings, swiss
from games.tournaments.formats.history import pair_key
from games.tournaments.formats.tables import table_sizes


@given(st.integers(0, 60), st.integers(2, 4), st.integers(1, 3))
def test_table_sizes_seat_all_but_at_most_one_within_bounds(players, size, smallest):
    smallest = min(smallest, size)
    sizes = table_sizes(players, size, smallest)
    assert players - 1 <= sum(sizes) <= players or not sizes
    assert all(smallest <= count <= size for count in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), st.integers(3, 4), st.integers(0, 10**6))
def test_multiplayer_swiss_seats_everyone_once_a_round(n, size, salt):
    players = list(range(1, n + 1))
    rng = random.Random(salt)
    tables: list[records.Table] = []
    byes: list[int] = []
    for number in range(1, 6):
        pairing = swiss.pair_tables(players, tables, round=number, size=size, seed=str(salt))
        seated = [player for table in pairing.tables for player in table]
        seated += [pairing.bye] if pairing.bye is not None else []
        assert sorted(seated) == players
        assert all(2 <= len(table) <= size for table in pairing.tables)
        for table in pairing.tables:
            ranks = [rng.randrange(len(table)) for _ in table]
            tables.append(records.finished_table(number, table, ranks,
                                                 records.DEFAULT_PLACING_POINTS[size]))
        if pairing.bye is not None:
            byes.append(pairing.bye)
            tables.append(records.bye(number, pairing.bye, 6.0))
    assert len(byes) == len(set(byes)) or len(byes) > n


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12))
def test_circle_method_meets_every_pair_once_with_balanced_seats(n):
    players = list(range(1, n + 1))
    rounds = roundrobin.circle(players)
    met: list[frozenset[int]] = []
    firsts = dict.fromkeys(players, 0)
    for pairing in rounds:
        seated = [player for table in pairing.tables for player in table]
        assert len(seated) == len(set(seated))
        met += [pair_key(*table) for table in pairing.tables]
        for first, second in pairing.tables:
            firsts[first] += 1
            firsts[second] -= 1
    assert sorted(met, key=sorted) == sorted((pair_key(a, b) for a, b in
                                              combinations(players, 2)), key=sorted)
    assert all(abs(balance) <= 1 for balance in firsts.values())


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(3, 4), st.text(max_size=4))
def test_a_multiplayer_schedule_brings_every_pair_together(n, size, seed):
    players = list(range(1, n + 1))
    rounds = roundrobin.schedule(players, size, seed=seed)
    met = set()
    for pairing in rounds:
        seated = [player for table in pairing.tables for player in table]
        assert len(seated) == len(set(seated))
        assert all(2 <= len(table) <= size for table in pairing.tables)
        met |= {pair_key(a, b) for table in pairing.tables for a, b in combinations(table, 2)}
    assert met == {pair_key(a, b) for a, b in combinations(players, 2)}
    assert rounds == roundrobin.schedule(players, size, seed=seed)


@given(st.permutations(list(range(1, 9))), st.integers(0, 7), st.integers(0, 7),
       st.booleans())
def test_a_winning_challenger_takes_the_place_and_nobody_else_changes_order(order, i, j, won):
    challenger, target = order[max(i, j)], order[min(i, j)]
    after = ladder.after_challenge(order, challenger, target, won)
    assert sorted(after) == sorted(order)
    if won and i != j:
        assert after.index(challenger) == order.index(target)
    else:
        assert after == order
    rest = [player for player in order if player != challenger]
    assert [player for player in after if player != challenger] == rest
    assert ladder.may_challenge(order, challenger, target, 3) == (0 < abs(i - j) <= 3)


@given(st.lists(st.integers(0, 3), min_size=2, max_size=4))
def test_points_per_placing_are_shared_by_ties_and_add_up(ranks):
    placing = records.DEFAULT_PLACING_POINTS[4]
    points = records.placing_points(ranks, placing)
    size = len(ranks)
    values = list(placing[:size - 1]) + [placing[-1]] if size < 4 else list(placing)
    assert abs(sum(points) - sum(values)) < 1e-9
    for a, b in combinations(range(size), 2):
        if ranks[a] == ranks[b]:
            assert points[a] == points[b]
        elif ranks[a] < ranks[b]:
            assert points[a] > points[b]


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 10), st.integers(0, 10**6), st.sampled_from(["swiss", "round_robin"]))
def test_standings_are_ordered_by_points_and_count_every_point(n, salt, kind):
    players = list(range(1, n + 1))
    rng = random.Random(salt)
    tables = []
    for number, pairing in enumerate(roundrobin.circle(players), start=1):
        for table in pairing.tables:
            ranks = [0, 0] if rng.random() < 0.2 else rng.sample([0, 1], 2)
            tables.append(records.finished_table(number, table, ranks, (1.0, 0.0)))
    lines = standings.standings(players, tables, kind)
    assert [line.player for line in lines] != [] and len(lines) == n
    assert all(a.points >= b.points for a, b in zip(lines, lines[1:], strict=False))
    assert all(a.rank <= b.rank for a, b in zip(lines, lines[1:], strict=False))
    assert abs(sum(line.points for line in lines) - sum(sum(t.points) for t in tables)) < 1e-9
    table = standings.crosstable(players, tables)
    assert all(len(table[player]) == n - 1 for player in players)


def test_head_to_head_then_sonneborn_berger_on_a_small_round_robin():
    # 1 beats 2 and 4 and loses to 3; 2 beats 3; 3 beats 1: 2 and 3 are level on points and
    # 2 won their meeting.
    tables = [records.finished_table(1, (1, 2), (0, 1), (1.0, 0.0)),
              records.finished_table(2, (2, 3), (0, 1), (1.0, 0.0)),
              records.finished_table(3, (3, 1), (0, 1), (1.0, 0.0)),
              records.finished_table(3, (4, 1), (1, 0), (1.0, 0.0))]
    lines = standings.standings([1, 2, 3, 4], tables, standings.ROUND_ROBIN)
    assert [(line.player, line.rank) for line in lines] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    by_player = {line.player: line for line in lines}
    assert by_player[2].head_to_head == 1.0 and by_player[3].head_to_head == 0.0
    assert by_player[1].sonneborn_berger == 1.0      # beat 2 (1 point) and 4 (none)
    assert by_player[3].sonneborn_berger == 2.0      # beat 1 (2 points)
    assert by_player[1].buchholz == 1.0 + 1.0 + 0.0


def test_swiss_ties_break_on_buchholz_and_share_a_rank_when_level_on_all():
    tables = [records.finished_table(1, (1, 2), (0, 1), (1.0, 0.0)),
              records.finished_table(1, (3, 4), (0, 1), (1.0, 0.0))]
    lines = standings.standings([1, 2, 3, 4], tables, standings.SWISS)
    assert [(line.player, line.rank) for line in lines] == [(1, 1), (3, 1), (2, 3), (4, 3)]
