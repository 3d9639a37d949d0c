"""Issue 54, items 1-5: who may change whom (docs/authority.md).

Each test is a reproduction from the issue: it failed before the authority model was
enforced in `clubsite.authority`."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import FideRating, Member
from ratings.models import BaselineRow, ListTournament, RatingHistory
from tests.factories import (
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    TournamentFactory,
    UserFactory,
)
from tests.trust.world import World, rivne_member, trf, upload
from tournaments.models import MemberProposal, Tournament

pytestmark = pytest.mark.django_db


def _registrar(world: World, name: str = "registrar", **scope: str) -> None:
    from clubsite.models import Registrar

    world.users[name] = UserFactory(username=name)
    Registrar.objects.create(user=world.users[name], **scope)


def _table(world: World, organiser, members, lists, status="submitted", day=None) -> Tournament:
    day = day or dt.date(2024, 5, 1)
    table = TournamentFactory(organiser=organiser, status=status, rounds=1, start_date=day,
                              end_date=day, basic_time_minutes=90)  # fmt: skip
    for member in members:
        ParticipantFactory(tournament=table, member=member)
    for white, black in zip(members[::2], members[1::2], strict=False):
        GameFactory(tournament=table, round=1, white=white, black=black)
    for slug in lists:
        ListTournament.objects.create(rating_list=world.lists[slug], tournament=table)
    return table


# --- item 1: a referee's approval does not apply identity proposals ------------------------


def test_item_1_a_rival_admin_who_referees_cannot_move_a_member_into_his_club(world: World):
    """Rivne's admin, also the referee of the `rivne` list, moved a Kyiv member into his own
    club with three POSTs (identity form, submit, approve). Now it waits for Kyiv's admin."""
    world.lists["rivne"].referees.add(world.users["rivne-admin"])
    world.lists["rivne"].submitters = "all"
    world.lists["rivne"].save()
    kyiv_member = MemberFactory(club=world.kyiv, family_name="Kyivska", grade="5k")
    ours = [MemberFactory(club=world.rivne, grade=g) for g in ("4k", "6k", "7k")]
    table = _table(world, world.rivne, [kyiv_member, *ours], ["rivne"], status="draft")
    rivne = world.client("rivne-admin")
    url = reverse("manage_member_identity", args=[table.pk, kyiv_member.pk])
    rivne.post(url, {"fide_id": "", "egd_pin": "", "fide_title": "", "federation": "",
                     "birth_year": "", "grade": "5k", "club": world.rivne.pk})  # fmt: skip
    rivne.post(reverse("manage_submit", args=[table.pk]))
    rivne.post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    table.refresh_from_db()
    assert table.status == "approved"
    kyiv_member.refresh_from_db()
    assert kyiv_member.club == world.kyiv  # the approval decided the table, not who he is
    proposal = MemberProposal.objects.get(member=kyiv_member, field="club")
    assert proposal.applied_at is None and proposal.decision == ""
    # it waits in Kyiv's admin's inbox, not in Rivne's
    inbox = reverse("proposal_inbox")
    assert proposal in world.client("kyiv-admin").get(inbox).context["proposals"]
    assert proposal not in rivne.get(inbox).context["proposals"]
    # Rivne's admin cannot accept it himself; Kyiv's admin declines it
    decide = reverse("proposal_decide", args=[proposal.pk])
    assert rivne.post(decide, {"decision": "accept"}).status_code == 403
    kyiv_member.refresh_from_db()
    assert kyiv_member.club == world.kyiv
    assert world.client("kyiv-admin").post(decide, {"decision": "decline"}).status_code == 302
    proposal.refresh_from_db()
    kyiv_member.refresh_from_db()
    assert (proposal.decision, proposal.decided_by.username) == ("declined", "kyiv-admin")
    assert kyiv_member.club == world.kyiv
    change = kyiv_member.history.latest("history_date")
    assert "rivne-admin" in change.history_change_reason
    assert change.history_user.username == "kyiv-admin"


