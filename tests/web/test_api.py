"""The read-only JSON API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import RatingEntry
from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_index_and_lists(client, world):
    assert "rating_lists" in client.get(reverse("api_index")).json()
    lists = client.get(reverse("api_rating_lists")).json()["lists"]
    assert lists[0]["slug"] == "ukraine-go" and lists[0]["players"] == 6


def test_rating_list(client, world):
    data = client.get(reverse("api_rating_list", args=["ukraine-go"]), {"limit": 3}).json()
    assert data["total"] == 6 and len(data["players"]) == 3
    ratings = [p["rating"] for p in data["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert data["players"][0]["rank"] == 1
    assert client.get(reverse("api_rating_list", args=["nope"])).status_code == 404


def test_rating_list_total_follows_the_lists_version_and_the_active_choice(client, world):
    import datetime as dt

    from ratings.models import RatingList
    from ratings.recompute.store import entries_changed

    url = reverse("api_rating_list", args=["ukraine-go"])
    assert client.get(url, {"limit": 1}).json()["total"] == 6
    gone = RatingEntry.objects.filter(rating_list__slug="ukraine-go").order_by("rating").first()
    gone.active_until = dt.date(2000, 1, 1)
    gone.save()
    assert client.get(url, {"limit": 1, "active": "all"}).json()["total"] == 6
    # Entries written by a recompute move the list's entries version on: the count is read
    # again (ratings.recompute.store.entries_changed, as the recompute calls it).
    entries_changed([RatingList.objects.get(slug="ukraine-go").pk])
    assert client.get(url, {"limit": 1}).json()["total"] == 5
    assert client.get(url, {"limit": 1, "active": "all"}).json()["total"] == 6


def test_player(client, world):
    player = world.players[0]
    data = client.get(reverse("api_player", args=[player.pk])).json()
    assert data["name"] == player.full_name
    (lst,) = data["lists"]
    assert [h["tournament"]["name"] for h in lst["history"]] == ["Spring Cup", "Autumn Cup"]
    assert lst["history"][0]["breakdown"][0]["expected"] == 0.5
    assert client.get(reverse("api_player", args=[999999])).status_code == 404


def test_player_reads_his_history_in_three_queries(client, world, django_assert_num_queries):
    # The member, his entries with their lists, his history with its tournaments: however
    # many tournaments he played (the busiest EGD player has two hundred).
    with django_assert_num_queries(3):
        data = client.get(reverse("api_player", args=[world.players[0].pk])).json()
    assert len(data["lists"][0]["history"]) == 2


def test_player_history_in_a_list_where_he_has_no_entry(client, world):
    player = world.players[0]
    RatingEntry.objects.filter(member=player).delete()
    data = client.get(reverse("api_player", args=[player.pk])).json()
    (lst,) = data["lists"]
    assert lst["slug"] == "ukraine-go" and lst["rating"] is None
    assert [h["tournament"]["name"] for h in lst["history"]] == ["Spring Cup", "Autumn Cup"]
    assert lst["history"][1]["class"] == world.tournaments[1].tournament_class


def test_tournament(client, world):
    tournament = world.tournaments[1]
    data = client.get(reverse("api_tournament", args=[tournament.pk])).json()
    assert [p["points"] for p in data["players"]] == [3, 2, 1, 0]
    assert len(data["games"]) == 6
    assert data["players"][0]["rating_changes"][0]["change"] == 30.0


def test_draft_tournament_is_404(client, db):
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    assert client.get(reverse("api_tournament", args=[draft.pk])).status_code == 404


def test_api_is_read_only(client, world):
    assert client.post(reverse("api_rating_lists")).status_code == 405


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_other_methods_answer_405_even_without_a_csrf_token(world, method):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    urls = [
        reverse("api_index"),
        reverse("api_rating_lists"),
        reverse("api_rating_list", args=["ukraine-go"]),
        reverse("api_player", args=[world.players[0].pk]),
    ]
    for url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 405, (method, url)
        assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
    assert client.head(reverse("api_rating_lists")).status_code == 200


def test_index_shows_readable_url_templates(client, world):
    data = client.get(reverse("api_index")).json()
    assert data["rating_list"] == "http://testserver/api/lists/{slug}/"
    assert data["player"] == "http://testserver/api/players/{id}/"
    assert data["tournament"] == "http://testserver/api/tournaments/{id}/"
