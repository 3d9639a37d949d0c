"""Issue 14, hole 6: a file's facts are kept as it says them — who organised the event,
the club each player stated, a result whose colour it does not give."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.trust.world import World, upload
from tournaments.formats import parse, write
from tournaments.importing import tournament_to_results
from tournaments.models import Game
from tournaments.selectors import crosstable

pytestmark = pytest.mark.django_db

WAGC = (
    b"; CL[A]\n; EV[World Amateur Go Championship]\n; DT[2024-05-01,2024-05-02]\n"
    b"1 Nowak Jan 3d PL Wars 2 2+ 3+/b\n"
    b"2 Wisniewski Piotr 2d PL Bydg 1 1- 4+/w\n"
    b"3 Kowal Ivan 1d UA Kyiv 1 4+/w 1-/w\n"
    b"4 Lis Adam 1k PL Wars 0 3-/b 2-/b\n"
)


def _wagc(world: World, **extra: object):
    table = upload(world.client("rivne-admin"), WAGC, "wagc.h9", world.rivne, None,
                   status="submitted", fmt="egd", **extra)  # fmt: skip
    assert table is not None
    return table


def test_hole_6_the_organiser_is_chosen_and_shown(world: World):
    external = _wagc(world, held_by="external")
    page = Client().get(reverse("tournament_detail", args=[external.pk])).content.decode()
    assert "external organiser" in page and "entered by Rivne Go Club" in page
    assert external.organised_by is None
    # Issue 54: a club is named as the organiser only by one of its own admins.
    world.kyiv.admins.add(world.users["rivne-admin"])
    held = _wagc(world, held_by=str(world.kyiv.pk))
    page = Client().get(reverse("tournament_detail", args=[held.pk])).content.decode()
    assert held.organised_by == world.kyiv and "Kyiv Go Club" in page
    listed = Client().get(reverse("tournament_list")).content.decode()
    assert "external organiser" in listed


def test_hole_6_stated_clubs_are_shown_and_exported(world: World):
    table = _wagc(world, held_by="external")
    page = Client().get(reverse("tournament_detail", args=[table.pk])).content.decode()
    for club in ("Wars", "Bydg", "Kyiv"):
        assert f">{club}</td>" in page
    again = parse(write(tournament_to_results(tournament=table), "egd").encode(), "egd", "x.h9")
    assert [p.club for p in again.players] == ["Wars", "Bydg", "Kyiv", "Wars"]


def test_hole_6_an_unknown_colour_stays_unknown(world: World):
    table = _wagc(world)
    first = Game.objects.get(tournament=table, round=1, kind="played", white__family_name="Nowak")
    assert first.colours_known is False  # "2+" gives no colour
    known = Game.objects.get(tournament=table, round=2, black__family_name="Nowak")
    assert known.colours_known is True
    text = write(tournament_to_results(tournament=table), "egd")
    nowak = next(line for line in text.splitlines() if "Nowak" in line)
    assert " 2+ " in nowak and "2+/w" not in nowak and "3+/b" in nowak
    row = next(r for r in crosstable(table).rows if r.member.family_name == "Nowak")
    assert row.cells[0].text == "2+" and row.cells[1].text == "3+/b"
    # the round form offers it, shows it, and keeps it
    rivne = world.client("rivne-admin")
    table.status = "draft"
    table.save()
    url = reverse("manage_round", args=[table.pk, 1])
    form = rivne.get(url).context["formset"]
    colours = [f.initial.get("colour") for f in form.forms if f.initial.get("white")]
    assert "unknown" in colours and "colour not recorded" in rivne.get(url).content.decode()
    second = Game.objects.get(tournament=table, round=1, white__family_name="Kowal")
    assert second.colours_known
    data = {"board-TOTAL_FORMS": "2", "board-INITIAL_FORMS": "0"}
    for i, game in enumerate(Game.objects.filter(tournament=table, round=1).order_by("id")):
        data.update({f"board-{i}-white": game.white_id, f"board-{i}-black": game.black_id,
                     f"board-{i}-kind": "played", f"board-{i}-result": game.result,
                     f"board-{i}-handicap": "0", f"board-{i}-colour": "unknown"})  # fmt: skip
    assert rivne.post(url, data).status_code == 302
    assert not Game.objects.filter(tournament=table, round=1, colours_known=True).exists()
