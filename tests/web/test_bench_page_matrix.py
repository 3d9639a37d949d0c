"""`manage.py bench_page_matrix` (issue 18) answers every order, filter and depth of the
public lists with a page (a 5xx or a 404 stops it) and reports their spread."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_every_variant_is_a_page_and_the_spread_is_reported(world):
    out = StringIO()
    call_command("bench_page_matrix", "--runs", "1", "--over", "1000", stdout=out)
    report = out.getvalue()
    for path in ("/ratings/", "/tournaments/", "/api/lists/", "/clubs/"):
        line = next(line for line in report.splitlines() if line.startswith(path))
        assert "variants, median" in line
        assert "over 1000 ms:" in line  # the count itself is a timing: not asserted
