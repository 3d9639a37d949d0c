"""A Go list cannot rate a newcomer without a grade: the import says so and saves nothing.

Before, such a table was imported and approved, and the recompute then failed with
`players[0].grade: a new player needs a grade`.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubsite.models import Member
from ratings.models import RatingEntry
from ratings.submissions.importing import results_errors, results_preview
from ratings.systems.registry import SYSTEMS
from tests.factories import ClubFactory, MemberFactory, RatingListFactory
from tests.web.manage_data import login, setup  # noqa: F401 (fixture)
from tournaments.formats import parse
from tournaments.formats.dates import with_dates
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

# Line 1 is the header: Alpha and Beta first appear on line 2, Gamma and Delta on line 3.
CSV = b"""round,white,black,result
1,Alpha,Beta,white
1,Gamma,Delta,black
2,Alpha,Gamma,draw
2,Beta,Delta,white
"""


def _preview(rating_list):
    results = parse(CSV, "csv", "club.csv")
    return results_preview(
        results=results, rating_list=rating_list, organiser=ClubFactory(), fmt="csv"
    )


def test_go_systems_need_a_grade_and_the_others_do_not():
    assert {code for code, system in SYSTEMS.items() if system.needs_grade} == {"egf"}


def test_the_preview_names_each_newcomer_without_a_grade_and_his_line():
    preview = _preview(RatingListFactory(name="Club EGF", system="egf", game="go"))
    errors = [e for e in preview.errors if "has no grade" in e]
    assert len(errors) == 4
    assert errors[0].startswith("Line 2: Alpha is new to the list Club EGF and has no grade")
    assert any(e.startswith("Line 3: Delta ") for e in errors)


def test_members_with_a_grade_or_in_the_list_are_not_newcomers_without_one():
    rating_list = RatingListFactory(system="egf", game="go")
    MemberFactory(family_name="Alpha", given_name="", import_key="", grade="5k", country="")
    beta = MemberFactory(family_name="Beta", given_name="", grade=None, country="")
    RatingEntry.objects.create(rating_list=rating_list, member=beta, rating=1500.0)
    errors = [e for e in _preview(rating_list).errors if "has no grade" in e]
    assert [e.split(" is new")[0] for e in errors] == ["Line 3: Gamma", "Line 3: Delta"]


def test_a_list_that_rates_newcomers_without_grades_takes_the_file():
    preview = _preview(RatingListFactory(system="rivne", game="go"))
    assert not [e for e in preview.errors if "has no grade" in e]


def test_a_choice_is_checked_too():
    rating_list = RatingListFactory(system="egf", game="go")
    graded = [
        MemberFactory(family_name=name, given_name="", grade="10k", country="")
        for name in ("Alpha", "Beta", "Gamma", "Delta")
    ]
    day = dt.date(2024, 5, 1)
    results = with_dates(parse(CSV, "csv", "club.csv"), day, day)  # CSV rows carry no date
    club = ClubFactory()
    args = {"results": results, "rating_list": rating_list, "organiser": club, "fmt": "csv"}
    assert results_errors(**args) == []
    # Saying Alpha is a new member (the file gives him no grade) is refused.
    errors = results_errors(**args, choices={"Alpha": "new"})
    assert len(errors) == 1 and errors[0].startswith("Line 2: Alpha ")
    assert graded  # the members stay as they were


def test_the_command_refuses_it_and_saves_nothing(tmp_path):
    RatingListFactory(slug="go", system="egf", game="go")
    path = tmp_path / "club.csv"
    path.write_bytes(CSV)
    members = Member.objects.count()
    for extra in ((), ("--dry-run",)):
        out = io.StringIO()
        with pytest.raises(CommandError, match="Line 2: Alpha is new to the list"):
            call_command(
                "import_tournament", str(path), "--list", "go", "--format", "csv", *extra,
                stdout=out,
            )  # fmt: skip
        assert "errors:" in out.getvalue()  # the preview lists them too
    assert Tournament.objects.count() == 0 and Member.objects.count() == members


def test_the_web_upload_shows_it(client, setup):  # noqa: F811
    login(client, setup, "admin")
    upload = SimpleUploadedFile("club.csv", CSV)
    response = client.post(
        reverse("manage_import"),
        {"file": upload, "organiser": setup.club.pk, "rating_list": setup.rating_list.pk},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="import-errors"' in page
    assert "Line 2: Alpha is new to the list Ukraine EGF and has no grade" in page
