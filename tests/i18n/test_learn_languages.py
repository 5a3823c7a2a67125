"""What a newcomer reads is in their language: presets, options in players' words, tutorials,
picture captions (the django catalogues) and the rules pages (``RULES.<language>.md``, English
as the fallback). Keys, slugs, configs, moves and positions are the same in every language."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from config.catalogues import LOCALE_DIR
from games.catalog import engines, games
from games.kit.learn import Learning
from games.selectors.learn import rules_path

pytestmark = pytest.mark.django_db

SLUGS = sorted(engines())
LANGUAGES = ["fr", "pt-br", "ko"]
LOCALES = {"fr": "fr", "pt-br": "pt_BR", "ko": "ko"}
PICTURE = re.compile(r'<img src="([^"]+)" alt="[^"]*"')

# A word each rules page must use in each language: the game's own terms (docs/i18n.md, "Where
# the game terms come from").
TERMS = {
    ("nibble", "fr"): ["disque", "plateau", "majorité des majorités"],
    ("nibble", "pt-br"): ["disco", "tabuleiro", "maioria das maiorias",
                          "adjacentes ortogonalmente"],
    ("nibble", "ko"): ["니블", "디스크", "보드"],
    ("nimble", "fr"): ["paquet", "défausse", "cadre", "cercle"],
    ("nimble", "pt-br"): ["monte", "pilha de descarte", "moldura", "círculo"],
    ("nimble", "ko"): ["님블", "세트", "버림 더미", "테두리"],
    ("nimalia", "fr"): ["réserve", "cases", "6 cases sur 6", "manche", "cartes Objectif",
                        "manchot", "banquise", "savane", "jungle", "lac"],
    ("nimalia", "pt-br"): ["reserva", "rodada", "pinguim", "savana"],
    ("nimalia", "ko"): ["니말리아", "보호구역", "라운드", "펭귄"],
}


def _rules(client, slug, language):
    response = client.get(f"/api/games/{slug}/rules", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return response.json()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_the_rules_are_in_the_language_with_the_same_pictures(api_client, slug, language):
    english = _rules(api_client, slug, "en")
    rules = _rules(api_client, slug, language)
    assert rules["html"] != english["html"]
    for term in TERMS[(slug, language)]:
        assert term in rules["html"], (slug, language, term)
    # The same pictures in the same order, drawn by the same URLs; only their words change.
    assert PICTURE.findall(rules["html"]) == PICTURE.findall(english["html"])
    assert PICTURE.findall(rules["html"])
    assert [(p["name"], p["url"]) for p in rules["pictures"]] == \
        [(p["name"], p["url"]) for p in english["pictures"]]
    assert all(ours["caption"] != theirs["caption"]
               for ours, theirs in zip(rules["pictures"], english["pictures"], strict=True))
    listed = api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE=language).json()
    assert rules["game"] == slug
    assert rules["name"] == next(game["name"] for game in listed if game["slug"] == slug)
    assert "<h2" in rules["html"] and "<h1" not in rules["html"] and "<table>" in rules["html"]
    # The part for client authors stays English, and the page says so.
    assert rules["technical_html"] == english["technical_html"]
    assert "For client authors" in rules["html"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_translation_keeps_the_english_rules_complete(slug):
    """Each translated page has the English page's sections (one heading each) and tables (as
    many rows), so a section left out or a table cut short fails."""
    english = Path(games()[slug].rules)  # type: ignore[arg-type]
    players = english.read_text(encoding="utf-8").partition("## For client authors")[0]
    for language in LANGUAGES:
        translated = rules_path(english, language)
        assert translated.name == f"RULES.{language}.md"
        text = translated.read_text(encoding="utf-8")
        assert "## For client authors" not in text
        for marker in ("#", "##", "###"):
            count = len(re.findall(rf"^{marker} ", players, re.MULTILINE))
            assert len(re.findall(rf"^{marker} ", text, re.MULTILINE)) == count, \
                (slug, language, marker)
        assert text.count("\n| ") == players.count("\n| "), (slug, language)
        assert text.count("```") == players.count("```")
        # Code spans are what the API says (options, values, reasons, fields): they stay as they
        # are; only a formula's words are translated.
        code = re.compile(r"`[^`\n]+`")
        kept = {span for span in code.findall(players) if not span.startswith("`ceil(")}
        assert kept - set(code.findall(text)) == set(), (slug, language)


def test_heading_ids_keep_letters_of_every_script(api_client):
    rules = _rules(api_client, "nibble", "ko")
    assert 'id="nibble-승리"' in rules["html"]
    assert 'id="nibble-winning"' in _rules(api_client, "nibble", "en")["html"]


def test_a_language_without_rules_falls_back_to_its_base_language_then_english(tmp_path):
    english = tmp_path / "RULES.md"
    english.write_text("# Game\n", encoding="utf-8")
    assert rules_path(english, "de") == english
    assert rules_path(english, None) == english
    assert rules_path(english, "en") == english
    (tmp_path / "RULES.pt.md").write_text("# Jogo\n", encoding="utf-8")
    assert rules_path(english, "pt-br") == tmp_path / "RULES.pt.md"
    (tmp_path / "RULES.pt-br.md").write_text("# Jogo\n", encoding="utf-8")
    assert rules_path(english, "pt-BR") == tmp_path / "RULES.pt-br.md"


def test_a_signed_in_players_language_wins_for_the_rules(client_for, alice):
    alice.language = "ko"
    alice.save(update_fields=["language"])
    response = client_for(alice).get("/api/games/nimalia/rules", HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "ko"
    assert "보호구역" in response.json()["html"]


def _vary(response):
    return {part.strip().lower() for part in response.get("Vary", "").split(",")} - {""}


@pytest.mark.parametrize("path", ["/api/games/nibble/rules", "/api/games/nimble/tutorial"])
def test_the_day_long_cache_keeps_one_copy_per_language(api_client, path):
    response = api_client.get(path, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=86400"
    assert {"accept-language", "cookie", "authorization"} <= _vary(response)


def test_a_picture_is_one_copy_for_every_language(api_client):
    french = api_client.get("/api/games/nimalia/pictures/round1.svg", HTTP_ACCEPT_LANGUAGE="fr")
    assert french["Cache-Control"] == "public, max-age=86400"
    assert "authorization" not in _vary(french)
    assert french.content == api_client.get("/api/games/nimalia/pictures/round1.svg").content


def test_presets_and_options_are_answered_in_french(api_client):
    listed = {game["slug"]: game for game in
              api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE="fr").json()}
    nibble = listed["nibble"]
    assert [p["name"] for p in nibble["presets"]] == ["Première partie", "Rapide", "Standard"]
    first = next(p for p in nibble["presets"] if p["key"] == "first_game")
    assert first["description"] == ("Vous jouez en premier, et la partie s’arrête dès que le "
                                    "vainqueur est connu.")
    order = next(o for o in nibble["options"] if o["name"] == "color_order")
    assert order["label"] == "Ordre du tableau des couleurs"
    nimalia = listed["nimalia"]
    tie = next(o for o in nimalia["options"] if o["name"] == "tie_break")
    assert tie["label"] == "Départage"
    assert {"value": '"most_of_one_species"', "label": "Le plus d’animaux d’une même espèce"} \
        in tie["value_labels"]
    assert "réserve" not in nimalia["name"]  # game names stay as published
    nimble = listed["nimble"]
    mode = next(o for o in nimble["options"] if o["name"] == "mode")
    assert mode["label"] == "Façon de jouer"
    assert {"value": '"race"', "label": "Course : tout le monde en même temps"} in \
        mode["value_labels"]


def _words_removed(value, words):
    """``value`` with every text of ``words`` (keys) blanked, to compare the rest."""
    if isinstance(value, dict):
        return {key: "" if key in words and isinstance(item, str) else
                _words_removed(item, words) for key, item in value.items()}
    if isinstance(value, list):
        return [_words_removed(item, words) for item in value]
    return value


@pytest.mark.parametrize("language", LANGUAGES)
def test_only_the_words_of_the_game_list_change_with_the_language(api_client, language):
    english = api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE="en").json()
    other = api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE=language).json()
    words = {"name", "description", "label", "help"}
    assert _words_removed(other, words) == _words_removed(english, words)
    for ours, theirs in zip(other, english, strict=True):
        assert [p["key"] for p in ours["presets"]] == [p["key"] for p in theirs["presets"]]
        assert [p["config"] for p in ours["presets"]] == [p["config"] for p in theirs["presets"]]
        changed = [option["help"] != original["help"]
                   for option, original in zip(ours["options"], theirs["options"], strict=True)]
        assert all(changed), (ours["slug"], language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_the_tutorial_is_in_the_language_and_plays_the_same(api_client, slug, language):
    def get(lang):
        response = api_client.get(f"/api/games/{slug}/tutorial", HTTP_ACCEPT_LANGUAGE=lang)
        assert response["Content-Language"] == lang
        return response.json()

    english, other = get("en"), get(language)
    assert other["intro"] != english["intro"] and other["end"] != english["end"]
    assert other["names"] != english["names"]
    for ours, theirs in zip(other["steps"], english["steps"], strict=True):
        assert ours["text"] != theirs["text"] and ours["done"] != theirs["done"]
        assert (ours["move"], ours["view"], ours["legal_moves"]) == \
            (theirs["move"], theirs["view"], theirs["legal_moves"])
    assert other["final_view"] == english["final_view"]
    assert other["seat"] == english["seat"] and other["players"] == english["players"]
    assert other["game"] == slug


def test_the_tutorial_is_in_french_for_accept_language_fr(api_client):
    tutorial = api_client.get("/api/games/nimalia/tutorial", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert tutorial["names"] == ["Vous", "Tuteur"]
    assert "réserve" in tutorial["intro"] and "manche" in tutorial["intro"]
    assert tutorial["steps"][1]["text"].startswith("Chaque carte suivante doit recouvrir")


def _learning_texts(learning: Learning) -> set[str]:
    texts = set()
    for preset in learning.presets:
        texts |= {preset.name, preset.description}
    for words in learning.option_words.values():
        texts |= {words.label, words.help, *words.values.values()}
    texts |= {example.caption for example in learning.examples}
    tutorial = learning.tutorial
    if tutorial is not None:
        texts |= {tutorial.intro, tutorial.end, *tutorial.names}
        for step in tutorial.steps:
            texts |= {step.text, step.done}
    return texts - {""}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_a_game_offers_newcomers_is_in_the_catalogue(language):
    """A text declared in a game's learn.py but not marked with gettext_noop would never reach
    the catalogues (makemessages finds only marked ones): it fails here."""
    po = polib.pofile(str(LOCALE_DIR / LOCALES[language] / "LC_MESSAGES" / "django.po"))
    translated = {entry.msgid for entry in po.translated_entries() if not entry.obsolete}
    for slug, spec in games().items():
        missing = _learning_texts(spec.learning) - translated
        assert missing == set(), (slug, language, missing)
        with translation.override(language):
            assert all(translation.gettext(text) for text in _learning_texts(spec.learning))


def test_option_descriptions_are_in_the_callers_language(api_client):
    listed = {game["slug"]: game for game in
              api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE="fr").json()}
    first = next(o for o in listed["nibble"]["options"] if o["name"] == "first_seat")
    assert first["description"].startswith("La place qui joue en premier, 0 ou 1.")
    english = {game["slug"]: game for game in api_client.get("/api/games").json()}
    for slug, game in english.items():
        for option, translated in zip(game["options"], listed[slug]["options"], strict=True):
            assert translated["description"] != option["description"], (slug, option["name"])


@pytest.mark.parametrize("language, level_4", [
    ("en", "Nibble level 4. Searches much deeper under a bigger fixed budget (at most 3 s a "
           "move), for strong players. About 0.76 s a move; beat level 3 in 186 of 200 arena "
           "games (93.0%)."),
    ("fr", "Nibble niveau 4. Cherche bien plus loin avec un budget fixe plus grand (au plus "
           "3 s par coup), pour les joueurs forts. Environ 0,76 s par coup ; a battu le niveau "
           "3 dans 186 parties d’arène sur 200 (93,0 %)."),
    ("ko", "니블 레벨 4. 더 큰 예산으로 훨씬 깊이 탐색합니다(한 수에 최대 3초). 강한 플레이어용"
           "입니다. 한 수에 약 0.76초. 아레나 200판 중 186판에서 레벨 3을 이겼습니다(93.0%)."),
])
def test_bot_descriptions_are_in_the_callers_language(api_client, language, level_4):
    from games.catalog import game
    from games.services.bots import bot_account_ensure

    for level in game("nibble").levels:
        bot_account_ensure("nibble", level)
    written = bot_account_ensure("nimble", 1)
    written.bot_description = "Written by hand. Stays as it is."
    written.save(update_fields=["bot_description"])
    bots = api_client.get("/api/bots", HTTP_ACCEPT_LANGUAGE=language).json()
    by_level = {bot["level"]: bot for bot in bots if bot["game"] == "nibble"}
    assert by_level[4]["description"] == level_4
    assert all(bot["description"] for bot in by_level.values())
    if language != "en":
        english = {bot["username"]: bot["description"]
                   for bot in api_client.get("/api/bots").json()}
        assert all(bot["description"] != english[bot["username"]] for bot in by_level.values())
    assert next(bot for bot in bots if bot["game"] == "nimble")["description"] == \
        "Written by hand. Stays as it is."
