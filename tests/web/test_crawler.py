"""The crawler (issue 16, item 6): every URL pattern, as each role, with junk in each query
parameter: no 5xx, and every answer bounded in size and time. Runs with DEBUG off, as
production does.

URLs come from the URLconf itself, so a new view is crawled without being listed here;
its path parameters are filled from the fixture below (a pattern the fixture cannot fill
fails the test, so it must be added). The figures (URLs × roles × junk values, requests,
5xx) are recorded as a test property and printed in the run's summary.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from urllib.parse import quote

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from ratings.models import PublishedList, RatingHistory
from tests.web.data import small_world
from tests.web.manage_data import FAST_HASHERS, build

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "admin", "referee", "staff")
JUNK = ["²", "①", "¹", "١٢", "1" + "0" * 20, "-1", "0", "", "%00", "\x00", "x" * 3000, "<'\">"]
JUNK_ALONE = ["²", "1" + "0" * 20, "-1", "%00"]  # each parameter alone: the likeliest to break
PARAMS = (
    "page", "per_page", "sort", "q", "country", "club", "grade_min", "grade_max", "active",
    "vs", "year", "status", "game", "all", "limit", "offset", "next", "list", "round",
    "basic_time_minutes", "overtime_kind", "overtime_seconds", "overtime_moves",
    "tournament_class", "participant", "white", "black", "a", "b", "handicap", "rating_lists",
    "sex", "category", "rmax", "claim", "decision",
)  # fmt: skip
SKIPPED_PREFIXES = ("admin/",)  # Django's own admin; staff-only, tested by Django
MAX_BYTES = 2 * 1024 * 1024
MAX_SECONDS = 5.0


def url_patterns() -> list[tuple[str, str]]:
    """(route, name) of every pattern in the URLconf, prefixes joined."""

    def walk(patterns, prefix=""):  # noqa: ANN001, ANN202
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name

    return [
        (r, n) for r, n in walk(get_resolver().url_patterns) if not r.startswith(SKIPPED_PREFIXES)
    ]


def fill(route: str, name: str, values: dict) -> str:
    """The route with its parameters filled: `<int:pk>`, `(?P<slug>…)`, by name and parameter."""
    path = route.lstrip("^").rstrip("$")

    def value(match: re.Match) -> str:
        param = match.group("param")
        key = (name, param) if (name, param) in values else param
        if key not in values:
            raise AssertionError(f"the crawler cannot fill {param!r} in {route} ({name})")
        return str(values[key])

    path = re.sub(r"<(?:\w+:)?(?P<param>\w+)>", value, path)
    path = re.sub(r"\(\?P<(?P<param>\w+)>[^)]*\)", value, path)
    return "/" + path


def test_crawler(client, settings, world_for_crawling, record_property):
    assert not settings.DEBUG, "the crawler runs with DEBUG off, as production does"
    settings.PASSWORD_HASHERS = FAST_HASHERS
    setup, values = world_for_crawling
    urls = [fill(route, name, values) for route, name in url_patterns()]
    requests, failures, slowest, largest = 0, [], 0.0, 0
    client.raise_request_exception = False
    for role in ROLES:
        client.logout()
        if role != "anonymous":
            client.force_login(setup.user(role))
        for url in urls:
            queries = [{p: junk for p in PARAMS} for junk in JUNK]  # every parameter at once
            if role == "anonymous":  # and each parameter alone
                queries += [{p: junk} for p in PARAMS for junk in JUNK_ALONE]
            for query in queries:
                text = "&".join(f"{quote(k)}={quote(v, safe='%')}" for k, v in query.items())
                started = time.perf_counter()
                response = client.get(f"{url}?{text}")
                spent = time.perf_counter() - started
                requests += 1
                size = len(response.content) if not response.streaming else 0
                slowest, largest = max(slowest, spent), max(largest, size)
                if response.status_code >= 500 or size > MAX_BYTES or spent > MAX_SECONDS:
                    failures.append((role, url, text[:80], response.status_code, size, spent))
    summary = [
        f"{len(urls)} URLs × {len(ROLES)} roles × {len(JUNK)} junk values "
        f"(all {len(PARAMS)} parameters at once), + each parameter alone × {len(JUNK_ALONE)} "
        f"junk values for anonymous: "
        f"{requests} requests, 5xx or over the bounds = {len(failures)}",
        f"slowest {slowest:.2f} s (bound {MAX_SECONDS} s), largest {largest / 1024:.0f} kB "
        f"(bound {MAX_BYTES // 1024} kB), DEBUG={settings.DEBUG}",
    ]
    record_property("crawler_summary", summary)
    assert not failures, failures[:20]


@pytest.fixture
def world_for_crawling(db):
    world = small_world()
    setup = build()
    player = world.players[0]
    history = RatingHistory.objects.filter(member=player).first()
    snapshot = PublishedList.objects.create(
        rating_list=world.rating_list, date=dt.date(2024, 6, 30)
    )
    values = {
        "slug": world.rating_list.slug,
        ("club_detail", "slug"): world.clubs[0].slug,
        "date": snapshot.date.isoformat(),
        "pk": player.pk,
        "row": history.pk,
        ("tournament_detail", "pk"): world.tournaments[0].pk,
        ("api_tournament", "pk"): world.tournaments[0].pk,
        "number": 1,
        "code": "egf",
        "uidb64": "MQ",
        "token": "set-password",
        "member_pk": setup.players[1].pk,  # issue 14: a member's identity, from a draft
        "fmt": "egd",  # issue 56: the list for pairing programs
    }
    for name in ("manage_participants", "manage_round", "manage_submit", "manage_reopen",
                 "manage_tournament", "manage_tournament_edit", "manage_member_identity"):  # fmt: skip
        values[(name, "pk")] = setup.draft.pk
    for name in ("referee_review", "referee_decide", "recompute_status"):
        values[(name, "pk")] = setup.submitted.pk
    return setup, values
