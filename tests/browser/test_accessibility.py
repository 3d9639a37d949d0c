"""Issue 55, finding 12 and the CSP half of finding 2: the site's pages as each role sees
them, in Chromium at 1366 px and 390 px: axe-core finds no violation and the console reports
no CSP refusal. Every page's findings are gathered before the test fails, so one run names
them all."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from ratings.models import PublishedList, RatingHistory
from tests.browser.audit import audit_page
from tests.factories import RatingListFactory
from tests.web.data import small_world
from tests.web.manage_data import FAST_HASHERS, build

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pages(world, setup) -> dict[str, list[str]]:  # noqa: ANN001
    player = world.players[0]
    row = RatingHistory.objects.filter(member=player).first()
    snapshot = PublishedList.objects.create(
        rating_list=world.rating_list, date=dt.date(2024, 6, 30)
    )
    chess = RatingListFactory(name="Ukraine chess", slug="ua-chess", system="orr")
    slug = world.rating_list.slug
    public = [
        "/",
        "/ratings/",
        f"/ratings/{slug}/",
        f"/ratings/{chess.slug}/",
        f"/ratings/{slug}/{snapshot.date.isoformat()}/",
        f"/players/{player.pk}/",
        f"/players/{player.pk}/breakdown/{row.pk}/",
        f"/players/{player.pk}/history/",
        "/tournaments/",
        f"/tournaments/{world.tournaments[0].pk}/",
        f"/clubs/{world.clubs[0].slug}/",
        "/calculator/?game=go&rating_a=2100&rating_b=2000&handicap=0",
        "/rating-systems/",
        "/rating-systems/egf/",
        "/accounts/login/",
        "/accounts/password_reset/",
        "/no-such-page/",
    ]
    # /manage/time-control/ is left out: a fragment the tournament form fetches, not a page.
    draft, submitted = setup.draft.pk, setup.submitted.pk
    return {
        "anonymous": public,
        "player": ["/me/", "/accounts/password_change/"],
        "admin": [
            "/manage/",
            "/manage/new/",
            "/manage/import/",
            f"/manage/{draft}/",
            f"/manage/{draft}/edit/",
            f"/manage/{draft}/players/",
            f"/manage/{draft}/rounds/1/",
            f"/manage/{draft}/players/{setup.players[1].pk}/identity/",
            f"/manage/{submitted}/",
        ],
        "referee": [
            "/referee/",
            f"/referee/{submitted}/",
            f"/ratings/{setup.rating_list.slug}/baseline/",
            f"/ratings/{setup.rating_list.slug}/",
        ],
        "staff": [f"/players/{setup.players[1].pk}/merge/?other={setup.players[2].pk}"],
    }


def _log_in(context, live_server, user) -> None:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def test_every_role_every_page_has_no_axe_or_csp_violation(
    live_server, chromium_browser, console_watch, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    world, setup = small_world(), build()
    pages = _pages(world, setup)
    failures, visited = [], 0
    for role, urls in pages.items():
        context = chromium_browser.new_context(viewport={"width": 1366, "height": 900})
        if role != "anonymous":
            _log_in(context, live_server, setup.user(role))
        page = context.new_page()
        console_watch.attach(page)
        for url in urls:
            page.goto(live_server.url + url)
            visited += 1
            try:
                audit_page(page, console_watch)
            except AssertionError as failure:
                failures.append(f"[{role}] {failure}")
                console_watch.reports.clear()
        context.close()
    assert visited == sum(len(urls) for urls in pages.values())
    assert not failures, "\n\n".join(failures)
