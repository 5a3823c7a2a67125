"""Every objective on hand-built reserves, including each example the rules spec gives."""

from __future__ import annotations

import pytest

from games.nimalia.scoring import (
    COMPARE_SCORERS,
    OWN_SCORERS,
    crocodiles_meet_giraffes,
    crocodiles_yes_flamingos_no,
    few_giraffes,
    fewest_lions,
    forest_patches,
    four_terrain_rows,
    full_square,
    gorillas_by_lake,
    gorillas_yes_pandas_no,
    horizontal_pairs,
    ice_blocks,
    inland_flamingos,
    largest_savannah,
    lone_penguins,
    long_river,
    longest_river,
    longest_river_race,
    objective_points,
    otters_into_lake,
    otters_neighbours,
    pandas_on_edge,
    polar_bear_groups,
    ranked_points,
    river_lengths,
    savannahs_of_four,
    score_round,
    weakest_terrain,
)
from tests.engines.nimalia.helpers import grid


def test_every_objective_has_a_scorer() -> None:
    assert sorted([*OWN_SCORERS, *COMPARE_SCORERS]) == list(range(1, 23))


def test_empty_reserve_scores_nothing_negative() -> None:
    for objective in range(1, 23):
        assert all(p >= 0 for p in objective_points(objective, [{}, {}, {}]))


# --------------------------------------------------------------------------- O1


def test_o1_two_penguins_score_but_a_lone_lion_does_not() -> None:
    # The card art: an otter with two penguins next to it scores 1 + 1; the lion scores 0.
    assert otters_neighbours(grid("""
        PE Oi/ PE
        .. LI  ..
    """)) == 2


def test_o1_a_square_next_to_two_otters_counts_for_each() -> None:
    assert otters_neighbours(grid("PE Oi/ PE Oi/ PE")) == 4


def test_o1_otters_are_a_species_too() -> None:
    assert otters_neighbours(grid("""
        ..  Of/ ..
        Of\\ Of/ Of\\
    """)) == 3


def test_o1_diagonal_squares_are_not_neighbours() -> None:
    assert otters_neighbours(grid("""
        PE ..  PE
        .. Oi/ ..
        PE ..  PE
    """)) == 0


def test_o1_four_of_a_kind_around_an_otter() -> None:
    assert otters_neighbours(grid("""
        .. GO ..
        GO Of/ GO
        .. GO ..
    """)) == 4


# --------------------------------------------------------------------------- O2


@pytest.mark.parametrize(("cell", "scores"), [
    ((1, 0), True), ((2, 0), True), ((2, 1), True),    # around the bottom-left end
    ((0, 1), True), ((0, 2), True), ((1, 2), True),    # around the top-right end
    ((0, 0), False), ((2, 2), False),                  # the other diagonal's corners
])
def test_o2_lake_around_the_ends_of_a_rising_river(cell, scores) -> None:
    reserve = grid("""
        PE PE  PE
        PE Oi/ PE
        PE PE  PE
    """)
    reserve[cell] = grid("FL")[0, 0]
    assert otters_into_lake(reserve) == (2 if scores else 0)


@pytest.mark.parametrize(("cell", "scores"), [
    ((0, 1), True), ((0, 0), True), ((1, 0), True),    # around the top-left end
    ((1, 2), True), ((2, 2), True), ((2, 1), True),    # around the bottom-right end
    ((0, 2), False), ((2, 0), False),
])
def test_o2_lake_around_the_ends_of_a_falling_river(cell, scores) -> None:
    reserve = grid("""
        PE PE   PE
        PE Oi\\ PE
        PE PE   PE
    """)
    reserve[cell] = grid("CR")[0, 0]
    assert otters_into_lake(reserve) == (2 if scores else 0)


def test_o2_reaching_a_lake_through_other_otters_does_not_count() -> None:
    # One river of three otters; only the top one touches the flamingo's lake.
    reserve = grid("""
        ..  ..  Os/ FL
        ..  Os/ ..  ..
        Os/ ..  ..  ..
    """)
    assert longest_river(reserve) == 3
    assert otters_into_lake(reserve) == 2


def test_o2_an_otter_is_never_a_lake() -> None:
    assert otters_into_lake(grid("Of/ Of\\")) == 0


# --------------------------------------------------------------------------- O3 O4 O5 O6


