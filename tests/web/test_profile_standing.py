"""A profile's standing in each list (issue 56): rank overall and in his country among the
players the live list shows, R_max (the highest rating of the last 12 months), and the
links to his EGD and FIDE cards. The figures are worked out by hand in the comments."""

from __future__ import annotations

import datetime as dt
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import RatingEntry, RatingHistory
from ratings.standings import r_max, year_before
from tests.factories import MemberFactory, RatingListFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked():
    """Active and rated: A 2400 UA, B 2300 PL, C 2300 UA, D 2100 UA (four players, three
    of them Ukrainian); E 2500 UA is out for inactivity, F UA is unrated."""
    today = timezone.localdate()
    go = RatingListFactory(slug="go", system="egf", game="go")
    people = {}
    for name, country, rating, active_until in (
        ("A", "UA", 2400.0, None), ("B", "PL", 2300.0, None), ("C", "UA", 2300.0, None),
        ("D", "UA", 2100.0, today), ("E", "UA", 2500.0, today - dt.timedelta(days=1)),
        ("F", "UA", None, None),
    ):  # fmt: skip
        member = MemberFactory(family_name=f"Player{name}", country=country)
        RatingEntry.objects.create(
            rating_list=go, member=member, rating=rating, active_until=active_until
        )
        people[name] = member

    def played(member, days_ago, rating_in, after):
        tournament = TournamentFactory(start_date=today - dt.timedelta(days=days_ago))
        RatingHistory.objects.create(
            rating_list=go, member=member, tournament=tournament, date=tournament.end_date,
            sequence=tournament.pk, rating_in=rating_in, before=rating_in, after=after,
            change=after - rating_in,
        )  # fmt: skip

    # C held 2450 when the 12 months began (his last tournament before them left him so),
    # then 2350 and 2300: R_max 2450.
    played(people["C"], 400, 2000.0, 2450.0)
    played(people["C"], 200, 2450.0, 2350.0)
    played(people["C"], 10, 2350.0, 2300.0)
    # D came into the 12 months at 2000, rose to 2150, fell to 2100: R_max 2150.
    played(people["D"], 100, 2000.0, 2150.0)
    played(people["D"], 5, 2150.0, 2100.0)
    return people


def _standing(client, member) -> dict[str, str]:
    html = client.get(reverse("player_detail", args=[member.pk])).content.decode()
    found = {}
    for key in ("rank", "country-rank", "r-max"):
        match = re.search(rf'data-testid="{key}"[^>]*>(.*?)</span>', html)
        found[key] = re.sub(r"<[^>]+>", "", match.group(1)) if match else None
    return found


def test_rank_overall_and_in_his_country_and_r_max(client, ranked):
    assert _standing(client, ranked["C"]) == {
        "rank": "#2 of 4", "country-rank": "#2 of 3 in UA", "r-max": "Rmax 2450",
    }  # fmt: skip
    # B shares C's rating: the same rank; the only Pole
    assert _standing(client, ranked["B"]) == {
        "rank": "#2 of 4", "country-rank": "#1 of 1 in PL", "r-max": "Rmax 2300",
    }  # fmt: skip
    assert _standing(client, ranked["D"]) == {
        "rank": "#4 of 4", "country-rank": "#3 of 3 in UA", "r-max": "Rmax 2150",
    }  # fmt: skip
    # out for inactivity: no rank; he held 2500 all year
    assert _standing(client, ranked["E"]) == {"rank": None, "country-rank": None,
                                              "r-max": "Rmax 2500"}  # fmt: skip


def test_r_max_counts_the_twelve_months_to_the_day():
    today = dt.date(2025, 3, 1)
    row = SimpleNamespace
    since = year_before(today)  # 2024-03-01
    rows = [row(date=since - dt.timedelta(days=1), rating_in=1000, after=1900),
            row(date=since, rating_in=1900, after=1800)]  # fmt: skip
    assert r_max(rows, 1800, today) == 1900  # held 1900 on the first day of the period
    rows = [
        row(date=since, rating_in=1700, after=1800),
        row(date=today, rating_in=1800, after=1750),
    ]
    assert r_max(rows, 1750, today) == 1800
    assert r_max([], 1600.0, today) == 1600.0 and r_max([], None, today) is None
    assert year_before(dt.date(2024, 2, 29)) == dt.date(2023, 2, 28)


def test_links_to_his_egd_and_fide_cards(client):
    member = MemberFactory(egd_pin="13286603", fide_id="14109336")
    html = client.get(reverse("player_detail", args=[member.pk])).content.decode()
    assert 'href="https://www.europeangodatabase.eu/EGD/Player_Card.php?&amp;key=13286603"' in html
    assert 'href="https://ratings.fide.com/profile/14109336"' in html
    bare = MemberFactory(egd_pin="", fide_id="")
    html = client.get(reverse("player_detail", args=[bare.pk])).content.decode()
    assert "europeangodatabase" not in html and "ratings.fide.com" not in html
