"""The workflow's e-mail (issue 17, item 8): who gets what, after the commit, in his
language, and only what he did not switch off. Django's locmem outbox; the real worker
path is in tests/pipeline/test_worker_mail.py."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from clubsite.models import Profile
from ratings import mail as mail_service
from ratings.submissions.services import tournament_approve_and_rate, tournament_reopen_and_unrate
from tests.web.manage_data import login, setup  # noqa: F401 - fixture
from tournaments import services
from tournaments.models import TournamentLog

pytestmark = pytest.mark.django_db


def _to(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


def test_submission_mails_the_lists_referees_after_the_commit(
    client,
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    login(client, setup, "admin")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("manage_submit", args=[setup.draft.pk]))
    assert response.status_code == 302
    assert mail.outbox == []  # nothing inside the request's transaction
    for callback in callbacks:
        callback()
    (message,) = mail.outbox
    assert message.to == ["referee@example.org"]
    assert setup.draft.name in message.subject and setup.club.name in message.body
    assert f"/referee/{setup.draft.pk}/" in message.body


def test_rejection_mails_the_admins_the_comment_in_their_language(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    Profile.objects.create(user=setup.user("admin"), language="uk")
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_reject(
            tournament=setup.submitted, by=setup.user("referee"), comment="Round 2 is missing."
        )
    (message,) = mail.outbox
    assert message.to == ["admin@example.org"]
    assert message.subject.startswith("Відхилено")
    assert "Round 2 is missing." in message.body
    assert "Коментар судді" in message.body


def test_approval_mails_the_rating_changes_to_admins_and_to_players_who_asked(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    player = setup.user("player")  # linked to setup.players[0]
    Profile.objects.create(user=player, mail_rating=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve_and_rate(
            tournament=setup.submitted, by=setup.user("referee"), comment="Fine."
        )
    (admin_mail,) = _to("admin@example.org")
    assert admin_mail.subject == f"Approved: {setup.submitted.name}"
    assert "Rating changes in Ukraine EGF:" in admin_mail.body
    for member in setup.players:
        assert member.full_name in admin_mail.body
    assert "→" in admin_mail.body and "Fine." in admin_mail.body
    (player_mail,) = _to("player@example.org")
    assert "Ukraine EGF:" in player_mail.body and "→" in player_mail.body
    assert f"/players/{setup.players[0].pk}/" in player_mail.body
    assert _to("referee@example.org") == []  # not about his own step
    assert len(mail.outbox) == 2


def test_a_player_gets_no_rating_mail_unless_he_asked(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve_and_rate(tournament=setup.submitted, by=setup.user("referee"))
    assert _to("player@example.org") == []
    assert len(_to("admin@example.org")) == 1


def test_each_kind_can_be_switched_off(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    Profile.objects.create(user=setup.user("admin"), mail_approved=False, mail_reopened=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_approve_and_rate(tournament=setup.submitted, by=setup.user("referee"))
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen_and_unrate(
            tournament=setup.submitted, by=setup.user("referee"), comment="A result is wrong."
        )
    (message,) = mail.outbox
    assert message.subject.startswith("Reopened") and "A result is wrong." in message.body


def test_a_refused_step_sends_nothing(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.WorkflowError):
        services.tournament_reject(tournament=setup.draft, by=setup.user("referee"), comment="x")
    assert mail.outbox == []
    assert not TournamentLog.objects.filter(action="rejected").exists()


def test_my_profile_saves_the_mail_settings(client, setup):  # noqa: F811
    login(client, setup, "player")
    page = client.get(reverse("my_profile"))
    assert 'name="mail-mail_rating"' in page.content.decode()
    response = client.post(
        reverse("my_profile"),
        {"mail_settings": "1", "mail-language": "ru", "mail-mail_rating": "on"},
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=setup.user("player"))
    assert profile.language == "ru" and profile.mail_rating
    assert not profile.mail_approved  # unticked
    bad = client.post(reverse("my_profile"), {"mail_settings": "1", "mail-language": "xx"})
    assert bad.status_code == 200 and bad.context["mail_form"].errors


def test_an_approval_nobody_is_to_hear_of_neither_waits_for_nor_reads_the_ratings(
    setup,  # noqa: F811
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):
    # Approved, its recompute not run yet: the lists are still pending.
    with django_capture_on_commit_callbacks(execute=False):
        tournament_approve_and_rate(tournament=setup.submitted, by=setup.user("referee"))
    log = TournamentLog.objects.get(tournament=setup.submitted, action="approved")
    with pytest.raises(mail_service.RatingsPending):  # the admins want it: it waits
        mail_service.tournament_event_mail_send(log_id=log.pk)
    Profile.objects.create(user=setup.user("admin"), mail_approved=False)
    # Nobody wants it (the player never asked): nothing to wait for, no rating read.
    with django_assert_max_num_queries(6):
        assert mail_service.tournament_event_mail_send(log_id=log.pk) == 0
    assert mail.outbox == []
