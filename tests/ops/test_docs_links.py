"""Every relative link in README.md and docs/*.md leads somewhere: to a file of the repository
and, for an ``#anchor`` into a Markdown file, to one of its headings (as GitHub names them).
Links in code blocks and code spans are not links; links with a scheme (``https:``,
``mailto:``) are not checked."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^ {0,3}(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with code spans blanked."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(CODE_SPAN.sub("", line))
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lowercased, punctuation dropped, spaces
    made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.strip().lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LMN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of a Markdown page: its headings' slugs (a repeated one numbered -1, -2,
    as GitHub does) and explicit ``<a id>`` or ``<a name>`` anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    text = page.read_text(encoding="utf-8")
    for line in prose_lines(text):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(HTML_ANCHOR.findall(text))
    return found


def link_targets(page: Path) -> list[str]:
    targets = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        targets.extend(INLINE_LINK.findall(line))
        reference = REFERENCE_LINK.match(line)
        if reference:
            targets.append(reference.group(1))
    return targets


def broken_links(page: Path, root: Path) -> list[str]:
    """The relative links of ``page`` that lead nowhere, each with the reason."""
    problems = []
    for target in link_targets(page):
        if SCHEME.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        where = (page.parent / path_part).resolve() if path_part else page
        if not where.is_relative_to(root):
            problems.append(f"{target}: outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{target}: no heading #{anchor} in {where.relative_to(root)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    assert broken_links(page, ROOT) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_no_page_points_outside_the_project(page):
    assert "../shared/" not in page.read_text(encoding="utf-8")


def test_the_readme_opens_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[2] == "```sh"
    assert lines[3].startswith("make run ") and lines[4].startswith("make test ")
    assert lines[5] == "```"


def test_the_readme_stays_a_front_door():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 300


def test_the_check_finds_missing_files_and_headings(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text("# Title\n\n## Running it: for real\n\n## Again\n"
                                             "## Again\n", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/b.md#running-it-for-real) [ok](docs/b.md#again-1) [ok](#top)\n"
        "[file](docs/c.md) [heading](docs/b.md#nowhere) [up](../elsewhere.md)\n"
        "<a id=\"top\"></a> [web](https://example.org/x.md) `[code](docs/none.md)`\n"
        "```\n[fenced](docs/none.md)\n```\n[ref]: docs/gone.md\n", encoding="utf-8")
    assert broken_links(page, tmp_path) == [
        "docs/c.md: no such file",
        "docs/b.md#nowhere: no heading #nowhere in docs/b.md",
        "../elsewhere.md: outside the repository",
        "docs/gone.md: no such file",
    ]


def test_headings_are_named_as_github_names_them():
    assert slug("Accounts, tokens and security") == "accounts-tokens-and-security"
    assert slug("Notifications: Web Push and email") == "notifications-web-push-and-email"
    assert slug("Solo variant (unofficial)") == "solo-variant-unofficial"
    assert slug("Level 4 `deep_opponent`") == "level-4-deep_opponent"
