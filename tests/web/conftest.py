from __future__ import annotations

import pytest

from tests.web.data import World, small_world


@pytest.fixture
def world(db) -> World:  # noqa: ANN001
    return small_world()
