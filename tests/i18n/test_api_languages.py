"""The API answers in the caller's language: Accept-Language, or a signed-in player's own choice
(PATCH /api/me), which wins. Content-Language says which; codes, rules and every other
machine-readable field stay the same in every language."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from games.kit.protocol import IllegalMove, MalformedMove
from games.models import Match, Move
from games.notify import kinds
from games.rules_text import engine_message
from tests.games.matchplay import submit

LANGUAGES = ["en", "fr", "pt-br", "ko"]


def _match_404(client, **headers):
    return client.get("/api/matches/00000000-0000-0000-0000-000000000000", **headers)


def test_an_error_is_answered_in_french_for_accept_language_fr(client_for, alice):
    response = _match_404(client_for(alice), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    assert response["Content-Language"] == "fr"
    assert "Accept-Language" in response["Vary"]
    assert response.json() == {
        "code": "not_found",
        "message": "Cette partie n’existe pas, ou vous ne pouvez pas la voir.",
        "extra": {}}


def test_without_a_preference_or_header_the_answer_is_english(client_for, alice):
    response = _match_404(client_for(alice))
    assert response["Content-Language"] == "en"
    assert response.json()["message"] == "No such match, or it is not visible to you."


@pytest.mark.parametrize("header, language, message", [
    ("fr-CA,fr;q=0.9", "fr", "Informations d’authentification non fournies."),
    ("pt-BR,pt;q=0.8,en;q=0.5", "pt-br", "As credenciais de autenticação não foram fornecidas."),
    ("ko-KR,ko;q=0.9", "ko", "인증 정보가 제공되지 않았습니다."),
    ("de-DE,de;q=0.9", "en", "Authentication credentials were not provided."),
])
def test_drf_messages_come_translated(api_client, db, header, language, message):
    response = api_client.get("/api/me", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 401
    assert response["Content-Language"] == language
    assert response.json()["code"] == "not_authenticated"
    assert response.json()["message"] == message


def test_patch_me_sets_the_language_and_it_wins_over_accept_language(client_for, alice):
    client = client_for(alice)
    response = client.patch("/api/me", {"language": "ko"}, format="json",
                            HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200, response.json()
    assert response.json()["language"] == "ko"
    assert response["Content-Language"] == "ko"  # the answer to the change is already in it
    alice.refresh_from_db()
    assert alice.language == "ko"
    assert client.get("/api/me").json()["language"] == "ko"
    response = _match_404(client, HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "ko"
    assert response.json()["message"] == "그런 대국이 없거나 볼 수 없는 대국입니다."
    assert client.get("/api/me/settings").json()["language"] == "ko"


def test_null_goes_back_to_accept_language(client_for, alice):
    alice.language = "fr"
    alice.save()
    client = client_for(alice)
    response = client.patch("/api/me", {"language": None}, format="json",
                            HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert response.status_code == 200
    assert response.json()["language"] is None
    assert response["Content-Language"] == "pt-br"
    assert _match_404(client, HTTP_ACCEPT_LANGUAGE="pt-BR")["Content-Language"] == "pt-br"


def test_the_settings_endpoint_sets_the_language_too(client_for, alice):
    response = client_for(alice).patch("/api/me/settings", {"language": "pt-br"}, format="json")
    assert response.status_code == 200
    assert response.json()["language"] == "pt-br"
    assert response["Content-Language"] == "pt-br"


@pytest.mark.parametrize("value", ["de", "FR", "", 3, True, ["fr"]])
def test_an_unknown_language_is_a_validation_error(client_for, alice, value):
    response = client_for(alice).patch("/api/me", {"language": value}, format="json",
                                       HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation_error"
    assert body["message"] == "Erreur de validation."
    assert "language" in body["extra"]["fields"]
    alice.refresh_from_db()
    assert alice.language == ""


def test_the_preference_is_the_callers_only(client_for, alice, bob):
    alice.language = "ko"
    alice.save()
    assert "language" not in client_for(bob).get("/api/players/alice").json()
    response = _match_404(client_for(bob), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "fr"


def _illegal(nibble, language):
    client = nibble.a
    response = submit(client, nibble.id, {"take": [[4, 4]]}, expected_version=0,
                      **{"Accept-Language": language})
    assert response.status_code == 422
    return response


def test_an_illegal_move_is_explained_in_each_language_with_the_same_rule(nibble):
    bodies = {}
    for language in LANGUAGES:
        response = _illegal(nibble, language)
        assert response["Content-Language"] == language
        bodies[language] = response.json()
    messages = {language: body.pop("message") for language, body in bodies.items()}
    # Everything but the message is the same in every language: code, rule, cells.
    assert all(body == bodies["en"] for body in bodies.values())
    assert bodies["en"]["code"] == "illegal_move"
    assert bodies["en"]["extra"]["rule"] == "nibble.not_exposed"
    assert messages == {
        "en": "A disc needs two adjacent exposed sides to be taken.",
        "fr": "Un disque ne peut être pris que s’il a deux côtés adjacents exposés.",
        "pt-br": "Um disco só pode ser pego se tiver duas faces adjacentes expostas.",
        "ko": "디스크는 인접한 두 면이 노출되어 있어야 가져갈 수 있습니다.",
    }
    assert not Move.objects.exists()
    assert Match.objects.get(id=nibble.id).version == 0


def test_the_match_view_is_the_same_in_every_language_but_its_words(nibble):
    answers = [nibble.a.get(f"/api/matches/{nibble.id}", HTTP_ACCEPT_LANGUAGE=language)
               for language in LANGUAGES]
    assert [a["Content-Language"] for a in answers] == LANGUAGES
    first = answers[0].json()
    assert all(a.json() == first for a in answers[1:])


def test_game_names_follow_the_language_and_slugs_do_not(api_client, db):
    english = api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE="en").json()
    korean = api_client.get("/api/games", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert [g["slug"] for g in korean] == [g["slug"] for g in english]
    names = {g["slug"]: g["name"] for g in korean}
    assert names["nibble"] == "니블"
    assert {g["slug"]: g["name"] for g in english}["nibble"] == "Nibble"
    for ko, en in zip(korean, english, strict=True):
        assert [o["name"] for o in ko["options"]] == [o["name"] for o in en["options"]]
        assert [o.get("default") for o in ko["options"]] == [o.get("default")
                                                                for o in en["options"]]


def test_a_validation_error_keeps_its_field_names(client_for, alice):
    client = client_for(alice)
    answers = [client.post("/api/matches", {"game": "nibble", "bogus": 1}, format="json",
                           HTTP_ACCEPT_LANGUAGE=language) for language in LANGUAGES]
    assert {a.status_code for a in answers} == {400}
    assert {a.json()["code"] for a in answers} == {"validation_error"}
    assert {tuple(a.json()["extra"]["fields"]) for a in answers} == {("bogus",)}
    assert [a.json()["message"] for a in answers] == [
        "Validation error.", "Erreur de validation.", "Erro de validação.",
        "유효성 검사 오류입니다."]


def test_a_service_error_with_values_is_translated_with_them(client_for, alice):
    response = client_for(alice).post("/api/matches", {
        "game": "nibble", "seats": [{"kind": "me"}, {"kind": "user", "username": "nobody"}]},
        format="json", HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_seats"
    assert body["extra"] == {"seat": 1}  # the index; the message counts seats from 1
    assert body["message"] == "Lugar 2: nenhum jogador se chama 'nobody'."


def test_engine_messages_with_values_are_told_by_their_code():
    error = MalformedMove("Field row must be a whole number.", field="row")
    with translation.override("en"):
        assert engine_message(error) == "Field row must be a whole number."
    with translation.override("fr"):
        assert engine_message(error) == \
            "Le coup ne respecte pas la syntaxe des coups de ce jeu (champ « row »)."
    with translation.override("ko"):
        assert engine_message(MalformedMove("Not a Nimalia move.")) == "니말리아의 수가 아닙니다."
        assert engine_message(IllegalMove("x", rule="nimalia.exceeds_6x6")) == \
            "내 보호구역은 6 x 6칸을 넘을 수 없습니다."
    with translation.override("fr"):
        assert engine_message(IllegalMove("x", rule="nimalia.no_overlap")) == \
            "Une carte doit recouvrir de 1 à 4 cases de votre réserve."


@pytest.mark.parametrize("language, title, body", [
    ("en", "Your turn in Nibble", "It is your move."),
    ("fr", "À vous de jouer à Nibble", "C’est à vous de jouer."),
    ("pt-br", "Sua vez em Nibble", "É a sua vez de jogar."),
    ("ko", "니블: 내 차례입니다", "내 차례입니다."),
])
def test_notification_words_in_each_language(language, title, body):
    entry = {"id": 1, "type": "your_turn", "match": "m", "game": "nibble", "data": {}}
    with translation.override(language):
        message = kinds.message(entry)
    assert (message.title, message.body) == (title, body)
    assert message.kind == "your_turn" and message.path == "/match/m"


def test_a_finished_match_is_told_with_the_place_and_rating_in_korean():
    entry = {"id": 1, "type": "match_finished", "match": "m", "game": "nimalia",
             "data": {"rank": 2}}
    with translation.override("ko"):
        message = kinds.message(entry, {"before": 1500, "after": 1488})
    assert message.title == "니말리아: 대국 종료"
    assert message.body == "2위로 마쳤습니다. 레이팅 1500 → 1488 (-12)."


def test_the_verification_mail_is_in_the_players_language(client_for, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice.language = "fr"
    alice.save()
    client = client_for(alice)
    response = client.put("/api/me/email", {"email": "alice@example.com"}, format="json")
    assert response.status_code == 200, response.json()
    response = client.post("/api/me/email/verification", HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code in (200, 202), response.json()
    sent = mail.outbox[-1]
    assert sent.subject == "Boardpost : confirmez votre adresse e-mail"
    assert "Confirmez votre adresse e-mail" in sent.body
    html = sent.alternatives[0][0]
    assert '<html lang="fr">' in html and "Confirmer cette adresse" in html


def test_the_web_page_is_in_the_browsers_language(client, db):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ko")
    assert page["Content-Language"] == "ko"
    text = page.content.decode()
    assert '<html lang="ko">' in text and "본문으로 건너뛰기" in text


def test_the_javascript_catalogue_is_served(client, db):
    for url in ("/jsi18n/", "/jsi18n.json"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
        assert response.status_code == 200
        assert response["Content-Language"] == "fr"
    catalog = client.get("/jsi18n.json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert set(catalog) >= {"catalog", "formats", "plural"}
    script = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "django.gettext" in script
