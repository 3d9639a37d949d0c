"""The rating list: content, filters, sorting, pagination, CSV equals the shown rows."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.fields import parse_grade
from ratings.models import PublishedEntry, PublishedList, RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db


def shown_names(html: str) -> list[str]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/players/\d+/">([^<]+)</a>', body)


def csv_rows(response) -> list[list[str]]:  # noqa: ANN001
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))  # BOM (issue 16)


def test_lists_page_shows_every_list(client, world):
    response = client.get(reverse("rating_lists"))
    assert response.status_code == 200
    assert "Ukraine Go" in response.content.decode()


def test_the_lists_count_their_rated_players_anew_when_their_entries_change(client, db):
    """The lists' pages and API count each list's rated players once per version of its
    entries: a request to recompute changes nothing yet; entries written change the count."""
    from ratings.recompute.services import rating_list_request_recompute
    from ratings.recompute.store import entries_changed

    rating_list = RatingListFactory(name="Counted", slug="counted", system="egf", game="go")
    other = RatingListFactory(name="Other", slug="other", system="egf", game="go")
    members = MemberFactory.create_batch(4)
    for member in members[:2]:
        RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1500)
    RatingEntry.objects.create(rating_list=rating_list, member=members[2], rating=None)
    RatingEntry.objects.create(rating_list=other, member=members[3], rating=1200)

    def players() -> dict[str, int]:
        lists = client.get(reverse("api_rating_lists")).json()["lists"]
        return {rl["slug"]: rl["players"] for rl in lists}

    assert players() == {"counted": 2, "other": 1}
    rating_list_request_recompute(
        rating_list=rating_list, from_date=dt.date(2020, 1, 1), trigger="t"
    )
    assert players() == {"counted": 2, "other": 1}
    RatingEntry.objects.filter(member=members[2]).update(rating=1400)  # as a recompute writes
    entries_changed([rating_list.pk])
    assert players() == {"counted": 3, "other": 1}
    html = client.get(reverse("rating_lists")).content.decode()
    assert re.search(r'<div class="stat">3</div>', html)


def test_list_by_rating_with_rank_and_provisional_star(client, world):
    entry = RatingEntry.objects.get(rating_list=world.rating_list, member=world.players[5])
    entry.provisional = True
    entry.save()
    response = client.get(reverse("rating_list", args=["ukraine-go"]))
    html = response.content.decode()
    names = shown_names(html)
    entries = RatingEntry.objects.filter(rating_list=world.rating_list).order_by("-rating")
    assert names == [e.member.full_name for e in entries]
    assert f"{round(entry.rating)}*" in html
    assert response.context["table"].page.object_list.data[0].rank == 1


def test_unknown_list_is_404(client, db):
    assert client.get(reverse("rating_list", args=["nope"])).status_code == 404
    assert client.get(reverse("rating_list_csv", args=["nope"])).status_code == 404


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"country": "PL"}, lambda p: p.country == "PL"),
        ({"q": "Given03"}, lambda p: p.given_name == "Given03"),
        ({"grade_min": "1k", "grade_max": "3d"}, lambda p: parse_grade(p.grade).rank >= 0),
    ],
)
def test_filters(client, world, query, expected):
    html = client.get(reverse("rating_list", args=["ukraine-go"]), query).content.decode()
    wanted = {p.full_name for p in world.players if expected(p)}
    assert set(shown_names(html)) == wanted


def test_club_filter(client, world):
    club = world.clubs[1]
    html = client.get(
        reverse("rating_list", args=["ukraine-go"]), {"club": club.pk}
    ).content.decode()
    assert set(shown_names(html)) == {p.full_name for p in world.players if p.club == club}


def test_club_filter_offers_the_lists_clubs_escaped_and_refuses_another(client, world):
    club = world.clubs[1]
    club.name = 'Go <"Kyiv"> & Co'
    club.save()
    url = reverse("rating_list", args=["ukraine-go"])
    html = client.get(url, {"club": club.pk}).content.decode()
    select = html.split('name="club"', 1)[1].split("</select>", 1)[0]
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select)
    clubs = {p.club for p in world.players if p.club is not None}
    assert options[0] == ("", "", "All clubs")
    assert sorted((value, label) for value, _s, label in options[1:]) == sorted(
        (str(c.pk), c.name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
         .replace('"', "&quot;")) for c in clubs
    )  # fmt: skip
    assert [value for value, chosen, _l in options if chosen] == [str(club.pk)]
    other = MemberFactory().club  # a club with nobody in the list
    assert other is not None and str(other.pk) not in select
    shown = shown_names(client.get(url, {"club": other.pk}).content.decode())
    assert len(shown) == len(world.players)  # not a choice: the filter is not applied


def test_inactive_hidden_unless_all(client, world):
    gone = world.players[0]
    RatingEntry.objects.filter(member=gone).update(active_until=dt.date(2000, 1, 1))
    url = reverse("rating_list", args=["ukraine-go"])
    assert gone.full_name not in shown_names(client.get(url).content.decode())
    assert gone.full_name in shown_names(client.get(url, {"active": "all"}).content.decode())


def test_sort_by_name(client, world):
    html = client.get(reverse("rating_list", args=["ukraine-go"]), {"sort": "name"}).content
    names = shown_names(html.decode())
    assert names == [p.full_name for p in sorted(world.players, key=lambda p: p.family_name)]


def test_pagination_and_csv_of_the_page(client, world):
    rating_list = RatingListFactory(slug="big")
    for i in range(60):
        member = MemberFactory(family_name=f"Big{i:02d}")
        RatingEntry.objects.create(
            rating_list=rating_list, member=member, rating=1000 + i, tournaments=1
        )
    url = reverse("rating_list", args=["big"])
    page2 = client.get(url, {"page": 2, "per_page": 25})
    names = shown_names(page2.content.decode())
    assert len(names) == 25
    rows = csv_rows(
        client.get(reverse("rating_list_csv", args=["big"]), {"page": 2, "per_page": 25})
    )
    assert rows[0][0] == "#" and rows[0][1] == "Name"
    assert [r[1] for r in rows[1:]] == names
    assert [r[0] for r in rows[1:]] == [str(n) for n in range(26, 51)]
    every = csv_rows(client.get(reverse("rating_list_csv", args=["big"]), {"all": "1"}))
    assert len(every) == 61


def test_csv_follows_filter_and_sort(client, world):
    query = {"country": "UA", "sort": "name"}
    html = client.get(reverse("rating_list", args=["ukraine-go"]), query).content.decode()
    rows = csv_rows(client.get(reverse("rating_list_csv", args=["ukraine-go"]), query))
    assert [r[1] for r in rows[1:]] == shown_names(html)


def test_snapshot_page(client, world):
    snapshot = PublishedList.objects.create(
        rating_list=world.rating_list, date=dt.date(2024, 6, 30)
    )
    PublishedEntry.objects.create(snapshot=snapshot, member=world.players[2], rank=1, rating=2222.4)
    live = client.get(reverse("rating_list", args=["ukraine-go"])).content.decode()
    assert "/ratings/ukraine-go/2024-06-30/" in live
    response = client.get(reverse("rating_snapshot", args=["ukraine-go", "2024-06-30"]))
    assert response.status_code == 200
    assert shown_names(response.content.decode()) == [world.players[2].full_name]
    assert "2222" in response.content.decode()
    assert client.get("/ratings/ukraine-go/2024-07-01/").status_code == 404


def test_query_count_is_bounded(client, world, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        client.get(reverse("rating_list", args=["ukraine-go"]), {"country": "UA"})


def test_csv_dates_are_iso_8601(client, world):
    rows = csv_rows(client.get(reverse("rating_list_csv", args=["ukraine-go"])))
    played = {r[-1] for r in rows[1:]}
    assert played <= {"2024-03-01", "2024-09-01"} and played


def test_a_chosen_club_is_checked_against_the_lists_kept_clubs_without_a_query(client, world):
    """The club filter's choice is checked against the list's clubs as cached for its
    version: once they are kept, a chosen club costs the page no query of its own."""
    club = world.clubs[1]
    url = reverse("rating_list", args=["ukraine-go"])
    client.get(url)  # the page's counts and choices kept
    client.get(url, {"club": club.pk})
    with CaptureQueriesContext(connection) as plain:
        client.get(url)
    with CaptureQueriesContext(connection) as chosen:
        html = client.get(url, {"club": club.pk}).content.decode()
    assert set(shown_names(html)) == {p.full_name for p in world.players if p.club == club}
    assert len(chosen.captured_queries) == len(plain.captured_queries)
    assert not any('FROM "clubsite_club"' in q["sql"] for q in chosen.captured_queries)
