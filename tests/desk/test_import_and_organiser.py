"""Issue 55, finding 9: a file's club code (`Rivn`) is the club (its players matched and
preselected, its new players join it); the queue names who held an external table, not
the club entering it; a hand-entered tournament may be credited to another club its
admin runs, or to an external organiser by name, never to a club he does not run."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite.models import Member
from tests.factories import ClubFactory, MemberFactory, TournamentFactory
from tests.trust.world import World, upload
from tournaments.importing.common import club_index, club_named
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

EGD = (b"; CL[A]\n; EV[Rivne Cup]\n; DT[2024-05-01,2024-05-01]\n"
       b"1 Shevchuk Sofia 25k UA Rivn 1 2+/w\n2 Bondar Taras 20k UA Rivn 0 1-/b\n")  # fmt: skip


def test_a_club_code_names_the_club(world: World):
    index = club_index([world.kyiv, world.rivne])
    assert club_named(index, "Rivn") == world.rivne
    assert club_named(index, "Kyiv") == world.kyiv
    assert club_named(index, "Xy") is None and club_named(index, "Lviv") is None
    kyiv_chess = ClubFactory(name="Kyiv Chess Club", slug="kyiv-chess")
    index = club_index([world.kyiv, world.rivne, kyiv_chess])
    assert club_named(index, "Kyiv") is None  # two clubs fit: not a guess
    assert club_named(index, "Kyiv", prefer=kyiv_chess) == kyiv_chess


def test_the_clubs_own_file_is_matched_and_preselected(world: World):
    sofia = MemberFactory(family_name="Shevchuk", given_name="Sofia", club=world.rivne,
                          country="UA")  # fmt: skip
    rivne = world.client("rivne-admin")
    from django.core.files.uploadedfile import SimpleUploadedFile

    form = {"file": SimpleUploadedFile("c.h9", EGD), "organiser": world.rivne.pk,
            "rating_list": "", "fmt": "egd"}  # fmt: skip
    response = rivne.post(reverse("manage_import"), form)
    rows = response.context["rows"]
    assert rows[0]["match"].status == "matched" and rows[0]["chosen"] == str(sofia.pk)
    table = upload(rivne, EGD, "c.h9", world.rivne, None, fmt="egd")
    assert table is not None
    assert table.participants.filter(member=sofia).exists()
    assert Member.objects.get(family_name="Bondar").club == world.rivne


def test_the_queue_names_the_external_organiser(world: World):
    table = TournamentFactory(organiser=world.rivne, status="submitted", name="Warsaw Open",
                              host_external=True, host_name="Warsaw <Go> Society")  # fmt: skip
    table.list_links.create(rating_list=world.lists["egf-gor"])
    held = TournamentFactory(organiser=world.rivne, status="submitted", host=world.kyiv)
    held.list_links.create(rating_list=world.lists["egf-gor"])
    html = world.client("egf-gor-referee").get(reverse("referee_queue")).content.decode()
    assert '<span class="organised-by">Warsaw &lt;Go&gt; Society' in html
    assert (
        f'<span class="organised-by"><a href="/clubs/{world.kyiv.slug}/">Kyiv Go Club</a>' in html
    )
    assert "entered by Rivne Go Club" in html


def _data(world: World, **changes: object) -> dict[str, object]:
    data = {
        "name": "Spring Open", "organiser": world.rivne.pk, "city": "Rivne", "country": "ua",
        "start_date": "2024-04-06", "end_date": "2024-04-07", "game": "go",
        "board_size": "19", "rounds": "4", "basic_time_minutes": "60",
        "overtime_kind": "byoyomi", "overtime_seconds": "30", "overtime_moves": "1",
        "tournament_class": "A", "official": "on", "handicap_rule": "", "komi": "6.5",
        "rating_lists": [world.lists["egf-gor"].pk],
    }  # fmt: skip
    return {**data, **changes}


def test_a_hand_entered_tournament_offers_his_clubs_and_an_external_organiser(world: World):
    school = ClubFactory(name="Rivne Go School", slug="rivne-school")
    school.admins.add(world.users["rivne-admin"])
    rivne = world.client("rivne-admin")
    url = reverse("manage_tournament_create")
    choices = dict(rivne.get(url).context["form"].fields["held_by"].choices)
    assert str(school.pk) in choices and "external" in choices
    assert str(world.kyiv.pk) not in choices  # not his to credit
    assert rivne.post(url, _data(world, held_by=str(school.pk))).status_code == 302
    assert Tournament.objects.get(name="Spring Open").host == school
    response = rivne.post(url, _data(world, name="Lviv Cup", held_by="external"))
    assert "host_name" in response.context["form"].errors  # the name is asked for
    rivne.post(url, _data(world, name="Lviv Cup", held_by="external", host_name="Lviv Go"))
    cup = Tournament.objects.get(name="Lviv Cup")
    assert cup.host_external and cup.host_name == "Lviv Go" and cup.host is None
    response = rivne.post(url, _data(world, name="Kyiv Cup", held_by=str(world.kyiv.pk)))
    assert "held_by" in response.context["form"].errors
    assert not Tournament.objects.filter(name="Kyiv Cup").exists()
    staff_choices = dict(world.client("staff").get(url).context["form"].fields["held_by"].choices)
    assert str(world.kyiv.pk) in staff_choices


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "an external organiser (write its name)"),
     ("uk", "зовнішній організатор (напишіть назву)"),
     ("ru", "внешний организатор (напишите название)")],
)  # fmt: skip
def test_the_organiser_choice_in_every_language(world: World, language: str, words: str):
    page = world.client("rivne-admin").get(
        reverse("manage_tournament_create"), HTTP_ACCEPT_LANGUAGE=language
    )
    assert words in page.content.decode()
