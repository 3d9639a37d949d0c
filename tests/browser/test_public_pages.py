"""The public pages in a real browser: list, filter, profile with its chart, languages."""

from __future__ import annotations

import pytest

from tests.web.data import small_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CANVAS_INK = """(canvas) => {
  const ctx = canvas.getContext('2d');
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 3; i < data.length; i += 4) { if (data[i] !== 0) { ink++; } }
  return ink;
}"""


def test_list_filter_profile_chart_and_languages(live_server, browser_page, screenshot, audit):
    world = small_world()
    page = browser_page
    page.goto(live_server.url + "/")
    assert page.locator("h1").first.inner_text().startswith("Ratings for Go")
    audit()
    screenshot("home")

    page.get_by_role("link", name="Ukraine Go").first.click()
    rows = page.locator("table.rating-table tbody tr")
    assert rows.count() == 6
    audit()
    screenshot("rating-list")

    page.select_option("#id_country", "PL")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**country=PL**")
    assert rows.count() == 3

    player = world.players[1]
    page.get_by_role("link", name=player.full_name).click()
    page.wait_for_url(f"**/players/{player.pk}/")
    canvas = page.locator("#rating-chart")
    canvas.wait_for()
    page.wait_for_function("() => window.Chart && Chart.getChart('rating-chart')")
    assert canvas.evaluate(CANVAS_INK) > 500
    page.locator("a.breakdown-toggle").first.click()
    assert page.locator("tr.breakdown-row.open").count() == 1
    audit()
    screenshot("player")

    page.get_by_role("button", name="UK").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "uk"
    assert "Рейтинг-листи" in page.locator("nav").first.inner_text()
    audit()
    screenshot("player-uk")

    page.get_by_role("button", name="RU").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert "Рейтинг-листы" in page.locator("nav").first.inner_text()

    page.goto(live_server.url + f"/tournaments/{world.tournaments[0].pk}/")
    assert page.locator("table.crosstable tbody tr").count() == 6
    audit()
    screenshot("tournament-ru")

    page.goto(live_server.url + "/calculator/?game=go&rating_a=2100&rating_b=2000&handicap=0")
    assert page.locator("table.calculator-results tbody tr").count() == 3
    audit()
    screenshot("calculator-ru")
