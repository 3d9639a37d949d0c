"""Issue 17 in Chromium: the trail through a resubmission (in Ukrainian, ending with the
approval mail), the ways back, the club's roster, and the form that follows the game."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from clubsite.models import Profile
from ratings.models import ListTournament
from tests.browser.test_story import PASSWORD, log_in, log_out
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tests.web.manage_data import FAST_HASHERS
from tournaments.models import Tournament
from tournaments.services import Pairing, round_replace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
assert PASSWORD  # the users below are made with the password log_in types


def _scene(status: str = "draft"):  # noqa: ANN202
    club = ClubFactory(name="Рівненський клуб го", country="UA")
    admin = UserFactory(username="club-admin", email="admin@example.org")
    referee = UserFactory(username="list-referee", email="referee@example.org")
    club.admins.add(admin)
    rating_list = RatingListFactory(name="Україна EGF", slug="ua-egf", system="egf")
    rating_list.referees.add(referee)
    players = [
        MemberFactory(club=club, family_name=name, given_name="Іван", grade=grade)
        for name, grade in (("Коваль", "5k"), ("Шевчук", "6k"), ("Бондар", "7k"), ("Мельник", "8k"))
    ]
    table = TournamentFactory(
        name="Кубок клубу", organiser=club, rounds=1, status="draft",
        start_date=dt.date(2024, 5, 4), end_date=dt.date(2024, 5, 4), basic_time_minutes=60,
    )  # fmt: skip
    ListTournament.objects.create(rating_list=rating_list, tournament=table)
    for member in players:
        ParticipantFactory(tournament=table, member=member)
    round_replace(
        tournament=table, round_number=1, by=None,
        pairings=[Pairing(players[0], players[1], "white"), Pairing(players[2], players[3], "white")],
    )  # fmt: skip
    Tournament.objects.filter(pk=table.pk).update(status=status)
    return club, admin, referee, players, table


def _as(page, base: str, username: str, next_url: str) -> None:  # noqa: ANN001
    """Log in afresh, reading the site in Ukrainian (the login button has no English name
    to find, so it is found by its type)."""
    page.context.clear_cookies()
    page.context.add_cookies([{"name": "django_language", "value": "uk", "url": base}])
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url, f"{username} could not log in"


def test_a_resubmission_in_ukrainian_ends_with_the_approval_mail(
    live_server, browser_page, screenshot, audit, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    _club, admin, _referee, players, table = _scene()
    Profile.objects.create(user=admin, language="uk")
    base, page = live_server.url, browser_page
    # the admin submits
    _as(page, base, "club-admin", f"/manage/{table.pk}/")
    audit()  # the overview, in Ukrainian
    page.click("#submit-table")
    page.wait_for_load_state()
    assert page.locator(".alert-warning").first.is_visible()
    # the referee rejects with a comment
    _as(page, base, "list-referee", f"/referee/{table.pk}/")
    audit()
    page.fill("#decision-form textarea", "Тур 1: на другій дошці виграли чорні.")
    page.click("#decision-form button[value=reject]")
    page.wait_for_load_state()
    # the admin reads it, reopens, fixes the result and replies
    _as(page, base, "club-admin", f"/manage/{table.pk}/")
    assert "на другій дошці виграли чорні" in page.locator("#conversation").inner_text()
    page.click("#reopen-table")
    page.wait_for_load_state()
    page.goto(f"{base}/manage/{table.pk}/rounds/1/")
    audit()
    page.select_option("#id_board-1-result", value="black")
    page.click("#round-form button[name=save]")
    page.wait_for_load_state()
    page.goto(f"{base}/manage/{table.pk}/")
    page.fill("#submit-reply", "Виправили другу дошку, дякуємо.")
    page.click("#submit-table")
    page.wait_for_load_state()
    # the referee sees the diff and the reply, and approves
    _as(page, base, "list-referee", f"/referee/{table.pk}/")
    diff = page.locator("#resubmission-diff").inner_text()
    assert "Подано знову" in diff and "Тур 1" in diff and players[2].full_name in diff
    conversation = page.locator("#conversation").inner_text()
    assert "Виправили другу дошку, дякуємо." in conversation
    audit()
    screenshot("issue17-referee-diff-uk")
    page.click("#decision-form button[value=approve]")
    page.wait_for_load_state()
    table.refresh_from_db()
    assert table.status == "approved"
    # the admin finds the approval mail, in Ukrainian, with the rating changes
    approvals = [
        m for m in mail.outbox if m.to == ["admin@example.org"] and "Затверджено" in m.subject
    ]
    assert len(approvals) == 1, [m.subject for m in mail.outbox]
    assert "Зміни рейтингу в листі Україна EGF:" in approvals[0].body
    assert "→" in approvals[0].body


def test_withdraw_and_the_referees_reopen(live_server, browser_page, audit, settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    _club, _admin, _referee, _players, table = _scene(status="submitted")
    base, page = live_server.url, browser_page
    log_in(page, base, "club-admin", f"/manage/{table.pk}/")
    audit()
    page.click("#withdraw-table")
    page.wait_for_load_state()
    table.refresh_from_db()
    assert table.status == "draft"
    assert page.locator("#submit-table").is_visible()
    Tournament.objects.filter(pk=table.pk).update(status="approved")
    page.goto(f"{base}/manage/{table.pk}/")
    assert (
        "Only a referee of its rating lists can reopen" in page.locator("#who-reopens").inner_text()
    )
    log_out(page)
    log_in(page, base, "list-referee", f"/referee/{table.pk}/")
    audit()
    page.fill("#reopen-reason", "The date is wrong.")
    page.click("#reopen-approved")
    page.wait_for_load_state()
    table.refresh_from_db()
    assert table.status == "draft"
    assert "The date is wrong." in page.locator("#conversation").inner_text()
    audit()


def test_the_admin_ticks_players_from_the_clubs_roster(live_server, browser_page, audit, settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    club, _admin, _referee, _players, table = _scene()
    newcomer = MemberFactory(club=club, family_name="Ткаченко", given_name="Олена", grade="3k")
    MemberFactory(club=club, family_name="Гончар", given_name="Петро")
    base, page = live_server.url, browser_page
    log_in(page, base, "club-admin", f"/manage/{table.pk}/players/")
    page.fill("#roster-filter", "Ткач")
    page.locator("#roster-card form[role=search] button").click()
    page.wait_for_load_state()
    roster = page.locator("#roster-members").inner_text()
    assert "Ткаченко" in roster and "Гончар" not in roster
    audit()
    page.check(f"#roster-{newcomer.pk}")
    page.locator("#roster-form button[type=submit]").click()
    page.wait_for_load_state()
    assert "Ткаченко" in page.locator("#participants").inner_text()


def test_the_tournament_form_follows_the_game(live_server, browser_page, audit, settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    _scene()
    RatingListFactory(name="Chess list", slug="chess-list", system="orr", game="chess")
    base, page = live_server.url, browser_page
    log_in(page, base, "club-admin", "/manage/new/")
    assert page.input_value("#id_country") == "UA"
    audit()
    assert page.locator("#id_board_size").is_visible() and page.locator("#id_komi").is_visible()
    page.select_option("#id_game", value="chess")
    assert not page.locator("#id_board_size").is_visible()
    assert not page.locator("#id_komi").is_visible()
    assert not page.locator("#id_handicap_rule").is_visible()
    assert page.locator("#id_overtime_kind option[value=byoyomi]").is_disabled()
    assert page.input_value("#id_overtime_kind") == "sudden_death"
    go_list = page.locator("input[name=rating_lists][data-game=go]")
    chess_list = page.locator("input[name=rating_lists][data-game=chess]")
    assert not go_list.is_visible() and chess_list.is_visible()
    page.select_option("#id_game", value="go")
    assert page.locator("#id_board_size").is_visible() and go_list.is_visible()
