"""The workflow's mail through the real broker and worker (issue 17, item 8).

Two ways: a worker thread in this process consuming from Redis (its mail lands in
Django's locmem outbox), and the `celery worker` subprocess of test_worker.py with the
file backend (what a deployment runs). Both need PostgreSQL and Redis, and skip without
them (under CI=true they fail), like test_worker.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail

from clubsite.config.celery import app as celery_app
from clubsite.models import Profile
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import UserFactory
from tests.pipeline.test_worker import (  # noqa: F401 - fixtures
    BROKER,
    _services,
    _three_tables,
    approve,
    wait_rated,
    worker_factory,
)
from tournaments.models import Tournament

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _wait(predicate, timeout: float = 60) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


@pytest.fixture
def broker_worker():
    """A real worker (a thread of this process) on the real Redis; tasks are not eager."""
    conf = celery_app.conf
    saved = conf.broker_url, conf.task_always_eager
    conf.broker_url, conf.task_always_eager = BROKER, False
    _fresh_connections()
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield
    finally:
        conf.broker_url, conf.task_always_eager = saved
        _fresh_connections()


def _fresh_connections() -> None:
    """Drop the pooled connections so the next ones use the broker URL just set."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_approval_mail_crosses_the_broker_into_the_outbox(broker_worker):
    rating_list, tables = _three_tables(seed=8)
    admin = UserFactory(username="club-admin", email="admin@example.org")
    Profile.objects.create(user=admin, language="ru")
    tables[0].organiser.admins.add(admin)
    referee = UserFactory(username="list-referee", is_staff=True)
    tournament_approve_and_rate(tournament=tables[0], by=referee)
    assert mail.outbox == []  # queued, not sent in the caller
    _wait(lambda: len(mail.outbox) == 1)
    (message,) = mail.outbox
    assert message.to == ["admin@example.org"]
    assert message.subject == f"Утверждено: {tables[0].name}"
    assert f"Изменения рейтинга в листе {rating_list.name}:" in message.body
    assert "→" in message.body  # the changes, written after the recompute


def test_the_worker_process_sends_the_approval_mail(worker_factory, tmp_path, monkeypatch):  # noqa: F811
    outbox = tmp_path / "sent"
    monkeypatch.setenv("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    monkeypatch.setenv("DJANGO_EMAIL_FILE_PATH", str(outbox))
    rating_list, tables = _three_tables(seed=9)
    admin = UserFactory(username="club-admin-2", email="admin2@example.org")
    tables[0].organiser.admins.add(admin)
    worker_factory()
    process = approve(tables[0].pk)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 0, output
    wait_rated(rating_list)
    assert Tournament.objects.get(pk=tables[0].pk).status == "approved"

    def sent() -> list[Path]:
        return sorted(outbox.glob("*.log")) if outbox.exists() else []

    _wait(lambda: sent())
    text = "".join(path.read_text() for path in sent())
    assert "To: admin2@example.org" in text
    assert f"Rating changes in {rating_list.name}:" in text
