"""The OpenAPI schema is committed as ``docs/openapi.yaml``: what the server serves and what the
generator writes must be that file, so every change of the API's shape shows in a review."""

from __future__ import annotations

import difflib
from pathlib import Path

from django.conf import settings
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiYamlRenderer

SCHEMA_FILE = Path(settings.BASE_DIR) / "docs" / "openapi.yaml"
REGENERATE = ("DJANGO_SETTINGS_MODULE=config.settings.test "
              ".venv/bin/python manage.py spectacular --file docs/openapi.yaml")
MAX_DIFF_LINES = 80


def _differences(actual: str, where: str) -> str:
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    if actual == committed:
        return ""
    diff = list(difflib.unified_diff(committed.splitlines(), actual.splitlines(),
                                     "docs/openapi.yaml", where, lineterm=""))
    shown = "\n".join(diff[:MAX_DIFF_LINES])
    if len(diff) > MAX_DIFF_LINES:
        shown += f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines"
    return (f"{where} differs from the committed docs/openapi.yaml. If the API change is "
            f"intended, regenerate the file with\n    {REGENERATE}\nand commit it.\n\n"
            f"{shown}")


def test_the_generated_schema_is_the_committed_file():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    actual = OpenApiYamlRenderer().render(schema, renderer_context={}).decode("utf-8")
    problem = _differences(actual, "the generated schema")
    assert not problem, problem


def test_the_served_schema_is_the_committed_file(api_client):
    response = api_client.get("/api/schema")
    assert response.status_code == 200
    problem = _differences(response.content.decode("utf-8"), "GET /api/schema")
    assert not problem, problem
