"""Every message catalogue is complete and each translation keeps its original's placeholders.

The catalogues are read as committed (``locale/<lang>/LC_MESSAGES/*.po``), and also checked
against the code: ``makemessages`` run into a scratch copy must find no string that the
committed catalogues lack, so a string marked for translation and never translated fails here.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from config.catalogues import LOCALE_DIR, catalogues, compile_catalogue
from games.catalog import games
from games.kit.registry import GameSpec
from games.rules_text import KIT_MESSAGES, engine_message, game_name

ROOT = Path(settings.BASE_DIR)
# gettext's names for the languages of settings.LANGUAGES other than English (the source).
LOCALES = ["fr", "pt_BR", "ko"]
DOMAINS = ["django", "djangojs"]
IGNORED = [".venv", "tests", "clients", "node_modules", "staticfiles", "var", "test-artifacts",
           "docker", "scripts", "boardpost.egg-info"]

# %(name)s, %(name)d, %(name)r, %(name)+d ...; {name}; a bare %s / %d.
_PERCENT = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[sdrifgxXeEcuo%]")
_BRACES = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")


def placeholders(text: str) -> list[str]:
    found = [m.group(0).replace(" ", "") for m in _PERCENT.finditer(text) if m.group(0) != "%%"]
    found += ["{" + m.group(1) + "}" for m in _BRACES.finditer(text)]
    return sorted(found)


def test_every_language_of_the_settings_has_its_catalogues():
    expected = {code for code, _ in settings.LANGUAGES} - {"en"}
    assert {polib_locale(code) for code in expected} == set(LOCALES)
    for lang in LOCALES:
        for domain in DOMAINS:
            assert (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").is_file(), (lang, domain)


def polib_locale(code: str) -> str:
    language, _, country = code.partition("-")
    return f"{language}_{country.upper()}" if country else language


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogue_is_complete(lang, domain):
    po = polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"))
    assert not po.metadata_is_fuzzy
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [], f"untranslated in {lang}/{domain}: {untranslated}"
    assert fuzzy == [], f"fuzzy in {lang}/{domain}: {fuzzy}"
    assert po.percent_translated() == 100


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_placeholders_are_kept(lang, domain):
    po = polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"))
    wrong = []
    for entry in po.translated_entries():
        if entry.msgid_plural:
            for form, text in entry.msgstr_plural.items():
                source = entry.msgid if form == 0 and len(entry.msgstr_plural) > 1 \
                    else entry.msgid_plural
                # A language with one plural form writes the number in its only form.
                if placeholders(text) != placeholders(source):
                    wrong.append((entry.msgid, text))
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append((entry.msgid, entry.msgstr))
        # HTML in a message keeps its tags.
        tags = re.compile(r"</?[a-z]+")
        if not entry.msgid_plural and \
                sorted(tags.findall(entry.msgid)) != sorted(tags.findall(entry.msgstr)):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


def test_the_placeholder_check_catches_a_dropped_or_renamed_one():
    assert placeholders("Move by %(deadline)s.") == ["%(deadline)s"]
    assert placeholders("Jouez vite.") != placeholders("Move by %(deadline)s.")
    assert placeholders("%(game)s: {x} %d 100%%") == ["%(game)s", "%d", "{x}"]
    assert placeholders("Classement %(before)d → %(after)d (%(change)+d).") == [
        "%(after)d", "%(before)d", "%(change)+d"]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
def test_msgfmt_accepts_every_catalogue(tmp_path):
    for po in catalogues():
        subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(po)],
                       check=True)


def test_polib_compiles_the_same_messages_as_msgfmt(tmp_path):
    """Without GNU gettext, the catalogues still compile (make run needs only Python)."""
    po = tmp_path / "django.po"
    shutil.copy(LOCALE_DIR / "fr" / "LC_MESSAGES" / "django.po", po)
    mo = compile_catalogue(po, use_msgfmt=False)
    compiled = {e.msgid: e.msgstr for e in polib.mofile(str(mo))}
    assert compiled["The match is over."] == "La partie est terminée."


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_makemessages_finds_nothing_the_catalogues_lack(tmp_path):
    """makemessages over the code, into a scratch copy of the catalogues: every string it finds
    is already in the committed catalogues, translated."""
    scratch = tmp_path / "project"
    scratch.mkdir()
    for name in ("manage.py", "config", "accounts", "games", "locale"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, scratch / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.mo", "static",
                                                          "node_modules"))
        else:
            shutil.copy(source, scratch / name)
    # The web client's scripts are scanned for the djangojs domain.
    shutil.copytree(ROOT / "games" / "web" / "static", scratch / "games" / "web" / "static")
    ignore = [f"--ignore={name}" for name in IGNORED]
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "--no-obsolete",
             *[f"-l{lang}" for lang in LOCALES], "--add-location", "file", *ignore],
            cwd=scratch, check=True, capture_output=True,
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.test"})
    for lang in LOCALES:
        for domain in DOMAINS:
            path = scratch / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
            if not path.exists():
                continue
            po = polib.pofile(str(path))
            new = [e.msgid for e in po.untranslated_entries() + po.fuzzy_entries()]
            assert new == [], (f"strings marked for translation but missing from "
                               f"locale/{lang}/LC_MESSAGES/{domain}.po (run makemessages "
                               f"and translate them, docs/i18n.md): {new}")


def _package(spec: GameSpec) -> Path:
    """The folder of a game's package (where its engine is defined)."""
    return Path(sys.modules[type(spec.engine).__module__].__file__).parent


