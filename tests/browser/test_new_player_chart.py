"""A new player's chart (one tournament): dates and ratings on both axes, not a lone dot on
an empty grid (issue 16, item 9)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import RatingEntry, RatingHistory
from tests.factories import MemberFactory, RatingListFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_one_tournament_chart_has_axes(live_server, browser_page, screenshot, audit):
    rating_list = RatingListFactory(name="Ukraine Go", slug="ukraine-go", system="egf")
    member = MemberFactory(family_name="Newcomer")
    tournament = TournamentFactory(status="approved", end_date=dt.date(2025, 3, 2))
    RatingHistory.objects.create(
        rating_list=rating_list, member=member, tournament=tournament, date=tournament.end_date,
        sequence=0, rating_in=1000, before=1000, after=1012, change=12, games_count=5,
    )  # fmt: skip
    RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1012, tournaments=1)
    page = browser_page
    page.goto(f"{live_server.url}/players/{member.pk}/")
    page.wait_for_function("() => window.Chart && Chart.getChart('rating-chart')")
    ticks = page.evaluate(
        "() => { const c = Chart.getChart('rating-chart');"
        " return [c.scales.x.ticks.length, c.scales.y.ticks.length, c.options.scales.y.title.display]; }"
    )
    audit()
    screenshot("new-player-chart")
    assert ticks[0] >= 2 and ticks[1] >= 3 and ticks[2] is True, ticks
