"""A player's profile leads to the page that explains his rating system (issue 12)."""

from __future__ import annotations

import pytest

from tests.web.data import small_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_profile_links_to_the_rating_system_page(live_server, browser_page, screenshot, audit):
    world = small_world()
    page = browser_page
    page.goto(live_server.url + f"/players/{world.players[0].pk}/")
    page.locator(".card a.system-help-link").first.click()
    page.wait_for_url("**/rating-systems/egf/")
    assert page.locator("h1").first.inner_text().startswith("European Go Federation")
    assert page.get_by_role("heading", name="Worked example").is_visible()
    assert page.locator("table.system-example span.fig").count() > 10
    audit()
    screenshot("rating-system-egf")
