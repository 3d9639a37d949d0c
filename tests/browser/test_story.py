"""The whole story in Chromium: a club admin enters a tournament, a referee approves it
after looking at the impact, the player sees his new rating; and a rejection goes back."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from ratings.models import ListTournament
from ratings.submissions.services import tournament_approve_and_rate as tournament_approve
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tests.web.manage_data import FAST_HASHERS, build
from tournaments.services import Pairing, round_replace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


def log_in(page, base: str, username: str, next_url: str = "/") -> None:  # noqa: ANN001
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form").get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url, f"{username} could not log in"


def log_out(page) -> None:  # noqa: ANN001
    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()


def board(
    page,
    n: int,
    white: str,
    black: str = "",
    result: str = "",
    kind: str = "played",
    handicap: int = 0,
) -> None:  # noqa: ANN001
    prefix = f"#id_board-{n}-"
    page.select_option(prefix + "white", label=white)
    page.select_option(prefix + "kind", value=kind)
    page.select_option(prefix + "black", label=black) if black else page.select_option(
        prefix + "black", value=""
    )
    page.select_option(prefix + "result", value=result)
    page.fill(prefix + "handicap", str(handicap))


def earlier_rated_tournament(club, rating_list, referee, ivan, day: dt.date) -> None:  # noqa: ANN001
    """Ivan's first rated tournament, approved (and recomputed) through the services."""
    others = [
        MemberFactory(family_name="Hnatyuk", given_name="Roman", grade="2k", club=club),
        MemberFactory(family_name="Lysenko", given_name="Maria", grade="4k", club=club),
    ]
    tournament = TournamentFactory(name="Winter Club Cup", organiser=club, start_date=day,
                                   end_date=day, rounds=2, status="draft")  # fmt: skip
    ListTournament.objects.create(rating_list=rating_list, tournament=tournament)
    for member in (ivan, *others):
        ParticipantFactory(tournament=tournament, member=member)
    round_replace(tournament=tournament, round_number=1, by=None,
                  pairings=[Pairing(ivan, others[1], "white"), Pairing(others[0], None, "",
                                                                      "bye_full")])  # fmt: skip
    round_replace(tournament=tournament, round_number=2, by=None,
                  pairings=[Pairing(others[0], ivan, "black")])  # fmt: skip
    tournament.status = "submitted"
    tournament.save()
    tournament_approve(tournament=tournament, by=referee)