def test_o3_forest_zones_and_otters_on_forest_join_them() -> None:
    assert forest_patches(grid("GO LI PA")) == 4
    assert forest_patches(grid("GO Of/ PA")) == 2
    assert forest_patches(grid("GO Os/ PA")) == 4
    assert forest_patches(grid("""
        GO ..
        .. PA
    """)) == 4   # diagonal squares are separate zones
    assert forest_patches(grid("LI FL")) == 0


def test_o4_gorillas_next_to_a_lake() -> None:
    assert gorillas_by_lake(grid("""
        GO FL GO
        .. .. CR
    """)) == 4
    assert gorillas_by_lake(grid("""
        GO ..
        .. FL
    """)) == 0
    assert gorillas_by_lake(grid("GO Of/")) == 0   # otters are never on a lake


def test_o5_largest_savannah_zone_counts_otters_on_savannah() -> None:
    assert largest_savannah(grid("""
        LI GI  ..  LI
        .. Os/ ..  ..
    """)) == 6
    assert largest_savannah(grid("FL PE")) == 0


def test_o6_savannah_zones_of_exactly_four() -> None:
    reserve = grid("""
        LI GI .. LI GI
        LI GI .. LI GI
        .. .. .. LI ..
    """)
    assert savannahs_of_four(reserve) == 6   # the 5-square zone scores nothing
    assert savannahs_of_four(grid("LI GI Os\\ LI")) == 6


# --------------------------------------------------------------------------- O7 O8 O9 O10


def test_o7_overlapping_ice_blocks_each_count() -> None:
    assert ice_blocks(grid("""
        PE PB Oi/
        PB PE PE
    """)) == 8
    assert ice_blocks(grid("""
        PE PB
        PB FL
    """)) == 0


def test_o8_polar_bear_groups_and_lone_bears() -> None:
    assert polar_bear_groups(grid("""
        PB PB .. PB
        .. PB .. ..
        PB .. .. ..
    """)) == 2 * 3 - 1 - 1
    assert polar_bear_groups(grid("PB")) == -1
    assert polar_bear_groups(grid("PE")) == 0


def test_o9_weakest_terrain() -> None:
    assert weakest_terrain(grid("FL LI PE GO Of/ CR")) == 2
    assert weakest_terrain(grid("""
        FL LI PE GO
        CR GI PB PA
    """)) == 4
    assert weakest_terrain(grid("FL LI PE")) == 0   # a missing terrain counts 0


@pytest.mark.parametrize(("picture", "points"), [
    ("FL", 0),
    ("FL FL\nFL FL", 3),
    ("FL FL FL\nFL FL FL\nFL FL FL", 5),
    ("\n".join(["FL FL FL FL"] * 4), 8),
    ("\n".join(["FL FL FL FL FL"] * 5), 13),
    ("\n".join(["FL FL FL FL FL FL"] * 6), 21),
    # The largest square may sit anywhere, not only at a corner of the reserve.
    (".. FL FL FL\nFL FL FL FL\n.. FL FL FL\n.. .. FL ..", 5),
    # A hole breaks a square.
    ("FL FL FL\nFL .. FL\nFL FL FL", 0),
    ("FL FL FL\nFL FL ..\nFL FL FL", 3),
])
def test_o10_largest_full_square(picture, points) -> None:
    assert full_square(grid(picture)) == points


# --------------------------------------------------------------------------- O11 O12 O13 O14


def test_o11_rows_with_all_four_terrains() -> None:
    assert four_terrain_rows(grid("""
        FL LI  PE  GO
        CR Oi/ Of\\ GI
        FL FL  FL  FL
    """)) == 6   # the otters give row 1 its ice and forest; row 2 is all lake
    assert four_terrain_rows(grid("""
        FL LI Oi/ Of\\
        LI FL PE  GO
    """)) == 6


def test_o11_columns_do_not_count() -> None:
    assert four_terrain_rows(grid("""
        FL
        LI
        PE
        GO
    """)) == 0


