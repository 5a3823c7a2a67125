"""What a game offers newcomers: presets and options in players' words (GET /api/games), its
rules (GET /api/games/{slug}/rules), example pictures and a tutorial, open to everyone."""

from pathlib import Path

import pytest

from games.catalog import engines, games
from games.kit.learn import example_view
from games.kit.protocol import apply_checked, normalize_options
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

SLUGS = sorted(engines())


def test_every_game_has_presets_that_its_engine_takes(client_for, alice):
    listed = client_for(alice).get("/api/games").json()
    for game in listed:
        engine = engines()[game["slug"]]
        keys = [preset["key"] for preset in game["presets"]]
        assert "first_game" in keys and "standard" in keys and len(set(keys)) == len(keys)
        for preset in game["presets"]:
            assert preset["name"] and preset["description"]
            assert set(preset) == {"key", "name", "description", "config", "players"}
            players = preset["players"] or max(2, engine.min_players)
            # The engine accepts every preset as a match's config.
            normalize_options(engine.options, preset["config"])
            engine.initial_state(num_players=players, config=preset["config"], seed="p")


def test_options_carry_players_words(client_for, alice):
    listed = client_for(alice).get("/api/games").json()
    for game in listed:
        for option in game["options"]:
            assert option["label"] and option["help"], (game["slug"], option["name"])
            assert "_" not in option["label"]
            for value in option["value_labels"]:
                assert set(value) == {"value", "label"}
    nimalia = next(g for g in listed if g["slug"] == "nimalia")
    tie = next(o for o in nimalia["options"] if o["name"] == "tie_break")
    assert {"value": '"most_of_one_species"', "label": "Most animals of one kind"} in \
        tie["value_labels"]


@pytest.mark.parametrize("slug", SLUGS)
def test_rules_are_open_and_complete(api_client, slug):
    response = api_client.get(f"/api/games/{slug}/rules")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=86400"
    rules = response.json()
    assert rules["game"] == slug and rules["name"] == games()[slug].name
    assert "<h2" in rules["html"] and "<h1" not in rules["html"]
    assert "<table>" in rules["html"] and rules["technical_html"].startswith("<h2")
    assert "shared" "/" not in rules["html"] + rules["technical_html"]  # no outside pointers
    for picture in rules["pictures"]:
        assert f'src="{picture["url"]}"' in rules["html"]


@pytest.mark.parametrize("slug", SLUGS)
def test_pictures_are_the_renderers_and_match_the_committed_files(api_client, slug):
    spec = games()[slug]
    assert spec.learning.examples
    for example in spec.learning.examples:
        response = api_client.get(f"/api/games/{slug}/pictures/{example.name}.svg")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("image/svg+xml")
        assert "sandbox" in response["Content-Security-Policy"]
        svg = response.content.decode()
        assert svg == spec.render(example_view(spec.engine, spec.learning, example), None)
        # RULES.md shows the same picture, committed next to it (python -m games.kit.pictures).
        committed = Path(spec.rules).parent / "pictures" / f"{example.name}.svg"
        assert committed.read_text(encoding="utf-8") == svg


@pytest.mark.parametrize("slug", SLUGS)
def test_tutorial_steps_are_legal_and_narrowed(api_client, slug):
    response = api_client.get(f"/api/games/{slug}/tutorial")
    assert response.status_code == 200
    tutorial = response.json()
    spec = games()[slug]
    engine = spec.engine
    script = spec.learning.tutorial
    assert tutorial["intro"] and tutorial["end"] and len(tutorial["steps"]) >= 3
    state = engine.initial_state(num_players=script.players, config=script.config,
                                 seed=script.seed)
    for step, scripted in zip(tutorial["steps"], script.steps, strict=True):
        assert step["text"] and step["done"]
        assert step["view"] == {k: v for k, v in engine.view(state, script.seat).items()
                                if k != "legal_moves"}
        assert step["legal_moves"]  # the suggested move stays marked
        state = apply_checked(engine, state, script.seat, engine.parse_move(step["move"])).state
        for seat, reply in scripted.replies:
            state = (engine.system_step(state).state if seat is None else
                     apply_checked(engine, state, seat, engine.parse_move(reply)).state)
    assert engine.outcome(state) is None or slug == "nimalia"


def test_unknown_game_or_picture_is_a_coded_404(api_client):
    assert_error(api_client.get("/api/games/chess/rules"), 404, "not_found")
    assert_error(api_client.get("/api/games/chess/tutorial"), 404, "not_found")
    assert_error(api_client.get("/api/games/chess/pictures/start.svg"), 404, "not_found")
    assert_error(api_client.get("/api/games/nibble/pictures/nope.svg"), 404, "not_found")
