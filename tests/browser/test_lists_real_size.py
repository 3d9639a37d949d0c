"""The rating list at real size (several hundred players, tests/web/bulk.py), clicked
through as a visitor does: page 2, 3, last, per page, each filter, sort, with the players on
each page checked against the database; the same pages at a phone's 390 px; and no
Content-Security-Policy violation on the way (issue 16, items 1, 3, 5, 7, 8)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from clubsite.fields import parse_grade
from ratings.models import RatingEntry, RatingList
from ratings.selectors import active_q
from ratings.views.filters import today
from tests.web.bulk import make_bulk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 430
NAMES = "table.rating-table tbody tr td:nth-child(2) a"


@pytest.fixture
def bulk_list() -> RatingList:
    cache.clear()
    hero = make_bulk(players=PLAYERS, tournaments=2, seed=16)
    rating_list = RatingList.objects.get(slug="bulk-egf")
    rating_list.hero_pk = hero  # the player with a history
    return rating_list


def expected(
    rating_list: RatingList, *, order=("-rating",), everyone=False, **filters
) -> list[str]:  # noqa: ANN001
    entries = RatingEntry.objects.filter(rating_list=rating_list, rating__isnull=False, **filters)
    if not everyone:
        entries = entries.filter(active_q(today()))
    return [e.member.full_name for e in entries.select_related("member").order_by(*order, "pk")]


def shown(page) -> list[str]:  # noqa: ANN001
    return page.locator(NAMES).all_inner_texts()


def csp_violations(page) -> list[str]:  # noqa: ANN001
    found: list[str] = []
    page.on(
        "console",
        lambda m: found.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return found


def test_paging_per_page_filters_and_sort(live_server, browser_page, bulk_list, screenshot, audit):
    page = browser_page
    violations = csp_violations(page)
    everyone_active = expected(bulk_list)
    assert len(everyone_active) > 200  # more than one page at any page size but 200
    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    assert shown(page) == everyone_active[:50]

    page.locator(".pagination").get_by_role("link", name="2", exact=True).click()
    page.wait_for_url("**page=2**")
    assert shown(page) == everyone_active[50:100]
    page.get_by_role("link", name="next ›").click()
    page.wait_for_url("**page=3**")
    assert shown(page) == everyone_active[100:150]
    last = -(-len(everyone_active) // 50)
    page.locator(".pagination").get_by_role("link", name=str(last), exact=True).click()
    page.wait_for_url(f"**page={last}**")
    assert shown(page) == everyone_active[(last - 1) * 50 :]

    page.get_by_role("link", name="100", exact=True).click()
    page.wait_for_url("**per_page=100**")
    assert "page=" not in page.url.split("per_page")[0]
    assert shown(page) == everyone_active[:100]
    page.locator(".pagination").get_by_role("link", name="2", exact=True).click()
    assert shown(page) == everyone_active[100:200]
    audit()
    screenshot("bulk-list-per-page-100-page-2")

    # each filter, keeping the page size; then page 2 of the filtered list
    country = RatingEntry.objects.filter(rating_list=bulk_list).values_list(
        "member__country", flat=True
    )[0]
    page.goto(f"{live_server.url}/ratings/bulk-egf/?per_page=25")
    page.select_option("#id_country", country)
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(f"**country={country}**")
    by_country = expected(bulk_list, member__country=country)
    assert shown(page) == by_country[:25]
    audit()
    if len(by_country) > 25:
        page.locator(".pagination").get_by_role("link", name="2", exact=True).click()
        page.wait_for_url("**page=2**")
        assert "country=" + country in page.url and "per_page=25" in page.url
        assert shown(page) == by_country[25:50]

    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    page.select_option("#id_grade_min", "5k")
    page.select_option("#id_grade_max", "15k")  # either way round
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**grade_min=5k**")
    low, high = parse_grade("15k").rank, parse_grade("5k").rank
    assert shown(page) == expected(bulk_list, grade__gte=low, grade__lte=high)[:50]

    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    hidden = page.get_by_test_id("hidden-count").inner_text()
    everyone = expected(bulk_list, everyone=True)
    assert hidden.startswith(str(len(everyone) - len(everyone_active)))
    page.get_by_test_id("show-everyone").click()
    page.wait_for_url("**active=all**")
    assert shown(page) == everyone[:50]

    inactive = next(n for n in everyone if n not in set(everyone_active))
    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    page.fill("#id_q", inactive.split()[-1])
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**q=**")
    assert inactive in shown(page)
    assert (
        page.locator("table.rating-table tbody tr", has_text=inactive)
        .locator(".inactive-badge")
        .count()
        == 1
    )

    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    page.locator("table.rating-table thead").get_by_role("link", name="Name", exact=True).click()
    page.wait_for_url("**sort=name**")
    by_name = expected(bulk_list, order=("member__family_name", "member__given_name"))
    assert shown(page) == by_name[:50]
    page.locator(".pagination").get_by_role("link", name="3", exact=True).click()
    page.wait_for_url("**page=3**")
    assert "sort=name" in page.url
    assert shown(page) == by_name[100:150]
    assert violations == []


def _inside(page, selector: str) -> bool:  # noqa: ANN001
    """The first element matching `selector` lies wholly inside the viewport's width."""
    left, right, width = page.locator(selector).first.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, window.innerWidth]; }"
    )
    return left >= 0 and right <= width


def _no_sideways_scroll(page) -> bool:  # noqa: ANN001
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [360, 390])
def test_phone_list_and_profile(live_server, browser_page, bulk_list, screenshot, audit, width):
    page = browser_page
    violations = csp_violations(page)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/ratings/bulk-egf/")
    assert _no_sideways_scroll(page)
    for column in (1, 2, 6):  # rank, name, rating
        assert _inside(page, f"table.rating-table tbody tr td:nth-child({column})"), column
    audit()
    screenshot(f"phone-{width}-list")

    page.goto(f"{live_server.url}/players/{bulk_list.hero_pk}/")
    assert _no_sideways_scroll(page)
    for column in (5, 6, 7):  # before, after, change
        assert _inside(page, f"table.history-table tbody tr td:nth-child({column})"), column
    audit()
    screenshot(f"phone-{width}-profile")
    assert violations == []


def test_phone_tournament_and_results_entry(live_server, browser_page, audit, client, settings):
    """At 390 px the tournament page and the results form need no sideways scroll; each
    board's players, result and handicap are inside the viewport."""
    from tests.web.manage_data import FAST_HASHERS, build

    settings.PASSWORD_HASHERS = FAST_HASHERS
    setup = build()
    client.force_login(setup.user("admin"))
    page = browser_page
    violations = csp_violations(page)
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
          "url": live_server.url}]
    )  # fmt: skip
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_server.url}/tournaments/{setup.submitted.pk}/")
    assert _no_sideways_scroll(page)
    audit()
    page.goto(f"{live_server.url}/manage/{setup.draft.pk}/rounds/1/")
    assert page.locator("tr.board").count() >= 2
    assert _no_sideways_scroll(page)
    for cell in range(2, 7):  # white, black, game, result, handicap
        assert _inside(page, f"tr.board td:nth-child({cell}) :is(select, input)"), cell
    audit()
    assert violations == []
