"""Issue 54, item 6: a baseline's dates are bounded like a results file's (1900-2100), so a
row's `last_played` near year 9999 is left out with its line (issue 53's rule for a bad
row), the list's own date there is refused with a clear message, and neither reaches the lists' date arithmetic (`add_months` raised AssertionError('unreachable')
on every recompute of an EGF list)."""

from __future__ import annotations

import datetime as dt
import io
import random
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubsite.fields import parse_grade
from ratings.baselines.services import baseline_import, baseline_replace
from ratings.models import Baseline, RatingHistory
from ratings.recompute.rules import add_months, egf_active_until
from tests.factories import ClubFactory, RatingListFactory, UserFactory
from tests.pipeline.builders import members, submitted, tournament_with_games
from tournaments.formats import FormatError
from tournaments.formats.rating_lists import parse_rating_list

pytestmark = pytest.mark.django_db(transaction=True)
HEADER = "key,family_name,given_name,rating,grade,last_played\n"


def _messages(error: FormatError) -> str:
    return " ".join(str(problem) for problem in error.problems)


@pytest.mark.parametrize("day", ["9999-12-31", "1000-01-01", "1899-12-31", "2101-01-01"])
def test_a_csv_rows_last_played_outside_1900_2100_is_left_out_with_its_line(day) -> None:
    # Issue 53: a bad row is left out with its line and the rest can be imported.
    text = HEADER + f"a,Petrenko,Ivan,2000,3d,2020-01-01\nb,Bondar,Oleh,1900,2d,{day}\n"
    listfile = parse_rating_list(text.encode(), "csv")
    assert [row.key for row in listfile.rows] == ["a"]
    (problem,) = listfile.left_out
    assert problem.line == 3 and "between 1900 and 2100" in str(problem)


def test_a_csv_list_whose_only_row_is_dated_9999_is_refused_with_its_line() -> None:
    text = HEADER + "b,Bondar,Oleh,1900,2d,9999-12-31\n"
    with pytest.raises(FormatError) as caught:
        parse_rating_list(text.encode(), "csv")
    assert "between 1900 and 2100" in _messages(caught.value)
    assert caught.value.problems[0].line == 2


def test_an_egd_lists_stated_date_outside_1900_2100_is_refused() -> None:
    text = " (31 Dec 9999) \n 12345678  Petrenko Ivan   UA  Kiev   3d   --   2200    5  T200101A\n"
    with pytest.raises(FormatError) as caught:
        parse_rating_list(text.encode(), "egd")
    assert "between 1900 and 2100" in _messages(caught.value)


@pytest.mark.parametrize("year", ["0", "1899", "2101", "32768", "999999"])
def test_a_csv_birth_year_outside_1900_2100_is_refused(year) -> None:
    text = "key,family_name,rating,birth_year\na,Petrenko,1500," + year + "\n"
    with pytest.raises(FormatError) as caught:
        parse_rating_list(text.encode(), "csv")
    assert "birth_year" in _messages(caught.value)


def test_the_baseline_date_is_refused_outside_1900_2100_by_the_service() -> None:
    rating_list = RatingListFactory(system="egf", slug="b")
    listfile = parse_rating_list((HEADER + "a,Petrenko,Ivan,2000,3d,2020-01-01\n").encode(), "csv")
    with pytest.raises(ValidationError) as caught:
        baseline_import(
            listfile=listfile, rating_list=rating_list, date=dt.date(9999, 12, 31), by=None
        )
    assert "between 1900 and 2100" in " ".join(caught.value.messages)
    assert not Baseline.objects.exists()


def test_the_baseline_page_refuses_a_date_outside_1900_2100(client) -> None:
    referee = UserFactory()
    rating_list = RatingListFactory(system="egf", slug="b")
    rating_list.referees.add(referee)
    client.force_login(referee)
    upload = SimpleUploadedFile("list.csv", (HEADER + "a,Petrenko,Ivan,2000,3d,\n").encode())
    page = client.post(
        reverse("list_baseline", args=["b"]), {"file": upload, "fmt": "csv", "date": "9999-12-31"}
    )
    assert page.status_code == 200
    assert "A date between 1900 and 2100, please." in page.context["form"].errors["date"]
    assert not page.context["token"]


def test_the_command_refuses_a_date_outside_1900_2100(tmp_path: Path) -> None:
    RatingListFactory(system="egf", slug="b")
    path = tmp_path / "list.csv"
    path.write_text(HEADER + "a,Petrenko,Ivan,2000,3d,\n")
    with pytest.raises(CommandError, match="between 1900 and 2100"):
        call_command(
            "import_ratings", str(path), "--list", "b", "--format", "csv", "--date", "9999-12-31",
            stdout=io.StringIO(),
        )  # fmt: skip
    assert not Baseline.objects.exists()


def test_a_stored_row_dated_9999_does_not_break_the_egf_recompute() -> None:
    """A baseline saved before the bounds (or by another path) must not stop the list: the
    date arithmetic saturates instead of asserting."""
    rng = random.Random(3)
    club = ClubFactory()
    players = members(rng, club, 4)
    rating_list = RatingListFactory(system="egf", slug="b")
    table = submitted(
        tournament_with_games(rng, club=club, players=players, day=dt.date(2024, 6, 1)), rating_list
    )
    call_command("approve_tournament", str(table.pk), "--wait", stdout=io.StringIO())
    row = {
        "member_id": players[0].pk, "rating": 2000.0, "provisional": False,
        "grade": parse_grade("3k").rank, "best_grade": parse_grade("3k").rank,
        "tournaments": 3, "games": 9, "last_played": dt.date(9999, 12, 31), "history": None,
    }  # fmt: skip
    baseline_replace(rating_list=rating_list, date=dt.date(2024, 1, 1), source="csv", rows=[row])
    call_command("recompute", "b", stdout=io.StringIO())
    first = RatingHistory.objects.get(rating_list=rating_list, tournament=table, member=players[0])
    assert first.rating_in == 2000.0


@pytest.mark.parametrize("grade", [None, "3k", "15k", "2d"])
def test_egf_activity_arithmetic_saturates_at_the_last_day(grade) -> None:
    last = dt.date(9999, 12, 31)
    assert egf_active_until(last, parse_grade(grade) if grade else None) == dt.date.max
    assert add_months(dt.date(9999, 11, 30), 5) == dt.date.max
    assert add_months(dt.date(2024, 1, 31), 1) == dt.date(2024, 2, 29)
