"""The schema types each game's JSON with the game's own declarations: named components per
game, the generic fields one of them by ``game`` (or any of them where the answer does not
name its game), events one of a game's by ``type``; a game registered at run time takes part
when the schema is built, free-form if it declares no types."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.catalog import games

# Every registered game's name by slug (the names its components are called by).
GAMES = {slug: spec.name for slug, spec in games().items()}
PARTS = ("Config", "Move", "View", "LegalMoves", "Event", "Outcome")


def _components() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


@pytest.fixture(scope="module")
def components() -> dict:
    return _components()


def test_every_game_has_its_named_components(components):
    for name in GAMES.values():
        for part in PARTS:
            assert f"{name}{part}" in components, f"{name}{part}"


@pytest.mark.parametrize("shape", ["MatchDetail", "MatchSummary", "MatchCreateRequest"])
def test_shapes_with_a_game_field_are_one_of_a_variant_per_game(components, shape):
    schema = components[shape]
    assert schema["discriminator"]["propertyName"] == "game"
    mapping = schema["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(GAMES)
    for slug, name in GAMES.items():
        variant = components[mapping[slug].rsplit("/", 1)[1]]
        assert variant["properties"]["game"]["enum"] == [slug]
        if shape == "MatchDetail":
            assert variant["properties"]["view"]["allOf"] == [
                {"$ref": f"#/components/schemas/{name}View"}]
            assert variant["properties"]["legal_moves"]["allOf"] == [
                {"$ref": f"#/components/schemas/{name}LegalMoves"}]
        if shape != "MatchSummary":
            assert variant["properties"]["config"] == {
                "$ref": f"#/components/schemas/{name}Config"}
        if shape != "MatchCreateRequest":
            assert {"$ref": f"#/components/schemas/{name}Outcome"} in (
                variant["properties"]["outcome"]["oneOf"])


def test_events_are_told_apart_by_type(components):
    nimalia = components["NimaliaEvent"]
    assert nimalia["discriminator"]["propertyName"] == "type"
    assert nimalia["discriminator"]["mapping"]["match_ended"].endswith("/NimaliaMatchEnded")
    assert "title" in components["NimaliaMatchEnded"]["properties"]
    assert components["MoveResult"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/GameEvent"}


def test_the_move_body_is_typed(components):
    move = components["MoveInputRequest"]["properties"]["move"]
    assert {"$ref": "#/components/schemas/NibbleMove"} in move["anyOf"]
    assert components["NimbleMove"]["discriminator"]["propertyName"] == "action"
    assert components["NibbleMove"]["required"] == ["take"]


def test_options_come_from_the_engines_options(components):
    nimble = components["NimbleConfig"]
    assert nimble["additionalProperties"] is False
    assert nimble["properties"]["mode"]["enum"] == ["turns", "race"]
    assert nimble["properties"]["budget"] == {
        "type": "integer", "description": nimble["properties"]["budget"]["description"],
        "minimum": 1, "maximum": 6, "default": 3}


def test_a_game_registered_at_run_time_takes_part(nim):
    components = _components()
    assert components["MatchDetail"]["discriminator"]["mapping"]["nim"].endswith(
        "/NimMatchDetail")
    assert components["NimView"]["additionalProperties"] == {}
    assert "NimConfig" in components
    assert {"$ref": "#/components/schemas/NimEvent"} in components["GameEvent"]["anyOf"]
    # And leaves with it.
    from games.kit.registry import unregister
    unregister("nim")
    assert "nim" not in _components()["MatchDetail"]["discriminator"]["mapping"]