def test_item_1_a_trf_to_an_open_list_does_not_give_a_child_a_fide_identity(world: World):
    """A Go club's admin imports a TRF naming another club's child to the open chess list;
    the chess referee approves; the child keeps his recorded facts until his club's admin or
    a registrar accepts, and the referee sees the pending proposal as a warning."""
    child = rivne_member(family_name="Bondar", given_name="Oleh", birth_date=None)
    players = (("Bondar, Oleh", "GM", "14109999", "1990"), ("Kovalenko, Ivan", "", "", ""))
    table = upload(world.client("kyiv-admin"), trf(*players), "open.trf", world.kyiv,
                   world.lists["chess"], status="submitted")  # fmt: skip
    referee = world.client("chess-referee")
    review = referee.get(reverse("referee_review", args=[table.pk])).content.decode()
    assert 'id="proposals-pending"' in review
    referee.post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    child.refresh_from_db()
    assert (child.fide_id, child.fide_title, child.federation, child.birth_year) == (
        "", "", "", None,
    )  # fmt: skip
    assert not FideRating.objects.filter(member=child).exists()
    # a registrar accepts them: now they are his, and his history says who and who
    _registrar(world)
    registrar = world.client("registrar")
    waiting = list(registrar.get(reverse("proposal_inbox")).context["proposals"])
    assert {p.field for p in waiting if p.member_id == child.pk} == {
        "fide_id", "fide_title", "federation", "birth_year", "fide_rating",
    }  # fmt: skip
    for proposal in waiting:
        registrar.post(reverse("proposal_decide", args=[proposal.pk]), {"decision": "accept"})
    child.refresh_from_db()
    assert (child.fide_id, child.fide_title, child.federation) == ("14109999", "GM", "UKR")
    assert list(child.fide_ratings.values_list("rating", "valid_from")) == [
        (2400, table.start_date)
    ]
    change = child.history.latest("history_date")
    assert change.history_user.username == "registrar"
    assert "kyiv-admin" in change.history_change_reason


def test_item_1_a_registrar_scoped_to_another_country_may_not_accept(world: World):
    member = MemberFactory(club=world.kyiv, country="UA")
    table = _table(world, world.rivne, [member, MemberFactory(club=world.rivne)], ["egf-gor"])
    proposal = MemberProposal.objects.create(
        tournament=table, member=member, field="egd_pin", value="123", proposed_by=None
    )
    _registrar(world, "ru-registrar", country="RU")
    _registrar(world, "ua-registrar", country="UA")
    decide = reverse("proposal_decide", args=[proposal.pk])
    assert world.client("ru-registrar").post(decide, {"decision": "accept"}).status_code == 403
    assert world.client("ua-registrar").post(decide, {"decision": "accept"}).status_code == 302
    member.refresh_from_db()
    assert member.egd_pin == "123"


# --- item 2 and 5: a merge is a registrar's act, keeps everything, can be undone ------------


def _merge_pair(world: World):
    keep = MemberFactory(family_name="Tkachenko", given_name="Roman", club=world.kyiv)
    drop = MemberFactory(family_name="Ткаченко", given_name="Роман", club=None,
                         egd_pin="12345678")  # fmt: skip
    return keep, drop


def test_item_2_a_referee_of_one_list_does_not_merge_anyone(world: World):
    keep, drop = _merge_pair(world)
    url = reverse("member_merge", args=[keep.pk])
    for who in ("uscf-referee", "egf-gor-referee", "kyiv-admin"):
        user = world.users.get(who) or UserFactory(username=who)
        world.users[who] = user
        response = world.client(who).post(url, {"other": drop.pk, "keep": keep.pk, "confirm": "1"})
        assert response.status_code == 403, who
    assert Member.objects.filter(pk=drop.pk).exists()


def test_item_2_a_referee_may_request_a_merge_and_a_registrar_does_it(world: World):
    keep, drop = _merge_pair(world)
    url = reverse("member_merge", args=[keep.pk])
    response = world.client("egf-gor-referee").post(url, {"other": drop.pk, "request": "1"})
    assert response.status_code == 302
    from clubsite.models import MergeRequest

    request = MergeRequest.objects.get()
    assert (request.keep_id, request.drop_id, request.requested_by.username) == (
        keep.pk, drop.pk, "egf-gor-referee",
    )  # fmt: skip
    _registrar(world)
    assert (
        request
        in world.client("registrar").get(reverse("proposal_inbox")).context["merge_requests"]
    )


