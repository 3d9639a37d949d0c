"""The referee's pages at work: queue, review with warnings and impact, decision, status."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import ListTournament, RatingEntry, RatingList
from tests.factories import MemberFactory, ParticipantFactory, RatingListFactory
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def test_queue_lists_only_his_lists(client, setup):  # noqa: F811
    elsewhere = RatingListFactory(name="Chess Club List", system="orr", game="chess")
    hidden = Tournament.objects.create(
        name="Not his", slug="not-his", start_date=setup.submitted.start_date,
        end_date=setup.submitted.end_date, organiser=setup.other_club, status="submitted",
    )  # fmt: skip
    ListTournament.objects.create(rating_list=elsewhere, tournament=hidden)
    login(client, setup, "referee")
    response = client.get(reverse("referee_queue"))
    assert list(response.context["queue"]) == [setup.submitted]
    client.force_login(setup.user("staff"))
    assert set(client.get(reverse("referee_queue")).context["queue"]) == {setup.submitted, hidden}


def test_review_shows_impact_and_warnings(client, setup):  # noqa: F811
    t = setup.submitted
    t.basic_time_minutes, t.overtime_kind, t.tournament_class = 40, "sudden_death", "A"
    t.save()
    idle = MemberFactory(family_name="Idle")
    ParticipantFactory(tournament=t, member=idle)
    Game.objects.create(tournament=t, round=2, white=setup.players[0], kind="bye_full")
    login(client, setup, "referee")
    response = client.get(reverse("referee_review", args=[t.pk]))
    html = response.content.decode()
    (impact,) = response.context["impacts"]
    assert impact.rating_list == setup.rating_list and not impact.error
    changed = {i.member.pk: i for i in impact.impacts}
    assert set(changed) == {p.pk for p in setup.players}
    assert all(i.rating_from is None and i.rating_to is not None for i in changed.values())
    texts = " ".join(w.text for w in response.context["warnings"])
    assert "1 of 3 games is not rated: 0 forfeits, 1 bye." in texts
    assert "Class A is stronger than this time control allows" in texts
    assert "5 players are new to Ukraine EGF" in texts
    assert "Players without a game" in texts and "Idle" in html
    assert 'id="decision-form"' in html and "impact-row" in html


def test_approve_recomputes_and_the_status_says_rated(
    client,
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    login(client, setup, "referee")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("referee_decide", args=[setup.submitted.pk]),
            {"decision": "approve", "comment": "Fine."},
        )
    assert response.status_code == 302
    setup.submitted.refresh_from_db()
    assert setup.submitted.status == "approved" and setup.submitted.decision_comment == "Fine."
    assert RatingEntry.objects.filter(rating_list=setup.rating_list).count() == 4
    link = ListTournament.objects.get(tournament=setup.submitted)
    assert link.rated_at is not None
    html = client.get(reverse("recompute_status", args=[setup.submitted.pk])).content.decode()
    assert 'data-waiting=""' in html and 'data-rated="1"' in html
    review = client.get(reverse("referee_review", args=[setup.submitted.pk]))
    assert review.context["impacts"] is None and "decision-form" not in review.content.decode()


def test_status_waits_while_the_list_is_pending(client, setup):  # noqa: F811
    setup.submitted.status = "approved"
    setup.submitted.save()
    RatingList.objects.filter(pk=setup.rating_list.pk).update(
        state=RatingList.State.WAITING, pending_from=setup.submitted.end_date
    )
    login(client, setup, "admin")
    html = client.get(reverse("manage_tournament", args=[setup.submitted.pk])).content.decode()
    assert 'data-waiting="1"' in html and "waiting to be rated" in html
    assert 'http-equiv="refresh"' in html  # for browsers without JavaScript
    html = client.get(reverse("recompute_status", args=[setup.submitted.pk])).content.decode()
    assert 'data-waiting="1"' in html and "<html" not in html


def test_reject_needs_a_comment_and_the_club_sees_it(client, setup):  # noqa: F811
    login(client, setup, "referee")
    url = reverse("referee_decide", args=[setup.submitted.pk])
    response = client.post(url, {"decision": "reject", "comment": "  "}, follow=True)
    assert "Say why the table is rejected" in response.content.decode()
    setup.submitted.refresh_from_db()
    assert setup.submitted.status == "submitted"
    client.post(url, {"decision": "reject", "comment": "Round 2 is missing."})
    setup.submitted.refresh_from_db()
    assert setup.submitted.status == "rejected"
    client.force_login(setup.user("admin"))
    html = client.get(reverse("manage_tournament", args=[setup.submitted.pk])).content.decode()
    assert "Round 2 is missing." in html
    listing = client.get(reverse("manage_tournaments")).content.decode()
    assert "Round 2 is missing." in listing


def test_decision_twice_is_refused(client, setup):  # noqa: F811
    login(client, setup, "referee")
    url = reverse("referee_decide", args=[setup.submitted.pk])
    client.post(url, {"decision": "reject", "comment": "No."})
    response = client.post(url, {"decision": "approve"}, follow=True)
    assert "that step is not possible now" in response.content.decode()
    assert client.post(url, {"decision": "maybe"}).status_code == 302


def test_review_warns_about_an_empty_round(client, setup):  # noqa: F811
    t = setup.submitted
    t.rounds = 4
    t.save()
    Game.objects.create(tournament=t, round=3, white=setup.players[0], kind="bye_full")
    login(client, setup, "referee")
    response = client.get(reverse("referee_review", args=[t.pk]))
    texts = [w.text for w in response.context["warnings"]]
    assert (
        "Rounds 2, 4 have no games. Enter their boards (byes count) or lower the number of rounds."
        in texts
    )
    assert "Rounds 2, 4 have no games" in response.content.decode()


def test_warnings_count_in_good_english(client, setup):  # noqa: F811
    t = setup.submitted
    Game.objects.create(tournament=t, round=2, white=setup.players[0], black=setup.players[2],
                        kind="forfeit", result="white")  # fmt: skip
    Game.objects.create(tournament=t, round=2, white=setup.players[1], kind="bye_full")
    Game.objects.create(tournament=t, round=2, white=setup.players[3], kind="bye_half")
    RatingEntry.objects.bulk_create(
        RatingEntry(rating_list=setup.rating_list, member=p, rating=1500) for p in setup.players[1:]
    )
    login(client, setup, "referee")
    texts = [w.text for w in client.get(reverse("referee_review", args=[t.pk])).context["warnings"]]
    assert "3 of 5 games are not rated: 1 forfeit, 2 byes." in texts
    assert "1 player is new to Ukraine EGF:" in texts
