"""Settings read from the environment, each case in a fresh interpreter.

The environment of the test run is cleared of every setting these tests vary (and of
what other test modules set), so a developer's DJANGO_DEBUG or CELERY_BROKER_URL does
not change the outcome.
"""

from __future__ import annotations

import os
import secrets
import string
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VARIED = (
    "DJANGO_DEBUG",
    "DJANGO_PRODUCTION",
    "DJANGO_SECURE",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "CELERY_BROKER_URL",
    "DATABASE_PARALLEL_WORKERS",
    "CONN_MAX_AGE",
    # Set by tests/browser/conftest.py for Playwright's live server; the deploy check refuses it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in VARIED}
    env["DJANGO_SETTINGS_MODULE"] = "clubsite.config.settings"
    env.update(extra)
    return env


def _run(args: list[str], **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=_env(**extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _setting(expression: str, **extra: str) -> str:
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    result = _run(["-c", code], **extra)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_debug_off_by_default() -> None:
    assert _setting("settings.DEBUG") == "False"


@pytest.mark.parametrize(("value", "expected"), [("1", "True"), ("true", "True"), ("0", "False")])
def test_debug_from_environment(value: str, expected: str) -> None:
    assert _setting("settings.DEBUG", DJANGO_DEBUG=value) == expected


POSTGRES = "postgres://someone@db.example:5432/clubsite"
OPTIONS = "settings.DATABASES['default'].get('OPTIONS', {}).get('options')"


def test_postgresql_starts_no_parallel_workers_unless_told() -> None:
    assert _setting(OPTIONS, DATABASE_URL=POSTGRES) == "-c max_parallel_workers_per_gather=0"
    two = _setting(OPTIONS, DATABASE_URL=POSTGRES, DATABASE_PARALLEL_WORKERS="2")
    assert two == "-c max_parallel_workers_per_gather=2"
    assert _setting(OPTIONS, DATABASE_URL=POSTGRES, DATABASE_PARALLEL_WORKERS="-1") == "None"
    # options given in the URL are kept
    url = f"{POSTGRES}?options=-c%20statement_timeout%3D5000"
    assert _setting(OPTIONS, DATABASE_URL=url) == (
        "-c statement_timeout=5000 -c max_parallel_workers_per_gather=0"
    )
    assert _setting(OPTIONS, DATABASE_URL="sqlite:///x.sqlite3") == "None"


@pytest.mark.django_db
def test_the_connection_runs_without_parallel_workers() -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite has no parallel workers")
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_parallel_workers_per_gather")
        assert cursor.fetchone() == ("0",)


def test_celery_eager_without_a_broker() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from clubsite.config.celery import app; "
        "print(settings.CELERY_TASK_ALWAYS_EAGER, app.conf.task_always_eager)"
    )
    result = _run(["-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


@pytest.mark.parametrize("broker", [None, ""])
def test_celery_eager_task_without_a_broker_logs_no_broker_warning(broker: str | None) -> None:
    """Eager mode still takes a producer from the pool; an empty broker URL made kombu
    log "No hostname was supplied. Reverting to default 'localhost'" on every approval."""
    code = (
        "import django; django.setup(); from clubsite.config.celery import app\n"
        "@app.task(name='probe')\n"
        "def probe():\n    return 41 + 1\n"
        "print(probe.delay().get(), app.conf.task_always_eager, app.conf.broker_url)"
    )
    extra = {} if broker is None else {"CELERY_BROKER_URL": broker}
    result = _run(["-c", code], **extra)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["42", "True", "memory://localhost/"]
    assert "hostname" not in result.stderr, result.stderr


def test_celery_not_eager_with_a_broker() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from clubsite.config.celery import app; "
        "print(settings.CELERY_TASK_ALWAYS_EAGER, app.conf.task_always_eager, app.conf.broker_url)"
    )
    result = _run(["-c", code], CELERY_BROKER_URL="redis://127.0.0.1:6379/9")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "redis://127.0.0.1:6379/9"]


def _secret_key() -> str:
    alphabet = string.ascii_letters + string.digits + "!@#%^&*(-_=+)"
    return "".join(secrets.choice(alphabet) for _ in range(50))


def test_deploy_check_passes_in_production() -> None:
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_PRODUCTION="true",
        DJANGO_SECRET_KEY=_secret_key(),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_fails_with_the_development_defaults() -> None:
    """The guard works: without the production settings the deploy check complains."""
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert result.returncode != 0
    assert "security.W" in result.stdout + result.stderr


def test_production_turns_on_https_settings() -> None:
    expression = (
        "settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, "
        "settings.CSRF_COOKIE_SECURE, settings.SECURE_HSTS_SECONDS > 0, settings.ALLOWED_HOSTS"
    )
    out = _setting(
        expression,
        DJANGO_PRODUCTION="true",
        DJANGO_SECRET_KEY=_secret_key(),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    assert out == "True True True True ['example.org']"


def test_a_process_keeps_its_database_connection_for_a_minute_unless_told() -> None:
    age = "settings.DATABASES['default']['CONN_MAX_AGE']"
    assert _setting(age, DATABASE_URL=POSTGRES) == "60"
    assert _setting(age, DATABASE_URL=POSTGRES, CONN_MAX_AGE="0") == "0"
    # the development server (debug on) starts a thread per request: one connection each
    assert _setting(age, DATABASE_URL=POSTGRES, DJANGO_DEBUG="1") == "0"
    assert _setting(age, DATABASE_URL=POSTGRES, DJANGO_DEBUG="1", CONN_MAX_AGE="30") == "30"
    assert _setting("settings.DATABASES['default']['CONN_HEALTH_CHECKS']") == "True"