def test_item_2_and_5_a_registrars_merge_keeps_everything_and_is_undone(
    world: World, django_capture_on_commit_callbacks
):
    from ratings.baselines.services import baseline_replace

    keep, drop = _merge_pair(world)
    FideRating.objects.create(member=drop, rating=2100, valid_from=dt.date(2023, 1, 1))
    FideRating.objects.create(member=keep, rating=2000, valid_from=dt.date(2023, 1, 1))
    FideRating.objects.create(member=drop, rating=2150, valid_from=dt.date(2023, 6, 1))
    baseline_replace(rating_list=world.lists["egf-gor"], date=dt.date(2024, 1, 1), source="egd",
                     rows=[{"member_id": drop.pk, "rating": 1500.0, "provisional": False, "grade": None,
                           "best_grade": None, "tournaments": 3, "games": 12,
                           "last_played": dt.date(2023, 12, 1), "history": None}])  # fmt: skip
    _registrar(world)
    registrar = world.client("registrar")
    with django_capture_on_commit_callbacks(execute=True):
        response = registrar.post(
            reverse("member_merge", args=[keep.pk]),
            {"other": drop.pk, "keep": keep.pk, "confirm": "1"},
        )
    assert response.status_code == 302
    # the kept one has the dropped one's baseline row and his dated FIDE ratings
    assert BaselineRow.objects.filter(member=keep, baseline__rating_list__slug="egf-gor").exists()
    assert set(keep.fide_ratings.values_list("rating", "valid_from")) >= {
        (2000, dt.date(2023, 1, 1)), (2150, dt.date(2023, 6, 1)),
    }  # fmt: skip
    keep.refresh_from_db()
    assert keep.egd_pin == "12345678"
    # the dropped one's address leads to the kept one
    old = world.client("player").get(reverse("player_detail", args=[drop.pk]))
    assert old.status_code == 302 and old["Location"] == reverse("player_detail", args=[keep.pk])
    # a registrar undoes it: both as they were, nothing lost
    from clubsite.models import MemberMerge

    merge = MemberMerge.objects.get()
    assert (
        world.client("egf-gor-referee")
        .post(reverse("member_merge_undo", args=[merge.pk]))
        .status_code
        == 403
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert registrar.post(reverse("member_merge_undo", args=[merge.pk])).status_code == 302
    drop = Member.objects.get(pk=drop.pk)
    keep.refresh_from_db()
    assert (drop.egd_pin, keep.egd_pin, drop.family_name) == ("12345678", "", "Ткаченко")
    assert set(drop.fide_ratings.values_list("rating", "valid_from")) == {
        (2100, dt.date(2023, 1, 1)), (2150, dt.date(2023, 6, 1)),
    }  # fmt: skip
    assert list(keep.fide_ratings.values_list("rating", flat=True)) == [2000]
    assert BaselineRow.objects.filter(member=drop).count() == 1
    assert not BaselineRow.objects.filter(member=keep).exists()
    assert world.client("player").get(reverse("player_detail", args=[drop.pk])).status_code == 200


def test_item_5_a_merge_keeps_the_dropped_ones_baseline_row_and_dated_fide_ratings(
    world: World, django_capture_on_commit_callbacks
):
    """The reproduction: staff merged (as they could before); the kept member had no
    baseline row where the other had one, and the dated FIDE ratings went by cascade."""
    from ratings.baselines.services import baseline_replace

    keep, drop = _merge_pair(world)
    FideRating.objects.create(member=drop, rating=2100, valid_from=dt.date(2023, 1, 1))
    baseline_replace(rating_list=world.lists["ufgo"], date=dt.date(2024, 1, 1), source="csv",
                     rows=[{"member_id": drop.pk, "rating": 1500.0, "provisional": False,
                            "grade": None, "best_grade": None, "tournaments": 3, "games": 12,
                            "last_played": dt.date(2023, 12, 1), "history": None}])  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = world.client("staff").post(
            reverse("member_merge", args=[keep.pk]),
            {"other": drop.pk, "keep": keep.pk, "confirm": "1"},
        )
    assert response.status_code == 302
    assert list(BaselineRow.objects.filter(member=keep).values_list("rating", flat=True)) == [
        1500.0
    ]
    assert list(keep.fide_ratings.values_list("rating", "valid_from")) == [
        (2100, dt.date(2023, 1, 1))
    ]
    keep.refresh_from_db()
    assert keep.fide_rating == 2100


def test_item_5_a_merge_keeps_the_history_of_both(world: World, django_capture_on_commit_callbacks):
    keep, drop = _merge_pair(world)
    others = [MemberFactory(club=world.rivne) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        table = _table(world, world.rivne, [drop, *others], ["egf-gor"])
        from ratings.submissions.services import tournament_approve_and_rate

        tournament_approve_and_rate(tournament=table, by=world.users["egf-gor-referee"])
    assert RatingHistory.objects.filter(member=drop).exists()
    _registrar(world)
    with django_capture_on_commit_callbacks(execute=True):
        world.client("registrar").post(
            reverse("member_merge", args=[keep.pk]),
            {"other": drop.pk, "keep": keep.pk, "confirm": "1"},
        )
    assert RatingHistory.objects.filter(member=keep, tournament=table).exists()
    from clubsite.models import MemberMerge

    with django_capture_on_commit_callbacks(execute=True):
        world.client("registrar").post(reverse("member_merge_undo",
                                               args=[MemberMerge.objects.get().pk]))  # fmt: skip
    assert RatingHistory.objects.filter(member_id=drop.pk, tournament=table).exists()
    assert not RatingHistory.objects.filter(member=keep).exists()


# --- item 3: a baseline proposes numbers for members its referee does not keep ----------------


def test_item_3_a_baseline_row_proposes_numbers_instead_of_writing_them(client, world: World):
    member = MemberFactory(club=world.kyiv, family_name="Petrenko", given_name="Ivan",
                           country="UA")  # fmt: skip
    MemberFactory(family_name="Petrenko", given_name="Ivan", country="UA", club=None)
    csv = ("key,family_name,given_name,country,egd_pin,fide_id,rating\n"
           "r1,Petrenko,Ivan,UA,77777777,8888888,1500\n")  # fmt: skip
    referee = world.client("egf-gor-referee")
    url = reverse("list_baseline", args=["egf-gor"])
    page = referee.post(url, {"file": SimpleUploadedFile("l.csv", csv.encode()), "fmt": "csv",
                              "date": "2024-01-01"})  # fmt: skip
    token = page.context["token"]
    assert referee.post(url, {"token": token, "choice-r1": str(member.pk)}).status_code == 302
    member.refresh_from_db()
    assert (member.egd_pin, member.fide_id) == ("", "")
    proposed = dict(
        MemberProposal.objects.filter(member=member, tournament=None).values_list("field", "value")
    )
    assert proposed == {"egd_pin": "77777777", "fide_id": "8888888"}
    inbox = world.client("kyiv-admin").get(reverse("proposal_inbox")).context["proposals"]
    assert {p.field for p in inbox} == {"egd_pin", "fide_id"}


# --- item 4: no one undoes a decision he did not make ----------------------------------------


def _two_list_table(world: World) -> Tournament:
    players = [MemberFactory(club=world.kyiv, grade=g) for g in ("5k", "6k", "7k", "8k")]
    return _table(world, world.kyiv, players, ["egf-gor", "ufgo"])


def test_item_4_a_club_admin_cannot_reopen_a_table_a_referee_approved(world: World):
    table = _two_list_table(world)
    world.client("egf-gor-referee").post(
        reverse("referee_decide", args=[table.pk]), {"decision": "approve"}
    )
    table.refresh_from_db()
    assert table.status == "submitted"  # UFGO has not decided
    response = world.client("kyiv-admin").post(
        reverse("manage_reopen", args=[table.pk]), {"comment": "fix"}
    )
    assert response.status_code in (302, 403)
    table.refresh_from_db()
    assert table.status == "submitted"
    link = ListTournament.objects.get(tournament=table, rating_list__slug="egf-gor")
    assert link.decision == "approved"
    # once every list approved, he cannot either
    world.client("ufgo-referee").post(
        reverse("referee_decide", args=[table.pk]), {"decision": "approve"}
    )
    world.client("kyiv-admin").post(reverse("manage_reopen", args=[table.pk]), {"comment": "x"})
    table.refresh_from_db()
    assert table.status == "approved"


def test_item_4_a_referee_withdraws_only_his_own_lists_approval(world: World):
    table = _two_list_table(world)
    for who in ("egf-gor-referee", "ufgo-referee"):
        world.client(who).post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    table.refresh_from_db()
    assert table.status == "approved"
    world.client("egf-gor-referee").post(
        reverse("referee_reopen", args=[table.pk]), {"reason": "wrong class"}
    )
    decisions = dict(
        ListTournament.objects.filter(tournament=table).values_list("rating_list__slug", "decision")
    )
    assert decisions == {"egf-gor": "", "ufgo": "approved"}
    table.refresh_from_db()
    assert table.status == "submitted"  # waits for EGF's decision again, UFGO's stands
    # when UFGO's referee withdraws his too, the table is back with the club
    world.client("ufgo-referee").post(
        reverse("referee_reopen", args=[table.pk]), {"reason": "also"}
    )
    table.refresh_from_db()
    assert table.status == "draft"


def test_item_4_staff_reopen_the_table_whoever_approved(world: World):
    table = _two_list_table(world)
    for who in ("egf-gor-referee", "ufgo-referee"):
        world.client(who).post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    world.client("staff").post(reverse("referee_reopen", args=[table.pk]), {"reason": "all"})
    table.refresh_from_db()
    assert table.status == "draft"
    assert set(
        ListTournament.objects.filter(tournament=table).values_list("decision", flat=True)
    ) == {""}


def test_item_4_the_review_offers_the_withdrawal_to_the_referee_who_approved_only(world: World):
    table = _two_list_table(world)
    world.client("egf-gor-referee").post(
        reverse("referee_decide", args=[table.pk]), {"decision": "approve"}
    )
    url = reverse("referee_review", args=[table.pk])
    assert 'id="withdraw-own"' in world.client("egf-gor-referee").get(url).content.decode()
    assert 'id="withdraw-own"' not in world.client("ufgo-referee").get(url).content.decode()
