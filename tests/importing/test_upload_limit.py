"""RESULTS_UPLOAD_MAX_BYTES bounds every way in: the web upload and import_tournament."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import RatingListFactory
from tests.web.manage_data import login, setup  # noqa: F401 (fixture)
from tournaments import formats
from tournaments.formats import FormatError, parse
from tournaments.models import Tournament

from .helpers import TABLES

TABLE = TABLES / "kpmc2007.txt"  # 6.5 kB


def test_parse_takes_the_limit_it_is_given():
    data = TABLE.read_bytes()
    assert len(data) > 6000
    with pytest.raises(FormatError, match="larger than 1000 bytes"):
        parse(data, "egd", max_bytes=1000)
    assert parse(data, "egd", max_bytes=len(data)).players  # at the limit: read
    assert parse(data, "egd").players  # the default is MAX_UPLOAD_BYTES


@pytest.mark.django_db
def test_the_command_refuses_a_table_over_the_setting_before_parsing(settings, monkeypatch):
    RatingListFactory(slug="egf", system="egf", game="go")
    settings.RESULTS_UPLOAD_MAX_BYTES = 1000

    def must_not_read(*args, **kwargs):
        raise AssertionError("the file was decoded")

    monkeypatch.setattr(formats, "decode_text", must_not_read)
    with pytest.raises(CommandError, match="larger than 1000 bytes"):
        call_command("import_tournament", str(TABLE), "--list", "egf", "--format", "egd")
    real = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(TABLE.read_bytes()))
    try:
        with pytest.raises(CommandError, match="larger than 1000 bytes"):
            call_command("import_tournament", "-", "--list", "egf", "--format", "egd")
    finally:
        sys.stdin = real
    assert Tournament.objects.count() == 0


@pytest.mark.django_db
def test_the_command_reads_a_table_under_the_setting(settings):
    RatingListFactory(slug="egf", system="egf", game="go")
    settings.RESULTS_UPLOAD_MAX_BYTES = 7000
    out = io.StringIO()
    call_command(
        "import_tournament", str(TABLE), "--list", "egf", "--format", "egd", "--dry-run", stdout=out
    )
    assert "dry run: nothing saved" in out.getvalue()


def test_the_web_upload_parses_with_the_setting(client, setup, settings, monkeypatch):  # noqa: F811
    settings.RESULTS_UPLOAD_MAX_BYTES = 7000
    seen: list[int] = []

    def spy(data, fmt=None, filename=None, *, max_bytes=formats.MAX_UPLOAD_BYTES):
        seen.append(max_bytes)
        return parse(data, fmt, filename, max_bytes=max_bytes)

    monkeypatch.setattr("tournaments.views.manage.importing.parse_results", spy)
    login(client, setup, "admin")
    upload = SimpleUploadedFile("kpmc2007.txt", TABLE.read_bytes())
    response = client.post(reverse("manage_import"), {"file": upload, "organiser": setup.club.pk})
    assert response.status_code == 200
    assert seen == [7000]
