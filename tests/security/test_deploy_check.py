"""``manage.py check --deploy`` passes with no warning on the production settings and the
documented environment (docs/security.md, "HTTPS and headers")."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DOCUMENTED = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_ALLOWED_HOSTS": "boardpost.example.org",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "true",
    "TRUSTED_PROXY_COUNT": "1",
}


def check_deploy(**env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("DJANGO_", "SECURE_"))}
    environment.update({"DJANGO_SECRET_KEY": secrets.token_urlsafe(50), **DOCUMENTED, **env})
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_the_documented_environment():
    result = check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize("env, warning", [
    ({"DJANGO_SECURE_HSTS_SECONDS": "0"}, "security.W004"),
    ({"DJANGO_SECURE_SSL_REDIRECT": "false"}, "security.W008"),
    ({"DJANGO_SECURE_COOKIES": "false"}, "security.W012"),
])
def test_check_deploy_notices_a_weakened_setting(env, warning):
    result = check_deploy(**env)
    assert result.returncode != 0
    assert warning in result.stdout + result.stderr
