"""Every club-admin and referee view × every role: allowed or refused; CSRF; escaping;
upload bounds; login throttling; the deployment check."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from tests.factories import UserFactory
from tests.web.manage_data import ROLES, Setup, login, setup  # noqa: F401 - fixture
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
OK, REFUSED, TO_LOGIN, HIDDEN = 200, 403, 302, 404

# Who may open each page: a set of roles; everyone else is refused (403), anonymous is
# sent to log in.
CLUB_ADMINS = {"admin", "staff"}
ANY_ADMIN = {"admin", "other_admin", "staff"}
REFEREES = {"referee", "staff"}
# A member's record (issue 14): his history is his club's admins' and staff's to read;
# merging two members is a registrar's (issue 54): referees and club admins open the page
# to ask for one.
MEMBER_CLUB = {"admin", "staff"}
MERGE_ASKERS = {"admin", "other_admin", "referee", "staff"}


def _pages(s: Setup) -> list[tuple[str, str, set[str]]]:
    d, t = s.draft.pk, s.submitted.pk
    return [
        ("manage_tournaments", reverse("manage_tournaments"), ANY_ADMIN),
        ("manage_tournament_create", reverse("manage_tournament_create"), ANY_ADMIN),
        ("manage_time_control", reverse("manage_time_control"), ANY_ADMIN),
        ("manage_import", reverse("manage_import"), ANY_ADMIN),
        ("manage_tournament", reverse("manage_tournament", args=[d]), CLUB_ADMINS),
        ("manage_tournament_edit", reverse("manage_tournament_edit", args=[d]), CLUB_ADMINS),
        ("manage_participants", reverse("manage_participants", args=[d]), CLUB_ADMINS),
        ("manage_round", reverse("manage_round", args=[d, 1]), CLUB_ADMINS),
        ("referee_queue", reverse("referee_queue"), REFEREES),
        ("referee_review", reverse("referee_review", args=[t]), REFEREES),
        ("manage_member_identity",
         reverse("manage_member_identity", args=[d, s.players[1].pk]), CLUB_ADMINS),
        ("member_history", reverse("member_history", args=[s.players[1].pk]), MEMBER_CLUB),
        ("member_merge", reverse("member_merge", args=[s.players[1].pk]), MERGE_ASKERS),
        ("list_baseline", reverse("list_baseline", args=[s.rating_list.slug]), REFEREES),
    ]  # fmt: skip


def test_the_matrix_covers_every_page_for_every_role(setup):  # noqa: F811
    """The figure issue 14 asks for: view × role cases (13 pages × 6 roles), and issue 15's
    baseline page since."""
    assert len(_pages(setup)) * len(ROLES) == 84


def _expected(role: str, allowed: set[str]) -> int:
    if role in allowed:
        return OK
    return TO_LOGIN if role == "anonymous" else REFUSED


@pytest.mark.parametrize("role", ROLES)
def test_every_page_for_every_role(client, setup, role):  # noqa: F811
    login(client, setup, role)
    for name, url, allowed in _pages(setup):
        response = client.get(url)
        expected = _expected(role, allowed)
        assert response.status_code == expected, (name, role, response.status_code)
        if expected == TO_LOGIN:
            assert response["Location"].startswith(LOGIN), name


@pytest.mark.parametrize(
    "role,expected",
    [("anonymous", HIDDEN), ("player", HIDDEN), ("other_admin", HIDDEN), ("admin", OK),
     ("referee", OK), ("staff", OK)],
)  # fmt: skip
def test_status_partial_of_a_draft_is_private(client, setup, role, expected):  # noqa: F811
    login(client, setup, role)
    url = reverse("recompute_status", args=[setup.draft.pk])
    assert client.get(url).status_code == expected
    # a submitted table is public, and so is its status
    assert client.get(reverse("recompute_status", args=[setup.submitted.pk])).status_code == OK


@pytest.mark.parametrize("status", ["draft", "submitted", "approved", "rejected"])
def test_status_partial_is_visible_exactly_when_the_public_page_is(client, setup, status):  # noqa: F811
    Tournament.objects.filter(pk=setup.draft.pk).update(status=status)
    public = client.get(reverse("tournament_detail", args=[setup.draft.pk])).status_code
    partial = client.get(reverse("recompute_status", args=[setup.draft.pk])).status_code
    assert public == partial == (HIDDEN if status == "draft" else OK)


def _posts(s: Setup) -> list[tuple[str, str, dict, set[str]]]:
    d, t = s.draft.pk, s.submitted.pk
    return [
        ("submit", reverse("manage_submit", args=[d]), {}, CLUB_ADMINS),
        ("players", reverse("manage_participants", args=[d]),
         {"action": "remove", "participant": s.draft.participants.first().pk}, CLUB_ADMINS),
        ("round", reverse("manage_round", args=[d, 2]), {"board-TOTAL_FORMS": "0",
         "board-INITIAL_FORMS": "0"}, CLUB_ADMINS),
        ("edit", reverse("manage_tournament_edit", args=[d]), {"name": "x"}, CLUB_ADMINS),
        ("decide", reverse("referee_decide", args=[t]), {"decision": "reject",
         "comment": "no"}, REFEREES),
        ("delete", reverse("manage_delete", args=[d]), {}, CLUB_ADMINS),
        ("identity", reverse("manage_member_identity", args=[d, s.players[1].pk]),
         {"fide_id": "999", "grade": "5k"}, CLUB_ADMINS),
        ("merge", reverse("member_merge", args=[s.players[2].pk]),
         {"other": s.players[3].pk, "keep": s.players[2].pk, "confirm": "1"}, REFEREES),
    ]  # fmt: skip


@pytest.mark.parametrize("role", ["anonymous", "player", "other_admin", "referee"])
def test_refused_posts_change_nothing(client, setup, role):  # noqa: F811
    login(client, setup, role)
    for name, url, data, allowed in _posts(setup):
        if role in allowed:
            continue
        response = client.post(url, data)
        assert response.status_code == _expected(role, allowed), (name, role)
    setup.draft.refresh_from_db()
    setup.submitted.refresh_from_db()
    assert setup.draft.status == Tournament.Status.DRAFT
    assert setup.draft.participants.count() == 4 and setup.draft.games.count() == 2
    assert setup.submitted.status == Tournament.Status.SUBMITTED
    assert not setup.draft.proposals.exists()
    assert Member.objects.filter(pk=setup.players[3].pk).exists()  # not merged
    assert Member.objects.get(pk=setup.players[1].pk).fide_id == ""


def test_club_admin_of_this_club_may_post(client, setup):  # noqa: F811
    login(client, setup, "admin")
    response = client.post(reverse("manage_submit", args=[setup.draft.pk]))
    assert response.status_code == 302
    setup.draft.refresh_from_db()
    assert setup.draft.status == Tournament.Status.SUBMITTED


def test_referee_cannot_edit_and_admin_cannot_decide(client, setup):  # noqa: F811
    login(client, setup, "admin")
    url = reverse("referee_decide", args=[setup.submitted.pk])
    assert client.post(url, {"decision": "approve"}).status_code == REFUSED
    client.logout()
    login(client, setup, "referee")
    assert client.post(reverse("manage_submit", args=[setup.draft.pk])).status_code == REFUSED


def test_get_is_not_allowed_on_actions(client, setup):  # noqa: F811
    login(client, setup, "admin")
    assert client.get(reverse("manage_submit", args=[setup.draft.pk])).status_code == 405


def test_csrf_enforced_on_every_form(setup):  # noqa: F811
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.user("admin"))
    for url in (
        reverse("manage_submit", args=[setup.draft.pk]),
        reverse("manage_participants", args=[setup.draft.pk]),
        reverse("manage_tournament_create"),
        reverse("manage_import"),
    ):
        assert client.post(url, {"action": "remove"}).status_code == 403, url
    referee = Client(enforce_csrf_checks=True)
    referee.force_login(setup.user("referee"))
    url = reverse("referee_decide", args=[setup.submitted.pk])
    assert referee.post(url, {"decision": "approve"}).status_code == 403
    setup.draft.refresh_from_db()
    setup.submitted.refresh_from_db()
    assert setup.draft.status == "draft" and setup.submitted.status == "submitted"
    # and the pages carry the token
    html = client.get(reverse("manage_tournament", args=[setup.draft.pk])).content.decode()
    assert "csrfmiddlewaretoken" in html


EVIL = '<script>alert("x")</script>'


def test_names_and_comments_are_escaped(client, setup):  # noqa: F811
    player = setup.players[1]
    player.family_name = EVIL
    player.save()
    setup.draft.status = Tournament.Status.REJECTED
    setup.draft.decision_comment = f"Fix {EVIL} please"
    setup.draft.save()
    login(client, setup, "admin")
    pages = [
        reverse("manage_tournament", args=[setup.draft.pk]),
        reverse("manage_participants", args=[setup.draft.pk]),
        reverse("manage_round", args=[setup.draft.pk, 1]),
        reverse("manage_tournaments"),
    ]
    client.force_login(setup.user("staff"))
    pages.append(reverse("referee_review", args=[setup.submitted.pk]))
    for url in pages:
        html = client.get(url).content.decode()
        assert EVIL not in html, url
        assert "&lt;script&gt;" in html, url


def test_upload_refuses_big_and_foreign_files(client, setup, settings):  # noqa: F811
    login(client, setup, "admin")
    settings.RESULTS_UPLOAD_MAX_BYTES = 100
    url = reverse("manage_import")
    big = SimpleUploadedFile("cup.h9", b"x" * 101)
    response = client.post(url, {"file": big, "organiser": setup.club.pk})
    assert response.status_code == 200 and "larger than" in response.content.decode()
    exe = SimpleUploadedFile("cup.exe", b"MZ")
    response = client.post(url, {"file": exe, "organiser": setup.club.pk})
    assert "Upload an .h9" in response.content.decode()
    assert Tournament.objects.count() == 2
    # a club he does not administer is not a choice
    ok = SimpleUploadedFile("cup.csv", b"x")
    response = client.post(url, {"file": ok, "organiser": setup.other_club.pk})
    assert "organiser" in response.context["form"].errors


def test_sixth_bad_password_is_refused_even_when_right(db, settings):
    settings.AXES_ENABLED = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="victim")  # password "correct-horse-battery"
    client = Client(REMOTE_ADDR="10.1.2.3")
    for _ in range(5):
        response = client.post(LOGIN, {"username": "victim", "password": "wrong"})
        assert "_auth_user_id" not in client.session
    response = client.post(LOGIN, {"username": "victim", "password": "correct-horse-battery"})
    assert response.status_code in (403, 429)
    assert "_auth_user_id" not in client.session
    # another user from the same address is not locked out
    UserFactory(username="bystander")
    response = client.post(LOGIN, {"username": "bystander", "password": "correct-horse-battery"})
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_lockout_page_is_in_the_site_layout_and_translated(db, settings):
    settings.AXES_ENABLED = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="victim")
    client = Client(REMOTE_ADDR="10.1.2.4")
    for _ in range(6):
        response = client.post(LOGIN, {"username": "victim", "password": "wrong"})
    assert response.status_code == 429
    html = response.content.decode()
    assert 'id="locked-out"' in html and "<nav" in html  # the site's layout
    assert "failed 5 times in a row" in html and "Try again in 15 minutes." in html
    assert reverse("password_reset") in html
    client.cookies["django_language"] = "uk"
    response = client.post(LOGIN, {"username": "victim", "password": "wrong"})
    html = response.content.decode()
    assert response.status_code == 429 and 'lang="uk"' in html
    assert "Забагато невдалих спроб входу" in html and "через 15 хвилин" in html


def test_check_deploy_is_clean_with_production_settings():
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_PRODUCTION": "true",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "example.org",
        "DJANGO_DEBUG": "false",
    }
    for leaked in (
        "DJANGO_SECURE",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    ):  # the browser tests set the latter
        env.pop(leaked, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
