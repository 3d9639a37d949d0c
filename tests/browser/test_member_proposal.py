"""Issues 14 and 54 in Chromium: Kyiv's admin (a rival club) proposes a FIDE ID for a
Rivne member who played in his table; the list's referee sees it as pending and approves
the table, which does not change who Oleh is; the proposal waits in the inbox of Rivne's
admin, who accepts it; the member's history shows who proposed and who accepted."""

from __future__ import annotations

import datetime as dt

import pytest

from clubsite.models import Member
from ratings.models import ListTournament
from tests.browser.test_story import log_in, log_out
from tests.factories import (
    ClubFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tests.web.manage_data import FAST_HASHERS
from tournaments.services import Pairing, round_replace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rival_clubs_proposal_waits_for_the_members_club_admin_who_accepts_it(
    live_server, browser_page, screenshot, audit, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    kyiv = ClubFactory(name="Kyiv Go Club", slug="kyiv-go")
    rivne = ClubFactory(name="Rivne Go Club", slug="rivne-go")
    kyiv.admins.add(UserFactory(username="kyiv-admin"))
    rivne.admins.add(UserFactory(username="rivne-admin"))
    rating_list = RatingListFactory(name="EGF GoR", slug="egf-gor", system="egf")
    rating_list.referees.add(UserFactory(username="gor-referee"))
    oleh = MemberFactory(family_name="Bondar", given_name="Oleh", grade="2k", club=rivne)
    others = [MemberFactory(club=kyiv, grade=g) for g in ("1k", "3k", "4k")]
    day = dt.date.today() - dt.timedelta(days=3)
    table = TournamentFactory(name="Kyiv Autumn Cup", organiser=kyiv, status="draft",
                              start_date=day, end_date=day, rounds=1)  # fmt: skip
    ListTournament.objects.create(rating_list=rating_list, tournament=table)
    for member in (oleh, *others):
        ParticipantFactory(tournament=table, member=member)
    round_replace(tournament=table, round_number=1, by=None,
                  pairings=[Pairing(oleh, others[0], "white"),
                            Pairing(others[1], others[2], "black")])  # fmt: skip
    base, page = live_server.url, browser_page

    # --- kyiv's admin: Oleh is Rivne's, so the form only proposes
    log_in(page, base, "kyiv-admin", f"/manage/{table.pk}/players/")
    row = page.locator("#participants tr", has_text="Oleh Bondar")
    row.get_by_role("link", name="Identity").click()
    page.wait_for_url("**/identity/")
    assert "only propose" in page.locator("#identity-mode").inner_text()
    page.fill("#id_fide_id", "14109999")
    page.get_by_role("button", name="Propose").click()
    page.wait_for_url("**/players/")
    assert Member.objects.get(pk=oleh.pk).fide_id == ""  # nothing changes on a draft
    page.goto(f"{base}/manage/{table.pk}/")
    assert "14109999" in page.locator("#proposals").inner_text()
    page.locator("#submit-table").click()
    page.wait_for_load_state()
    log_out(page)

    # --- the list's referee sees the change, pending, and approves the table for his list
    log_in(page, base, "gor-referee", "/referee/")
    page.locator("#queue").get_by_role("link", name="Review").click()
    page.wait_for_url(f"**/referee/{table.pk}/")
    proposals = page.locator("#proposals")
    assert "Oleh Bondar" in proposals.inner_text() and "14109999" in proposals.inner_text()
    assert page.locator("#proposals-pending").is_visible()
    audit()
    screenshot("referee-sees-a-pending-proposal")
    page.locator("#decision-form").get_by_role("button", name="Approve").click()
    page.wait_for_load_state()
    assert Member.objects.get(pk=oleh.pk).fide_id == ""  # the approval is not who he is
    log_out(page)

    # --- Rivne's admin finds it in his inbox and accepts it
    log_in(page, base, "rivne-admin", "/")
    page.locator("#nav-proposals").click()
    page.wait_for_url("**/members/proposals/")
    row = page.locator("#inbox tr", has_text="Oleh Bondar")
    assert "14109999" in row.inner_text() and "kyiv-admin" in row.inner_text()
    screenshot("club-admin-inbox")
    row.get_by_role("button", name="Accept").click()
    page.wait_for_load_state()
    assert page.locator("#inbox-empty").is_visible()
    assert Member.objects.get(pk=oleh.pk).fide_id == "14109999"

    # --- the member's history: who proposed (kyiv-admin, in which table), who accepted
    page.goto(f"{base}/players/{oleh.pk}/")
    page.locator("#member-history-link").click()
    page.wait_for_url(f"**/players/{oleh.pk}/history/")
    history = page.locator("#member-history").inner_text()
    assert "14109999" in history and "Kyiv Autumn Cup" in history
    assert "proposed by kyiv-admin" in history and "accepted by rivne-admin" in history
    audit()
    screenshot("member-history")
