"""Settings come from the environment; production refuses to start without a secret key."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(settings_module: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
                               " print(settings.DEBUG, settings.ALLOWED_HOSTS)"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": settings_module, **env},
        capture_output=True, text=True, timeout=60)


def test_production_refuses_to_start_without_a_secret_key():
    result = _load("config.settings.production")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production" in result.stderr


def test_production_reads_its_settings_from_the_environment():
    result = _load("config.settings.production", DJANGO_SECRET_KEY="x" * 50,
                   DJANGO_ALLOWED_HOSTS="play.example.org,api.example.org", DJANGO_DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False ['play.example.org', 'api.example.org']"


def test_local_settings_run_with_no_environment_at_all():
    result = _load("config.settings.local")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True")
