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