@pytest.mark.parametrize(("picture", "points"), [
    ("LI LI", 3),
    ("LI LI LI", 0),                     # a run of three scores nothing
    ("LI LI LI LI", 0),
    ("LI LI .. LI LI", 6),               # an empty cell ends a run
    ("LI LI GI GI", 6),
    ("LI LI GI GI GI", 3),
    ("LI\nLI", 0),                       # vertical pairs do not count
    ("LI GI LI", 0),
    (".. .. .. LI LI LI", 0),            # three at the right of the 6 x 6 frame: nothing
    (".. .. .. .. LI LI", 3),
    ("Of/ Oi\\ PE", 3),                  # otters are animals too, whatever the terrain
])
def test_o12_horizontal_runs_of_exactly_two(picture, points) -> None:
    assert horizontal_pairs(grid(picture)) == points


@pytest.mark.parametrize(("giraffes", "points"), [(0, 8), (1, 5), (2, 3), (3, 0), (5, 0)])
def test_o13_few_giraffes(giraffes, points) -> None:
    assert few_giraffes(grid(" ".join(["GI"] * giraffes + ["LI"]))) == points


def test_o14_inland_flamingos_and_holes() -> None:
    assert inland_flamingos(grid("""
        CR CR CR CR
        CR FL FL CR
        CR FL .. CR
        CR CR CR CR
    """)) == 3   # the two flamingos next to the hole are on the edge
    assert inland_flamingos(grid("""
        FL FL FL
        FL FL FL
        FL FL FL
    """)) == 3


# --------------------------------------------------------------------------- rivers


def test_rivers_join_at_shared_vertices() -> None:
    # Straight on along the diagonal.
    assert river_lengths(grid("""
        ..  Of/
        Of/ ..
    """)) == [2]
    # Turning into an orthogonal neighbour: / then \ share the top-right vertex.
    assert river_lengths(grid("Of/ Of\\")) == [2]
    # Parallel diagonals side by side do not touch.
    assert sorted(river_lengths(grid("Of/ Of/"))) == [1, 1]
    # Diagonal neighbours whose segments miss each other.
    assert sorted(river_lengths(grid("""
        Of\\ ..
        ..   Of/
    """))) == [1, 1]
    # Vertically: / above \ share the bottom-left vertex of the top square.
    assert river_lengths(grid("""
        Of/
        Of\\
    """)) == [2]


def test_zig_zags_chains_and_crossings() -> None:
    assert river_lengths(grid("Of/ Of\\ Of/ Of\\")) == [4]
    chain = grid("""
        Of\\ ..   Of/
        ..   Of\\ ..
        ..   ..   Of\\
    """)
    assert sorted(river_lengths(chain)) == [1, 3]
    # Four segments meeting at one vertex: a single river of four otters.
    assert river_lengths(grid("""
        Of\\ Of/
        Of/  Of\\
    """)) == [4]


@pytest.mark.parametrize(("length", "points"), [
    (0, 0), (1, 0), (2, 1), (3, 3), (4, 6), (5, 10), (6, 15), (7, 15)])
def test_o15_long_river(length, points) -> None:
    rows = []
    for r in range(length):
        tokens = [".."] * max(length, 1)
        tokens[r] = "Of\\"
        rows.append(" ".join(tokens))
    assert long_river(grid("\n".join(rows) or "FL")) == points


# --------------------------------------------------------------------------- O17 O19 O22


def test_o17_pandas_on_the_edge_including_holes() -> None:
    assert pandas_on_edge(grid("""
        GO GO GO GO
        GO PA PA GO
        GO PA .. GO
        GO PA GO PA
    """)) == 4 * 3   # (1,2) and (2,1) touch the hole; (3,1) and (3,3) the border; (1,1) not
    assert pandas_on_edge(grid("PA")) == 3


def test_o19_columns_with_exactly_one_penguin() -> None:
    assert lone_penguins(grid("""
        PE PE PE ..
        PE .. PB PE
        .. .. PE ..
    """)) == 2 * 3   # column 1 and column 3; column 0 and 2 hold two
    assert lone_penguins(grid("PE PE PE PE PE PE")) == 18


def test_o22_crocodiles_meet_giraffes() -> None:
    assert crocodiles_meet_giraffes(grid("""
        CR GI CR
        GI CR ..
        .. .. CR
    """)) == 6
    assert crocodiles_meet_giraffes(grid("""
        CR LI
        .. GI
    """)) == 0


# --------------------------------------------------------------------------- ranking rules


