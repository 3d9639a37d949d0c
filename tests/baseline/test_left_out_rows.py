"""Issue 53: a published list's unreadable row is left out with its line and why; the rest
is imported, and the preview (command and page) says how many were left out."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from ratings.models import BaselineRow
from tests.factories import RatingListFactory, UserFactory

pytestmark = pytest.mark.django_db
CSV = "key,family_name,given_name,rating\nr1,Petrenko,Ivan,1500\nr2,Broken,Row,15x0\nr3,Bondar,Olena,1700\n"


def test_the_command_leaves_the_bad_row_out_and_says_so(tmp_path: Path) -> None:
    RatingListFactory(system="uscf", game="chess", slug="club")
    path = tmp_path / "list.csv"
    path.write_text(CSV)
    out = io.StringIO()
    call_command("import_ratings", str(path), "--list", "club", "--format", "csv",
                 "--date", "2024-01-01", stdout=out)  # fmt: skip
    printed = out.getvalue().splitlines()
    assert "left out: 1 rows cannot be read; the rest can be imported" in printed
    assert any(line.startswith("  line 3: ") and "'15x0'" in line for line in printed)
    assert printed[-1] == "baseline 2 players"
    assert sorted(BaselineRow.objects.values_list("rating", flat=True)) == [1500.0, 1700.0]


def test_the_page_lists_the_rows_left_out(client) -> None:
    referee = UserFactory(username="ref")
    rating_list = RatingListFactory(system="uscf", game="chess", slug="club")
    rating_list.referees.add(referee)
    client.force_login(referee)
    upload = SimpleUploadedFile("list.csv", CSV.encode())
    page = client.post(
        reverse("list_baseline", args=["club"]),
        {"file": upload, "fmt": "csv", "date": "2024-01-01"},
    )
    text = page.content.decode()
    assert 'id="baseline-left-out"' in text
    assert "1 row cannot be read and is left out" in text
    assert "line 3: " in text and "15x0" in text
