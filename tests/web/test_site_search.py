"""The site's one search box (issue 56): a member by name in any script or spelling, by
EGD PIN, by FIDE ID; results across all lists; the exact name first; the calculator's
player field reads the same search."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite.player_search import member_search, player_find
from ratings.models import RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    hnatyuk = MemberFactory(
        family_name="Hnatyuk", given_name="Oleh", egd_pin="13633719", fide_id="14109336"
    )
    others = {
        "shevchuk": MemberFactory(family_name="Shevchuk", given_name="Taras"),
        "sevcuk": MemberFactory(family_name="Ševčuk", given_name="Jan"),
        "shevchenko": MemberFactory(family_name="Shevchenko", given_name="Anna"),
        "annan": MemberFactory(family_name="Annan", given_name="Kofi"),
        "zub": MemberFactory(family_name="Zub", given_name="Anna", native_name="Зуб Анна"),
    }
    go = RatingListFactory(slug="ufgo", name="UFGO", system="ufgo", game="go")
    chess = RatingListFactory(slug="orr", name="ORR", system="orr", game="chess")
    RatingEntry.objects.create(rating_list=go, member=hnatyuk, rating=1876.0)
    RatingEntry.objects.create(rating_list=chess, member=hnatyuk, rating=1543.0)
    return hnatyuk, others


@pytest.mark.parametrize(
    "typed", ["Гнатюк", "Hnatiuk", "Hnatyuk", "гнатюк олег", "Oleh Hnatyuk", "Hnat", "13633719",
              "14109336"],
)  # fmt: skip
def test_each_spelling_and_number_finds_him(people, typed):
    hnatyuk, _others = people
    assert member_search(typed).members == [hnatyuk]


def test_the_exact_name_comes_first_then_other_spellings_then_beginnings(people):
    _hnatyuk, m = people
    assert member_search("Shevchuk").members == [m["shevchuk"], m["sevcuk"]]
    assert member_search("Ševčuk").members == [m["sevcuk"], m["shevchuk"]]
    # "Anna" is Zub's given name (and Шевченко's): they come before Annan, whose name
    # only starts so, though he sorts first by name
    assert member_search("Anna").members == [m["shevchenko"], m["zub"], m["annan"]]
    assert member_search("Shev").total == 3
    assert member_search("Анна Зуб").members[0] == m["zub"]


def test_the_page_shows_every_list_with_its_rating_and_the_profile(client, people):
    hnatyuk, _others = people
    page = client.get(reverse("site_search"), {"q": "Гнатюк"}).content.decode()
    assert f'href="{reverse("player_detail", args=[hnatyuk.pk])}"' in page
    assert "UFGO</a>: 1876" in page and "ORR</a>: 1543" in page
    nobody = client.get(reverse("site_search"), {"q": "<b>Nobody</b>"}).content.decode()
    assert "Nobody matches" in nobody and "<b>Nobody</b>" not in nobody
    assert client.get(reverse("site_search"), {"q": "x" * 10000}).status_code == 200
    assert client.get(reverse("site_search"), {"q": "9" * 40}).status_code == 200
    home = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("site_search")}"' in home


def test_a_renamed_member_is_found_by_his_new_name(people):
    hnatyuk, _others = people
    assert member_search("Hnatiuk").members == [hnatyuk]
    hnatyuk.family_name = "Gnatyuk-Kovalenko"
    hnatyuk.save()
    assert member_search("Kovalenko").members == [hnatyuk]


def test_the_calculator_reads_the_same_search(client, people):
    hnatyuk, _others = people
    assert player_find("Hnatiuk").member == hnatyuk
    assert player_find("13633719").member == hnatyuk
    assert player_find(str(hnatyuk.pk)).member == hnatyuk  # his page's number still works
    response = client.get(
        reverse("calculator"), {"game": "go", "a": "Гнатюк", "rating_b": 1800}
    ).content.decode()
    assert "Nobody is called" not in response and "Hnatyuk" in response


def test_the_list_page_and_the_admins_find_a_member_read_the_same_search(client, people):
    hnatyuk, others = people
    url = reverse("rating_list", args=["ufgo"])
    for typed in ("Гнатюк", "Hnatiuk", "13633719", "14109336"):
        page = client.get(url, {"q": typed}).content.decode()
        assert reverse("player_detail", args=[hnatyuk.pk]) in page, typed
    assert (
        reverse("player_detail", args=[hnatyuk.pk])
        not in client.get(url, {"q": "Shevchuk"}).content.decode()
    )

    from tests.factories import ParticipantFactory, TournamentFactory
    from tournaments.manage_selectors import member_search as admin_search

    tournament = TournamentFactory()
    assert admin_search("Hnatiuk", exclude_tournament=tournament) == [hnatyuk]
    assert admin_search("Shevchuk", exclude_tournament=tournament)[0] == others["shevchuk"]
    ParticipantFactory(tournament=tournament, member=hnatyuk)
    assert admin_search("Hnatiuk", exclude_tournament=tournament) == []  # already plays
