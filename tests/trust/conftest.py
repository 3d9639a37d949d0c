"""The `world` fixture of issue 14's tests (tests.trust.world)."""

from __future__ import annotations

import pytest

from tests.trust.world import World, build
from tests.web.manage_data import FAST_HASHERS


@pytest.fixture
def world(db, settings) -> World:  # noqa: ANN001
    settings.PASSWORD_HASHERS = FAST_HASHERS
    return build()
