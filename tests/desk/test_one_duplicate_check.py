"""Issue 55, finding 1: one duplicate check for the players page, the import, the
Identity page and the referee's warnings; it sees the people already in the table, and a
number in a name makes another person."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite.duplicates import likely_duplicates, skeleton
from clubsite.models import Member
from ratings.submissions.selectors import review_warnings
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World, upload
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


def test_a_number_in_a_name_is_another_person():
    assert skeleton("Guest 1") != skeleton("Guest 2")
    assert skeleton("Guest 11") != skeleton("Guest 1")
    assert skeleton("Hnatyuk") == skeleton("Гнатюк")
    MemberFactory(family_name="Guest", given_name="1")
    assert likely_duplicates(family_name="Guest", given_name="2") == []
    assert len(likely_duplicates(family_name="Guest", given_name="1")) == 1


def test_players_page_finds_the_same_person_already_in_the_tournament(world: World):
    ostap = MemberFactory(family_name="Hnatyuk", given_name="Ostap", club=world.rivne, grade="2d")
    tournament = TournamentFactory(organiser=world.rivne, status="draft")
    ParticipantFactory(tournament=tournament, member=ostap)
    url = reverse("manage_participants", args=[tournament.pk])
    data = {"action": "create", "family_name": "Гнатюк", "given_name": "Остап",
            "grade": "2d", "club": world.rivne.pk}  # fmt: skip
    response = world.client("rivne-admin").post(url, data)
    assert response.status_code == 200
    shown = response.context["duplicates"]
    assert [c.member for c in shown] == [ostap]
    assert shown[0].playing and "already plays in this tournament" in shown[0].text
    html = response.content.decode()
    assert 'id="likely-duplicates"' in html and "already here" in html
    assert Member.objects.count() == 1


def test_players_page_creates_guest_2_beside_guest_1(world: World):
    MemberFactory(family_name="Guest", given_name="1", club=world.rivne)
    tournament = TournamentFactory(organiser=world.rivne, status="draft")
    url = reverse("manage_participants", args=[tournament.pk])
    data = {"action": "create", "family_name": "Guest", "given_name": "2",
            "grade": "20k", "club": world.rivne.pk}  # fmt: skip
    response = world.client("rivne-admin").post(url, data)
    assert response.status_code == 302
    assert Participant.objects.filter(tournament=tournament).count() == 1
    assert Member.objects.filter(family_name="Guest").count() == 2


def test_the_referee_is_warned_of_one_person_twice_in_a_table(world: World):
    ostap = MemberFactory(family_name="Hnatyuk", given_name="Ostap", club=world.rivne)
    twin = MemberFactory(family_name="Гнатюк", given_name="Остап", club=world.rivne)
    guests = [MemberFactory(family_name="Guest", given_name=str(n)) for n in (1, 2)]
    tournament = TournamentFactory(organiser=world.rivne, status="submitted", rounds=1)
    for member in (ostap, twin, *guests):
        ParticipantFactory(tournament=tournament, member=member)
    GameFactory(tournament=tournament, round=1, white=ostap, black=twin)
    GameFactory(tournament=tournament, round=1, white=guests[0], black=guests[1])
    tournament.list_links.create(rating_list=world.lists["egf-gor"])
    found = [w for w in review_warnings(tournament) if w.text.startswith("Likely one person")]
    assert len(found) == 1 and len(found[0].names) == 1
    assert f"#{ostap.pk}" in found[0].names[0] and f"#{twin.pk}" in found[0].names[0]
    page = world.client("egf-gor-referee").get(reverse("referee_review", args=[tournament.pk]))
    assert "Likely one person entered twice" in page.content.decode()


def test_an_import_does_not_take_guest_2_for_guest_1(world: World):
    MemberFactory(family_name="Guest", given_name="1", club=world.rivne)
    egd = (b"; CL[A]\n; EV[Cup]\n; DT[2024-05-01,2024-05-01]\n"
           b"1 Guest 2 25k UA Rivne 1 2+/w\n2 Nobody Else 20k UA Rivne 0 1-/b\n")  # fmt: skip
    table = upload(world.client("rivne-admin"), egd, "c.h9", world.rivne, None, fmt="egd")
    assert table is not None
    assert Member.objects.filter(family_name="Guest").count() == 2


def _identity(member: Member, **names: str) -> dict[str, object]:
    return {"family_name": member.family_name, "given_name": member.given_name,
            "native_name": member.native_name, "fide_id": "", "egd_pin": "",
            "fide_title": "", "federation": "", "birth_year": "", "grade": "2d",
            "club": member.club_id, **names}  # fmt: skip


def test_the_identity_page_corrects_a_name_and_asks_about_a_namesake(world: World):
    ostap = MemberFactory(family_name="Hnatyuk", given_name="Ostap", club=world.rivne, grade="2d")
    typo = MemberFactory(family_name="Hnatuk", given_name="Ostap", club=world.rivne, grade="2d")
    tournament = TournamentFactory(organiser=world.rivne, status="draft")
    for member in (ostap, typo):
        ParticipantFactory(tournament=tournament, member=member)
    url = reverse("manage_member_identity", args=[tournament.pk, typo.pk])
    rivne = world.client("rivne-admin")
    assert 'name="family_name"' in rivne.get(url).content.decode()
    # the corrected name is Ostap's, who plays here: the admin is asked first
    response = rivne.post(url, _identity(typo, family_name="Гнатюк", given_name="Остап"))
    assert response.status_code == 200
    assert [c.member for c in response.context["duplicates"]] == [ostap]
    assert "already plays in this tournament" in response.content.decode()
    assert Member.objects.get(pk=typo.pk).family_name == "Hnatuk"
    # confirmed, it is saved; a name no one else has is saved at once
    rivne.post(url, {**_identity(typo, family_name="Гнатюк"), "confirm_name": "1"})
    assert Member.objects.get(pk=typo.pk).family_name == "Гнатюк"
    assert rivne.post(url, _identity(typo, family_name="Hnatenko")).status_code == 302
    typo.refresh_from_db()
    assert typo.family_name == "Hnatenko"
    assert typo.history.latest("history_date").history_user.username == "rivne-admin"


def test_another_clubs_admin_cannot_rename_a_member(world: World):
    theirs = MemberFactory(family_name="Hnatyuk", given_name="Ostap", club=world.rivne)
    tournament = TournamentFactory(organiser=world.kyiv, status="draft")
    ParticipantFactory(tournament=tournament, member=theirs)
    url = reverse("manage_member_identity", args=[tournament.pk, theirs.pk])
    kyiv = world.client("kyiv-admin")
    assert 'name="family_name"' not in kyiv.get(url).content.decode()
    kyiv.post(url, _identity(theirs, family_name="Somebody"))
    assert Member.objects.get(pk=theirs.pk).family_name == "Hnatyuk"


@pytest.mark.parametrize(
    ("language", "here", "twice"),
    [("en", "already plays in this tournament", "Likely one person entered twice"),
     ("uk", "уже грає в цьому турнірі", "Імовірно, одну людину внесено двічі"),
     ("ru", "уже играет в этом турнире", "Вероятно, один человек внесён дважды")],
)  # fmt: skip
def test_the_duplicate_warnings_in_every_language(world: World, language, here, twice):
    ostap = MemberFactory(family_name="Hnatyuk", given_name="Ostap", club=world.rivne, grade="2d")
    twin = MemberFactory(family_name="Гнатюк", given_name="Остап", club=world.rivne, grade="2d")
    tournament = TournamentFactory(organiser=world.rivne, status="draft", rounds=1)
    ParticipantFactory(tournament=tournament, member=ostap)
    url = reverse("manage_participants", args=[tournament.pk])
    data = {"action": "create", "family_name": "Гнатюк", "given_name": "Остап",
            "grade": "2d", "club": world.rivne.pk}  # fmt: skip
    page = world.client("rivne-admin").post(url, data, HTTP_ACCEPT_LANGUAGE=language)
    assert here in page.content.decode()
    ParticipantFactory(tournament=tournament, member=twin)
    GameFactory(tournament=tournament, round=1, white=ostap, black=twin)
    tournament.list_links.create(rating_list=world.lists["egf-gor"])
    tournament.status = "submitted"
    tournament.save()
    review = world.client("egf-gor-referee").get(
        reverse("referee_review", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert twice in review.content.decode()
