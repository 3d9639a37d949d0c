from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:  # noqa: ANN001
    """Every scene makes several users; the default hasher would take seconds each time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