def test_admin_enters_referee_approves_player_sees_rating(
    live_server, browser_page, screenshot, audit, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    club = ClubFactory(name="Rivne Go Club", slug="rivne")
    ClubFactory(name="Kyiv Go Academy", slug="kyiv")
    admin = UserFactory(username="olena")
    club.admins.add(admin)
    referee = UserFactory(username="taras")
    rating_list = RatingListFactory(name="Ukraine EGF", slug="ua-egf", system="egf")
    rating_list.referees.add(referee)
    ivan_user = UserFactory(username="ivan")
    ivan = MemberFactory(family_name="Kovalenko", given_name="Ivan", grade="3k", club=club,
                         user=ivan_user)  # fmt: skip
    today = dt.date.today()
    earlier_rated_tournament(club, rating_list, referee, ivan, today - dt.timedelta(days=40))
    start, end = today - dt.timedelta(days=4), today - dt.timedelta(days=3)
    base, page = live_server.url, browser_page

    # --- the club admin: a new tournament with its time control and list
    log_in(page, base, "olena", "/manage/")
    assert page.locator("h1").inner_text() == "My tournaments"
    page.get_by_role("link", name="New tournament").click()
    page.fill("#id_name", "Rivne Spring Cup")
    page.fill("#id_start_date", start.isoformat())
    page.fill("#id_end_date", end.isoformat())
    page.fill("#id_rounds", "2")
    page.fill("#id_city", "Rivne")
    page.fill("#id_country", "UA")
    advice = page.locator("#time-control-advice")
    page.fill("#id_basic_time_minutes", "20")
    page.select_option("#id_overtime_kind", "sudden_death")
    page.wait_for_function(
        "() => document.querySelector('[data-egf-class]').dataset.egfClass === ''"
    )
    assert "under 45 minutes, UFGO does not rate it" in advice.inner_text()
    page.fill("#id_basic_time_minutes", "60")
    page.select_option("#id_overtime_kind", "byoyomi")
    page.wait_for_function(
        "() => document.querySelector('[data-egf-class]').dataset.egfClass === 'A'"
    )
    assert "allow class A" in advice.inner_text()
    page.get_by_label("Ukraine EGF").check()
    audit()
    screenshot("manage-tournament-form")
    page.get_by_role("button", name="Create and add players").click()
    page.wait_for_url("**/players/")

    # --- players: one found by search, three created inline
    page.fill("#member-search", "kovalenko")
    page.get_by_role("button", name="Search").click()
    page.locator("#search-results").get_by_role("button", name="Add").click()
    page.wait_for_load_state()
    for family, given, grade, club_name in (
        ("Shevchenko", "Olena", "1k", "Rivne Go Club"),  # issue 14: his own club only
        ("Bondar", "Taras", "10k", "Rivne Go Club"),
        ("Melnyk", "Petro", "5k", "Rivne Go Club"),
    ):
        form = page.locator("#member-create")
        form.locator("#id_family_name").fill(family)
        form.locator("#id_given_name").fill(given)
        form.locator("#id_birth_date").fill("2001-03-04")
        form.locator("#id_grade").select_option(grade)
        form.locator("#id_club").select_option(label=club_name)
        form.get_by_role("button", name="Create and add").click()
        page.wait_for_load_state()
    assert page.locator("#participants tbody tr").count() == 4
    audit()
    screenshot("manage-players")

    # --- round 1, then round 2 with a mistake shown next to the field
    page.get_by_role("link", name=re.compile("Enter results")).click()
    board(page, 0, "Ivan Kovalenko", "Olena Shevchenko", "black")
    board(page, 1, "Petro Melnyk", "Taras Bondar", "white", handicap=4)
    page.get_by_role("button", name="Save and go to the next round").click()
    page.wait_for_url("**/rounds/2/")
    board(page, 0, "Ivan Kovalenko", "Petro Melnyk", "white")
    board(page, 1, "Olena Shevchenko", "Ivan Kovalenko", "white")
    page.get_by_role("button", name="Save round 2").click()
    page.wait_for_load_state()
    error = page.locator("tr[data-board='2'] .invalid-feedback")
    assert "already plays on board 1" in error.inner_text()
    audit()
    screenshot("manage-round-error")
    board(page, 1, "Olena Shevchenko", "Taras Bondar", "white", handicap=5)
    page.get_by_role("button", name="Save round 2").click()
    page.wait_for_load_state()
    assert page.locator(".alert-success").inner_text().startswith("Round 2 is saved")
    rows = page.locator("table.crosstable tbody tr")
    assert rows.count() == 4
    assert rows.first.locator("td").nth(1).inner_text() == "Olena Shevchenko"  # 2 points
    audit()
    screenshot("manage-round")

    page.get_by_role("link", name="Overview").click()
    page.get_by_role("button", name="Submit").click()
    page.wait_for_load_state()
    assert page.locator("[data-status]").first.get_attribute("data-status") == "submitted"
    audit()
    screenshot("manage-submitted")
    log_out(page)

    # --- the referee: queue, impact preview, approval, status until rated
    log_in(page, base, "taras", "/")
    page.get_by_role("link", name="Referee queue").click()
    page.locator("#queue").get_by_role("link", name="Review").click()
    impact = page.locator("#impact-preview .impact-row")
    assert impact.count() == 4  # Ivan's rating moves; three newcomers enter
    ivan_row = impact.filter(has_text="Ivan Kovalenko")
    assert "new" not in ivan_row.locator("td").nth(1).inner_text()
    assert "players are new to Ukraine EGF" in page.locator("#warnings").inner_text()
    audit()
    screenshot("referee-review")
    page.fill("#id_comment", "Welcome to the list, Rivne!")
    page.get_by_role("button", name="Approve").click()
    page.wait_for_load_state()
    page.locator("#recompute-status [data-rated]").wait_for(timeout=20_000)
    audit()
    screenshot("referee-approved")
    log_out(page)

    # --- the player: his new rating, chart and breakdown; the list's ranking
    log_in(page, base, "ivan", "/me/")
    page.get_by_role("link", name="My ratings and tournaments").click()
    page.wait_for_url("**/players/*/")
    assert "Rivne Spring Cup" in page.content()
    page.locator("#rating-chart").wait_for()
    page.wait_for_function("() => window.Chart && Chart.getChart('rating-chart')")
    page.locator("a.breakdown-toggle").first.click()
    breakdown = page.locator("tr.breakdown-row.open")
    assert breakdown.count() == 1 and "Olena Shevchenko" in breakdown.inner_text()
    audit()
    screenshot("story-player")
    page.goto(f"{base}/ratings/ua-egf/")
    ranking = page.locator("table.rating-table tbody tr")
    assert ranking.count() == 6
    assert "Olena Shevchenko" in ranking.first.inner_text()
    audit()
    screenshot("story-list")
    page.get_by_role("button", name="UK").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "uk"
    assert "Рейтинг-листи" in page.locator("nav").first.inner_text()
    audit()
    screenshot("story-list-uk")


def test_rejected_table_comes_back_with_the_comment(
    live_server, browser_page, screenshot, audit, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    setup = build()
    tournament = setup.submitted
    tournament.name = "Autumn Blitz"
    tournament.end_date = tournament.start_date = dt.date(2024, 10, 5)
    tournament.save()
    base, page = live_server.url, browser_page
    log_in(page, base, "referee", f"/referee/{tournament.pk}/")
    page.fill("#id_comment", "Round 2 is missing <b>two</b> games.")
    page.get_by_role("button", name="Reject").click()
    page.wait_for_load_state()
    assert "Round 2 is missing <b>two</b> games." in page.locator("#decision").inner_text()
    log_out(page)

    log_in(page, base, "admin", "/manage/")
    assert "Round 2 is missing <b>two</b> games." in page.locator("main").inner_text()
    page.get_by_role("link", name="Autumn Blitz").click()
    decision = page.locator("#decision")
    assert "The referee rejected this table" in decision.inner_text()
    assert "Round 2 is missing <b>two</b> games." in decision.inner_text()
    audit()
    screenshot("manage-rejected")
    page.get_by_role("button", name="UK").click()
    page.wait_for_load_state()
    assert "Арбітр відхилив цю таблицю" in page.locator("#decision").inner_text()
    audit()
    screenshot("manage-rejected-uk")
    page.get_by_role("button", name="Відкрити для виправлення").click()
    page.wait_for_load_state()
    assert page.locator("[data-status]").first.get_attribute("data-status") == "draft"
