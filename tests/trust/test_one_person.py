"""Issue 14, hole 4: one person, one member — likely duplicates are shown before a member
is created (form and import), and staff or referees merge two members into one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubsite.duplicates import duplicate_pairs, likely_duplicates, skeleton
from clubsite.models import Member, Registrar
from ratings.models import RatingEntry, RatingHistory, RecomputeRun
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import (
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    TournamentFactory,
    UserFactory,
)
from tests.trust.world import World, upload
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db


def test_names_agree_across_scripts_and_spellings():
    assert skeleton("Shevchuk") == skeleton("Шевчук") == skeleton("Ševčuk")
    assert skeleton("Tkachenko") == skeleton("Ткаченко")
    assert skeleton("Hnatyuk") == skeleton("Гнатюк") == skeleton("Hnatiuk")
    assert skeleton("Sofia") == skeleton("Софія")
    assert skeleton("Shevchuk") != skeleton("Shevchenko")


def test_hole_4_a_new_member_who_exists_is_shown_first(world: World):
    sofia = MemberFactory(family_name="Шевчук", given_name="Софія", club=world.rivne,
                          grade="25k", birth_date=dt.date(2010, 4, 2))  # fmt: skip
    tournament = TournamentFactory(organiser=world.rivne, status="draft")
    rivne = world.client("rivne-admin")
    url = reverse("manage_participants", args=[tournament.pk])
    data = {"action": "create", "family_name": "Shevchuk", "given_name": "Sofia",
            "grade": "25k", "club": world.rivne.pk, "birth_date": "2010-04-02"}  # fmt: skip
    response = rivne.post(url, data)
    assert response.status_code == 200
    shown = response.context["duplicates"]
    assert [c.member for c in shown] == [sofia]
    assert "same name in another spelling" in shown[0].text
    assert "same birth year" in shown[0].text and "same club" in shown[0].text
    assert 'id="likely-duplicates"' in response.content.decode()
    assert Member.objects.count() == 1  # nothing saved yet: the admin chooses
    # he chooses her ...
    rivne.post(url, {"action": "add", "member": sofia.pk})
    assert list(tournament.participants.values_list("member", flat=True)) == [sofia.pk]
    # ... or says this is another person
    data["given_name"] = "Sofia"
    rivne.post(url, {**data, "family_name": "Shevchuk", "confirm_new": "1"})
    assert Member.objects.filter(family_name="Shevchuk").count() == 1


def test_hole_4_an_import_asks_about_a_likely_duplicate(world: World):
    sofia = MemberFactory(family_name="Шевчук", given_name="Софія", club=world.rivne)
    egd = (b"; CL[A]\n; EV[Cup]\n; DT[2024-05-01,2024-05-01]\n"
           b"1 Shevchuk Sofia 25k UA Rivne 1 2+/w\n2 Nobody Else 20k UA Rivne 0 1-/b\n")  # fmt: skip
    rivne = world.client("rivne-admin")
    from django.core.files.uploadedfile import SimpleUploadedFile

    form = {"file": SimpleUploadedFile("c.h9", egd), "organiser": world.rivne.pk,
            "rating_list": "", "fmt": "egd"}  # fmt: skip
    preview = rivne.post(reverse("manage_import"), form).context["preview"]
    first = preview.players[0]
    assert first.status == "ambiguous" and list(first.candidates) == [sofia]
    assert any("Likely the same person" in note for note in first.notes)
    assert preview.players[1].status == "new"
    # undecided, nothing is saved; chosen, she plays
    assert upload(rivne, egd, "c.h9", world.rivne, None, fmt="egd") is None
    table = upload(rivne, egd, "c.h9", world.rivne, None, fmt="egd",
                   choices={"choice-0": str(sofia.pk)})  # fmt: skip
    assert Participant.objects.filter(tournament=table, member=sofia).exists()


def _rated(world: World, players: list[Member], day: dt.date, name: str) -> Tournament:
    table = TournamentFactory(organiser=world.rivne, status="submitted", name=name,
                              start_date=day, end_date=day, rounds=1)  # fmt: skip
    for p in players:
        ParticipantFactory(tournament=table, member=p)
    GameFactory(tournament=table, round=1, white=players[0], black=players[1])
    GameFactory(tournament=table, round=1, white=players[2], black=players[3])
    table.list_links.create(rating_list=world.lists["egf-gor"])
    tournament_approve_and_rate(tournament=table, by=world.users["egf-gor-referee"])
    return table


def test_merge_moves_everything_and_recomputes_from_the_earliest_date(
    world: World, django_capture_on_commit_callbacks
):
    others = [MemberFactory(club=world.rivne, grade=g) for g in ("3k", "4k", "5k")]
    keep = MemberFactory(family_name="Tkachenko", given_name="Roman", club=world.rivne,
                         grade="2k")  # fmt: skip
    drop = MemberFactory(family_name="Ткаченко", given_name="Роман", club=None, grade="2k",
                         egd_pin="12345678", user=UserFactory(username="roman"))  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        spring = _rated(world, [drop, *others], dt.date(2024, 3, 1), "Spring")
        autumn = _rated(world, [keep, *others], dt.date(2024, 9, 1), "Autumn")
    assert RatingEntry.objects.filter(member=drop).exists()
    RecomputeRun.objects.all().delete()
    # a club admin may not, nor the list's referee (issue 54); a registrar may
    url = reverse("member_merge", args=[keep.pk])
    assert world.client("rivne-admin").post(url, {"other": drop.pk}).status_code == 403
    assert world.client("egf-gor-referee").post(url, {"other": drop.pk}).status_code == 403
    world.users["registrar"] = UserFactory(username="registrar")
    Registrar.objects.create(user=world.users["registrar"])
    referee = world.client("registrar")
    assert referee.get(url, {"other": drop.pk}).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = referee.post(url, {"other": drop.pk, "keep": keep.pk, "confirm": "1"})
    assert response.status_code == 302
    assert not Member.objects.filter(pk=drop.pk).exists()
    keep.refresh_from_db()
    assert (keep.egd_pin, keep.user.username, keep.club) == ("12345678", "roman", world.rivne)
    assert Participant.objects.filter(member=keep).count() == 2
    assert set(RatingHistory.objects.filter(member=keep).values_list("tournament", flat=True)) == {
        spring.pk, autumn.pk,
    }  # fmt: skip
    entry = RatingEntry.objects.get(member=keep, rating_list=world.lists["egf-gor"])
    assert entry.tournaments == 2
    run = RecomputeRun.objects.get(rating_list=world.lists["egf-gor"])
    assert run.from_date == dt.date(2024, 3, 1)
    assert keep.history.filter(history_change_reason__contains=f"#{drop.pk}").exists()


def test_merge_refuses_two_players_of_one_tournament(world: World):
    a, b, c, d = (MemberFactory(club=world.rivne) for _ in range(4))
    table = TournamentFactory(organiser=world.rivne)
    for p in (a, b, c, d):
        ParticipantFactory(tournament=table, member=p)
    response = world.client("staff").post(
        reverse("member_merge", args=[a.pk]),
        {"other": b.pk, "keep": a.pk, "confirm": "1"},
        follow=True,
    )
    html = response.content.decode()
    assert "both played in" in html and table.name in html
    assert Member.objects.filter(pk=b.pk).exists()


def test_the_demo_has_no_duplicates(django_capture_on_commit_callbacks):
    from sampledata.demo import demo_load

    with django_capture_on_commit_callbacks(execute=True):
        demo_load()
    members = list(Member.objects.all())
    assert duplicate_pairs(members) == []
    assert Member.objects.filter(family_name="Tkachenko", given_name="Roman").count() <= 1
    someone = members[0]
    found = likely_duplicates(family_name=someone.family_name, given_name=someone.given_name)
    assert [c.member for c in found] == [someone]
