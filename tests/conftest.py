"""Shared test set-up.

Tests run tasks in-process (eager) unless a test starts a real worker itself
(`tests/pipeline/test_worker.py`), whatever CELERY_BROKER_URL the environment sets.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from clubsite.config.celery import app as celery_app

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


@pytest.fixture(autouse=True)
def _english():
    """Each test starts in English: a view test that switches language must not leak it."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: list keys carry the list's id and version,
    which a rolled-back test's list may share with the next one's."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fresh_name_index():
    """Each test reads the members afresh: a rolled-back test's ids are reused."""
    from clubsite.name_index import forget_name_index

    forget_name_index()
    yield


@pytest.fixture(autouse=True)
def _eager_tasks():
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ANN001, ARG001
    """The EGF real-data figures (issue 3) in every run's summary, when that test ran.

    tests/systems/test_egf_realdata.py records them as a test property; without this they
    showed only with -s.
    """
    shown = set()
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, lines in getattr(report, "user_properties", ()):
                if name != "egd_realdata_summary" or report.nodeid in shown:
                    continue
                shown.add(report.nodeid)
                terminalreporter.section("EGF against the EGD (tests/systems)", sep="-")
                for line in lines:
                    terminalreporter.write_line(line)