@pytest.mark.parametrize(("values", "points"), [
    ([3, 1], [5, 0]),                 # two players: no 2nd place
    ([3, 3], [5, 5]),
    ([3, 2, 1], [5, 2, 0]),           # 2nd only with 3-4 players
    ([3, 3, 1], [5, 5, 0]),           # tied 1st: nobody is 2nd
    ([3, 2, 2, 1], [5, 2, 2, 0]),     # tied 2nd: all score it
    ([4, 4, 4, 4], [5, 5, 5, 5]),
])
def test_ranking_rules(values, points) -> None:
    assert ranked_points(values, 5, 2) == points


def test_zero_rule_for_most_counts() -> None:
    assert ranked_points([0, 0, 0], 5, 2, zero_rule=True) == [0, 0, 0]
    assert ranked_points([0, 0], 5, 2, zero_rule=True) == [0, 0]
    assert ranked_points([2, 0, 0], 5, 2, zero_rule=True) == [5, 0, 0]   # 0 is never 2nd
    assert ranked_points([2, 1, 0, 0], 5, 2, zero_rule=True) == [5, 2, 0, 0]


def test_fewest_counts_have_no_zero_rule() -> None:
    assert ranked_points([0, 1, 2], 5, 2, fewest=True) == [5, 2, 0]
    assert ranked_points([0, 0, 2], 5, 2, fewest=True) == [5, 5, 0]


def test_o16_longest_river_race() -> None:
    long, short, none = grid("Of/ Of\\ Of/"), grid("Of/ Of\\"), grid("FL")
    assert longest_river_race([long, short]) == [5, 0]
    assert longest_river_race([long, short, none]) == [5, 2, 0]
    assert longest_river_race([long, long, short]) == [5, 5, 0]
    assert longest_river_race([none, none, none, none]) == [0, 0, 0, 0]   # no river, no award
    assert longest_river_race([short, none, none]) == [5, 0, 0]


def test_o18_gorillas_yes_pandas_no() -> None:
    a = grid("GO GO PA")
    b = grid("GO PA PA")
    c = grid("FL")
    assert gorillas_yes_pandas_no([a, b]) == [5, -5]
    # Gorillas: a 1st, b 2nd. Pandas: b 1st, a 2nd; c has none and never places.
    assert gorillas_yes_pandas_no([a, b, c]) == [5 - 2, 2 - 5, 0]
    assert gorillas_yes_pandas_no([c, c, c]) == [0, 0, 0]
    assert gorillas_yes_pandas_no([a, a, c, b]) == [5 - 2, 5 - 2, 0, -5]


def test_o20_fewest_lions() -> None:
    assert fewest_lions([grid("LI"), grid("LI LI"), grid("LI")]) == [3, -2, 3]
    assert fewest_lions([grid("FL"), grid("LI")]) == [3, -2]
    assert fewest_lions([grid("LI"), grid("LI")]) == [3, 3]


def test_o21_crocodiles_yes_flamingos_no() -> None:
    a = grid("CR CR FL")
    b = grid("CR FL FL")
    c = grid("LI")
    # Crocodiles: a 1st, b 2nd, c (0) nothing. Flamingos (fewest): c 1st with 0, a 2nd.
    assert crocodiles_yes_flamingos_no([a, b, c]) == [5 + 2, 2, 5]
    assert crocodiles_yes_flamingos_no([a, b]) == [5 + 5, 0]
    assert crocodiles_yes_flamingos_no([c, c]) == [5, 5]


# --------------------------------------------------------------------------- the score floor


def test_totals_are_floored_after_each_objective_in_order() -> None:
    lone_bear = grid("PB GO FL")   # O8: -1; O4: +2
    raw, totals = score_round([8, 4], [lone_bear], [0])
    assert raw == [[-1, 2]] and totals == [2]
    raw, totals = score_round([4, 8], [lone_bear], [0])
    assert raw == [[2, -1]] and totals == [1]
    raw, totals = score_round([8, 4], [lone_bear], [5])
    assert totals == [6]


def test_negative_compare_points_floor_at_zero() -> None:
    pandas, gorillas = grid("PA PA"), grid("GO")
    raw, totals = score_round([18, 20], [pandas, gorillas], [3, 0])
    # O18: pandas -5 (3 -> 0), gorillas +5; O20: both have no lion, +3 each.
    assert raw == [[-5, 3], [5, 3]]
    assert totals == [3, 8]
