from __future__ import annotations

import pytest

from tests.web.data import World, small_world


@pytest.fixture
def world(db) -> World:  # noqa: ANN001
    return small_world()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Counts are cached by list id and version; ids repeat between tests' databases."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ANN001, ARG001
    """The crawler's figures (tests/web/test_crawler.py) in the run's summary."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, lines in getattr(report, "user_properties", ()):
                if name == "crawler_summary":
                    terminalreporter.section("Crawler (tests/web/test_crawler.py)", sep="-")
                    for line in lines:
                        terminalreporter.write_line(line)
