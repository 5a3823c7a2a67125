"""Every error code the API may answer is in one registry, which docs/api.md's table and the
OpenAPI schema are generated from; the table and the committed schema must match it."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings

from games.management.commands.error_codes import (
    DOCS_PAGE,
    END,
    START,
    all_error_codes,
    markdown_table,
    page_with_table,
)

ROOT = Path(settings.BASE_DIR)


def test_the_docs_table_is_the_registry():
    page = (ROOT / DOCS_PAGE).read_text(encoding="utf-8")
    assert START in page and END in page
    assert page == page_with_table(page), (
        f"{DOCS_PAGE}'s error-code table is out of date: run "
        "`python manage.py error_codes --write-docs` and commit it.")


def test_the_readme_links_to_the_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/api.md#every-error-code)" in readme


def test_the_table_lists_the_codes_clients_asked_for():
    table = markdown_table()
    for code in ("invalid_seats", "idempotency_key_reused", "replay_not_available",
                 "username_taken", "unsupported_media_type", "too_many_attempts",
                 "service_unavailable", "not_acceptable", "illegal_move"):
        assert f"`{code}`" in table


def test_every_code_is_in_the_committed_schema_at_its_status():
    schema = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text(encoding="utf-8"))
    listed: set[tuple[int, str]] = set()
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                for code in response.get("x-error-codes", []):
                    listed.add((int(status), code))
    # 405 is what a method the schema does not list answers, so no operation carries it.
    wanted = {(entry.status, entry.code) for entry in all_error_codes() if entry.status != 405}
    assert wanted <= listed, sorted(wanted - listed)


def test_every_operation_with_a_body_may_answer_415():
    schema = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text(encoding="utf-8"))
    for path, path_item in schema["paths"].items():
        for method, operation in path_item.items():
            if "requestBody" in operation:
                assert "415" in operation["responses"], (method, path)
                assert operation["responses"]["415"]["x-error-codes"] == [
                    "unsupported_media_type"]
