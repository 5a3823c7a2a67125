"""The renderers on engine views, without a database: well-formed SVG with a title and a
description, a letter on every coloured piece, escaped names, and pictures that depend on the
view alone (hidden cards and the seed change nothing)."""

from __future__ import annotations

import dataclasses
import random
import re
import xml.etree.ElementTree as ET

import pytest

from games.catalog import game, games, get_engine
from games.kit.protocol import apply_checked
from games.kit.render.svg import esc
from games.nibble.palette import NIBBLE_COLOURS
from games.nimalia.engine import Place
from games.nimalia.palette import ANIMALS, OBJECTIVE_COLOURS, TERRAINS
from games.nimble.palette import NIMBLE_COLOURS

NS = "{http://www.w3.org/2000/svg}"
SEED = "planted-seed-0f1e2d3c4b5a"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text and title.text.strip()
    assert desc is not None and desc.text and len(desc.text) > 40
    return root


def play(slug: str, players: int, steps: int, *, config=None, rng_seed: int = 1):
    """A position ``steps`` actions into a random game (system steps included)."""
    engine = get_engine(slug)
    state = engine.initial_state(num_players=players, config=config or {}, seed=SEED)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        actors = sorted(engine.actors(state))
        if not actors:
            state = engine.system_step(state).state
            continue
        seat = rng.choice(actors)
        state = apply_checked(engine, state, seat, rng.choice(list(
            engine.legal_moves(state, seat)))).state
    return engine, state


def finish(slug: str, players: int):
    """A match ended by forfeits: seats leave one by one until the engine calls it over."""
    engine, state = play(slug, players, 3)
    for seat in range(players):
        if engine.outcome(state) is not None:
            break
        state = engine.forfeit(state, seat).state
    return engine, state


# Every registered game with its fewest and its most players, and Nimalia with two.
CASES = sorted({(slug, count) for slug, spec in games().items()
                for count in (spec.engine.min_players, spec.engine.max_players)}
               | {("nimalia", 2)})


@pytest.mark.parametrize(("slug", "players"), CASES)
@pytest.mark.parametrize("steps", [0, 13])
def test_running_views_render_well_formed_svg_for_every_viewer(slug, players, steps):
    engine, state = play(slug, players, steps)
    assert engine.outcome(state) is None
    for seat in [None, *range(players)]:
        svg = game(slug).render(engine.view(state, seat), ["ann", "ben", None, "dee"][:players])
        parse(svg)
        assert SEED not in svg
        assert ("Spectator view" in svg) == (seat is None)


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_finished_views_render_and_name_the_winner(slug, players):
    engine, state = finish(slug, players)
    outcome = engine.outcome(state)
    assert outcome is not None
    svg = game(slug).render(engine.view(state, None), ["ann", "ben", "cy", "dee"][:players])
    root = parse(svg)
    assert root.find(f"{NS}title").text.startswith(f"{engine.name}: Finished (forfeit)")
    # The finished view reveals the seed; the picture has no use for it.
    assert SEED not in svg


def test_every_game_has_a_renderer():
    from games.catalog import games

    assert all(callable(spec.render) for spec in games().values())


@pytest.mark.parametrize("table", [NIBBLE_COLOURS, tuple(NIMBLE_COLOURS.values()),
                                   tuple(TERRAINS.values()), tuple(OBJECTIVE_COLOURS.values())])
def test_every_colour_of_a_game_has_its_own_letter(table):
    letters = [swatch.letter for swatch in table]
    assert len(set(letters)) == len(letters)
    assert len({swatch.fill for swatch in table}) == len(table)


def test_animal_abbreviations_are_unique():
    abbreviations = [abbr for abbr, _ in ANIMALS.values()]
    assert len(set(abbreviations)) == len(abbreviations) == 9


def test_nibble_every_disc_carries_its_colour_letter():
    engine, state = play("nibble", 2, 10)
    view = engine.view(state, 0)
    root = parse(game("nibble").render(view))
    discs = root.findall(f".//{NS}g[@class='disc']")
    on_board = [(r, c, colour) for r, row in enumerate(view["board"])
                for c, colour in enumerate(row) if colour is not None]
    assert len(discs) == len(on_board) == view["discs_left"]
    for disc, (r, c, colour) in zip(discs, on_board, strict=True):
        assert disc.find(f"{NS}title").text == f"[{r}, {c}] {NIBBLE_COLOURS[colour].label}"
        assert disc.find(f"{NS}text").text == NIBBLE_COLOURS[colour].letter


def test_nibble_shows_the_colour_table_order_and_both_collections():
    engine, state = play("nibble", 2, 30)
    view = engine.view(state, None)
    desc = parse(game("nibble").render(view)).find(f"{NS}desc").text
    order = " ".join(NIBBLE_COLOURS[c].letter for c in view["color_order"])
    assert f"Colour table, left to right: {order}." in desc
    for seat in (0, 1):
        assert f"seat {seat + 1} holds" in desc
    assert "to move" in desc


