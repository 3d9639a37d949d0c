"""Issue 14, hole 3: a table counts in a list only when that list's referee approved it;
each list decides for itself; a list says which clubs may submit to it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import ListTournament, RatingHistory, RecomputeRun
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
THREE = ("rivne", "egf-gor", "ufgo")


def _table(world: World, lists=THREE) -> Tournament:
    table = TournamentFactory(organiser=world.rivne, status="submitted", rounds=1,
                              basic_time_minutes=90)  # fmt: skip
    players = [MemberFactory(club=world.rivne, grade=g) for g in ("5k", "6k", "7k", "8k")]
    for p in players:
        ParticipantFactory(tournament=table, member=p)
    GameFactory(tournament=table, round=1, white=players[0], black=players[1])
    GameFactory(tournament=table, round=1, white=players[2], black=players[3])
    for slug in lists:
        ListTournament.objects.create(rating_list=world.lists[slug], tournament=table)
    return table


def _rated_in(table: Tournament) -> set[str]:
    return set(
        RatingHistory.objects.filter(tournament=table).values_list("rating_list__slug", flat=True)
    )


def _decide(world: World, who: str, table: Tournament, decision: str, comment: str = ""):
    return world.client(who).post(
        reverse("referee_decide", args=[table.pk]), {"decision": decision, "comment": comment}
    )


def _queue(world: World, who: str) -> list[int]:
    return [t.pk for t in world.client(who).get(reverse("referee_queue")).context["queue"]]


def test_hole_3_one_lists_referee_rates_the_table_in_his_list_only(
    world,
    django_capture_on_commit_callbacks,
):
    table = _table(world)
    assert table.pk in _queue(world, "rivne-referee")
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "rivne-referee", table, "approve")
    table.refresh_from_db()
    assert _rated_in(table) == {"rivne"}
    assert table.status == "submitted"  # two lists have not decided
    runs = set(RecomputeRun.objects.values_list("rating_list__slug", flat=True))
    assert runs == {"rivne"}  # only the list that approved recomputes
    assert table.pk not in _queue(world, "rivne-referee")
    assert table.pk in _queue(world, "egf-gor-referee") and table.pk in _queue(
        world, "ufgo-referee"
    )
    # his approval is his list's: a second post decides nothing more
    assert _decide(world, "rivne-referee", table, "approve").status_code == 302
    assert _rated_in(table) == {"rivne"}
    # UFGO refuses; that does not block EGF, whose approval completes the table
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "ufgo-referee", table, "reject", "Not our time control")
    table.refresh_from_db()
    assert table.status == "submitted" and _rated_in(table) == {"rivne"}
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "egf-gor-referee", table, "approve")
    table.refresh_from_db()
    assert table.status == "approved"
    assert _rated_in(table) == {"rivne", "egf-gor"}
    decisions = dict(
        ListTournament.objects.filter(tournament=table).values_list("rating_list__slug", "decision")
    )
    assert decisions == {"rivne": "approved", "egf-gor": "approved", "ufgo": "rejected"}
    page = world.client("ufgo-referee").get(reverse("referee_review", args=[table.pk]))
    assert "Not our time control" in page.content.decode()


def test_a_table_every_list_refuses_is_rejected(world):
    table = _table(world, lists=("rivne", "ufgo"))
    _decide(world, "rivne-referee", table, "reject", "Wrong dates")
    _decide(world, "ufgo-referee", table, "reject", "Too fast")
    table.refresh_from_db()
    assert table.status == "rejected"
    assert "Wrong dates" in table.decision_comment and "Too fast" in table.decision_comment


def test_reopening_unrates_the_lists_that_approved_and_asks_them_again(
    world,
    django_capture_on_commit_callbacks,
):
    table = _table(world, lists=("rivne", "egf-gor"))
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "rivne-referee", table, "approve")
    assert _rated_in(table) == {"rivne"}
    # issue 54: not the club's to undo; the referee who approved withdraws his approval,
    # and as no other list decided, the table goes back to the club
    world.client("rivne-admin").post(reverse("manage_reopen", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == "submitted" and _rated_in(table) == {"rivne"}
    with django_capture_on_commit_callbacks(execute=True):
        world.client("rivne-referee").post(
            reverse("referee_reopen", args=[table.pk]), {"reason": "wrong date"}
        )
    table.refresh_from_db()
    assert table.status == "draft" and _rated_in(table) == set()
    assert set(
        ListTournament.objects.filter(tournament=table).values_list("decision", flat=True)
    ) == {""}


def test_hole_3_a_club_cannot_submit_to_another_clubs_own_list(world):
    kyiv = world.client("kyiv-admin")
    form = {"name": "Kyiv Cup", "organiser": world.kyiv.pk, "city": "Kyiv", "country": "UA",
            "start_date": "2024-05-01", "end_date": "2024-05-01", "game": "go",
            "board_size": 19, "rounds": 3, "basic_time_minutes": 60, "overtime_kind": "byoyomi",
            "overtime_seconds": 30, "overtime_moves": 1, "tournament_class": "A",
            "official": "on", "rating_lists": [world.lists["rivne"].pk]}  # fmt: skip
    response = kyiv.post(reverse("manage_tournament_create"), form)
    assert response.status_code == 200 and "rating_lists" in response.context["form"].errors
    assert not Tournament.objects.filter(name="Kyiv Cup").exists()
    egd = b"; CL[A]\n; EV[Kyiv Cup]\n1 Aa Bb 5k UA Kyiv 1 2+/w\n2 Cc Dd 6k UA Kyiv 0 1-/b\n"
    upload = {"file": SimpleUploadedFile("c.h9", egd), "organiser": world.kyiv.pk,
              "rating_list": world.lists["rivne"].pk, "fmt": "egd"}  # fmt: skip
    response = kyiv.post(reverse("manage_import"), upload)
    assert "rating_list" in response.context["form"].errors
    # open lists take it; the club list takes it once it names Kyiv
    form["rating_lists"] = [world.lists["egf-gor"].pk]
    assert kyiv.post(reverse("manage_tournament_create"), form).status_code == 302
    rivne_list = world.lists["rivne"]
    rivne_list.submitters = "named"
    rivne_list.save()
    rivne_list.submitting_clubs.add(world.kyiv)
    form["rating_lists"] = [rivne_list.pk]
    form["name"] = "Kyiv Cup 2"
    assert kyiv.post(reverse("manage_tournament_create"), form).status_code == 302
    assert Tournament.objects.get(name="Kyiv Cup 2").rating_lists.get() == rivne_list


def test_a_table_one_list_decided_is_no_longer_the_clubs_to_withdraw(
    world, django_capture_on_commit_callbacks
):
    """Issue 17's withdrawal holds until a referee acts; with issue 14 a referee acts for
    his list while the table stays submitted: it then counts in his list and stays there."""
    table = _table(world)
    manage = reverse("manage_tournament", args=[table.pk])
    assert 'id="withdraw-table"' in world.client("rivne-admin").get(manage).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "rivne-referee", table, "approve")
    table.refresh_from_db()
    assert table.status == "submitted" and _rated_in(table) == {"rivne"}
    admin = world.client("rivne-admin")
    assert 'id="withdraw-table"' not in admin.get(manage).content.decode()
    response = admin.post(reverse("manage_withdraw", args=[table.pk]), follow=True)
    assert "can no longer be withdrawn" in response.content.decode()
    table.refresh_from_db()
    assert table.status == "submitted"
    decision = ListTournament.objects.get(tournament=table, rating_list=world.lists["rivne"])
    assert decision.decision == ListTournament.Decision.APPROVED


def test_an_undecided_table_is_still_withdrawn(world):
    table = _table(world)
    world.client("rivne-admin").post(reverse("manage_withdraw", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == "draft"


def test_the_approval_mail_comes_when_the_last_list_decides_and_names_only_approving_lists(
    world, django_capture_on_commit_callbacks
):
    """Issue 17's approval mail under issue 14's per-list decisions."""
    from django.core import mail

    world.users["rivne-admin"].email = "admin@rivne.example"
    world.users["rivne-admin"].save()
    table = _table(world)
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "rivne-referee", table, "approve")
        _decide(world, "ufgo-referee", table, "reject", "Not our time control")
    assert not [m for m in mail.outbox if "approved" in m.body]  # one list still undecided
    with django_capture_on_commit_callbacks(execute=True):
        _decide(world, "egf-gor-referee", table, "approve")
    (message,) = [m for m in mail.outbox if "admin@rivne.example" in m.to and "approved" in m.body]
    assert "Rating changes in Rivne club" in message.body
    assert "Rating changes in EGF GoR" in message.body
    assert "UFGO" not in message.body