def _sources(folder: Path) -> list[Path]:
    """A package's code, but for the texts it declares."""
    return sorted(path for path in folder.rglob("*.py") if path.name != "texts.py")


def _engine_rules(spec: GameSpec) -> set[str]:
    found = set()
    for path in _sources(_package(spec)):
        found |= set(re.findall(rf'"({re.escape(spec.slug)}\.[a-z0-9_]+)"', path.read_text()))
    return found


def test_every_rule_an_engine_names_has_a_translatable_text(nim):
    """For every registered game, Nim included: each rule code its package names has a text in
    its texts, and each text is of one of its own codes."""
    assert "nim" in games()
    for slug, spec in games().items():
        rules = _engine_rules(spec)
        assert rules, f"no rule codes found for {slug}"
        assert rules - set(spec.texts.rules) == set(), slug
        assert all(rule.startswith(f"{slug}.") for rule in spec.texts.rules), slug
        for rule, text in spec.texts.rules.items():
            error = type("Illegal", (), {"message": "", "rule": rule, "code": "illegal_move"})
            assert engine_message(error) == text, (slug, rule)


ENGINE_ERRORS = {"MalformedMove", "NotYourTurn", "GameOver", "InvalidConfig"}


def _fixed_messages(folder: Path) -> set[str]:
    """Every fixed (constant) message the code in ``folder`` raises as an engine error."""
    fixed = set()
    for path in _sources(folder):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ENGINE_ERRORS and node.args \
                    and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                fixed.add(node.args[0].value)
    return fixed


def test_every_fixed_engine_message_is_listed(nim):
    """A fixed message an engine raises is looked up as it is: it must be listed in its game's
    texts (``texts.messages``) or, raised by the kit, in games.rules_text.KIT_MESSAGES (and so
    be in the catalogues). Every registered game is checked, Nim included."""
    kit = _fixed_messages(ROOT / "games" / "kit")
    assert kit, "no kit messages found"
    assert kit - set(KIT_MESSAGES) == set()
    assert "nim" in games()
    for slug, spec in games().items():
        fixed = _fixed_messages(_package(spec))
        assert fixed, f"no engine messages found for {slug}"
        assert fixed - set(spec.texts.messages) - set(KIT_MESSAGES) == set(), slug


def test_every_game_has_a_name_players_read(nim):
    """A game's texts name it as its engine does (the English the catalogues translate)."""
    for slug, spec in games().items():
        assert spec.texts.name == spec.engine.name, slug
        assert game_name(slug) == spec.engine.name


def test_every_text_of_a_built_in_game_is_in_the_catalogues():
    """The texts of the games the server ships (not Nim, which lives in the tests) are
    translated in every language: a text in a game's texts.py not marked with gettext_noop
    would never reach the catalogues."""
    for lang in LOCALES:
        po = polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES" / "django.po"))
        translated = {entry.msgid for entry in po.translated_entries() if not entry.obsolete}
        for slug, spec in games().items():
            texts = {spec.texts.name, *spec.texts.rules.values(), *spec.texts.messages,
                     *spec.texts.strength.values()}
            assert texts - translated == set(), (lang, slug)
        assert set(KIT_MESSAGES) - translated == set(), lang
