"""The schema has a version, and every change of the committed schema comes with an entry in
docs/CHANGELOG-API.md: the newest entry names the schema's version and records the SHA-256 of
the committed docs/openapi.yaml. (tests/games/apis/test_schema_file.py makes the committed file
follow the code.)

``python -m tests.contract.test_versioning`` prints the digest to record."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "openapi.yaml"
CHANGELOG = ROOT / "docs" / "CHANGELOG-API.md"
ENTRY = re.compile(r"^## (\d+\.\d+\.\d+)\s*$", re.MULTILINE)
DIGEST = re.compile(r"^schema-sha256: (\S+)\s*$", re.MULTILINE)


def schema_digest() -> str:
    return hashlib.sha256(SCHEMA.read_bytes()).hexdigest()


def newest_entry() -> tuple[str, str]:
    """The newest entry's version and text."""
    text = CHANGELOG.read_text(encoding="utf-8")
    starts = list(ENTRY.finditer(text))
    assert starts, "docs/CHANGELOG-API.md has no version entry"
    end = starts[1].start() if len(starts) > 1 else len(text)
    return starts[0].group(1), text[starts[0].end():end]


def test_the_schema_version_is_the_newest_changelog_entry():
    import yaml

    version = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["info"]["version"]
    newest, _ = newest_entry()
    assert version == newest, (
        f"docs/openapi.yaml is version {version} but the newest changelog entry is {newest}: "
        "set SPECTACULAR_SETTINGS['VERSION'] and the changelog together.")


def test_the_newest_entry_describes_the_committed_schema():
    version, text = newest_entry()
    recorded = DIGEST.findall(text)
    actual = schema_digest()
    assert recorded == [actual], (
        f"docs/openapi.yaml changed since the changelog entry {version} was written "
        f"(recorded {recorded}, now {actual}). Say what changed for clients in "
        "docs/CHANGELOG-API.md (a new entry and version if clients must know, see the rules "
        "there), then record the digest on the entry's `schema-sha256:` line.")


def test_versions_go_down_the_file():
    versions = [tuple(map(int, v.split("."))) for v in
                ENTRY.findall(CHANGELOG.read_text(encoding="utf-8"))]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)


if __name__ == "__main__":
    print(schema_digest())
