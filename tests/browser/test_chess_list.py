"""Issue 55, finding 11: a chess list shows no Grade column (grades are Go's kyu and dan, so
it was always empty); a Go list keeps it."""

from __future__ import annotations

import pytest

from ratings.models import RatingEntry
from tests.factories import MemberFactory, RatingListFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_chess_list_has_no_grade_column(live_server, browser_page, audit):
    chess = RatingListFactory(name="Chess", slug="chess", system="orr", game="chess")
    go = RatingListFactory(name="Go", slug="go", system="egf", game="go")
    for rating_list in (chess, go):
        member = MemberFactory(family_name=f"Player of {rating_list.name}", grade="2k")
        RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1600, games=5)
    page = browser_page
    page.goto(f"{live_server.url}/ratings/chess/")
    headers = page.locator("table.rating-table thead th")
    assert not headers.filter(has_text="Grade").first.is_visible()
    assert not page.locator("table.rating-table tbody td:nth-child(3)").first.is_visible()
    assert headers.filter(has_text="Rating").first.is_visible()
    audit()
    page.goto(f"{live_server.url}/ratings/go/")
    grade = page.locator("table.rating-table thead th").filter(has_text="Grade").first
    assert grade.is_visible()
