"""The rating list by sex and age category, on the page, in the CSV and the API; its
columns by game (Go: EGD PIN; chess: FIDE ID, title); R_max when asked (issue 56).

Categories count by birth year, as FIDE's youth and senior events do: in year Y, U8 is
born in Y-8 or later, 50+ in Y-50 or earlier."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import RatingEntry, RatingHistory
from tests.factories import MemberFactory, RatingListFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    year = timezone.localdate().year
    go = RatingListFactory(slug="go", system="egf", game="go")
    specs = {
        # name: (sex, birth_date, birth_year, rating)
        "girl7": ("f", None, year - 7, 1000.0),  # U8 (and every U above)
        "boy10": ("m", dt.date(year - 10, 12, 31), None, 1100.0),  # U10, not U8
        "youth20": ("m", None, year - 20, 1200.0),  # U20, not U18
        "woman50": ("f", None, year - 50, 1300.0),  # 50+, not 65+
        "man65": ("m", dt.date(year - 65, 1, 1), None, 1400.0),  # 65+ and 50+
        "nobody": ("", None, None, 1500.0),  # no birth: in no category
    }
    people = {}
    for pin, (name, (sex, birth_date, birth_year, rating)) in enumerate(specs.items(), 10000001):
        member = MemberFactory(
            family_name=name, sex=sex, birth_date=birth_date, birth_year=birth_year,
            egd_pin=str(pin), fide_id=str(pin + 1000),
        )  # fmt: skip
        RatingEntry.objects.create(rating_list=go, member=member, rating=rating)
        people[name] = member
    return people


def _page_names(client, query) -> list[str]:
    response = client.get(reverse("rating_list", args=["go"]), query)
    return sorted(r.member.family_name for r in response.context["records"])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"category": "u8"}, ["girl7"]),
        ({"category": "u10"}, ["boy10", "girl7"]),
        ({"category": "u18"}, ["boy10", "girl7"]),
        ({"category": "u20"}, ["boy10", "girl7", "youth20"]),
        ({"category": "50+"}, ["man65", "woman50"]),
        ({"category": "65+"}, ["man65"]),
        ({"sex": "f"}, ["girl7", "woman50"]),
        ({"sex": "f", "category": "50+"}, ["woman50"]),
        ({"sex": "m", "category": "u20", "sort": "name"}, ["boy10", "youth20"]),
        ({"category": "u99", "sex": "x"}, ["boy10", "girl7", "man65", "nobody", "woman50",
                                           "youth20"]),  # unknown choices: no filter
    ],
)  # fmt: skip
def test_each_category_on_the_page_csv_and_api(client, players, query, expected):
    assert _page_names(client, query) == expected
    response = client.get(reverse("rating_list_csv", args=["go"]), {**query, "all": "1"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    names = sorted(row[1].split()[-1] for row in rows[1:])  # "Given family": the family
    assert names == expected
    api = client.get(reverse("api_rating_list", args=["go"]), query).json()
    assert sorted(p["family_name"] for p in api["players"]) == expected
    assert api["total"] == len(expected)


def test_the_csv_and_api_carry_pin_and_fide_id(client, players):
    response = client.get(reverse("rating_list_csv", args=["go"]), {"all": "1"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    girl = next(r for r in rows if r["Name"].endswith("girl7"))
    assert (girl["EGD PIN"], girl["FIDE ID"]) == ("10000001", "10001001")
    api = client.get(reverse("api_rating_list", args=["go"])).json()
    girl = next(p for p in api["players"] if p["family_name"] == "girl7")
    assert (girl["egd_pin"], girl["fide_id"]) == ("10000001", "10001001")


def test_columns_by_game(client):
    chess = RatingListFactory(slug="chess", system="orr", game="chess")
    member = MemberFactory(family_name="Ivanchuk", fide_id="14109336", fide_title="GM",
                           egd_pin="")  # fmt: skip
    RatingEntry.objects.create(rating_list=chess, member=member, rating=2626.0)
    html = client.get(reverse("rating_list", args=["chess"])).content.decode()
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "FIDE ID" in head and "Title" in head and "EGD PIN" not in head
    assert "<td>14109336</td><td>GM</td>" in html


def test_r_max_where_asked(client, players):
    """woman50 (rating 1300 now) came into a tournament 100 days ago at 1250 and left it at
    1350, then fell: R_max 1350. boy10 played nothing in the 12 months: R_max is his 1100."""
    go = RatingEntry.objects.get(member=players["woman50"]).rating_list
    tournament = TournamentFactory(start_date=timezone.localdate() - dt.timedelta(days=100))
    RatingHistory.objects.create(
        rating_list=go, member=players["woman50"], tournament=tournament,
        date=tournament.end_date, sequence=tournament.pk, rating_in=1250.0, before=1250.0,
        after=1350.0, change=100.0,
    )  # fmt: skip
    plain = client.get(reverse("rating_list", args=["go"]), {"sex": "f"}).content.decode()
    assert "R_max" not in plain.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert 'href="?sex=f&amp;rmax=1" data-testid="rmax-toggle"' in plain
    html = client.get(reverse("rating_list", args=["go"]), {"rmax": "1", "sex": "f"}).content
    rows = html.decode().split("<tbody>", 1)[1]
    assert '<td class="num rating">1300</td><td class="num">1350</td>' in rows
    response = client.get(reverse("rating_list_csv", args=["go"]), {"rmax": "1", "all": "1"})
    by_name = {
        r["Name"].split()[-1]: r["R_max"]
        for r in csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    }
    assert by_name["woman50"] == "1350" and by_name["boy10"] == "1100"
