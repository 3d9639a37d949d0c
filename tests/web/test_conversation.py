"""A trail through every resubmission and a way back (issue 17, items 1 and 2)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import RatingList
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tests.web.test_manage_views import _boards
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db


def _status(tournament: Tournament) -> str:
    tournament.refresh_from_db()
    return tournament.status


def test_reject_reply_fix_and_the_referee_sees_the_diff(client, setup):  # noqa: F811
    table = setup.draft
    a, b, c, d = (p.pk for p in setup.players)
    login(client, setup, "admin")
    assert client.post(reverse("manage_submit", args=[table.pk])).status_code == 302
    assert _status(table) == "submitted"
    client.force_login(setup.user("referee"))
    review = client.get(reverse("referee_review", args=[table.pk]))
    assert review.context["diff"] is None  # a first submission
    client.post(
        reverse("referee_decide", args=[table.pk]),
        {"decision": "reject", "comment": "Round 1: Board 2 was a win for Black."},
    )
    assert _status(table) == "rejected"
    client.force_login(setup.user("admin"))
    page = client.get(reverse("manage_tournament", args=[table.pk])).content.decode()
    assert "Round 1: Board 2 was a win for Black." in page and 'id="conversation"' in page
    client.post(reverse("manage_reopen", args=[table.pk]))
    boards = _boards(
        {"white": a, "black": b, "result": "white"},
        {"white": c, "black": d, "result": "black"},
    )
    boards["board-INITIAL_FORMS"] = "2"  # as the page sends them: both boards were entered
    client.post(reverse("manage_round", args=[table.pk, 1]), boards)
    page = client.get(reverse("manage_tournament", args=[table.pk])).content.decode()
    assert 'id="submit-reply"' in page
    client.post(reverse("manage_submit", args=[table.pk]), {"reply": "Fixed board 2, thank you."})
    assert _status(table) == "submitted"
    client.force_login(setup.user("referee"))
    review = client.get(reverse("referee_review", args=[table.pk]))
    diff = review.context["diff"]
    assert diff is not None and not diff.games_added and not diff.games_removed
    (changed,) = diff.results_changed
    # issue 55: a game in words, its colours and its winner
    assert changed.round == 1 and changed.before.endswith(" won") and changed.after.endswith(" won")
    assert changed.before != changed.after
    texts = [m.text for m in review.context["conversation"]]
    assert texts == ["Round 1: Board 2 was a win for Black.", "Fixed board 2, thank you."]
    sides = [m.side for m in review.context["conversation"]]
    assert sides == ["referee", "club"]
    html = review.content.decode()
    assert 'id="resubmission-diff"' in html and "Fixed board 2, thank you." in html


def test_the_admin_withdraws_until_a_referee_acts(client, setup):  # noqa: F811
    table = setup.submitted
    login(client, setup, "referee")
    client.post(reverse("manage_withdraw", args=[table.pk]))
    assert _status(table) == "submitted"  # not the referee's to withdraw
    login(client, setup, "admin")
    page = client.get(reverse("manage_tournament", args=[table.pk])).content.decode()
    assert 'id="withdraw-table"' in page
    client.post(reverse("manage_withdraw", args=[table.pk]))
    assert _status(table) == "draft"
    assert table.log.filter(action=TournamentLog.Action.WITHDRAWN).exists()
    Tournament.objects.filter(pk=table.pk).update(status="approved")
    response = client.post(reverse("manage_withdraw", args=[table.pk]), follow=True)
    assert _status(table) == "approved"
    assert "can be withdrawn" in response.content.decode()


def test_a_referee_reopens_an_approved_table_with_a_reason(
    client,
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    table = setup.submitted
    login(client, setup, "referee")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    assert _status(table) == "approved"
    page = client.get(reverse("referee_review", args=[table.pk])).content.decode()
    assert 'id="reopen-approved"' in page
    client.post(reverse("referee_reopen", args=[table.pk]), {"reason": "  "})
    assert _status(table) == "approved"  # a reason is needed
    login(client, setup, "admin")
    admin_page = client.get(reverse("manage_tournament", args=[table.pk])).content.decode()
    assert 'id="who-reopens"' in admin_page
    assert (
        client.post(reverse("referee_reopen", args=[table.pk]), {"reason": "mine"}).status_code
        == 403
    )
    login(client, setup, "referee")
    client.post(reverse("referee_reopen", args=[table.pk]), {"reason": "Wrong date."})
    assert _status(table) == "draft"
    assert RatingList.objects.get(pk=setup.rating_list.pk).pending_version >= 2
    log = table.log.filter(action="reopened").get()
    assert log.comment == "Wrong date."


def test_notes_from_either_side_but_not_strangers(client, setup):  # noqa: F811
    table = setup.submitted
    url = reverse("table_note", args=[table.pk])
    login(client, setup, "admin")
    client.post(url, {"text": "Round 3 was cancelled."})
    login(client, setup, "referee")
    client.post(url, {"text": "Noted.", "from_review": "1"})
    login(client, setup, "other_admin")
    assert client.post(url, {"text": "spam"}).status_code == 403
    notes = list(table.log.filter(action="note").values_list("comment", flat=True))
    assert notes == ["Round 3 was cancelled.", "Noted."]
