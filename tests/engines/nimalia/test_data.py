"""The card and objective data carried in the package, checked against the rules spec."""

from __future__ import annotations

from collections import Counter

from games.nimalia.cards import (
    CARD_OFFSETS,
    CARDS,
    OTTER,
    RIVER_DOWN,
    RIVER_UP,
    ROTATED,
    ROTATIONS,
    Square,
    rotate,
)
from games.nimalia.grid import visible_squares
from games.nimalia.objectives import (
    BLUE,
    COLOURS,
    FIRST_GAME,
    GREEN,
    OBJECTIVES,
    RED,
    ROUND_COLOURS,
    YELLOW,
    round_objectives,
    valid_sets,
)

SQUARES = [square for card in CARDS.values() for square in card]


def test_cards_and_squares() -> None:
    assert len(CARDS) == 60 and len(SQUARES) == 240
    assert sorted(CARDS) == list(range(1, 61))


def test_squares_per_terrain_and_animal() -> None:
    assert Counter(s.terrain for s in SQUARES) == {
        "lake": 60, "savannah": 60, "ice": 60, "forest": 60}
    assert Counter(s.animal for s in SQUARES) == {
        "crocodile": 30, "flamingo": 30, "otter": 30, "lion": 25, "giraffe": 25,
        "polar_bear": 25, "penguin": 25, "gorilla": 25, "panda": 25}


def test_otters_and_rivers() -> None:
    otters = [s for s in SQUARES if s.animal == OTTER]
    assert Counter(s.terrain for s in otters) == {"forest": 10, "savannah": 10, "ice": 10}
    assert all(s.river for s in otters)
    assert not any(s.river for s in SQUARES if s.animal != OTTER)
    assert Counter((s.river, s.terrain) for s in otters) == {
        (RIVER_UP, "forest"): 5, (RIVER_UP, "savannah"): 4, (RIVER_UP, "ice"): 6,
        (RIVER_DOWN, "forest"): 5, (RIVER_DOWN, "savannah"): 6, (RIVER_DOWN, "ice"): 4}


def test_otters_per_card() -> None:
    per_card = Counter(sum(s.animal == OTTER for s in card) for card in CARDS.values())
    assert per_card == {0: 31, 1: 28, 2: 1}
    assert [i for i, card in CARDS.items() if sum(s.animal == OTTER for s in card) == 2] == [59]


def test_terrain_patterns_per_card() -> None:
    patterns = Counter(
        tuple(sorted(Counter(s.terrain for s in card).values(), reverse=True))
        for card in CARDS.values())
    assert patterns == {(1, 1, 1, 1): 16, (2, 1, 1): 28, (2, 2): 16}


def test_repeated_animals_and_distinct_contents() -> None:
    doubles = sorted(i for i, card in CARDS.items()
                     if max(Counter(s.animal for s in card).values()) == 2)
    assert doubles == [33, 35, 39, 40, 57, 59, 60]
    contents = {tuple(sorted((s.animal, s.terrain) for s in card)) for card in CARDS.values()}
    assert len(contents) == 53


def test_a_card_read_square_by_square() -> None:
    assert CARDS[2] == (Square("penguin", "ice"), Square("otter", "savannah", RIVER_UP),
                        Square("polar_bear", "ice"), Square("flamingo", "lake"))


# --------------------------------------------------------------------------- rotation


def test_rotation_turns_squares_clockwise_and_flips_rivers_on_quarter_turns() -> None:
    tl, tr, bl, br = CARDS[59]   # otter \ , gorilla, otter / , giraffe
    assert (tl.river, bl.river) == (RIVER_DOWN, RIVER_UP)
    assert rotate(CARDS[59], 90) == (bl._replace(river=RIVER_DOWN), tl._replace(river=RIVER_UP),
                                     br, tr)
    assert rotate(CARDS[59], 180) == (br, bl, tr, tl)
    assert rotate(CARDS[59], 270) == (tr, br, tl._replace(river=RIVER_UP),
                                      bl._replace(river=RIVER_DOWN))


def test_four_quarter_turns_are_the_identity() -> None:
    for card in CARDS.values():
        turned = card
        for _ in range(4):
            turned = rotate(turned, 90)
        assert turned == card
        assert rotate(rotate(card, 90), 90) == rotate(card, 180)
        assert rotate(rotate(card, 180), 90) == rotate(card, 270)


def test_rotated_card_lands_on_the_grid() -> None:
    # Card 7: flamingo, crocodile / otter(ice, /), lion. Turned 90 degrees clockwise the
    # otter moves to the top-left and its river becomes "\".
    cells = visible_squares([(7, 3, -2, 90)])
    assert set(cells) == {(3 + dr, -2 + dc) for dr, dc in CARD_OFFSETS}
    assert cells[3, -2] == Square("otter", "ice", RIVER_DOWN)
    assert cells[3, -1].animal == "flamingo"
    assert cells[4, -2].animal == "lion"
    assert cells[4, -1].animal == "crocodile"
    assert ROTATED[7, 90] == rotate(CARDS[7], 90)
    assert set(ROTATIONS) == {0, 90, 180, 270}


# --------------------------------------------------------------------------- objectives


def test_objective_colours_levels_and_cards() -> None:
    assert sorted(OBJECTIVES) == list(range(1, 23))
    colours = {i: o.colour[0].upper() for i, o in OBJECTIVES.items()}
    assert colours == {1: "Y", 2: "B", 3: "B", 4: "Y", 5: "B", 6: "Y", 7: "Y", 8: "G", 9: "B",
                       10: "Y", 11: "B", 12: "G", 13: "R", 14: "G", 15: "Y", 16: "R", 17: "G",
                       18: "R", 19: "G", 20: "R", 21: "R", 22: "G"}
    levels = "".join(OBJECTIVES[i].level for i in range(1, 23))
    assert levels == "MDEEEMMEDDMMEMDMMMEEMM"
    assert {o.card for o in OBJECTIVES.values()} == set(range(1, 12))
    assert all(OBJECTIVES[2 * k - 1].card == OBJECTIVES[2 * k].card == k for k in range(1, 12))
    assert [OBJECTIVES[i].colour for i in FIRST_GAME] == [YELLOW, BLUE, RED, GREEN]
    assert sorted(i for i, o in OBJECTIVES.items() if o.compares) == [16, 18, 20, 21]


def test_592_setups() -> None:
    # The publisher's figure: one objective per colour, never both sides of one card.
    assert len(valid_sets({"E", "M", "D"}, solo=False)) == 592


def test_round_card() -> None:
    scored = Counter(colour for colours in ROUND_COLOURS.values() for colour in colours)
    assert scored == dict.fromkeys(COLOURS, 3)
    assert ROUND_COLOURS[5] == (BLUE, RED, YELLOW)   # scoring order of round 5
    assert round_objectives((4, 5, 19, 16), 4) == (19, 4, 16)
    assert round_objectives((4, 5, 19, 16), 1) == (5, 19)
    assert GREEN in ROUND_COLOURS[1] and RED not in ROUND_COLOURS[2]
