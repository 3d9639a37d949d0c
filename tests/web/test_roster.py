"""The players page offers the club's roster and the recent players to tick (issue 17, item 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.factories import MemberFactory, ParticipantFactory, TournamentFactory
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _people(setup):  # noqa: F811, ANN001, ANN202
    fresh = Tournament.objects.create(
        name="Autumn", slug="autumn", start_date=dt.date(2024, 9, 1),
        end_date=dt.date(2024, 9, 1), organiser=setup.club,
    )  # fmt: skip
    own = MemberFactory(club=setup.club, family_name="Rosterov", given_name="Ivan")
    guest = MemberFactory(club=setup.other_club, family_name="Guestenko", given_name="Petro")
    stranger = MemberFactory(club=setup.other_club, family_name="Strangeman")
    earlier = TournamentFactory(organiser=setup.club, end_date=dt.date(2024, 6, 1))
    ParticipantFactory(tournament=earlier, member=guest)
    elsewhere = TournamentFactory(organiser=setup.other_club)
    ParticipantFactory(tournament=elsewhere, member=stranger)
    return fresh, own, guest, stranger


def test_the_roster_and_the_recent_players_are_offered(client, setup):  # noqa: F811
    fresh, own, guest, stranger = _people(setup)
    login(client, setup, "admin")
    url = reverse("manage_participants", args=[fresh.pk])
    response = client.get(url)
    roster = list(response.context["roster"])
    assert own in roster and set(setup.players) <= set(roster) and guest not in roster
    recent = list(response.context["recent"])
    assert guest in recent and stranger not in recent
    html = response.content.decode()
    assert 'id="roster-members"' in html and "Guestenko" in html
    filtered = client.get(url, {"roster": "roster"}).context["roster"]
    assert list(filtered) == [own]


def test_ticked_players_are_added_and_leave_the_lists(client, setup):  # noqa: F811
    fresh, own, guest, _stranger = _people(setup)
    login(client, setup, "admin")
    url = reverse("manage_participants", args=[fresh.pk])
    response = client.post(url, {"action": "add_many", "members": [own.pk, guest.pk]})
    assert response.status_code == 302
    assert set(fresh.participants.values_list("member_id", flat=True)) == {own.pk, guest.pk}
    page = client.get(url)
    assert own not in page.context["roster"] and guest not in page.context["recent"]
    # junk ids are ignored, not a 5xx
    assert client.post(url, {"action": "add_many", "members": ["x", "-1"]}).status_code == 302


def test_another_clubs_admin_cannot_add(client, setup):  # noqa: F811
    fresh, own, *_ = _people(setup)
    login(client, setup, "other_admin")
    url = reverse("manage_participants", args=[fresh.pk])
    response = client.post(url, {"action": "add_many", "members": [own.pk]})
    assert response.status_code in (403, 404)
    assert not fresh.participants.exists()
