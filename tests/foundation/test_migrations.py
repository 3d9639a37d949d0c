"""The models and their migrations agree: no model change is waiting for a migration."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_missing_migrations() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # --check exits 1 when a migration would be written
        pytest.fail(f"makemigrations --check exited {exit_.code}:\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()
