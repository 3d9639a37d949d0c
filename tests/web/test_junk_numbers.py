"""Numbers typed into URLs and forms: a clean page or a form error, never a 500 (issue 16)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite.models import Club
from tournaments.views.list_forms import TournamentListsForm

pytestmark = pytest.mark.django_db

JUNK = ["²", "①", "¹", "١٢", "1" + "0" * 20, "-1", "0", "", "\x00", "9" * 400]


@pytest.mark.parametrize("junk", JUNK)
def test_profile_vs(client, world, junk):
    url = reverse("player_detail", args=[world.players[0].pk])
    assert client.get(url, {"vs": junk}).status_code == 200


@pytest.mark.parametrize("junk", [*JUNK, "10000", "1899"])
def test_tournament_year(client, world, junk):
    response = client.get(reverse("tournament_list"), {"year": junk})
    assert response.status_code == 200
    if junk not in ("", "\x00"):  # "\x00": the form refuses it, the filter is not applied
        assert response.context["table"].paginator.count == 0


def test_tournament_year_in_range_filters(client, world):
    year = world.tournaments[0].end_date.year if hasattr(world, "tournaments") else 2024
    response = client.get(reverse("tournament_list"), {"year": str(year)})
    assert response.status_code == 200


@pytest.mark.parametrize("junk", ["1" + "0" * 20, "²", "-1", "abc"])
def test_rating_lists_on_the_tournament_form(junk):
    form = TournamentListsForm(clubs=Club.objects.all(), data={"rating_lists": [junk]})
    assert not form.is_valid()
    assert "rating_lists" in form.errors


@pytest.mark.parametrize("junk", ["1" + "0" * 20, "²", "-5"])
def test_api_limit_and_offset(client, world, junk):
    url = reverse("api_rating_list", args=[world.rating_list.slug])
    assert client.get(url, {"limit": junk, "offset": junk}).status_code == 200


@pytest.mark.parametrize("day", ["9999-12-31", "1000-01-01"])
def test_tournament_dates_within_1900_2100(day):
    from tournaments.views.forms import TournamentForm

    form = TournamentForm(
        clubs=Club.objects.all(), data={"name": "Cup", "start_date": day, "end_date": day}
    )
    assert not form.is_valid()
    assert "A date between 1900 and 2100, please." in form.errors["start_date"]
    assert "A date between 1900 and 2100, please." in form.errors["end_date"]


def _model_forms():
    from tournaments.views.forms import MemberCreateForm, MemberIdentityForm, TournamentForm

    clubs = Club.objects.all()
    return [
        (lambda data: TournamentForm(clubs=clubs, data=data), "organiser"),
        (lambda data: MemberCreateForm(clubs=clubs, data=data), "club"),
        (lambda data: MemberIdentityForm(data=data), "club"),
    ]


@pytest.mark.parametrize("junk", ["1" + "0" * 20, "9" * 400, "²", "-1", "1.5", "\x00"])
@pytest.mark.parametrize("which", range(3))
def test_club_choice_of_model_forms(junk, which):
    """A ModelForm's own foreign-key field hands the posted id to the database: 10**20
    overflowed SQLite's integer (a 500). It is an invalid choice like any other."""
    make, field = _model_forms()[which]
    form = make({field: junk})
    assert not form.is_valid()
    assert field in form.errors
