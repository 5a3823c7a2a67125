"""Nim's renderer: well-formed, accessible SVG from any viewer's view, with escaped names and
nothing the view hides."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games.kit.protocol import apply_checked
from games.kit.registry import game
from tests.fourth_game.nim.engine import NIM

pytestmark = pytest.mark.usefixtures("nim")

NS = "{http://www.w3.org/2000/svg}"
SEED = "planted-seed-9a8b7c6d"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text and title.text.strip()
    assert desc is not None and desc.text and len(desc.text) > 40
    return root


def positions(players: int):
    """Every position of one random game, from the start to the end."""
    state = NIM.initial_state(num_players=players, config={"heaps": [2, 5, 4]}, seed=SEED)
    rng = random.Random(players)
    yield state
    while NIM.outcome(state) is None:
        seat = min(NIM.actors(state))
        state = apply_checked(NIM, state, seat, rng.choice(NIM.legal_moves(state, seat))).state
        yield state


@pytest.mark.parametrize("players", [2, 3])
def test_every_position_renders_for_every_viewer(players):
    render = game("nim").render
    for state in positions(players):
        over = NIM.outcome(state) is not None
        for viewer in [None, *range(players)]:
            svg = render(NIM.view(state, viewer), ["ann", "ben", None][:players])
            root = parse(svg)
            circles = root.findall(f".//{NS}circle")
            assert len(circles) == sum(state.start)
            assert (SEED in svg) is False  # the picture never shows the seed
            if over:
                assert "Finished (last object)" in root.find(f"{NS}title").text


def test_names_are_escaped_and_the_view_is_all_it_needs():
    state = NIM.initial_state(num_players=2, config={"first_seat": 1}, seed=SEED)
    svg = game("nim").render(NIM.view(state, 0), ['<b>"&amp"</b>', None])
    root = parse(svg)
    assert "<b>" not in svg
    assert '<b>"&amp"</b> (seat 1)' in "".join(root.itertext())
    # A damaged or empty view still gives a picture rather than an error.
    parse(game("nim").render({}, None))
    parse(game("nim").render({"heaps": "x", "taken": [None], "to_move": 3}, None))
