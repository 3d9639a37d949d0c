"""The calculator by name, links into it arriving filled in, a list's chart colour the same
on every profile (issue 16, item 9)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from ratings.models import RatingHistory
from tests.factories import MemberFactory, RatingListFactory
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def test_a_player_by_name(client, world):
    a, b = world.players[0], world.players[3]
    response = client.get(
        reverse("calculator"), {"game": "go", "a": a.full_name, "b": b.family_name, "go": "1"}
    )
    assert response.context["form"].errors == {}
    answer = response.context["answer"]
    assert answer.player_a.pk == a.pk and answer.player_b.pk == b.pk


def test_a_name_many_players_share_lists_them(client, world):
    MemberFactory(family_name="Twin", given_name="Ann")
    MemberFactory(family_name="Twin", given_name="Bob")
    response = client.get(reverse("calculator"), {"a": "Twin", "rating_b": 2000, "go": "1"})
    errors = " ".join(response.context["form"].errors["a"])
    assert "Several players match" in errors and "Ann Twin" in errors and "Bob Twin" in errors
    nobody = client.get(reverse("calculator"), {"a": "Zzyzx", "rating_b": 2000, "go": "1"})
    assert "Nobody is called Zzyzx." in nobody.context["form"].errors["a"]


def test_the_profile_link_arrives_filled_in_without_errors(client, world):
    player = world.players[0]
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    link = html.split('class="btn btn-sm btn-outline-success" href="', 1)[1].split('"', 1)[0]
    response = client.get(link.replace("&amp;", "&"))
    form = response.context["form"]
    assert not form.is_bound and form.errors == {}
    assert str(player.pk) in response.content.decode().split('name="a"', 1)[1].split(">", 1)[0]
    assert "This field is required" not in response.content.decode()


def test_the_head_to_head_link_carries_game_and_handicap(client, world):
    player = world.players[0]
    game = (
        Game.objects.filter(white=player).select_related("black").first()
        or Game.objects.filter(black=player).first()
    )
    opponent = game.black if game.white_id == player.pk else game.white
    between = Game.objects.filter(white__in=[player, opponent], black__in=[player, opponent])
    between.update(handicap=3)
    html = client.get(
        reverse("player_detail", args=[player.pk]), {"vs": opponent.pk}
    ).content.decode()
    link = html.split("Win probability for the next game", 1)[0].rsplit('href="', 1)[1]
    link = link.split('"', 1)[0].replace("&amp;", "&")
    assert "handicap=3" in link and "game=go" in link
    response = client.get(link)
    assert response.context["form"].errors == {}
    assert response.context["answer"] is not None
    result = response.context["answer"].results[0]
    assert result.handicap == 3


def test_a_list_keeps_its_colour_key_on_every_profile(client, world):
    other = RatingListFactory(name="Another", slug="another", system="egf")
    first, second = world.players[0], world.players[1]
    row = RatingHistory.objects.filter(member=second).first()
    RatingHistory.objects.create(
        rating_list=other, member=second, tournament=row.tournament, date=row.date,
        sequence=0, rating_in=1000, before=1000, after=1010, change=10, games_count=1,
    )  # fmt: skip

    def keys(member):  # noqa: ANN001, ANN202
        html = client.get(reverse("player_detail", args=[member.pk])).content.decode()
        data = html.split('id="rating-chart-data" type="application/json">', 1)[1]
        chart = json.loads(data.split("</script>", 1)[0])
        return {d["label"]: d["key"] for d in chart["datasets"]}

    assert keys(first)["Ukraine Go"] == keys(second)["Ukraine Go"] == world.rating_list.pk
