"""Importing a file again warns (does not block) that the tournament may be here already."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from tests.factories import RatingListFactory, TournamentFactory
from tests.web.manage_data import login, setup  # noqa: F401 (fixture)
from tournaments.models import Tournament

from .helpers import TABLES

pytestmark = pytest.mark.django_db
TABLE = TABLES / "kpmc2007.txt"  # TC[W071014], EV[2nd Korea Prime Minister Cup], ends 2007-10-16


def _import(*extra: str) -> list[str]:
    out = io.StringIO()
    args = (str(TABLE), "--list", "egf", "--format", "egd", *extra)
    call_command("import_tournament", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def egf_list():
    return RatingListFactory(slug="egf", system="egf", game="go")


def test_the_second_import_warns_naming_the_first_and_still_saves(egf_list):
    first = _import()
    assert not any("already here" in line for line in first)
    saved = Tournament.objects.get(pk=int(first[-1].split()[1]))
    assert saved.code == "W071014"
    second = _import()
    warned = [line for line in second if "already here" in line]
    assert len(warned) == 1
    assert "the code W071014" in warned[0]
    assert f"2nd Korea Prime Minister Cup (2007-10-16, #{saved.pk}," in warned[0]
    assert warned[0].lstrip().startswith("warning:")
    assert second[-1].startswith("tournament ")  # a warning, not a refusal
    assert Tournament.objects.count() == 2


def test_same_name_and_end_date_without_a_code(egf_list):
    # Issue 14: another club's draft is its private work (not mentioned); another club's
    # public table is only said to exist.
    draft = TournamentFactory(
        name="2nd Korea Prime Minister Cup",
        start_date=dt.date(2007, 10, 14),
        end_date=dt.date(2007, 10, 16),
    )
    TournamentFactory(name="2nd Korea Prime Minister Cup", start_date=dt.date(2008, 10, 16))
    lines = _import("--dry-run")
    assert not [line for line in lines if "already here" in line]
    Tournament.objects.filter(pk=draft.pk).update(status="approved")
    lines = _import("--dry-run")
    warned = [line for line in lines if "already here" in line]
    assert len(warned) == 1 and "similar public tournament" in warned[0]
    assert f"#{draft.pk}" not in warned[0]


def test_the_upload_page_shows_the_warning(client, setup):  # noqa: F811
    TournamentFactory(name="2nd Korea Prime Minister Cup", code="W071014", organiser=setup.club)
    login(client, setup, "admin")
    upload = SimpleUploadedFile("kpmc2007.txt", TABLE.read_bytes())
    response = client.post(reverse("manage_import"), {"file": upload, "organiser": setup.club.pk})
    page = response.content.decode()
    assert response.status_code == 200 and 'id="import-errors"' not in page
    assert "A tournament with the code W071014 is already here" in page
