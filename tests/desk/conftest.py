"""Issue 55's desk findings reuse issue 14's `world` (two clubs, their admins, four lists
and their referees)."""

from __future__ import annotations

import pytest

from tests.trust.world import World, build
from tests.web.manage_data import FAST_HASHERS


@pytest.fixture
def world(db, settings) -> World:  # noqa: ANN001
    settings.PASSWORD_HASHERS = FAST_HASHERS
    return build()