def test_nimble_cards_carry_frame_and_circle_letters():
    engine, state = play("nimble", 3, 20)
    view = engine.view(state, 1)
    root = parse(game("nimble").render(view))
    stacks = root.findall(f".//{NS}g[@class='stack']")
    assert len(stacks) == 3
    for group, stack in zip(stacks, view["stacks"], strict=True):
        frame = NIMBLE_COLOURS[stack["top"]["frame"]].letter
        ring = NIMBLE_COLOURS[stack["top"]["circle"]].letter
        letters = [t.text for t in group.iter(f"{NS}text")]
        assert letters[:3] == [frame, frame, ring]
        assert f"{stack['height']} card" in letters[3]
    seats = root.findall(f".//{NS}g[@class='seat']")
    assert len(seats) == 3
    for group, seat in zip(seats, view["seats"], strict=True):
        words = " ".join(t.text for t in group.iter(f"{NS}text"))
        assert f"Set: {seat['set_count']} face down" in words
        assert f"Discard: {seat['discard_count']}" in words


def test_nimble_picture_ignores_the_order_of_sets_and_buried_discards():
    engine, state = play("nimble", 2, 30)
    assert all(len(pile) > 3 for pile in state.sets)
    # Bury the other way round: every Set reversed, every discard below its top shuffled.
    shuffled = dataclasses.replace(
        state,
        sets=tuple(tuple(reversed(pile)) for pile in state.sets),
        discards=tuple(tuple(random.Random(7).sample(pile[:-1], len(pile) - 1)) + pile[-1:]
                       if pile else pile for pile in state.discards),
    )
    assert engine.dump(shuffled) != engine.dump(state)
    for seat in (None, 0, 1):
        assert game("nimble").render(engine.view(state, seat)) == \
            game("nimble").render(engine.view(shuffled, seat))


def _nimalia_with_pending():
    """Two seats in round 1, turn 1: seat 1 has placed (pending), seat 0 has not."""
    engine = get_engine("nimalia")
    state = engine.initial_state(num_players=2, config={"objectives": "first_game"}, seed=SEED)
    card = state.hands[1][0]
    return engine, engine.apply(state, 1, Place(card, 0, 0, 90)).state


def test_nimalia_shows_only_the_viewers_hand_and_pending_card():
    engine, state = _nimalia_with_pending()
    theirs = set(state.hands[1]) | {state.pending[1].card}
    mine = set(state.hands[0])
    svg = game("nimalia").render(engine.view(state, 0))
    root = parse(svg)
    named = {int(n) for n in re.findall(r"\bcard (\d+)\b", svg)}
    named |= {int(g.get("data-card")) for g in root.iter(f"{NS}g") if g.get("data-card")}
    assert named == mine
    assert not named & theirs
    # Seat 1 sees its own pending card, dashed, in its reserve.
    own = game("nimalia").render(engine.view(state, 1))
    assert f"your pending card {state.pending[1].card}" in own
    # A spectator sees no hand at all.
    spectator = game("nimalia").render(engine.view(state, None))
    assert "Hands are hidden" in spectator and "data-card" not in spectator


def test_nimalia_picture_does_not_change_with_another_seats_hidden_cards():
    engine, state = _nimalia_with_pending()
    # Give seat 1 other cards from the deck, and another pending placement.
    hand = tuple(state.deck[:2])
    pending = Place(state.deck[2], 0, 0, 180)
    rest = tuple(state.deck[3:]) + state.hands[1] + (state.pending[1].card,)
    other = dataclasses.replace(state, deck=rest,
                                hands=(state.hands[0], hand),
                                pending=(None, pending))
    assert engine.dump(other) != engine.dump(state)
    for seat in (0, None):
        assert game("nimalia").render(engine.view(state, seat)) == \
            game("nimalia").render(engine.view(other, seat))


def test_nimalia_reserves_objectives_round_and_scores():
    engine, state = play("nimalia", 3, 40)
    view = engine.view(state, None)  # a seat's view would add its pending card to its reserve
    assert view["scores"]["rounds"], "a round has been scored"
    root = parse(game("nimalia").render(view))
    reserves = root.findall(f".//{NS}g[@class='reserve']")
    assert len(reserves) == 3
    for group, reserve in zip(reserves, view["reserves"], strict=True):
        abbreviations = [t.text for t in group.iter(f"{NS}text")
                         if t.text in {abbr for abbr, _ in ANIMALS.values()}]
        assert len(abbreviations) == len(reserve["squares"])
        rivers = [sq for sq in reserve["squares"] if sq["river"]]
        diagonals = [line for line in group.iter(f"{NS}line")
                     if line.get("stroke") == "#1b4f8a"]
        assert len(diagonals) == len(rivers)
    objectives = root.findall(f".//{NS}g[@class='objective']")
    assert [g.find(f"{NS}title").text.split(" ")[0] for g in objectives] == \
        [o["colour"] for o in view["objectives"]]
    words = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert f"round {view['round']} of {view['rounds']}" in words
    first = view["scores"]["rounds"][0]["totals"]
    desc = root.find(f"{NS}desc").text
    assert "Totals:" in desc
    assert all(str(total) in words for total in first)


def test_names_are_escaped_and_forbidden_characters_dropped():
    engine, state = play("nibble", 2, 2)
    names = ['<script>alert("x")</script>', "a&b\x00\x1b"]
    svg = game("nibble").render(engine.view(state, 0), names)
    parse(svg)
    assert "<script" not in svg
    assert "&lt;script&gt;" in svg
    assert "\x00" not in svg and "\x1b" not in svg
    assert esc('"<&>') == "&quot;&lt;&amp;&gt;"


def test_same_view_same_bytes():
    engine, state = play("nimalia", 2, 12)
    view = engine.view(state, 0)
    assert game("nimalia").render(view) == game("nimalia").render(dict(view))
