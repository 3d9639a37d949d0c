"""Search finds everyone in the list, the inactive marked; the page says how many the
default view hides; a grade range reads either way round (issue 16, item 3)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from clubsite.fields import parse_grade
from ratings.models import RatingEntry

pytestmark = pytest.mark.django_db


def names(html: str) -> list[str]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/players/\d+/">([^<]+)</a>', body)


@pytest.fixture
def gone(world):
    member = world.players[0]
    RatingEntry.objects.filter(member=member).update(active_until=dt.date(2000, 1, 1))
    return member


def test_search_finds_an_inactive_player_and_marks_him(client, world, gone):
    url = reverse("rating_list", args=["ukraine-go"])
    html = client.get(url, {"q": gone.family_name}).content.decode()
    assert gone.full_name in names(html)
    row = html.split(gone.full_name, 1)[1].split("</tr>", 1)[0]
    assert "inactive" in row


def test_the_counts_say_how_many_are_hidden_and_link_to_them(client, world, gone):
    url = reverse("rating_list", args=["ukraine-go"])
    html = client.get(url, {"country": gone.country}).content.decode()
    hidden = re.search(r'data-testid="hidden-count">(\d+) inactive', html)
    assert hidden and hidden.group(1) == "1"
    link = re.search(r'href="(\?[^"]*active=all)" data-testid="show-everyone"', html).group(1)
    assert f"country={gone.country}" in link
    assert gone.full_name in names(client.get(url + link.replace("&amp;", "&")).content.decode())


def test_nothing_hidden_says_nothing(client, world):
    html = client.get(reverse("rating_list", args=["ukraine-go"])).content.decode()
    assert "hidden-count" not in html


def test_grade_range_either_way_round(client, world):
    url = reverse("rating_list", args=["ukraine-go"])
    forward = names(client.get(url, {"grade_min": "3k", "grade_max": "2d"}).content.decode())
    backward = names(client.get(url, {"grade_min": "2d", "grade_max": "3k"}).content.decode())
    wanted = {
        p.full_name
        for p in world.players
        if parse_grade("3k").rank <= parse_grade(p.grade).rank <= parse_grade("2d").rank
    }
    assert wanted
    assert set(forward) == set(backward) == wanted
