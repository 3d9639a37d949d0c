"""The API's rating list paged by `offset`: every window, near either end or deep in the
list (cut out of the kept keys), holds the rows one request for all of them holds, in
the same order, with the same ranks (issue 18)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings import selectors
from ratings.models import RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied_list(db):
    """130 players: threes rated alike, fours of one name, so ties of rating and of name
    cross the windows' edges."""
    rating_list = RatingListFactory(slug="tied")
    for i in range(130):
        member = MemberFactory(family_name=f"Same{i // 4:02d}", given_name="Ann")
        RatingEntry.objects.create(
            rating_list=rating_list, member=member, rating=3000 - 10 * (i // 3), tournaments=1
        )
    return rating_list


@pytest.mark.parametrize("deep_rows", [None, 10])
@pytest.mark.parametrize("active", ["", "all"])
def test_windows_by_offset_hold_what_one_request_holds(
    client, tied_list, monkeypatch, deep_rows, active
):
    if deep_rows is not None:
        monkeypatch.setattr(selectors, "DEEP_ROWS", deep_rows)
    cache.clear()
    url = reverse("api_rating_list", args=["tied"])
    whole = client.get(url, {"active": active, "limit": 10000}).json()
    assert whole["total"] == len(whole["players"]) == 130
    walked = []
    for offset in range(0, 140, 17):
        answer = client.get(url, {"active": active, "offset": offset, "limit": 17}).json()
        assert answer["offset"] == offset
        walked += answer["players"]
    assert walked == whole["players"]
    ratings = [p["rating"] for p in walked]
    assert [p["rank"] for p in walked] == [
        1 + sum(r > p["rating"] for r in ratings) for p in walked
    ]
    order = [(-p["rating"], p["family_name"]) for p in walked]
    assert order == sorted(order)
